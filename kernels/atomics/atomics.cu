/*
 * atomics.cu - atomics under contention, a one-pass reduction, and a float
 * sum whose result depends on the order of its additions.
 *
 * view=hist: a histogram of n random ints in [0, bins), cold.
 *   global      every thread atomicAdd(&hist[v], 1) in global memory: the
 *               atomics are done in L2, and equal bins queue there;
 *   warp_agg    the lanes of a warp holding the same bin find each other
 *               (__match_any_sync); the lowest adds the group's count;
 *   shared      each block counts in its own histogram in shared memory,
 *               then adds its non-zero bins to the global one.
 *
 * view=bins: hist_global alone, on --sweep-n ints, over --sweep-bins
 * (1 to 65536 by doubling), to show how the rate grows with the bins.
 *
 * view=reduce: the sum of n random ints in [-100, 100], cold. Every
 * hand-written variant loads like the reduction chapter's `best` (a grid of
 * SMs x resident blocks, int4 loads, four in flight per thread) and differs
 * in how the block partials are combined:
 *   two_pass    partials to memory, a second kernel adds them (`best`);
 *   last_block  one kernel: each block writes its partial, __threadfence(),
 *               then takes a ticket from a counter; the block holding the
 *               last ticket knows every partial is visible and adds them;
 *   atomic      each block atomicAdd()s its partial into the result;
 *   redux       last_block with each warp's sum from __reduce_add_sync
 *               (one REDUX instruction) instead of five shuffles;
 *   cg          last_block with cooperative groups: cg::reduce over a
 *               thread_block_tile<32>.
 * The largest sum has the reduction chapter's largest size, so that its
 * `best` and `cub` (experiment reduce) compare with these directly; a
 * small one shows what the second launch of two_pass costs.
 *
 * view=order: the sum of n floats in [0, 1), launched `launches` times.
 *   float_atomic      blocks atomicAdd their (deterministic) partials in
 *                     whatever order they finish: the rounding differs;
 *   float_last_block  the last block adds the partials in index order;
 *   cpu_sequential    one float accumulator on the CPU, in index order.
 * Each is compared with the sum in double precision.
 *
 *   atomics --n 67108864 --bins 1,32,1024,16384 --nsum 1048576,268435456
 *           --nfloat 16777216 --launches 64 --sweep-n 16777216
 *           --sweep-bins 1:65536:x2
 */
#include "lab.h"
#include "atomics/hist_global.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <set>

namespace cg = cooperative_groups;

#define THREADS 256
#define LOADS 4

/* ---- histogram -------------------------------------------------------- */

/* The lanes holding the same bin find each other; the lowest adds for all. */
__device__ void add_aggregated(unsigned *hist, int v)
{
	unsigned same = __match_any_sync(0xffffffffu, v);
	if (v >= 0 && threadIdx.x % 32 == __ffs(same) - 1)
		atomicAdd(&hist[v], (unsigned)__popc(same));
}

__global__ void hist_warp_agg(const int4 *in, long n4, unsigned *hist)
{
	long stride = (long)gridDim.x * blockDim.x;
	/* Whole warps go round the loop together, so every lane can vote. */
	for (long base = blockIdx.x * (long)blockDim.x; base < n4; base += stride) {
		long i = base + threadIdx.x;
		int4 v = i < n4 ? in[i] : make_int4(-1, -1, -1, -1);
		add_aggregated(hist, v.x);
		add_aggregated(hist, v.y);
		add_aggregated(hist, v.z);
		add_aggregated(hist, v.w);
	}
}

__global__ void hist_shared(const int4 *in, long n4, unsigned *hist, int bins)
{
	extern __shared__ unsigned s[];
	for (int b = threadIdx.x; b < bins; b += blockDim.x)
		s[b] = 0;
	__syncthreads();
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4;
	     i += (long)gridDim.x * blockDim.x) {
		int4 v = in[i];
		atomicAdd(&s[v.x], 1u);
		atomicAdd(&s[v.y], 1u);
		atomicAdd(&s[v.z], 1u);
		atomicAdd(&s[v.w], 1u);
	}
	__syncthreads();
	for (int b = threadIdx.x; b < bins; b += blockDim.x)
		if (s[b])
			atomicAdd(&hist[b], s[b]);
}

/* ---- reduction -------------------------------------------------------- */

enum Warp { SHFL, REDUX, CG };
enum Finish { TWO_PASS, LAST_BLOCK, ATOMIC };

