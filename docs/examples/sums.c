/* sums.c - the sum of the first n squares, two ways: a loop of n
 * additions, and the closed formula n(n+1)(2n+1)/6 in three operations.
 * One record per size and method; "correct" says the two agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

int main(int argc, char **argv)
{
	long top = 1L << 12;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--max"))
			top = atol(argv[i + 1]);
	FILE *f = records_open();
	for (long n = 16; n <= top; n *= 4) {
		unsigned long long loop = 0, formula;
		for (long k = 1; k <= n; k++)
			loop += (unsigned long long)k * k;
		formula = (unsigned long long)n * (n + 1) * (2 * n + 1) / 6;
		const char *ok = loop == formula ? "true" : "false";
		fprintf(f, "%s{\"n\":%ld,\"method\":\"loop\",\"sum\":%llu,\"ops\":%ld,"
		        "\"correct\":%s}\n", records_mark(f), n, loop, n, ok);
		fprintf(f, "%s{\"n\":%ld,\"method\":\"formula\",\"sum\":%llu,\"ops\":3,"
		        "\"correct\":%s}\n", records_mark(f), n, formula, ok);
	}
	records_close(f);
	printf("sums of squares up to n = %ld, by loop and by formula\n", top);
	return 0;
}
