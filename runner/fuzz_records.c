/*
 * fuzz_records.c - libFuzzer target: records_parse on any text, then
 * records_merge over three runs: the text before a form feed, the text
 * after it (the same text when there is none), and the first again.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "results.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

static int parse(const char *text, cJSON ***rows, size_t *nrows)
{
	char *err = NULL;
	int rc = records_parse(text, rows, nrows, &err);
	free(err);
	return rc;
}

static void drop(cJSON **rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Records text is a C string: what follows a NUL is never seen. */
	char *text = xstrndup((const char *)data, size);
	char *second = strchr(text, '\f');
	if (second)
		*second++ = '\0';
	cJSON **runs[3] = {NULL, NULL, NULL};
	size_t nrows[3] = {0, 0, 0};
	int ok = parse(text, &runs[0], &nrows[0]) == 0;
	for (size_t i = 0; i < nrows[0]; i++) {
		char *s = json_print(runs[0][i]);
		free(s);
	}
	ok &= parse(second ? second : text, &runs[1], &nrows[1]) == 0;
	ok &= parse(text, &runs[2], &nrows[2]) == 0;
	if (ok) {
		char *why = NULL;
		char *merged = records_merge(runs, nrows, 3, &why);
		free(merged);
		free(why);
	}
	for (int i = 0; i < 3; i++)
		drop(runs[i], nrows[i]);
	free(text);
	return 0;
}
