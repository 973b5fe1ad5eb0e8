/* The host side: a positional size, then the kernel of transpose_kernel.c. */
#include "common.h"

double transpose_cost(int n);

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256;
	double ms = transpose_cost(n) * 1e3;
	printf("%s %d x %d: %.3f ms, %.1f MB/s\n", argv[0], n, n, ms,
	       2.0 * n * n * sizeof(float) / (ms * 1e-3) / 1e6);
	return 0;
}
