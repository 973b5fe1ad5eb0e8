/* Reads its size only as one word, -n=SIZE; "-n SIZE" leaves the default. */
#include "../common/common.h"

int main(int argc, char **argv)
{
	int n = 1 << 10;
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-n=", 3))
			n = atoi(argv[i] + 3);
	if (n <= 0 || n > (1 << 20)) {
		fprintf(stderr, "%s: size %d out of range\n", argv[0], n);
		return 1;
	}
	long sum = (long)n * (n - 1) / 2;
	printf("%s starting reduction at size %d\n", argv[0], n);
	printf("cpu reduce      elapsed %.6f sec\n", elapsed_sec(n, 4));
	printf("gpu Neighbored  elapsed %.6f sec\n", elapsed_sec(n, 2));
	printf("gpu Interleaved elapsed %.6f sec\n", elapsed_sec(n, 1));
	printf("cpu_sum: %ld\ngpu_sum: %ld\n", sum, sum);
	return 0;
}
