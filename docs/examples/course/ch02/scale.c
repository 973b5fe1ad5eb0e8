/* scale.c - multiplies a vector by FACTOR, given with -DFACTOR=..., and
 * reports one number per line, the name on one line and its value on the
 * next. */
#include <stdio.h>
#include <stdlib.h>

void scale(float *x, long n);

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 8;
	float *x = malloc((size_t)n * sizeof *x);
	if (!x)
		return 1;
	for (long i = 0; i < n; i++)
		x[i] = 1.0f;
	scale(x, n);
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += x[i];
	printf("elements\n%ld\nsum\n%.0f\n", n, sum);
	free(x);
	return 0;
}
