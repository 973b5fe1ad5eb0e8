/*
 * tma.cu - copying through shared memory: plain loads, Ampere's cp.async,
 * and Hopper's bulk copies (cp.async.bulk and the tensor memory
 * accelerator), with as few threads as each needs. Timed cold.
 *
 * Every variant copies `mb` MiB from in to out, a tile at a time through
 * shared memory; a grid of blocks_per_sm x SMs blocks strides over the
 * tiles. `threads` is the threads per SM (block size x blocks per SM).
 *
 *   plain   each thread loads 4 int4 (64 bytes) into registers, stores them
 *           to shared memory, and after a barrier stores its neighbour's
 *           slots to global memory (LDG, STS, LDS, STG);
 *   cp_async  each thread copies 2 int4 straight to shared memory with
 *           cp.async (LDGSTS: no registers), two tiles in flight, so again
 *           64 bytes of loads a thread; then LDS, STG as in plain;
 *   bulk    one thread per block does everything: cp.async.bulk loads
 *           whole 8 KiB chunks into shared memory, completing on an mbarrier
 *           that counts their bytes, four chunks in flight, and
 *           cp.async.bulk stores each chunk back (UBLKCP in SASS); its
 *           block is a single warp, the other 31 lanes idle;
 *   tensor  the same pipeline with the tensor memory accelerator: the
 *           buffer seen as a 2-D tensor of rows of 4096 floats, described
 *           by a tensor map, each chunk a 64 x 32 float box
 *           (cp.async.bulk.tensor: UTMALDG and UTMASTG in SASS).
 *
 * gbps counts bytes read plus bytes written. The output is poisoned and
 * compared byte for byte with the input after every point.
 *
 *   tma --mb 512 --threads 32:2048:x2
 */
#include "lab.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_pipeline.h>

#define LOADS 4  /* int4 per thread in plain */
#define CHUNK 8192
#define STAGES 4
#define ROW_FLOATS 4096
#define BOX_W 64
#define BOX_H 32

/* ---- plain and cp.async ------------------------------------------------ */

__global__ void copy_plain(const int4 *in, int4 *out, long tiles)
{
	extern __shared__ int4 sm[];
	int t = threadIdx.x, n = blockDim.x;
	for (long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
		const int4 *src = in + tile * n * LOADS;
		int4 r[LOADS];
#pragma unroll
		for (int u = 0; u < LOADS; u++)
			r[u] = src[u * n + t];
#pragma unroll
		for (int u = 0; u < LOADS; u++)
			sm[u * n + t] = r[u];
		__syncthreads();
		int4 *dst = out + tile * n * LOADS;
#pragma unroll
		for (int u = 0; u < LOADS; u++)
			dst[u * n + (t ^ 1)] = sm[u * n + (t ^ 1)];
		__syncthreads();
	}
}

/* Two stages of LOADS / 2 int4 a thread: 64 bytes of loads in flight. */
__global__ void copy_cp_async(const int4 *in, int4 *out, long tiles)
{
	extern __shared__ int4 sm[];
	const int U = LOADS / 2;
	int t = threadIdx.x, n = blockDim.x;
	auto issue = [&](long tile, int stage) {
		const int4 *src = in + tile * n * U;
		int4 *s = sm + stage * n * U;
#pragma unroll
		for (int u = 0; u < U; u++)
			__pipeline_memcpy_async(&s[u * n + t], &src[u * n + t], 16);
		__pipeline_commit();
	};
	long tile = blockIdx.x;
	int stage = 0;
	if (tile < tiles)
		issue(tile, 0);
	for (; tile < tiles; tile += gridDim.x, stage ^= 1) {
		if (tile + gridDim.x < tiles) {
			issue(tile + gridDim.x, stage ^ 1);
			__pipeline_wait_prior(1);
		} else {
			__pipeline_wait_prior(0);
		}
		__syncthreads();
		const int4 *s = sm + stage * n * U;
		int4 *dst = out + tile * n * U;
#pragma unroll
		for (int u = 0; u < U; u++)
			dst[u * n + (t ^ 1)] = s[u * n + (t ^ 1)];
		__syncthreads();
	}
}

/* ---- bulk copies: one thread, an mbarrier per stage --------------------- */

__device__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ void bar_init(uint64_t *bar)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)));
}

/* Arrive, and tell the barrier to expect `bytes` more of transfers. */
__device__ void bar_expect(uint64_t *bar, unsigned bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
	             ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}

__device__ void bar_wait(uint64_t *bar, unsigned phase)
{
	unsigned done;
	do
		asm volatile("{\n .reg .pred p;\n"
		             " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
		             " selp.u32 %0, 1, 0, p;\n}"
		             : "=r"(done) : "r"(smem_addr(bar)), "r"(phase) : "memory");
	while (!done);
}

