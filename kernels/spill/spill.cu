/*
 * spill.cu - a per-thread array in registers or in local memory.
 *
 * Every thread runs a W-tap FIR filter over its own stream of pseudo-random
 * samples, keeping the last W samples in a ring buffer buf[W]:
 *   dynamic   the ring position is a variable, so buf[(pos - k) % W] has an
 *             index the compiler cannot know: registers cannot be indexed,
 *             and the array goes to local memory (device memory, cached);
 *   unrolled  the loop over samples is unrolled W times, so the position
 *             is a constant in every copy of the body and buf lives in W
 *             registers.
 * Both compute the same sums in the same order; the samples come from a
 * per-thread xorshift generator, so memory traffic is one store per thread
 * and the difference is all in how buf is reached.
 *
 *   spill --window 4,8,16,32 --steps 2048
 */
#include "lab.h"

#define THREADS 256

__constant__ float c_taps[32];

__host__ __device__ inline unsigned xorshift(unsigned s)
{
	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

/* A sample in [0, 1), exact in float. */
__host__ __device__ inline float sample(unsigned s)
{
	return (float)(s >> 8) * (1.0f / 16777216.0f);
}

/* pos0 is 0 at run time; as a parameter it keeps the position unknown to
 * the compiler. */
template <int W>
__global__ void fir_dynamic(float *out, int steps, int pos0)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned s = 2654435761u * (tid + 1);
	float buf[W];
#pragma unroll
	for (int k = 0; k < W; k++)
		buf[k] = 0;
	float acc = 0;
	int pos = pos0;
	for (int j = 0; j < steps; j++) {
		s = xorshift(s);
		buf[pos] = sample(s);
		float y = 0;
#pragma unroll
		for (int k = 0; k < W; k++)
			y = fmaf(c_taps[k], buf[(pos - k) & (W - 1)], y);
		acc += y;
		pos = (pos + 1) & (W - 1);
	}
	out[tid] = acc;
}

/* steps must be a multiple of W. */
template <int W>
__global__ void fir_unrolled(float *out, int steps)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned s = 2654435761u * (tid + 1);
	float buf[W];
#pragma unroll
	for (int k = 0; k < W; k++)
		buf[k] = 0;
	float acc = 0;
	for (int j = 0; j < steps; j += W) {
#pragma unroll
		for (int pos = 0; pos < W; pos++) {
			s = xorshift(s);
			buf[pos] = sample(s);
			float y = 0;
#pragma unroll
			for (int k = 0; k < W; k++)
				y = fmaf(c_taps[k], buf[(pos - k) & (W - 1)], y);
			acc += y;
		}
	}
	out[tid] = acc;
}

static float reference(int tid, int steps, int w, const float *taps)
{
	unsigned s = 2654435761u * (tid + 1);
	float buf[32] = {0};
	float acc = 0;
	for (int j = 0; j < steps; j++) {
		int pos = j & (w - 1);
		s = xorshift(s);
		buf[pos] = sample(s);
		float y = 0;
		for (int k = 0; k < w; k++)
			y = std::fma(taps[k], buf[(pos - k) & (w - 1)], y);
		acc += y;
	}
	return acc;
}

struct Variant {
	const char *name;
	const void *fn;
	void (*launch)(int grid, float *out, int steps);
};

template <int W> static void launch_dynamic(int grid, float *out, int steps)
{
	fir_dynamic<W><<<grid, THREADS>>>(out, steps, 0);
}

template <int W> static void launch_unrolled(int grid, float *out, int steps)
{
	fir_unrolled<W><<<grid, THREADS>>>(out, steps);
}

template <int W> static void variants(std::vector<Variant> &v)
{
	v.clear();
	v.push_back({"dynamic", (const void *)fir_dynamic<W>, launch_dynamic<W>});
	v.push_back({"unrolled", (const void *)fir_unrolled<W>,
	             launch_unrolled<W>});
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> windows = args.list("--window", "4,8,16,32");
	int steps = (int)args.integer("--steps", 2048);
	int blocks = (int)args.integer("--blocks-per-sm", 16);
	const lab::Device &dev = lab::device();

	if (steps <= 0 || steps % 32) {
		fprintf(stderr, "--steps: must be a positive multiple of 32\n");
		return 2;
	}
	float taps[32];
	lab::fill_uniform(taps, 32, 7, -0.5f, 0.5f);
	LAB_CHECK(cudaMemcpyToSymbol(c_taps, taps, sizeof taps));

	int grid = blocks * dev.sm_count, nthreads = grid * THREADS;
	float *out;
	LAB_CHECK(cudaMalloc(&out, nthreads * sizeof(float)));
	std::vector<float> h(nthreads), first(nthreads);

	printf("%s: %d threads, %d samples each\n", dev.prop.name, nthreads, steps);
	printf("%4s %-9s %6s %7s %9s %9s\n", "W", "variant", "regs", "local",
	       "ms", "GFLOP/s");
	for (long w : windows) {
		std::vector<Variant> vs;
		switch (w) {
		case 4: variants<4>(vs); break;
		case 8: variants<8>(vs); break;
		case 16: variants<16>(vs); break;
		case 32: variants<32>(vs); break;
		default:
			fprintf(stderr, "--window: %ld is not 4, 8, 16 or 32\n", w);
			return 2;
		}
		/* One thread in 1009 against the CPU, every thread between variants. */
		std::vector<int> sample_tid;
		std::vector<float> ref;
		for (int t = 0; t < nthreads; t += 1009) {
			sample_tid.push_back(t);
			ref.push_back(reference(t, steps, (int)w, taps));
		}
		bool first_ok = false;
		for (size_t vi = 0; vi < vs.size(); vi++) {
			const Variant &v = vs[vi];
			cudaFuncAttributes fa;
			LAB_CHECK(cudaFuncGetAttributes(&fa, v.fn));

			lab::poison(out, nthreads * sizeof(float));
			v.launch(grid, out, steps);
			LAB_CHECK_LAUNCH();
			LAB_CHECK(cudaMemcpy(h.data(), out, nthreads * sizeof(float),
			                     cudaMemcpyDeviceToHost));
			bool ok = true;
			for (size_t i = 0; i < sample_tid.size(); i++)
				if (!(std::fabs(h[sample_tid[i]] - ref[i]) <=
				      1e-5 * std::max(1.0f, std::fabs(ref[i]))))
					ok = false;
			if (vi == 0) {
				first = h;
				first_ok = ok;
			} else if (first_ok && memcmp(first.data(), h.data(),
			                              nthreads * sizeof(float))) {
				ok = false;
			}

			lab::Stats st = lab::time([&] { v.launch(grid, out, steps); });
			double flops = 2.0 * w * steps * (double)nthreads;
			printf("%4ld %-9s %6d %7zu %9.3f %9.0f%s\n", w, v.name,
			       fa.numRegs, fa.localSizeBytes, st.median_ms,
			       flops / 1e6 / st.median_ms, ok ? "" : "  WRONG");
			lab::Record()
			    .set("variant", v.name)
			    .set("window", w)
			    .set("regs", fa.numRegs)
			    .set("local_bytes", fa.localSizeBytes)
			    .set("ms", st.median_ms)
			    .rate("gflops", flops / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
		}
	}
	LAB_CHECK(cudaFree(out));
	return 0;
}
