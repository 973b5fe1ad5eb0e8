/*
 * regcliff.cu - trading registers for occupancy.
 *
 * One register-hungry kernel: every thread keeps N floats alive across a
 * long loop (each step nudges s[k] towards its neighbour s[k+1]), so it
 * wants about N registers plus a few. The same source is compiled in
 * several variants with __launch_bounds__(256, MINB): asking for MINB
 * resident blocks of 256 threads per SM caps the registers per thread at
 * about 65536 / (256 * MINB). Fewer registers let more warps in, but below
 * N the compiler must spill the array to local memory. The variant "plain"
 * has no launch bounds, so only -maxrregcount (a compiler flag that caps
 * every kernel in the file) can limit it.
 *
 *   regcliff --variants plain,1,2,3,4,5,6,8 --iters 256
 */
#include "lab.h"

#define N 64
#define THREADS 256

template <int MINB>
__global__ void __launch_bounds__(THREADS, MINB)
    hungry(const float *in, float *out, float a, int iters)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	int nthreads = gridDim.x * blockDim.x;
	float s[N];
#pragma unroll
	for (int k = 0; k < N; k++)
		s[k] = in[(size_t)k * nthreads + tid];
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int k = 0; k < N; k++)
			s[k] = fmaf(a, s[(k + 1) % N] - s[k], s[k]);
	}
	float sum = 0;
#pragma unroll
	for (int k = 0; k < N; k++)
		sum += s[k];
	out[tid] = sum;
}

/* The same kernel without launch bounds. */
__global__ void plain(const float *in, float *out, float a, int iters)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	int nthreads = gridDim.x * blockDim.x;
	float s[N];
#pragma unroll
	for (int k = 0; k < N; k++)
		s[k] = in[(size_t)k * nthreads + tid];
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int k = 0; k < N; k++)
			s[k] = fmaf(a, s[(k + 1) % N] - s[k], s[k]);
	}
	float sum = 0;
#pragma unroll
	for (int k = 0; k < N; k++)
		sum += s[k];
	out[tid] = sum;
}

/* The CPU reference for thread tid, in the kernel's order of operations. */
static float reference(const float *in, int tid, int nthreads, float a,
                       int iters)
{
	float s[N];
	for (int k = 0; k < N; k++)
		s[k] = in[(size_t)k * nthreads + tid];
	for (int it = 0; it < iters; it++)
		for (int k = 0; k < N; k++)
			s[k] = std::fma(a, s[(k + 1) % N] - s[k], s[k]);
	float sum = 0;
	for (int k = 0; k < N; k++)
		sum += s[k];
	return sum;
}

typedef void (*KernelFn)(const float *, float *, float, int);

static KernelFn variant_fn(long v)
{
	switch (v) {
	case 0: return plain;
	case 1: return hungry<1>;
	case 2: return hungry<2>;
	case 3: return hungry<3>;
	case 4: return hungry<4>;
	case 5: return hungry<5>;
	case 6: return hungry<6>;
	case 7: return hungry<7>;
	case 8: return hungry<8>;
	}
	return nullptr;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::string vlist = args.str("--variants", "plain,1,2,3,4,5,6,8");
	int iters = (int)args.integer("--iters", 256);
	int blocks = (int)args.integer("--blocks-per-sm", 32);
	const lab::Device &dev = lab::device();
	int max_warps = dev.prop.maxThreadsPerMultiProcessor / dev.prop.warpSize;

	/* "plain" is variant 0; a number is the MINB of __launch_bounds__. */
	std::vector<long> variants;
	size_t pos = 0;
	while (pos <= vlist.size()) {
		size_t comma = vlist.find(',', pos);
		if (comma == std::string::npos)
			comma = vlist.size();
		std::string v = vlist.substr(pos, comma - pos);
		pos = comma + 1;
		char *end = nullptr;
		long m = v == "plain" ? 0 : strtol(v.c_str(), &end, 10);
		if ((v != "plain" && (end == v.c_str() || *end || m == 0)) ||
		    !variant_fn(m)) {
			fprintf(stderr, "--variants: '%s' is not plain or 1..8\n",
			        v.c_str());
			return 2;
		}
		variants.push_back(m);
	}

	/* A fixed amount of work: the same grid for every variant. */
	int grid = blocks * dev.sm_count, nthreads = grid * THREADS;
	size_t nin = (size_t)N * nthreads;
	std::vector<float> hin(nin), hout(nthreads);
	lab::fill_uniform(hin.data(), nin, 4);
	float *in, *out;
	LAB_CHECK(cudaMalloc(&in, nin * sizeof(float)));
	LAB_CHECK(cudaMalloc(&out, nthreads * sizeof(float)));
	LAB_CHECK(cudaMemcpy(in, hin.data(), nin * sizeof(float),
	                     cudaMemcpyHostToDevice));
	const float a = 0.375f;

	/* Check one thread in every 251 against the CPU. */
	std::vector<int> sample;
	std::vector<float> ref;
	for (int t = 0; t < nthreads; t += 251) {
		sample.push_back(t);
		ref.push_back(reference(hin.data(), t, nthreads, a, iters));
	}

	printf("%s: %d blocks of %d threads, %d steps of %d values each\n",
	       dev.prop.name, grid, THREADS, iters, N);
	printf("%-8s %6s %7s %10s %10s %9s %9s\n", "variant", "regs", "local",
	       "blocks/SM", "occupancy", "ms", "GFLOP/s");
	for (long v : variants) {
		KernelFn fn = variant_fn(v);
		char name[16] = "plain";
		if (v)
			snprintf(name, sizeof name, "minb%ld", v);
		cudaFuncAttributes fa;
		LAB_CHECK(cudaFuncGetAttributes(&fa, fn));
		int per_sm;
		LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		    &per_sm, fn, THREADS, 0));
		double occ = (double)per_sm * (THREADS / 32) / max_warps;

		lab::poison(out, nthreads * sizeof(float));
		fn<<<grid, THREADS>>>(in, out, a, iters);
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(hout.data(), out, nthreads * sizeof(float),
		                     cudaMemcpyDeviceToHost));
		bool ok = true;
		for (size_t i = 0; i < sample.size(); i++) {
			float got = hout[sample[i]];
			if (!(std::fabs(got - ref[i]) <=
			      1e-5 * std::max(1.0f, std::fabs(ref[i]))))
				ok = false;
		}
		for (int t = 0; t < nthreads; t++)
			if (!std::isfinite(hout[t]))
				ok = false;

		lab::Stats st =
		    lab::time([&] { fn<<<grid, THREADS>>>(in, out, a, iters); });
		double flops = 3.0 * N * iters * (double)nthreads;
		printf("%-8s %6d %7zu %10d %9.1f%% %9.3f %9.0f%s\n", name,
		       fa.numRegs, fa.localSizeBytes, per_sm, occ * 100,
		       st.median_ms, flops / 1e6 / st.median_ms,
		       ok ? "" : "  WRONG");
		lab::Record()
		    .set("variant", name)
		    .set("min_blocks", (int)v)
		    .set("regs", fa.numRegs)
		    .set("local_bytes", fa.localSizeBytes)
		    .set("blocks_per_sm", per_sm)
		    .set("occupancy", occ)
		    .set("ms", st.median_ms)
		    .rate("gflops", flops / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
	}
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(out));
	return 0;
}
