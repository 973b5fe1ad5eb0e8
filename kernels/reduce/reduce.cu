/*
 * reduce.cu - parallel reduction: the sum of n ints, twelve ways.
 *
 * Every hand-written variant works in two passes, both on the device and
 * both inside the timed region: pass 1 leaves one partial sum per block in
 * part[], and pass 2, finish<<<1, 1024>>>, adds the partials into *out.
 * The variants differ only in pass 1, and each changes one thing:
 *
 *   neighbored      one element per thread into shared memory, then a tree
 *                   where thread t works when t % (2s) == 0: the active
 *                   threads are scattered over every warp (divergence), and
 *                   the % costs a dozen instructions per step.
 *   less_divergent  the same pairs, but thread t works on index 2st, so the
 *                   active threads are packed into the first warps; the
 *                   strided shared-memory index causes bank conflicts.
 *   interleaved     pairs s apart with s halving from blockDim/2: packed
 *                   threads and consecutive addresses (no conflicts).
 *   unroll2/4/8     each thread first adds 2, 4 or 8 elements one block
 *                   apart as it loads them: fewer blocks, fewer tree steps
 *                   per element, several independent loads in flight.
 *   unroll_warp     unroll8, and the last 32 partials are summed by warp 0
 *                   without __syncthreads(), with __syncwarp() between the
 *                   steps (the old volatile-only version is a race since
 *                   Volta; see the chapter).
 *   complete_unroll unroll_warp with the tree's loop written out, one
 *                   `if (blockDim.x >= ...)` per step.
 *   template        the same with the block size a template parameter, so
 *                   those tests and the dead steps vanish at compile time.
 *   shuffle         unroll8's loads, then __shfl_down_sync inside each warp
 *                   and one shared-memory slot per warp: no tree at all.
 *   best            a grid of SMs x resident blocks (occupancy API) strides
 *                   over the array with 16-byte int4 loads, four of them in
 *                   flight per thread, then reduces like shuffle.
 *   cub             cub::DeviceReduce::Sum, the library baseline.
 *
 * The input is random ints in [-100, 100]; every variant's sum is checked
 * exactly against a 64-bit CPU sum, with out and part poisoned first. Times
 * are cold (L2 flushed before every repetition).
 *
 * With --work K,..., the program instead runs `work`: best's loads and
 * sum, and for every int4 it loads, 4K extra FFMA instructions on a
 * register of each thread (a dependent chain that the sum never sees), so
 * the instructions per byte grow with K and the bytes do not: K extra
 * warp instructions per 32 ints. Each K is timed cold at the largest --n.
 *
 *   reduce --n 16384:268435456:x4 --block 512
 *   reduce --n 268435456 --work 0,4,8,16,32,64
 */
#include "lab.h"

#include <cub/cub.cuh>

enum {
	NEIGHBORED, LESS_DIVERGENT, INTERLEAVED, UNROLL2, UNROLL4, UNROLL8,
	UNROLL_WARP, COMPLETE_UNROLL, TEMPLATE, SHUFFLE, BEST, CUB, NVARIANTS
};
static const char *names[NVARIANTS] = {
	"neighbored", "less_divergent", "interleaved", "unroll2", "unroll4",
	"unroll8", "unroll_warp", "complete_unroll", "template", "shuffle",
	"best", "cub",
};

/* ---- shared pieces ---------------------------------------------------- */

/* Sum of in[i], in[i + stride], ... N elements, each guarded against n. */
template <int N>
__device__ int load_sum(const int *in, long n, long i, long stride)
{
	int a[N];
#pragma unroll
	for (int k = 0; k < N; k++)
		a[k] = i + k * stride < n ? in[i + k * stride] : 0;
	int v = 0;
#pragma unroll
	for (int k = 0; k < N; k++)
		v += a[k];
	return v;
}

/* Tree over sm[0..blockDim.x), stopping once `stop` partials are left. */
__device__ void tree(int *sm, unsigned tid, unsigned stop)
{
	for (unsigned s = blockDim.x / 2; s >= stop && s > 0; s >>= 1) {
		if (tid < s)
			sm[tid] += sm[tid + s];
		__syncthreads();
	}
}