template <Warp W> __device__ int warp_sum(int v)
{
	if constexpr (W == REDUX) {
		return __reduce_add_sync(0xffffffffu, v);
	} else if constexpr (W == CG) {
		cg::thread_block_tile<32> t =
		    cg::tiled_partition<32>(cg::this_thread_block());
		return cg::reduce(t, v, cg::plus<int>());
	} else {
		for (int o = 16; o > 0; o /= 2)
			v += __shfl_down_sync(0xffffffffu, v, o);
		return v;
	}
}

/* The block's sum, valid in thread 0. */
template <Warp W> __device__ int block_sum(int v)
{
	__shared__ int w[32];
	v = warp_sum<W>(v);
	if (threadIdx.x % 32 == 0)
		w[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0;
		v = warp_sum<W>(v);
	}
	__syncthreads();
	return v;
}

/* Sum of part[0..m) by one block, valid in thread 0. */
template <Warp W> __device__ int block_sum_of(const volatile int *part, int m)
{
	int v = 0;
	for (int i = threadIdx.x; i < m; i += blockDim.x)
		v += part[i];
	return block_sum<W>(v);
}

template <Warp W, Finish F>
__device__ void reduce(const int *__restrict__ in, long n, int *part,
                       unsigned *ticket, int *out)
{
	const int4 *in4 = (const int4 *)in;
	long n4 = n / 4, tile = THREADS * LOADS, tiles = n4 / tile;
	int v = 0;
	for (long t = blockIdx.x; t < tiles; t += gridDim.x) {
		const int4 *p = in4 + t * tile + threadIdx.x;
		int4 a[LOADS];
#pragma unroll
		for (int k = 0; k < LOADS; k++)
			a[k] = __ldg(p + k * THREADS);
#pragma unroll
		for (int k = 0; k < LOADS; k++)
			v += (a[k].x + a[k].y) + (a[k].z + a[k].w);
	}
	long first = (long)blockIdx.x * THREADS + threadIdx.x;
	for (long i = tiles * tile + first; i < n4; i += (long)gridDim.x * THREADS) {
		int4 a = __ldg(in4 + i);
		v += (a.x + a.y) + (a.z + a.w);
	}
	if (4 * n4 + first < n)
		v += in[4 * n4 + first];
	v = block_sum<W>(v);

	if (F == ATOMIC) {
		if (threadIdx.x == 0)
			atomicAdd(out, v);
		return;
	}
	__shared__ bool last;
	if (threadIdx.x == 0) {
		part[blockIdx.x] = v;
		if (F == LAST_BLOCK) {
			/* Make the partial visible to every block before taking a
			 * ticket: whoever draws the last one sees all partials. */
			__threadfence();
			last = atomicAdd(ticket, 1u) == gridDim.x - 1;
		}
	}
	if (F != LAST_BLOCK)
		return;
	__syncthreads();
	if (!last)
		return;
	v = block_sum_of<W>(part, gridDim.x);
	if (threadIdx.x == 0) {
		*out = v;
		*ticket = 0; /* ready for the next launch */
	}
}

/* One name per variant, for the profiler and the SASS listing. */
__global__ void __launch_bounds__(THREADS)
    sum_two_pass(const int *in, long n, int *part, unsigned *ticket, int *out)
{
	reduce<SHFL, TWO_PASS>(in, n, part, ticket, out);
}

__global__ void __launch_bounds__(THREADS)
    sum_last_block(const int *in, long n, int *part, unsigned *ticket, int *out)
{
	reduce<SHFL, LAST_BLOCK>(in, n, part, ticket, out);
}

__global__ void __launch_bounds__(THREADS)
    sum_atomic(const int *in, long n, int *part, unsigned *ticket, int *out)
{
	reduce<SHFL, ATOMIC>(in, n, part, ticket, out);
}

__global__ void __launch_bounds__(THREADS)
    sum_redux(const int *in, long n, int *part, unsigned *ticket, int *out)
{
	reduce<REDUX, LAST_BLOCK>(in, n, part, ticket, out);
}

__global__ void __launch_bounds__(THREADS)
    sum_cg(const int *in, long n, int *part, unsigned *ticket, int *out)
{
	reduce<CG, LAST_BLOCK>(in, n, part, ticket, out);
}

__global__ void finish(const int *part, int m, int *out)
{
	int v = block_sum_of<SHFL>(part, m);
	if (threadIdx.x == 0)
		*out = v;
}

/* ---- float sums ------------------------------------------------------- */

