/*
 * divergence.cu - what a branch costs when a warp splits on it.
 *
 * Every thread runs one of up to four "paths": a long chain of dependent
 * xorshift steps (x ^= x << a; x ^= x >> b; x ^= x << c), each path with
 * its own shifts, so every path is real work of the same length and the
 * compiler can neither fold a chain into fewer steps nor merge two paths.
 * Which path a thread takes is decided
 *
 *   evenodd   by i % 2               two paths inside every warp
 *   aligned   by (i / warpSize) % 2  two paths, but each warp takes one
 *   mod4      by i % 4               four paths inside every warp
 *   aligned4  by (i / warpSize) % 4  four paths, one per warp
 *   select    by i % 2, but the branch sits inside the loop and only picks
 *             the shift amounts: the compiler turns it into selects (and
 *             hoists them), so no warp ever splits
 *
 * The answer is checked exactly: a xorshift step is linear over bits
 * (GF(2)), so `iters` steps compose, on the CPU, into one 32 x 32 bit
 * matrix per path, kept as the images of the 32 one-bit inputs.
 *
 *   divergence --n 4194304 --iters 512
 */
#include "lab.h"

/* The shifts (a, b, c) of path p, from Marsaglia's xorshift triples. */
__host__ __device__ constexpr int shift(int p, int k)
{
	return p == 0 ? (k == 0 ? 13 : k == 1 ? 17 : 5)
	     : p == 1 ? (k == 0 ? 5 : k == 1 ? 17 : 13)
	     : p == 2 ? (k == 0 ? 6 : k == 1 ? 21 : 7)
	              : (k == 0 ? 3 : k == 1 ? 13 : 7);
}

__host__ __device__ inline unsigned xorshift(unsigned x, int a, int b, int c)
{
	x ^= x << a;
	x ^= x >> b;
	x ^= x << c;
	return x;
}

template <int P> __device__ unsigned chain(unsigned x, int iters)
{
	for (int k = 0; k < iters; k++)
		x = xorshift(x, shift(P, 0), shift(P, 1), shift(P, 2));
	return x;
}

__device__ unsigned run_path(int p, unsigned x, int iters)
{
	switch (p) {
	case 0: return chain<0>(x, iters);
	case 1: return chain<1>(x, iters);
	case 2: return chain<2>(x, iters);
	default: return chain<3>(x, iters);
	}
}

/* The path is i % WAYS (lanes of a warp differ) or warp % WAYS. Both
 * are template parameters, so each variant is a kernel of its own name,
 * which is how the profiler's records tell them apart. */
template <bool BY_WARP, int WAYS>
__global__ void split(const unsigned *in, unsigned *out, int n, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int key = BY_WARP ? i / warpSize : i;
	out[i] = run_path(key % WAYS, in[i], iters);
}

/* Even/odd again, but the branch only chooses the shifts. */
__global__ void select2(const unsigned *in, unsigned *out, int n, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	bool even = i % 2 == 0;
	unsigned x = in[i];
	for (int k = 0; k < iters; k++) {
		int a, b, c;
		if (even) {
			a = shift(0, 0), b = shift(0, 1), c = shift(0, 2);
		} else {
			a = shift(1, 0), b = shift(1, 1), c = shift(1, 2);
		}
		x = xorshift(x, a, b, c);
	}
	out[i] = x;
}

/* M x over GF(2), M given by the images col[j] of the one-bit inputs. */
static unsigned apply(const unsigned *col, unsigned x)
{
	unsigned y = 0;
	for (int j = 0; j < 32; j++)
		y ^= col[j] & (0u - (x >> j & 1));
	return y;
}

