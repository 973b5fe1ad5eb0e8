/*
 * banks.cu - shared-memory bank conflicts, timed hot (nothing here touches
 * DRAM inside the loop).
 *
 * Shared memory is split into 32 banks of 4-byte words; word w lives in
 * bank w % 32. A warp's load is served in one pass when its 32 addresses
 * fall in 32 different banks (or share words); when k distinct words share
 * a bank it takes k passes, a k-way conflict.
 *
 *   sweep   lane l reads word l x stride (+ 32 k for k < 32, which keeps
 *           the bank); the conflict is gcd(stride, 32)-way;
 *   tile    a 32 x 32 tile of words: reading a row (lane l reads column l)
 *           is conflict-free, reading a column of tile[32][32] (lane l
 *           reads row l) is a 32-way conflict, and the same column of a
 *           padded tile[32][33] is conflict-free again.
 *
 * Every block loads its shared words from a random input, then each warp
 * repeats its reads `iters` times and sums them; the sums are checked
 * against the CPU. The loads go through a volatile pointer so that the
 * compiler performs each one on every iteration instead of keeping the
 * values in registers: here we want the loads, not their values.
 *
 * Besides milliseconds, each point reports clk_per_load: SM clock cycles
 * per warp-wide shared load, per SM. One pass per clock is the ideal.
 *
 *   banks --strides 1:32:1 --iters 512
 */
#include "lab.h"

#define WORDS 4096 /* shared words per block in the sweep: 16 KB */
#define UNROLL 32

__global__ void sweep(const unsigned *in, unsigned *out, int stride,
                      int iters)
{
	__shared__ unsigned s[WORDS];
	for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
		s[i] = in[i];
	__syncthreads();
	int lane = threadIdx.x % 32;
	volatile unsigned *p = s + lane * stride;
	unsigned sum = 0;
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int k = 0; k < UNROLL; k++)
			sum += p[32 * k];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/* W = 32: a plain tile; W = 33: one padding word per row. */
template <int W, bool COLUMNS>
__global__ void tile(const unsigned *in, unsigned *out, int iters)
{
	__shared__ unsigned t[32][W];
	for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
		t[i / 32][i % 32] = in[i];
	__syncthreads();
	int lane = threadIdx.x % 32;
	/* Row reads: lane l walks down column l, t[c][l] for c < 32.
	 * Column reads: lane l walks along row l, t[l][c]. */
	volatile unsigned *p = COLUMNS ? &t[lane][0] : &t[0][lane];
	const int step = COLUMNS ? 1 : W;
	unsigned sum = 0;
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int c = 0; c < 32; c++)
			sum += p[c * step];
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

struct Setup {
	int blocks, threads, iters;
	unsigned *in, *out;
	std::vector<unsigned> h_in;
};

/* Every thread of lane l must hold ref[l]. */
static bool check(const Setup &s, const std::vector<unsigned> &ref)
{
	size_t n = (size_t)s.blocks * s.threads;
	std::vector<unsigned> got(n);
	LAB_CHECK(cudaMemcpy(got.data(), s.out, n * sizeof(unsigned),
	                     cudaMemcpyDeviceToHost));
	for (size_t i = 0; i < n; i++)
		if (got[i] != ref[i % 32])
			return false;
	return true;
}

static void emit(const Setup &s, const char *variant, int stride, int ways,
                 const lab::Stats &st, bool ok)
{
	const lab::Device &dev = lab::device();
	/* Warp-wide loads per SM: blocks are spread evenly over the SMs. */
	double loads = (double)s.blocks * (s.threads / 32) * s.iters * 32 /
	               dev.sm_count;
	double clk = st.median_ms * 1e-3 * st.clock_mhz * 1e6 / loads;
	lab::Record()
	    .set("variant", variant)
	    .set("stride", stride)
	    .set("conflict_ways", ways)
	    .set("ms", st.median_ms)
	    .set("clk_per_load", clk)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	printf("%-14s %6d %5d  %8.3f  %6.2f%s\n", variant, stride, ways,
	       st.median_ms, clk, ok ? "" : "  WRONG");
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> strides = args.list("--strides", "1:32:1");
	const lab::Device &dev = lab::device();

	Setup s;
	s.threads = 256;
	s.blocks = 8 * dev.sm_count;
	s.iters = (int)args.integer("--iters", 512);
	s.h_in.resize(WORDS);
	lab::fill_int((int *)s.h_in.data(), WORDS, 10, 0, 1 << 20);
	LAB_CHECK(cudaMalloc(&s.in, WORDS * sizeof(unsigned)));
	LAB_CHECK(cudaMalloc(&s.out, (size_t)s.blocks * s.threads *
	                                 sizeof(unsigned)));
	LAB_CHECK(cudaMemcpy(s.in, s.h_in.data(), WORDS * sizeof(unsigned),
	                     cudaMemcpyHostToDevice));

	printf("%s: %d blocks of %d threads, %d x %d loads per warp\n",
	       dev.prop.name, s.blocks, s.threads, s.iters, UNROLL);
	printf("variant        stride  ways        ms  clk/load\n");
	for (long st_ : strides) {
		int stride = (int)st_;
		if (stride < 1 || 31 * stride + 32 * (UNROLL - 1) >= WORDS) {
			fprintf(stderr, "--strides: %d is out of range\n", stride);
			return 2;
		}
		std::vector<unsigned> ref(32);
		for (int l = 0; l < 32; l++) {
			unsigned r = 0;
			for (int k = 0; k < UNROLL; k++)
				r += s.h_in[l * stride + 32 * k];
			ref[l] = r * (unsigned)s.iters;
		}
		lab::poison(s.out, (size_t)s.blocks * s.threads * sizeof(unsigned));
		lab::Stats st = lab::time([&] {
			sweep<<<s.blocks, s.threads>>>(s.in, s.out, stride, s.iters);
		});
		emit(s, "sweep", stride, gcd(stride, 32), st, check(s, ref));
	}

	/* The tile: its input is the first 32 x 32 words of the same data. */
	struct {
		const char *name;
		int stride, ways;
	} tiles[] = {{"row", 1, 1}, {"column", 32, 32}, {"column_padded", 33, 1}};
	for (auto &v : tiles) {
		bool columns = v.stride != 1;
		std::vector<unsigned> ref(32);
		for (int l = 0; l < 32; l++) {
			unsigned r = 0;
			for (int c = 0; c < 32; c++)
				r += columns ? s.h_in[l * 32 + c] : s.h_in[c * 32 + l];
			ref[l] = r * (unsigned)s.iters;
		}
		lab::poison(s.out, (size_t)s.blocks * s.threads * sizeof(unsigned));
		lab::Stats st = lab::time([&] {
			if (v.stride == 1)
				tile<32, false><<<s.blocks, s.threads>>>(s.in, s.out,
				                                         s.iters);
			else if (v.stride == 32)
				tile<32, true><<<s.blocks, s.threads>>>(s.in, s.out,
				                                        s.iters);
			else
				tile<33, true><<<s.blocks, s.threads>>>(s.in, s.out,
				                                        s.iters);
		});
		emit(s, v.name, v.stride, v.ways, st, check(s, ref));
	}

	LAB_CHECK(cudaFree(s.in));
	LAB_CHECK(cudaFree(s.out));
	return 0;
}