template <bool ATOMIC_ORDER>
__global__ void __launch_bounds__(THREADS)
    fsum(const float *in, long n, float *part, unsigned *ticket, float *out)
{
	float v = 0;
	for (long i = blockIdx.x * (long)THREADS + threadIdx.x; i < n;
	     i += (long)gridDim.x * THREADS)
		v += in[i];
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_down_sync(0xffffffffu, v, o);
	__shared__ float w[THREADS / 32];
	__shared__ bool last;
	if (threadIdx.x % 32 == 0)
		w[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x != 0)
		return;
	v = 0;
	for (int k = 0; k < THREADS / 32; k++)
		v += w[k];
	if (ATOMIC_ORDER) {
		atomicAdd(out, v);
		return;
	}
	part[blockIdx.x] = v;
	__threadfence();
	last = atomicAdd(ticket, 1u) == gridDim.x - 1;
	if (!last)
		return;
	float s = 0;
	for (unsigned b = 0; b < gridDim.x; b++)
		s += ((volatile float *)part)[b];
	*out = s;
	*ticket = 0;
}

/* ---- host ------------------------------------------------------------- */

static int resident_grid(const void *kernel, size_t smem)
{
	int per_sm = 0;
	LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
	                                                        THREADS, smem));
	return lab::device().sm_count * per_sm;
}

static void run_hist(long n, const std::vector<long> &bins_list)
{
	std::vector<int> h_in(n);
	int *in;
	unsigned *hist;
	long maxbins = *std::max_element(bins_list.begin(), bins_list.end());
	LAB_CHECK(cudaMalloc(&in, n * sizeof(int)));
	LAB_CHECK(cudaMalloc(&hist, maxbins * sizeof(unsigned)));
	const char *names[3] = {"global", "warp_agg", "shared"};
	printf("\nhistogram of %ld ints    G elem/s\n%-8s %-10s %-10s %-10s\n", n,
	       "bins", names[0], names[1], names[2]);
	for (long bins : bins_list) {
		lab::fill_int(h_in.data(), n, 30 + bins, 0, (int)bins - 1);
		std::vector<unsigned> ref(bins, 0), got(bins);
		for (long i = 0; i < n; i++)
			ref[h_in[i]]++;
		LAB_CHECK(cudaMemcpy(in, h_in.data(), n * sizeof(int),
		                     cudaMemcpyHostToDevice));
		size_t smem = bins * sizeof(unsigned);
		if (smem > 48 * 1024)
			LAB_CHECK(cudaFuncSetAttribute(
			    hist_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
			    (int)smem));
		printf("%-8ld", bins);
		for (int v = 0; v < 3; v++) {
			int grid = v == 0 ? resident_grid((void *)hist_global, 0)
			         : v == 1 ? resident_grid((void *)hist_warp_agg, 0)
			                  : resident_grid((void *)hist_shared, smem);
			auto job = [&] {
				LAB_CHECK(cudaMemsetAsync(hist, 0, bins * sizeof(unsigned)));
				const int4 *in4 = (const int4 *)in;
				if (v == 0)
					hist_global<<<grid, THREADS>>>(in4, n / 4, hist);
				else if (v == 1)
					hist_warp_agg<<<grid, THREADS>>>(in4, n / 4, hist);
				else
					hist_shared<<<grid, THREADS, smem>>>(in4, n / 4, hist,
					                                    (int)bins);
			};
			lab::poison(hist, bins * sizeof(unsigned));
			job();
			LAB_CHECK_LAUNCH();
			LAB_CHECK(cudaMemcpy(got.data(), hist, bins * sizeof(unsigned),
			                     cudaMemcpyDeviceToHost));
			bool ok = got == ref;
			lab::Stats st = lab::time(job, {.mode = lab::COLD});
			lab::Record()
			    .set("view", "hist")
			    .set("variant", names[v])
			    .set("bins", bins)
			    .set("n", n)
			    .set("blocks", grid)
			    .set("blocks_per_sm", grid / lab::device().sm_count)
			    .set("ms", st.median_ms)
			    .rate("gelems", n / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
			printf(" %-10.1f", n / 1e6 / st.median_ms);
			if (!ok)
				printf("WRONG ");
		}
		printf("\n");
	}
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(hist));
}