struct Variant {
	const char *name;
	const char *split; /* "lanes", "warps" or "select" */
	int ways;
};

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> ns = args.list("--n", "4194304");
	int iters = (int)args.integer("--iters", 512);
	const lab::Device &dev = lab::device();
	const int warp = dev.prop.warpSize, threads = 256;

	/* The matrix of `iters` steps of path p: where each bit goes. */
	unsigned col[4][32];
	for (int p = 0; p < 4; p++)
		for (int j = 0; j < 32; j++) {
			unsigned x = 1u << j;
			for (int k = 0; k < iters; k++)
				x = xorshift(x, shift(p, 0), shift(p, 1), shift(p, 2));
			col[p][j] = x;
		}

	const Variant vars[] = {
	    {"aligned", "warps", 2}, {"evenodd", "lanes", 2},
	    {"aligned4", "warps", 4}, {"mod4", "lanes", 4},
	    {"select", "select", 2},
	};
	const int nv = sizeof vars / sizeof vars[0];
	printf("%s: %d dependent xorshift steps per thread\n\n",
	       dev.prop.name, iters);
	printf("%10s  %-9s  %4s  %9s  %6s  %s\n", "n", "kernel", "ways", "ms",
	       "x", "correct");

	for (long n : ns) {
		if (n <= 0 || n > (1l << 30)) {
			fprintf(stderr, "--n: %ld is out of range\n", n);
			return 2;
		}
		std::vector<unsigned> h_in(n), h_out(n);
		lab::Rng rng(3);
		for (long i = 0; i < n; i++)
			h_in[i] = (unsigned)(rng.next() >> 32);
		unsigned *in, *out;
		LAB_CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
		LAB_CHECK(cudaMalloc(&out, n * sizeof(unsigned)));
		LAB_CHECK(cudaMemcpy(in, h_in.data(), n * sizeof(unsigned),
		                     cudaMemcpyHostToDevice));
		int blocks = (int)((n + threads - 1) / threads);

		lab::Stats st[nv];
		bool ok[nv];
		for (int v = 0; v < nv; v++) {
			const Variant &var = vars[v];
			auto launch = [&] {
				bool lanes = !strcmp(var.split, "lanes");
				bool warps = !strcmp(var.split, "warps");
				if (lanes && var.ways == 2)
					split<false, 2><<<blocks, threads>>>(in, out, (int)n, iters);
				else if (lanes)
					split<false, 4><<<blocks, threads>>>(in, out, (int)n, iters);
				else if (warps && var.ways == 2)
					split<true, 2><<<blocks, threads>>>(in, out, (int)n, iters);
				else if (warps)
					split<true, 4><<<blocks, threads>>>(in, out, (int)n, iters);
				else
					select2<<<blocks, threads>>>(in, out, (int)n, iters);
			};
			lab::poison(out, n * sizeof(unsigned));
			st[v] = lab::time(launch);
			LAB_CHECK(cudaMemcpy(h_out.data(), out, n * sizeof(unsigned),
			                     cudaMemcpyDeviceToHost));
			ok[v] = true;
			for (long i = 0; i < n && ok[v]; i++) {
				long key = !strcmp(var.split, "warps") ? i / warp : i;
				int p = (int)(key % var.ways);
				ok[v] = h_out[i] == apply(col[p], h_in[i]);
			}
		}

		double base = st[0].median_ms;
		for (int v = 0; v < nv; v++) {
			lab::Record()
			    .set("kernel", vars[v].name)
			    .set("split", vars[v].split)
			    .set("ways", vars[v].ways)
			    .set("n", n)
			    .set("iters", iters)
			    .set("ms", st[v].median_ms)
			    .set("rel", st[v].median_ms / base)
			    .rate("gsteps", (double)n * iters / 1e9, st[v])
			    .set("correct", ok[v])
			    .stats(st[v])
			    .emit();
			printf("%10ld  %-9s  %4d  %9.3f  %6.2f  %s\n", n, vars[v].name,
			       vars[v].ways, st[v].median_ms, st[v].median_ms / base,
			       ok[v] ? "yes" : "NO");
		}
		LAB_CHECK(cudaFree(in));
		LAB_CHECK(cudaFree(out));
	}
	return 0;
}
