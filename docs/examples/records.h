/* records.h - where a C example writes its records: the file labbook
 * names in $LAB_RECORDS, one JSON object per line; run by hand, without
 * it, standard output, each line marked "record: ". */
#ifndef RECORDS_H
#define RECORDS_H

#include <stdio.h>
#include <stdlib.h>

static FILE *records_open(void)
{
	const char *path = getenv("LAB_RECORDS");
	FILE *f = path ? fopen(path, "a") : stdout;
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void records_close(FILE *f)
{
	if (f != stdout && fclose(f) != 0) {
		perror("records");
		exit(1);
	}
}

/* The prefix of a record line: none in the records file. */
static const char *records_mark(FILE *f)
{
	return f == stdout ? "record: " : "";
}

#endif
