/* sums.c - the sum of the first n squares, two ways: a loop of n
 * additions, and the closed formula n(n+1)(2n+1)/6 in three operations.
 * The sizes are 16, 64, ... up to --max N (default 4096), or those that
 * the file named by --sizes FILE lists. One record per size and method;
 * "correct" says the two agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

int main(int argc, char **argv)
{
	long top = 1L << 12;
	const char *sizes = NULL;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--max"))
			top = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--sizes"))
			sizes = argv[i + 1];
	FILE *in = NULL;
	if (sizes && !(in = fopen(sizes, "r"))) {
		perror(sizes);
		return 1;
	}
	FILE *f = records_open();
	long n = 16;
	while (in ? fscanf(in, "%ld", &n) == 1 : n <= top) {
		unsigned long long loop = 0, formula;
		for (long k = 1; k <= n; k++)
			loop += (unsigned long long)k * k;
		formula = (unsigned long long)n * (n + 1) * (2 * n + 1) / 6;
		const char *ok = loop == formula ? "true" : "false";
		fprintf(f, "%s{\"n\":%ld,\"method\":\"loop\",\"sum\":%llu,\"ops\":%ld,"
		        "\"correct\":%s}\n", records_mark(f), n, loop, n, ok);
		fprintf(f, "%s{\"n\":%ld,\"method\":\"formula\",\"sum\":%llu,\"ops\":3,"
		        "\"correct\":%s}\n", records_mark(f), n, formula, ok);
		if (!in)
			n *= 4;
	}
	records_close(f);
	if (in) {
		fclose(in);
		printf("sums of squares for the sizes in %s, by loop and by formula\n",
		       sizes);
	} else {
		printf("sums of squares up to n = %ld, by loop and by formula\n", top);
	}
	return 0;
}