template <bool TENSOR>
__device__ void load_chunk(void *dst, const char *in, long c, uint64_t *bar,
                           const CUtensorMap *map)
{
	bar_expect(bar, CHUNK);
	if (TENSOR) {
		int x = (int)(c % (ROW_FLOATS / BOX_W)) * BOX_W;
		int y = (int)(c / (ROW_FLOATS / BOX_W)) * BOX_H;
		asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
		             ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
		             ::"r"(smem_addr(dst)), "l"(map), "r"(x), "r"(y),
		             "r"(smem_addr(bar)) : "memory");
	} else {
		asm volatile("cp.async.bulk.shared::cluster.global"
		             ".mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
		             ::"r"(smem_addr(dst)), "l"(in + c * CHUNK), "r"(CHUNK),
		             "r"(smem_addr(bar)) : "memory");
	}
}

template <bool TENSOR>
__device__ void store_chunk(char *out, const void *src, long c,
                            const CUtensorMap *map)
{
	if (TENSOR) {
		int x = (int)(c % (ROW_FLOATS / BOX_W)) * BOX_W;
		int y = (int)(c / (ROW_FLOATS / BOX_W)) * BOX_H;
		asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile"
		             ".bulk_group [%0, {%1, %2}], [%3];"
		             ::"l"(map), "r"(x), "r"(y), "r"(smem_addr(src))
		             : "memory");
	} else {
		asm volatile("cp.async.bulk.global.shared::cta.bulk_group"
		             " [%0], [%1], %2;"
		             ::"l"(out + c * CHUNK), "r"(smem_addr(src)), "r"(CHUNK)
		             : "memory");
	}
	asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/*
 * Chunks blockIdx.x, + gridDim.x, ...: the k-th goes through stage
 * k % STAGES, whose barrier completes once per use, so its phase parity
 * is (k / STAGES) & 1. A stage is reloaded only after the store that
 * reads it has finished reading (wait_group.read).
 */
template <bool TENSOR>
__global__ void copy_bulk(const char *in, char *out, long chunks,
                          const __grid_constant__ CUtensorMap map_in,
                          const __grid_constant__ CUtensorMap map_out)
{
	extern __shared__ __align__(128) char buf[];
	__shared__ __align__(8) uint64_t bar[STAGES];
	if (threadIdx.x != 0)
		return;
	for (int s = 0; s < STAGES; s++)
		bar_init(&bar[s]);
	/* Make the initialised barriers visible to the copy engine. */
	asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	long mine = chunks > blockIdx.x
	                ? (chunks - blockIdx.x + gridDim.x - 1) / gridDim.x
	                : 0;
	for (long k = 0; k < STAGES && k < mine; k++)
		load_chunk<TENSOR>(buf + k * CHUNK, in, blockIdx.x + k * gridDim.x,
		                   &bar[k], &map_in);
	for (long k = 0; k < mine; k++) {
		int s = (int)(k % STAGES);
		bar_wait(&bar[s], (unsigned)(k / STAGES) & 1);
		store_chunk<TENSOR>(out, buf + s * CHUNK, blockIdx.x + k * gridDim.x,
		                    &map_out);
		if (k + STAGES < mine) {
			asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
			load_chunk<TENSOR>(buf + s * CHUNK, in,
			                   blockIdx.x + (k + STAGES) * gridDim.x, &bar[s],
			                   &map_in);
		}
	}
	asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

/* ---- host --------------------------------------------------------------- */

static CUtensorMap tensor_map(void *base, size_t bytes)
{
	void *fn = nullptr;
	cudaDriverEntryPointQueryResult q;
	LAB_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn,
	                                           12000, cudaEnableDefault, &q));
	if (q != cudaDriverEntryPointSuccess || !fn) {
		fprintf(stderr, "cuTensorMapEncodeTiled is not available\n");
		exit(3);
	}
	CUtensorMap m;
	cuuint64_t dim[2] = {ROW_FLOATS, bytes / 4 / ROW_FLOATS};
	cuuint64_t stride[1] = {ROW_FLOATS * 4};
	cuuint32_t box[2] = {BOX_W, BOX_H}, estride[2] = {1, 1};
	CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
	    &m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dim, stride, box,
	    estride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
	    CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", (int)r);
		exit(3);
	}
	return m;
}

