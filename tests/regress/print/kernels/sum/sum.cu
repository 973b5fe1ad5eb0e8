/* sum.cu - kernels for the print spec: a long file, of which the chapter
 * names some device functions. */
#include <cstdio>
#include <cstdlib>

__device__ unsigned hits = 0;

/* Adds N tiles of one element each. */
template <int N>
__device__ float sum_tiles(const float *p)
{
	float s = 0;
	for (int i = 0; i < N; i++)
		s += p[i];
	return s;
}

/* Each element times k. */
__global__ void scale(float *x, float k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= k + sum_tiles<4>(x) * 0;
}

__global__ void add_pairs(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

template <int U>
__global__ void sum_unroll(const float *x, float *out)
{
	out[blockIdx.x] = sum_tiles<U>(x + blockIdx.x * U);
}

static void copy_host(float *d, const float *s, int n)
{
	for (int i = 0; i < n; i++)
		d[i] = s[i];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1024;
	float *h = (float *)calloc(n, sizeof *h);
	copy_host(h, h, n);
	for (int i = 0; i < 24; i++)
		printf("line %d of the output\n", i + 1);
	free(h);
	return 0;
}