/*
 * Warp 0 adds sm[0..64) without __syncthreads(). Each lane reads its
 * neighbour's slot and then overwrites its own, so the reads of one step
 * and the writes of the next must be ordered across lanes: __syncwarp()
 * does that (and is a memory fence for the warp). Returns the sum in lane 0.
 */
__device__ int last_warp(int *sm, unsigned tid)
{
	int v = sm[tid] + sm[tid + 32];
#pragma unroll
	for (int off = 16; off > 0; off >>= 1) {
		__syncwarp();
		sm[tid] = v;
		__syncwarp();
		v += sm[tid + off];
	}
	return v;
}

__device__ int warp_sum(int v)
{
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

/* Sum of v over the block, in thread 0: shuffles, one slot per warp. */
__device__ int block_sum(int v)
{
	__shared__ int warps[32];
	unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
	v = warp_sum(v);
	if (lane == 0)
		warps[w] = v;
	__syncthreads();
	v = 0;
	if (w == 0) {
		v = lane < blockDim.x / 32 ? warps[lane] : 0;
		v = warp_sum(v);
	}
	return v;
}

/* Pass 2 for every hand-written variant: one block adds m partials. */
__global__ void finish(const int *part, long m, int *out)
{
	const int4 *p4 = (const int4 *)part;
	long m4 = m / 4;
	int v = 0;
#pragma unroll 8
	for (long i = threadIdx.x; i < m4; i += blockDim.x) {
		int4 a = p4[i];
		v += (a.x + a.y) + (a.z + a.w);
	}
	for (long i = 4 * m4 + threadIdx.x; i < m; i += blockDim.x)
		v += part[i];
	v = block_sum(v);
	if (threadIdx.x == 0)
		*out = v;
}

/* ---- pass 1, in the order of the chapter ------------------------------ */

__global__ void reduce_neighbored(const int *in, long n, int *part)
{
	extern __shared__ int sm[];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * blockDim.x + tid;
	sm[tid] = i < n ? in[i] : 0;
	__syncthreads();
	for (unsigned s = 1; s < blockDim.x; s *= 2) {
		if (tid % (2 * s) == 0)
			sm[tid] += sm[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		part[blockIdx.x] = sm[0];
}

__global__ void reduce_less_divergent(const int *in, long n, int *part)
{
	extern __shared__ int sm[];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * blockDim.x + tid;
	sm[tid] = i < n ? in[i] : 0;
	__syncthreads();
	for (unsigned s = 1; s < blockDim.x; s *= 2) {
		unsigned k = 2 * s * tid;
		if (k < blockDim.x)
			sm[k] += sm[k + s];
		__syncthreads();
	}
	if (tid == 0)
		part[blockIdx.x] = sm[0];
}

/* interleaved (N = 1) and unroll2/4/8: N elements per thread on load. */
template <int N>
__global__ void reduce_unroll(const int *in, long n, int *part)
{
	extern __shared__ int sm[];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * blockDim.x * N + tid;
	sm[tid] = load_sum<N>(in, n, i, blockDim.x);
	__syncthreads();
	tree(sm, tid, 1);
	if (tid == 0)
		part[blockIdx.x] = sm[0];
}

__global__ void reduce_unroll_warp(const int *in, long n, int *part)
{
	extern __shared__ int sm[];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * blockDim.x * 8 + tid;
	sm[tid] = load_sum<8>(in, n, i, blockDim.x);
	__syncthreads();
	tree(sm, tid, 64);
	if (tid < 32) {
		int v = last_warp(sm, tid);
		if (tid == 0)
			part[blockIdx.x] = v;
	}
}

__global__ void reduce_complete_unroll(const int *in, long n, int *part)
{
	extern __shared__ int sm[];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * blockDim.x * 8 + tid;
	sm[tid] = load_sum<8>(in, n, i, blockDim.x);
	__syncthreads();
	if (blockDim.x >= 1024 && tid < 512)
		sm[tid] += sm[tid + 512];
	__syncthreads();
	if (blockDim.x >= 512 && tid < 256)
		sm[tid] += sm[tid + 256];
	__syncthreads();
	if (blockDim.x >= 256 && tid < 128)
		sm[tid] += sm[tid + 128];
	__syncthreads();
	if (blockDim.x >= 128 && tid < 64)
		sm[tid] += sm[tid + 64];
	__syncthreads();
	if (tid < 32) {
		int v = last_warp(sm, tid);
		if (tid == 0)
			part[blockIdx.x] = v;
	}
}

template <int B>
__global__ void __launch_bounds__(B) reduce_template(const int *in, long n,
                                                     int *part)
{
	__shared__ int sm[B];
	unsigned tid = threadIdx.x;
	long i = (long)blockIdx.x * B * 8 + tid;
	sm[tid] = load_sum<8>(in, n, i, B);
	__syncthreads();
	if (B >= 1024 && tid < 512)
		sm[tid] += sm[tid + 512];
	if (B >= 1024)
		__syncthreads();
	if (B >= 512 && tid < 256)
		sm[tid] += sm[tid + 256];
	if (B >= 512)
		__syncthreads();
	if (B >= 256 && tid < 128)
		sm[tid] += sm[tid + 128];
	if (B >= 256)
		__syncthreads();
	if (B >= 128 && tid < 64)
		sm[tid] += sm[tid + 64];
	if (B >= 128)
		__syncthreads();
	if (tid < 32) {
		int v = last_warp(sm, tid);
		if (tid == 0)
			part[blockIdx.x] = v;
	}
}

__global__ void reduce_shuffle(const int *in, long n, int *part)
{
	long i = (long)blockIdx.x * blockDim.x * 8 + threadIdx.x;
	int v = block_sum(load_sum<8>(in, n, i, blockDim.x));
	if (threadIdx.x == 0)
		part[blockIdx.x] = v;
}

/*
 * best: the array is seen as int4 and cut into tiles of BEST_THREADS x
 * BEST_LOADS int4; block b takes tiles b, b + gridDim.x, ... Inside a tile
 * a warp's four loads are 512 contiguous bytes each, all four issued before
 * any is used. What is left after the last full tile (int4s, then up to
 * three single ints) is spread over the grid.
 */
#define BEST_THREADS 256
#define BEST_LOADS 4

/*
 * One thread's sum over its tiles and its share of the rest. K > 0 adds K
 * FFMAs per int loaded (the work sweep), on four chains of their own (one,
 * zero: x * 1 + 0 keeps x) that asm volatile keeps in the program, so a
 * warp has independent ones to issue while each waits on its previous
 * result.
 */
template <int K>
__device__ __forceinline__ int sum_tiles(const int *__restrict__ in, long n,
                                         float one, float zero)
{
	const int4 *in4 = (const int4 *)in;
	long n4 = n / 4;
	long tile = BEST_THREADS * BEST_LOADS;
	long tiles = n4 / tile;
	int v = 0;
	float w[4] = {(float)threadIdx.x, 1, 2, 3};
	for (long t = blockIdx.x; t < tiles; t += gridDim.x) {
		const int4 *p = in4 + t * tile + threadIdx.x;
		int4 a[BEST_LOADS];
#pragma unroll
		for (int k = 0; k < BEST_LOADS; k++)
			a[k] = __ldg(p + k * BEST_THREADS);
#pragma unroll
		for (int k = 0; k < BEST_LOADS; k++) {
			v += (a[k].x + a[k].y) + (a[k].z + a[k].w);
#pragma unroll
			for (int j = 0; j < 4 * K; j++)
				asm volatile("fma.rn.f32 %0, %0, %1, %2;"
				             : "+f"(w[j % 4]) : "f"(one), "f"(zero));
		}
	}
	long first = (long)blockIdx.x * BEST_THREADS + threadIdx.x;
	long step = (long)gridDim.x * BEST_THREADS;
	for (long i = tiles * tile + first; i < n4; i += step) {
		int4 a = __ldg(in4 + i);
		v += (a.x + a.y) + (a.z + a.w);
	}
	if (4 * n4 + first < n)
		v += in[4 * n4 + first];
	if (K > 0)
		v += w[0] + w[1] + w[2] + w[3] == -1.0f; /* never: w stays put */
	return v;
}

__global__ void __launch_bounds__(BEST_THREADS)
    reduce_best(const int *__restrict__ in, long n, int *part)
{
	int v = block_sum(sum_tiles<0>(in, n, 1, 0));
	if (threadIdx.x == 0)
		part[blockIdx.x] = v;
}

/* work: reduce_best with K FFMAs per int loaded. */
template <int K>
__global__ void __launch_bounds__(BEST_THREADS)
    reduce_work(const int *__restrict__ in, long n, int *part, float one,
                float zero)
{
	int v = block_sum(sum_tiles<K>(in, n, one, zero));
	if (threadIdx.x == 0)
		part[blockIdx.x] = v;
}

/* ---- host ------------------------------------------------------------- */

struct Ctx {
	const int *in;
	int *part, *out;
	int block;     /* threads per block of the classic variants */
	int best_max;  /* SMs x resident blocks of reduce_best */
	void *temp;    /* cub's temporary storage, allocated once */
	size_t temp_bytes;
};

static void launch_template(int b, unsigned g, const Ctx &c, long n)
{
	switch (b) {
	case 64: reduce_template<64><<<g, 64>>>(c.in, n, c.part); break;
	case 128: reduce_template<128><<<g, 128>>>(c.in, n, c.part); break;
	case 256: reduce_template<256><<<g, 256>>>(c.in, n, c.part); break;
	case 512: reduce_template<512><<<g, 512>>>(c.in, n, c.part); break;
	case 1024: reduce_template<1024><<<g, 1024>>>(c.in, n, c.part); break;
	}
}

static long cdiv(long a, long b) { return (a + b - 1) / b; }

/* Pass-1 blocks of variant v for n elements (0 for cub). */
static long grid_of(int v, long n, const Ctx &c)
{
	switch (v) {
	case NEIGHBORED: case LESS_DIVERGENT: case INTERLEAVED:
		return cdiv(n, c.block);
	case UNROLL2: return cdiv(n, 2L * c.block);
	case UNROLL4: return cdiv(n, 4L * c.block);
	case BEST:
		return std::min<long>(c.best_max,
		                      cdiv(n, BEST_THREADS * BEST_LOADS * 4));
	case CUB: return 0;
	default: return cdiv(n, 8L * c.block);
	}
}

/* Enqueue variant v on in[0..n): when it completes, *out holds the sum. */
static void launch(int v, long n, const Ctx &c)
{
	if (v == CUB) {
		size_t bytes = c.temp_bytes;
		LAB_CHECK(cub::DeviceReduce::Sum(c.temp, bytes, c.in, c.out, (int)n));
		return;
	}
	int b = c.block;
	size_t sh = b * sizeof(int);
	unsigned g = (unsigned)grid_of(v, n, c);
	switch (v) {
	case NEIGHBORED: reduce_neighbored<<<g, b, sh>>>(c.in, n, c.part); break;
	case LESS_DIVERGENT:
		reduce_less_divergent<<<g, b, sh>>>(c.in, n, c.part);
		break;
	case INTERLEAVED: reduce_unroll<1><<<g, b, sh>>>(c.in, n, c.part); break;
	case UNROLL2: reduce_unroll<2><<<g, b, sh>>>(c.in, n, c.part); break;
	case UNROLL4: reduce_unroll<4><<<g, b, sh>>>(c.in, n, c.part); break;
	case UNROLL8: reduce_unroll<8><<<g, b, sh>>>(c.in, n, c.part); break;
	case UNROLL_WARP: reduce_unroll_warp<<<g, b, sh>>>(c.in, n, c.part); break;
	case COMPLETE_UNROLL:
		reduce_complete_unroll<<<g, b, sh>>>(c.in, n, c.part);
		break;
	case TEMPLATE: launch_template(b, g, c, n); break;
	case SHUFFLE: reduce_shuffle<<<g, b>>>(c.in, n, c.part); break;
	case BEST: reduce_best<<<g, BEST_THREADS>>>(c.in, n, c.part); break;
	}
	LAB_CHECK_LAUNCH();
	finish<<<1, 1024>>>(c.part, g, c.out);
	LAB_CHECK_LAUNCH();
}

/* The work sweep: reduce_work<K> at n ints, cold, one record per K. */
static int run_work(const std::vector<long> &ks, long n, const Ctx &c,
                    const int *h)
{
	const lab::Device &dev = lab::device();
	long long ref = 0;
	for (long i = 0; i < n; i++)
		ref += h[i];
	unsigned g = (unsigned)std::min<long>(
	    c.best_max, cdiv(n, BEST_THREADS * BEST_LOADS * 4));
	lab::TimeOpts o;
	o.mode = lab::COLD;
	o.max_reps = 200;
	o.budget_ms = 150;
	int wrong = 0;
	printf("\nwork sweep at n=%ld: K FFMAs per int loaded\n", n);
	printf("%5s  %10s  %9s\n", "K", "ms", "GB/s");
	for (long k : ks) {
		auto launch = [&] {
			switch (k) {
			case 0: reduce_work<0><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 1: reduce_work<1><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 2: reduce_work<2><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 4: reduce_work<4><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 8: reduce_work<8><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 16: reduce_work<16><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			case 32: reduce_work<32><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			default: reduce_work<64><<<g, BEST_THREADS>>>(c.in, n, c.part, 1, 0); break;
			}
			LAB_CHECK_LAUNCH();
			finish<<<1, 1024>>>(c.part, g, c.out);
			LAB_CHECK_LAUNCH();
		};
		lab::poison(c.out, sizeof(int));
		launch();
		int got;
		LAB_CHECK(cudaMemcpy(&got, c.out, sizeof got, cudaMemcpyDeviceToHost));
		bool ok = (long long)got == ref;
		wrong += !ok;
		lab::Stats st = lab::time(launch, o);
		double bytes = n * sizeof(int);
		lab::Record()
		    .set("variant", "work")
		    .set("work", k)
		    .set("n", n)
		    .set("threads", BEST_THREADS)
		    .set("blocks", (long)g)
		    .set("extra_inst_per_elem", k / 32.0)
		    .set("issue_slots_per_s", 4.0 * dev.sm_count * st.clock_mhz * 1e6)
		    .set("ms", st.median_ms)
		    .rate("gbps", bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%5ld  %10.3f  %9.1f%s\n", k, st.median_ms,
		       bytes / (st.median_ms * 1e6), ok ? "" : "  WRONG");
	}
	return wrong;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> ns = args.list("--n", "16384:268435456:x4");
	int block = (int)args.integer("--block", 512);
	std::vector<long> work;
	if (args.str("--work", nullptr))
		work = args.list("--work", "0");
	for (long k : work)
		if (k != 0 && k != 1 && k != 2 && k != 4 && k != 8 && k != 16 &&
		    k != 32 && k != 64) {
			fprintf(stderr, "--work: %ld is not 0, 1, 2, 4, ..., 64\n", k);
			return 2;
		}
	const lab::Device &dev = lab::device();

	if (block < 64 || block > 1024 || (block & (block - 1))) {
		fprintf(stderr, "--block: %d is not a power of two in 64..1024\n",
		        block);
		return 2;
	}
	long maxn = *std::max_element(ns.begin(), ns.end());
	long minn = *std::min_element(ns.begin(), ns.end());
	if (minn < 1 || maxn > (1L << 30)) {
		fprintf(stderr, "--n: sizes must lie in 1..2^30\n");
		return 2;
	}

	int *h = (int *)malloc(maxn * sizeof(int));
	if (!h) {
		fprintf(stderr, "out of host memory\n");
		return 3;
	}
	lab::fill_int(h, maxn, 5, -100, 100);

	Ctx c;
	int *in;
	LAB_CHECK(cudaMalloc(&in, maxn * sizeof(int)));
	LAB_CHECK(cudaMemcpy(in, h, maxn * sizeof(int), cudaMemcpyHostToDevice));
	c.in = in;
	c.block = block;
	int per_sm = 0;
	LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
	    &per_sm, reduce_best, BEST_THREADS, 0));
	c.best_max = dev.sm_count * per_sm;
	long maxpart = std::max<long>(cdiv(maxn, block), c.best_max);
	LAB_CHECK(cudaMalloc(&c.part, maxpart * sizeof(int)));
	LAB_CHECK(cudaMalloc(&c.out, sizeof(int)));
	c.temp_bytes = 0;
	for (long n : ns) {
		size_t bytes = 0;
		LAB_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, c.in, c.out, (int)n));
		c.temp_bytes = std::max(c.temp_bytes, bytes);
	}
	LAB_CHECK(cudaMalloc(&c.temp, std::max<size_t>(c.temp_bytes, 1)));

	printf("%s: %d SMs, %.0f GB/s theoretical\n", dev.prop.name,
	       dev.sm_count, dev.bw_theoretical_gbps);
	printf("classic variants: %d threads per block; best: %d blocks of %d "
	       "(%d per SM)\n", block, c.best_max, BEST_THREADS, per_sm);
	if (!work.empty()) {
		int bad = run_work(work, maxn, c, h);
		printf("%s\n", bad ? "SOME SUMS WERE WRONG" : "every sum matched the CPU");
		LAB_CHECK(cudaFree(in));
		LAB_CHECK(cudaFree(c.part));
		LAB_CHECK(cudaFree(c.out));
		LAB_CHECK(cudaFree(c.temp));
		free(h);
		return 0;
	}

	lab::TimeOpts o;
	o.mode = lab::COLD;
	o.max_reps = 200;
	o.budget_ms = 150;
	std::vector<std::vector<double>> gbps(NVARIANTS);
	int wrong = 0;
	for (long n : ns) {
		long long ref = 0;
		for (long i = 0; i < n; i++)
			ref += h[i];
		/* cub first, so every record can say how it compares. */
		int order[NVARIANTS];
		order[0] = CUB;
		for (int v = 0; v < CUB; v++)
			order[v + 1] = v;
		double cub_gbps = 0;
		std::vector<lab::Record> recs(NVARIANTS);
		for (int v : order) {
			lab::poison(c.out, sizeof(int));
			lab::poison(c.part, maxpart * sizeof(int));
			launch(v, n, c);
			int got;
			LAB_CHECK(cudaMemcpy(&got, c.out, sizeof got,
			                     cudaMemcpyDeviceToHost));
			bool ok = (long long)got == ref;
			if (!ok) {
				printf("WRONG: %s n=%ld: got %d, want %lld\n",
				       names[v], n, got, ref);
				wrong++;
			}
			lab::Stats st = lab::time([&] { launch(v, n, c); }, o);
			double bytes = n * sizeof(int);
			double rate = bytes / (st.median_ms * 1e6);
			if (v == CUB)
				cub_gbps = rate;
			gbps[v].push_back(rate);
			lab::Record &r = recs[v];
			r.set("variant", names[v]).set("n", n);
			if (v != CUB)
				r.set("threads", v == BEST ? BEST_THREADS : block)
				    .set("blocks", grid_of(v, n, c));
			r.set("ms", st.median_ms)
			    .rate("gbps", bytes / 1e9, st)
			    .set("vs_cub", rate / cub_gbps)
			    .set("correct", ok)
			    .stats(st);
		}
		for (lab::Record &r : recs)
			r.emit();
	}

	printf("\nGB/s (cold L2)  ");
	for (long n : ns) {
		char col[16];
		snprintf(col, sizeof col, "n=2^%d",
		         (int)std::lround(std::log2((double)n)));
		printf(" %8s", col);
	}
	printf("\n");
	for (int v = 0; v < NVARIANTS; v++) {
		printf("%-16s", names[v]);
		for (double g : gbps[v])
			printf(" %8.1f", g);
		printf("\n");
	}
	size_t last = std::max_element(ns.begin(), ns.end()) - ns.begin();
	printf("best / cub at n=%ld: %.1f%%\n", maxn,
	       100 * gbps[BEST][last] / gbps[CUB][last]);
	printf("%s\n", wrong ? "SOME SUMS WERE WRONG" : "every sum matched the CPU");

	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(c.part));
	LAB_CHECK(cudaFree(c.out));
	LAB_CHECK(cudaFree(c.temp));
	free(h);
	return 0;
}