static void run_reduce(long n)
{
	std::vector<int> h_in(n);
	lab::fill_int(h_in.data(), n, 40, -100, 100);
	long long ref = 0;
	for (long i = 0; i < n; i++)
		ref += h_in[i];
	int *in, *part, *out;
	unsigned *ticket;
	LAB_CHECK(cudaMalloc(&in, n * sizeof(int)));
	LAB_CHECK(cudaMemcpy(in, h_in.data(), n * sizeof(int),
	                     cudaMemcpyHostToDevice));
	int grid = resident_grid((void *)sum_last_block, 0);
	LAB_CHECK(cudaMalloc(&part, grid * sizeof(int)));
	LAB_CHECK(cudaMalloc(&out, sizeof(int)));
	LAB_CHECK(cudaMalloc(&ticket, sizeof(unsigned)));
	LAB_CHECK(cudaMemset(ticket, 0, sizeof(unsigned)));

	const char *names[] = {"two_pass", "last_block", "atomic", "redux", "cg"};
	printf("\nsum of %ld ints, %d blocks of %d\n", n, grid, THREADS);
	for (int v = 0; v < 5; v++) {
		auto job = [&] {
			switch (v) {
			case 0:
				sum_two_pass<<<grid, THREADS>>>(in, n, part, ticket, out);
				finish<<<1, 1024>>>(part, grid, out);
				break;
			case 1:
				sum_last_block<<<grid, THREADS>>>(in, n, part, ticket, out);
				break;
			case 2:
				LAB_CHECK(cudaMemsetAsync(out, 0, sizeof(int)));
				sum_atomic<<<grid, THREADS>>>(in, n, part, ticket, out);
				break;
			case 3:
				sum_redux<<<grid, THREADS>>>(in, n, part, ticket, out);
				break;
			default:
				sum_cg<<<grid, THREADS>>>(in, n, part, ticket, out);
			}
		};
		lab::poison(out, sizeof(int));
		lab::poison(part, grid * sizeof(int));
		job();
		LAB_CHECK_LAUNCH();
		int got;
		LAB_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
		bool ok = got == (int)ref;
		lab::Stats st = lab::time(job, {.mode = lab::COLD});
		lab::Record()
		    .set("view", "reduce")
		    .set("variant", names[v])
		    .set("n", n)
		    .set("ms", st.median_ms)
		    .rate("gbps", n * sizeof(int) / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%-11s %8.4f ms %7.0f GB/s%s\n", names[v], st.median_ms,
		       n * 4.0 / 1e6 / st.median_ms, ok ? "" : "  WRONG");
	}
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(part));
	LAB_CHECK(cudaFree(out));
	LAB_CHECK(cudaFree(ticket));
}

static void emit_order(const char *variant, long n, int launches,
                       const std::vector<float> &sums, double ref)
{
	std::set<float> distinct(sums.begin(), sums.end());
	float lo = *distinct.begin(), hi = *distinct.rbegin();
	double worst = std::max(std::fabs(lo - ref), std::fabs(hi - ref)) / ref;
	lab::Record()
	    .set("view", "order")
	    .set("variant", variant)
	    .set("n", n)
	    .set("launches", launches)
	    .set("distinct", (long)distinct.size())
	    .set("lo", lo)
	    .set("hi", hi)
	    .set("ref", ref)
	    .set("rel_err", worst)
	    .set("correct", worst < 1e-4)
	    .emit();
	printf("%-17s %4d launches %4zu distinct  %.1f .. %.1f  (double %.1f)\n",
	       variant, launches, distinct.size(), lo, hi, ref);
}

static void run_order(long n, int launches)
{
	std::vector<float> h(n);
	lab::fill_uniform(h.data(), n, 50, 0, 1);
	double ref = 0;
	float seq = 0;
	for (long i = 0; i < n; i++) {
		ref += h[i];
		seq += h[i];
	}
	float *in, *part, *out;
	unsigned *ticket;
	int grid = resident_grid((void *)fsum<false>, 0);
	LAB_CHECK(cudaMalloc(&in, n * sizeof(float)));
	LAB_CHECK(cudaMalloc(&part, grid * sizeof(float)));
	LAB_CHECK(cudaMalloc(&out, sizeof(float)));
	LAB_CHECK(cudaMalloc(&ticket, sizeof(unsigned)));
	LAB_CHECK(cudaMemset(ticket, 0, sizeof(unsigned)));
	LAB_CHECK(cudaMemcpy(in, h.data(), n * sizeof(float),
	                     cudaMemcpyHostToDevice));
	printf("\nsum of %ld floats in [0, 1), %d blocks\n", n, grid);
	for (int atomic = 1; atomic >= 0; atomic--) {
		std::vector<float> sums;
		for (int l = 0; l < launches; l++) {
			lab::poison(out, sizeof(float));
			if (atomic) {
				LAB_CHECK(cudaMemset(out, 0, sizeof(float)));
				fsum<true><<<grid, THREADS>>>(in, n, part, ticket, out);
			} else {
				fsum<false><<<grid, THREADS>>>(in, n, part, ticket, out);
			}
			LAB_CHECK_LAUNCH();
			float s;
			LAB_CHECK(cudaMemcpy(&s, out, sizeof s, cudaMemcpyDeviceToHost));
			sums.push_back(s);
		}
		emit_order(atomic ? "float_atomic" : "float_last_block", n, launches,
		           sums, ref);
	}
	emit_order("cpu_sequential", n, 1, std::vector<float>(1, seq), ref);
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(part));
	LAB_CHECK(cudaFree(out));
	LAB_CHECK(cudaFree(ticket));
}

