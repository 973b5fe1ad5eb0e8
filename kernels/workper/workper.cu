/*
 * workper.cu - elements per thread in a memory-bound kernel.
 *
 * z = a * x + y over n floats, each thread handling P elements that lie a
 * block apart (so every load of a warp stays coalesced). The block size is
 * a compile-time constant, so the P addresses of a thread differ from the
 * first by constants the compiler folds into the load and store
 * instructions: more work per thread shares one index computation, keeps
 * more loads in flight per thread and needs more registers. Two views:
 * dram (n large, L2 flushed before every launch) and l2 (the three arrays
 * fit in half the L2 and stay there between launches).
 *
 *   workper --per-thread 1,2,4,8,16 --n 67108864
 */
#include "lab.h"

#define THREADS 256

template <int P>
__global__ void saxpy(const float *__restrict__ x, const float *__restrict__ y,
                      float *__restrict__ z, float a)
{
	size_t i = (size_t)blockIdx.x * THREADS * P + threadIdx.x;
	float xv[P], yv[P];
#pragma unroll
	for (int k = 0; k < P; k++) {
		xv[k] = x[i + k * THREADS];
		yv[k] = y[i + k * THREADS];
	}
#pragma unroll
	for (int k = 0; k < P; k++)
		z[i + k * THREADS] = fmaf(a, xv[k], yv[k]);
}

typedef void (*KernelFn)(const float *, const float *, float *, float);

static KernelFn kernel_for(long p)
{
	switch (p) {
	case 1: return saxpy<1>;
	case 2: return saxpy<2>;
	case 4: return saxpy<4>;
	case 8: return saxpy<8>;
	case 16: return saxpy<16>;
	}
	return nullptr;
}

static void run(const char *view, size_t n, const std::vector<long> &pers,
                const float *x, const float *y, float *z,
                const std::vector<float> &ref)
{
	const float a = 1.5f;
	size_t bytes = n * sizeof(float);
	std::vector<float> hz(n);
	for (long p : pers) {
		KernelFn fn = kernel_for(p);
		cudaFuncAttributes fa;
		LAB_CHECK(cudaFuncGetAttributes(&fa, fn));
		int grid = (int)(n / (THREADS * p));

		lab::poison(z, bytes);
		fn<<<grid, THREADS>>>(x, y, z, a);
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(hz.data(), z, bytes, cudaMemcpyDeviceToHost));
		bool ok = lab::check_close(hz.data(), ref.data(), n, 1e-6);

		lab::TimeOpts o;
		o.mode = strcmp(view, "dram") ? lab::HOT : lab::COLD;
		o.batch = strcmp(view, "dram") ? 20 : 1;
		lab::Stats st = lab::time([&] { fn<<<grid, THREADS>>>(x, y, z, a); },
		                          o);
		printf("%-5s %4ld %7d %10.4f %9.1f%s\n", view, p, fa.numRegs,
		       st.median_ms, 3.0 * bytes / 1e6 / st.median_ms,
		       ok ? "" : "  WRONG");
		lab::Record()
		    .set("view", view)
		    .set("n", n)
		    .set("per_thread", p)
		    .set("regs", fa.numRegs)
		    .set("grid", grid)
		    .set("ms", st.median_ms)
		    .rate("gbps", 3.0 * bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
	}
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> pers = args.list("--per-thread", "1,2,4,8,16");
	size_t n = (size_t)args.integer("--n", 64l << 20);
	const lab::Device &dev = lab::device();

	long pmax = 1;
	for (long p : pers) {
		if (!kernel_for(p)) {
			fprintf(stderr, "--per-thread: %ld is not 1, 2, 4, 8 or 16\n", p);
			return 2;
		}
		pmax = std::max(pmax, p);
	}
	/* Sizes are whole blocks for every P; the l2 view fills half the L2. */
	size_t unit = THREADS * pmax;
	n = n / unit * unit;
	size_t n_l2 = (size_t)dev.l2_bytes / 2 / (3 * sizeof(float)) / unit * unit;
	if (n == 0 || n_l2 == 0) {
		fprintf(stderr, "--n: too small for %ld elements per thread\n", pmax);
		return 2;
	}

	std::vector<float> hx(n), hy(n), ref(n);
	lab::fill_uniform(hx.data(), n, 5);
	lab::fill_uniform(hy.data(), n, 6);
	for (size_t i = 0; i < n; i++)
		ref[i] = std::fma(1.5f, hx[i], hy[i]);
	float *x, *y, *z;
	LAB_CHECK(cudaMalloc(&x, n * sizeof(float)));
	LAB_CHECK(cudaMalloc(&y, n * sizeof(float)));
	LAB_CHECK(cudaMalloc(&z, n * sizeof(float)));
	LAB_CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float),
	                     cudaMemcpyHostToDevice));
	LAB_CHECK(cudaMemcpy(y, hy.data(), n * sizeof(float),
	                     cudaMemcpyHostToDevice));

	printf("%s: dram view %zu floats (%.0f MB moved), l2 view %zu floats "
	       "(%.1f MB)\n", dev.prop.name, n, 3.0 * n * 4 / 1e6, n_l2,
	       3.0 * n_l2 * 4 / 1e6);
	printf("%-5s %4s %7s %10s %9s\n", "view", "P", "regs", "ms", "GB/s");
	run("dram", n, pers, x, y, z, ref);
	/* The l2 view uses the first n_l2 elements of the same arrays. */
	std::vector<float> ref_l2(ref.begin(), ref.begin() + std::min(n, n_l2));
	run("l2", std::min(n, n_l2), pers, x, y, z, ref_l2);

	LAB_CHECK(cudaFree(x));
	LAB_CHECK(cudaFree(y));
	LAB_CHECK(cudaFree(z));
	return 0;
}
