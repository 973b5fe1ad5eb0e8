/* buffer.c - a course program as it was handed out: it takes its size
 * as -n=SIZE and prints what it did as text. */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

int main(int argc, char **argv)
{
	long n = arg_size(argc, argv, 1024);
	float *a = calloc((size_t)n, sizeof *a);
	if (!a)
		return 1;
	double total = 0;
	for (long i = 0; i < n; i++) {
		a[i] = 0.5f;
		total += a[i];
	}
	printf("buffer of %ld floats: %g KiB\n", n, n * sizeof *a / 1024.0);
	printf("total %.1f\n", total);
	free(a);
	return 0;
}