/* view=bins: hist_global alone over many bin counts, n ints each, cold. */
static void run_bins(long n, const std::vector<long> &bins_list)
{
	std::vector<int> h_in(n);
	int *in;
	unsigned *hist;
	long maxbins = *std::max_element(bins_list.begin(), bins_list.end());
	LAB_CHECK(cudaMalloc(&in, n * sizeof(int)));
	LAB_CHECK(cudaMalloc(&hist, maxbins * sizeof(unsigned)));
	int grid = resident_grid((void *)hist_global, 0);
	printf("\nglobal atomics, %ld ints\n%-8s %10s\n", n, "bins", "G elem/s");
	for (long bins : bins_list) {
		lab::fill_int(h_in.data(), n, 90 + bins, 0, (int)bins - 1);
		std::vector<unsigned> ref(bins, 0), got(bins);
		for (long i = 0; i < n; i++)
			ref[h_in[i]]++;
		LAB_CHECK(cudaMemcpy(in, h_in.data(), n * sizeof(int),
		                     cudaMemcpyHostToDevice));
		auto job = [&] {
			LAB_CHECK(cudaMemsetAsync(hist, 0, bins * sizeof(unsigned)));
			hist_global<<<grid, THREADS>>>((const int4 *)in, n / 4, hist);
		};
		lab::poison(hist, bins * sizeof(unsigned));
		job();
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(got.data(), hist, bins * sizeof(unsigned),
		                     cudaMemcpyDeviceToHost));
		bool ok = got == ref;
		lab::Stats st = lab::time(job, {.mode = lab::COLD, .budget_ms = 100});
		lab::Record()
		    .set("view", "bins")
		    .set("variant", "global")
		    .set("bins", bins)
		    .set("n", n)
		    .set("blocks", grid)
		    .set("ms", st.median_ms)
		    .rate("gelems", n / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%-8ld %10.2f%s\n", bins, n / 1e6 / st.median_ms,
		       ok ? "" : "  WRONG");
	}
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(hist));
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	long n = args.integer("--n", 67108864);
	std::vector<long> nsum = args.list("--nsum", "1048576,268435456");
	std::vector<long> bins = args.list("--bins", "1,32,1024,16384");
	int launches = (int)args.integer("--launches", 64);
	long nf = args.integer("--nfloat", 16777216);
	long nbins = args.integer("--sweep-n", 16777216);
	std::vector<long> sweep = args.list("--sweep-bins", "1:65536:x2");
	const lab::Device &dev = lab::device();
	printf("%s: %d SMs\n", dev.prop.name, dev.sm_count);
	if (n % 4) {
		fprintf(stderr, "--n: %ld is not a multiple of 4\n", n);
		return 2;
	}
	for (long b : bins)
		if (b < 1 || b * sizeof(unsigned) > dev.prop.sharedMemPerBlockOptin) {
			fprintf(stderr, "--bins: %ld does not fit in shared memory\n", b);
			return 2;
		}
	for (long b : sweep)
		if (b < 1 || b > (1L << 24)) {
			fprintf(stderr, "--sweep-bins: %ld is not in 1..2^24\n", b);
			return 2;
		}
	if (nbins % 4 || nbins < 4) {
		fprintf(stderr, "--sweep-n: %ld is not a positive multiple of 4\n",
		        nbins);
		return 2;
	}
	run_hist(n, bins);
	run_bins(nbins, sweep);
	for (long m : nsum)
		run_reduce(m);
	run_order(nf, launches);
	return 0;
}