struct Point {
	const char *variant;
	int block, per_sm; /* threads per block, blocks per SM */
};

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	long mb = args.integer("--mb", 512);
	std::vector<long> threads = args.list("--threads", "32:2048:x2");
	std::vector<long> bulk_blocks = args.list("--bulk-blocks", "1,2,4");
	const lab::Device &dev = lab::device();
	size_t bytes = (size_t)mb << 20;
	if (bytes % ((size_t)ROW_FLOATS * 4 * BOX_H) || mb < 1) {
		fprintf(stderr, "--mb: %ld MiB is not a whole number of tensor rows\n",
		        mb);
		return 2;
	}
	std::vector<char> h_in(bytes), h_out(bytes);
	lab::fill_int((int *)h_in.data(), bytes / 4, 70, -1000000, 1000000);
	char *in, *out;
	LAB_CHECK(cudaMalloc(&in, bytes));
	LAB_CHECK(cudaMalloc(&out, bytes));
	LAB_CHECK(cudaMemcpy(in, h_in.data(), bytes, cudaMemcpyHostToDevice));
	CUtensorMap map_in = tensor_map(in, bytes), map_out = tensor_map(out, bytes);
	size_t smem_max = dev.prop.sharedMemPerBlockOptin;
	LAB_CHECK(cudaFuncSetAttribute(copy_plain,
	                               cudaFuncAttributeMaxDynamicSharedMemorySize,
	                               (int)smem_max));
	LAB_CHECK(cudaFuncSetAttribute(copy_cp_async,
	                               cudaFuncAttributeMaxDynamicSharedMemorySize,
	                               (int)smem_max));
	LAB_CHECK(cudaFuncSetAttribute(copy_bulk<false>,
	                               cudaFuncAttributeMaxDynamicSharedMemorySize,
	                               STAGES * CHUNK));
	LAB_CHECK(cudaFuncSetAttribute(copy_bulk<true>,
	                               cudaFuncAttributeMaxDynamicSharedMemorySize,
	                               STAGES * CHUNK));

	std::vector<Point> points;
	for (const char *v : {"plain", "cp_async"})
		for (long t : threads) {
			int block = (int)std::min(t, 512L);
			points.push_back({v, block, (int)(t / block)});
		}
	for (const char *v : {"bulk", "tensor"})
		for (long b : bulk_blocks)
			points.push_back({v, 32, (int)b});

	printf("%s: %d SMs, %ld MiB copied\n", dev.prop.name, dev.sm_count, mb);
	printf("%-9s %8s %6s %7s %9s %8s\n", "variant", "threads", "block",
	       "blk/SM", "ms", "GB/s");
	for (const Point &p : points) {
		bool bulk = p.variant[0] == 'b', tensor = p.variant[0] == 't';
		int grid = p.per_sm * dev.sm_count;
		size_t smem = bulk || tensor ? STAGES * CHUNK
		                             : (size_t)p.block * LOADS * 16;
		long tiles = (long)(bytes / smem);
		const void *fn = bulk     ? (const void *)copy_bulk<false>
		                 : tensor ? (const void *)copy_bulk<true>
		                 : p.variant[0] == 'p' ? (const void *)copy_plain
		                                       : (const void *)copy_cp_async;
		int fit = 0;
		LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, fn,
		                                                        p.block, smem));
		auto job = [&] {
			if (bulk)
				copy_bulk<false><<<grid, p.block, smem>>>(
				    in, out, (long)(bytes / CHUNK), map_in, map_out);
			else if (tensor)
				copy_bulk<true><<<grid, p.block, smem>>>(
				    in, out, (long)(bytes / CHUNK), map_in, map_out);
			else if (p.variant[0] == 'p')
				copy_plain<<<grid, p.block, smem>>>((const int4 *)in,
				                                   (int4 *)out, tiles);
			else
				copy_cp_async<<<grid, p.block, smem>>>(
				    (const int4 *)in, (int4 *)out,
				    (long)(bytes / (smem / 2)));
		};
		lab::poison(out, bytes);
		job();
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(h_out.data(), out, bytes, cudaMemcpyDeviceToHost));
		bool ok = memcmp(h_in.data(), h_out.data(), bytes) == 0;
		lab::Stats st = lab::time(job, {.mode = lab::COLD});
		lab::Record()
		    .set("variant", p.variant)
		    .set("threads", p.block * p.per_sm)
		    .set("block", p.block)
		    .set("blocks_per_sm", p.per_sm)
		    .set("resident", fit >= p.per_sm)
		    .set("ms", st.median_ms)
		    .rate("gbps", 2.0 * bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%-9s %8d %6d %7d %9.4f %8.0f%s%s\n", p.variant,
		       p.block * p.per_sm, p.block, p.per_sm, st.median_ms,
		       2.0 * bytes / 1e6 / st.median_ms, ok ? "" : "  WRONG",
		       fit >= p.per_sm ? "" : "  (not all resident)");
	}
	return 0;
}
