/*
 * gemm.cu - C = A·B in BF16 with FP32 accumulation, a ladder of six steps.
 *
 * A is M x K, stored by rows; B is K x N, stored by columns (each column's K
 * values contiguous, as the tensor cores want both operands K-major); C is
 * M x N in FP32, by rows. Every step computes the same C:
 *
 *   naive   one thread per element of C, both operands read from global
 *           memory for every multiply-add: 2 FLOP per 4 bytes loaded.
 *   smem    32 x 32 tiles of A and B staged in shared memory, so each value
 *           loaded from global memory serves 32 multiply-adds.
 *   regs    128 x 128 tiles, each thread an 8 x 8 block of C held in
 *           registers: 16 FMAs for every 4 values read from shared memory.
 *   mma     the same tiles on the tensor cores: warp-level mma.sync through
 *           WMMA (HMMA in SASS), shared memory filled by cp.async in a
 *           three-stage pipeline. Runs on any card from sm_80.
 *   wgmma   sm_90a only: a 128 x 256 tile per block of three warpgroups.
 *           One produces: a single thread issues TMA copies of the next
 *           tiles of A and B into a four-stage ring of shared memory, each
 *           stage guarded by a pair of mbarriers (full: the bytes arrived;
 *           empty: the consumers are done with it). Two consume: each issues
 *           wgmma m64n256k16 on its 64 rows straight from shared memory and
 *           keeps its 64 x 256 piece of C in registers.
 *   cublas  cublasGemmEx, BF16 in, FP32 out and compute: the reference.
 *
 * Checks. cuBLAS's C is checked against an exact (double) CPU sum of the
 * same BF16 inputs on a sample of entries; every other step against
 * cuBLAS over every entry. An error is normalised by S = sum_k |a_ik b_kj|
 * (computed by cuBLAS from |A| and |B|): summing K products in FP32 is off
 * from the exact sum by at most about K * 2^-24 * S, so two such sums differ
 * by at most K * 2^-23 * S. Records carry err (against cuBLAS, normalised),
 * err_exact (against the CPU, sampled), err_fp32 (against the product of the
 * FP32 numbers the inputs were rounded from: BF16's own rounding) and bound.
 * Times are cold (L2 flushed before every repetition).
 *
 *   gemm --sizes 512:8192:x2 --skinny 8192x8192x512 --naive-max 2048
 */
#include "lab.h"

#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <mma.h>

typedef __nv_bfloat16 bf16;

enum { NAIVE, SMEM, REGS, MMA, WGMMA, CUBLAS, NSTEPS };
static const char *names[NSTEPS] = {"naive", "smem",  "regs",
                                    "mma",   "wgmma", "cublas"};

/* ---- 1. naive ------------------------------------------------------------ */

__global__ void gemm_naive(const bf16 *A, const bf16 *B, float *C, int M,
                           int N, int K)
{
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	if (row >= M || col >= N)
		return;
	const bf16 *a = A + (size_t)row * K, *b = B + (size_t)col * K;
	float acc = 0;
	for (int k = 0; k < K; k++)
		acc += __bfloat162float(a[k]) * __bfloat162float(b[k]);
	C[(size_t)row * N + col] = acc;
}

/* ---- 2. shared-memory tiles ---------------------------------------------- */

/* A block of 32 x 32 threads; each loads one value of each tile. Rows are
 * padded to 33 floats so that a warp reading Bs[tx][k] hits 32 banks. */
__global__ void gemm_smem(const bf16 *A, const bf16 *B, float *C, int M,
                          int N, int K)
{
	__shared__ float As[32][33], Bs[32][33];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
	const bf16 *a = A + (size_t)row * K;
	const bf16 *b = B + (size_t)(blockIdx.x * 32 + ty) * K;
	float acc = 0;
	for (int k0 = 0; k0 < K; k0 += 32) {
		As[ty][tx] = __bfloat162float(a[k0 + tx]);
		Bs[ty][tx] = __bfloat162float(b[k0 + tx]);
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 32; k++)
			acc += As[ty][k] * Bs[tx][k];
		__syncthreads();
	}
	C[(size_t)row * N + col] = acc;
}

/* ---- 3. register tiles --------------------------------------------------- */

/* 256 threads, a 128 x 128 tile of C, 8 x 8 per thread, K in steps of 16.
 * Both tiles are stored k-major in shared memory (As[k][m], Bs[k][n]) so a
 * thread reads its 8 values of A and its 8 of B as float4s. */
__global__ void __launch_bounds__(256)
    gemm_regs(const bf16 *A, const bf16 *B, float *C, int M, int N, int K)
{
	__shared__ __align__(16) float As[16][128], Bs[16][128];
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int lr = tid / 2, lk = (tid % 2) * 8; /* the 8 values this thread loads */
	const bf16 *a = A + (size_t)(blockIdx.y * 128 + lr) * K + lk;
	const bf16 *b = B + (size_t)(blockIdx.x * 128 + lr) * K + lk;
	float acc[8][8] = {};
	for (int k0 = 0; k0 < K; k0 += 16) {
		uint4 va = *(const uint4 *)(a + k0), vb = *(const uint4 *)(b + k0);
		const bf16 *pa = (const bf16 *)&va, *pb = (const bf16 *)&vb;
#pragma unroll
		for (int i = 0; i < 8; i++) {
			As[lk + i][lr] = __bfloat162float(pa[i]);
			Bs[lk + i][lr] = __bfloat162float(pb[i]);
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 16; k++) {
			float ra[8], rb[8];
			*(float4 *)&ra[0] = *(const float4 *)&As[k][ty * 8];
			*(float4 *)&ra[4] = *(const float4 *)&As[k][ty * 8 + 4];
			*(float4 *)&rb[0] = *(const float4 *)&Bs[k][tx * 8];
			*(float4 *)&rb[4] = *(const float4 *)&Bs[k][tx * 8 + 4];
#pragma unroll
			for (int i = 0; i < 8; i++)
#pragma unroll
				for (int j = 0; j < 8; j++)
					acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 8; i++) {
		float *c = C + (size_t)(blockIdx.y * 128 + ty * 8 + i) * N +
		           blockIdx.x * 128 + tx * 8;
		*(float4 *)c = *(float4 *)&acc[i][0];
		*(float4 *)(c + 4) = *(float4 *)&acc[i][4];
	}
}

/* ---- 4. mma.sync through WMMA -------------------------------------------- */

/* 256 threads (8 warps as 2 x 4), a 128 x 128 tile, each warp 64 x 32 of it
 * as 4 x 2 fragments of 16 x 16. K in steps of 32 through a ring of three
 * stages filled with cp.async; rows padded by 8 values (16 bytes) so that
 * the fragment loads spread over the banks. */
enum { MMA_BK = 32, MMA_LD = MMA_BK + 8, MMA_STAGES = 3 };
static const int MMA_SMEM = MMA_STAGES * 2 * 128 * MMA_LD * sizeof(bf16);

__device__ void cp_async16(void *dst, const void *src)
{
	unsigned d = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d),
	             "l"(src) : "memory");
}

/* Stage the k0 slice of both tiles: 128 rows x 32 values = 512 chunks of
 * 16 bytes each, two per thread and operand. */
__device__ void mma_load(bf16 *as, bf16 *bs, const bf16 *A, const bf16 *B,
                         int K, int k0)
{
	for (int c = threadIdx.x; c < 512; c += 256) {
		int r = c / 4, k = (c % 4) * 8;
		cp_async16(as + r * MMA_LD + k, A + (size_t)r * K + k0 + k);
		cp_async16(bs + r * MMA_LD + k, B + (size_t)r * K + k0 + k);
	}
	asm volatile("cp.async.commit_group;" ::: "memory");
}

__global__ void __launch_bounds__(256)
    gemm_mma(const bf16 *A, const bf16 *B, float *C, int M, int N, int K)
{
	using namespace nvcuda;
	extern __shared__ __align__(128) unsigned char mma_smem[];
	bf16 *as = (bf16 *)mma_smem, *bs = as + MMA_STAGES * 128 * MMA_LD;
	A += (size_t)blockIdx.y * 128 * K;
	B += (size_t)blockIdx.x * 128 * K;
	int warp = threadIdx.x / 32, wm = warp / 4, wn = warp % 4;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2; j++)
			wmma::fill_fragment(acc[i][j], 0.0f);
	int kt_n = K / MMA_BK;
	for (int s = 0; s < MMA_STAGES - 1; s++)
		mma_load(as + s * 128 * MMA_LD, bs + s * 128 * MMA_LD, A, B, K,
		         s * MMA_BK);
	for (int kt = 0; kt < kt_n; kt++) {
		asm volatile("cp.async.wait_group %0;" ::"n"(MMA_STAGES - 2)
		             : "memory");
		__syncthreads();
		int next = kt + MMA_STAGES - 1, ns = next % MMA_STAGES;
		if (next < kt_n)
			mma_load(as + ns * 128 * MMA_LD, bs + ns * 128 * MMA_LD,
			         A, B, K, next * MMA_BK);
		else
			asm volatile("cp.async.commit_group;" ::: "memory");
		const bf16 *a = as + (kt % MMA_STAGES) * 128 * MMA_LD;
		const bf16 *b = bs + (kt % MMA_STAGES) * 128 * MMA_LD;
#pragma unroll
		for (int kk = 0; kk < MMA_BK; kk += 16) {
			wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16,
			               wmma::row_major> fa[4];
			wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16,
			               wmma::col_major> fb[2];
			for (int i = 0; i < 4; i++)
				wmma::load_matrix_sync(
				    fa[i], a + (wm * 64 + i * 16) * MMA_LD + kk,
				    MMA_LD);
			for (int j = 0; j < 2; j++)
				wmma::load_matrix_sync(
				    fb[j], b + (wn * 32 + j * 16) * MMA_LD + kk,
				    MMA_LD);
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 2; j++)
					wmma::mma_sync(acc[i][j], fa[i], fb[j],
					               acc[i][j]);
		}
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2; j++) {
			size_t r = (size_t)blockIdx.y * 128 + wm * 64 + i * 16;
			int c = blockIdx.x * 128 + wn * 32 + j * 16;
			wmma::store_matrix_sync(C + r * N + c, acc[i][j], N,
			                        wmma::mem_row_major);
		}
}

/* ---- 5. wgmma fed by TMA (sm_90a) ---------------------------------------- */

enum {
	WG_BM = 128, WG_BN = 256, WG_BK = 64, WG_STAGES = 4,
	WG_THREADS = 384, /* producer warpgroup + two consumer warpgroups */
	WG_GROUP = 16,    /* tiles of M taken together, for L2 reuse */
};
struct WgSmem {
	bf16 a[WG_STAGES][WG_BM * WG_BK]; /* 16 KiB a stage */
	bf16 b[WG_STAGES][WG_BN * WG_BK]; /* 32 KiB a stage */
	uint64_t full[WG_STAGES], empty[WG_STAGES];
};
/* The 128-byte swizzle wants each stage 1024-byte aligned; dynamic shared
 * memory promises 16, so the kernel aligns its base and asks for the rest. */
static const int WG_SMEM = sizeof(WgSmem) + 1024;

/* Set in a binary compiled for sm_90a, where the wgmma kernel is real. */
__global__ void wgmma_probe(int *has)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
	*has = 1;
#else
	*has = 0;
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ void bar_init(uint64_t *bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
	                 smem_addr(bar)),
	             "r"(count));
}

__device__ void bar_arrive(uint64_t *bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
	                 smem_addr(bar))
	             : "memory");
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

/* Copy the box at (x, y) (x along K) of map into dst; completes on bar. */
__device__ void tma_load(void *dst, const CUtensorMap *map, int x, int y,
                         uint64_t *bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
	             ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
	             ::"r"(smem_addr(dst)), "l"((uint64_t)map), "r"(x), "r"(y),
	             "r"(smem_addr(bar)) : "memory");
}

/*
 * A wgmma operand descriptor for a K-major tile in shared memory written by
 * TMA with the 128-byte swizzle: rows of 64 values (128 bytes), groups of 8
 * rows 1024 bytes apart (the stride byte offset), swizzle mode 1. Moving
 * along K by 16 values inside the row adds 32 bytes to the start address.
 */
__device__ uint64_t wg_desc(const bf16 *p)
{
	uint64_t addr = smem_addr(p);
	return ((addr & 0x3ffff) >> 4) | ((uint64_t)1 << 16) |
	       ((uint64_t)(1024 >> 4) << 32) | ((uint64_t)1 << 62);
}

__device__ void wgmma_256(float *d, uint64_t da, uint64_t db, int scale_d)
{
	asm volatile(
	    "{\n"
	    ".reg .pred p;\n"
	    "setp.ne.b32 p, %130, 0;\n"
	    "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16\n"
	    "{"
	    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
	    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
	    "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
	    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
	    "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
	    "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
	    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
	    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
	    "}, %128, %129, p, 1, 1, 0, 0;\n"
	    "}\n"
	    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	      "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	      "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	      "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	      "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	      "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	      "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	      "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
	      "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
	      "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
	      "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
	      "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
	      "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
	      "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
	      "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
	      "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	    : "l"(da), "l"(db), "r"(scale_d));
}

__global__ void __launch_bounds__(WG_THREADS, 1)
    gemm_wgmma(const __grid_constant__ CUtensorMap map_a,
               const __grid_constant__ CUtensorMap map_b, float *C, int M,
               int N, int K)
{
	extern __shared__ unsigned char wg_raw[];
	WgSmem &s = *(WgSmem *)(((uintptr_t)wg_raw + 1023) & ~(uintptr_t)1023);
	/* Tiles in groups of WG_GROUP along M, so that the blocks resident at
	 * once share rows of A and columns of B in L2. */
	int tiles_m = M / WG_BM, tiles_n = N / WG_BN;
	int per_group = WG_GROUP * tiles_n, g = blockIdx.x / per_group;
	int first_m = g * WG_GROUP;
	int group_m = min(tiles_m - first_m, (int)WG_GROUP);
	int in_group = blockIdx.x % per_group;
	int m0 = (first_m + in_group % group_m) * WG_BM;
	int n0 = (in_group / group_m) * WG_BN;
	int kt_n = K / WG_BK;
	int wg = threadIdx.x / 128, t = threadIdx.x % 128;

	if (threadIdx.x == 0) {
		for (int i = 0; i < WG_STAGES; i++) {
			bar_init(&s.full[i], 1);
			bar_init(&s.empty[i], 2);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();

	if (wg == 0) {
		/* Producer: one thread keeps the ring full. */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
		if (t != 0)
			return;
		for (int kt = 0; kt < kt_n; kt++) {
			int st = kt % WG_STAGES;
			if (kt >= WG_STAGES)
				bar_wait(&s.empty[st], (kt / WG_STAGES - 1) & 1);
			bar_expect(&s.full[st],
			           (WG_BM + WG_BN) * WG_BK * sizeof(bf16));
			tma_load(s.a[st], &map_a, kt * WG_BK, m0, &s.full[st]);
			tma_load(s.b[st], &map_b, kt * WG_BK, n0, &s.full[st]);
		}
		return;
	}

	/* Consumer wg (1 or 2): rows (wg - 1) * 64 .. + 63 of the tile. */
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
	float d[128];
	for (int kt = 0; kt < kt_n; kt++) {
		int st = kt % WG_STAGES;
		bar_wait(&s.full[st], (kt / WG_STAGES) & 1);
		const bf16 *a = s.a[st] + (wg - 1) * 64 * WG_BK;
		asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
		for (int kk = 0; kk < WG_BK / 16; kk++)
			wgmma_256(d, wg_desc(a + kk * 16), wg_desc(s.b[st] + kk * 16),
			          kt > 0 || kk > 0);
		asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
		asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
		if (t == 0)
			bar_arrive(&s.empty[st]);
	}

	/* Thread t holds, for each 8 columns j, rows r and r + 8 of its warp's
	 * 16, two adjacent columns each. */
	int warp = t / 32, lane = t % 32;
	size_t r = m0 + (wg - 1) * 64 + warp * 16 + lane / 4;
	float *c = C + r * N + n0 + (lane % 4) * 2;
#pragma unroll
	for (int j = 0; j < WG_BN / 8; j++) {
		*(float2 *)(c + j * 8) = make_float2(d[4 * j], d[4 * j + 1]);
		*(float2 *)(c + 8 * (size_t)N + j * 8) =
		    make_float2(d[4 * j + 2], d[4 * j + 3]);
	}
}
#else
__global__ void gemm_wgmma(const __grid_constant__ CUtensorMap map_a,
                           const __grid_constant__ CUtensorMap map_b,
                           float *C, int M, int N, int K)
{
}
#endif

/* A 2-D map of a K-major bf16 matrix of `rows` rows, boxes of 64 x box_rows. */
static CUtensorMap tensor_map(const bf16 *base, int rows, int K, int box_rows)
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
	cuuint64_t dim[2] = {(cuuint64_t)K, (cuuint64_t)rows};
	cuuint64_t stride[1] = {(cuuint64_t)K * sizeof(bf16)};
	cuuint32_t box[2] = {WG_BK, (cuuint32_t)box_rows}, estride[2] = {1, 1};
	CUresult r = ((PFN_cuTensorMapEncodeTiled_v12000)fn)(
	    &m, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)base, dim, stride,
	    box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
	    CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", (int)r);
		exit(3);
	}
	return m;
}

/* ---- checks -------------------------------------------------------------- */

/* max over i of |c[i] - ref[i]| / s[i] into *out (as ordered bits: every
 * value is >= 0); a NaN counts as infinitely wrong. */
__global__ void err_max(const float *c, const float *ref, const float *s,
                        size_t n, unsigned *out)
{
	float worst = 0;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		float e = fabsf(c[i] - ref[i]) / fmaxf(s[i], 1e-30f);
		worst = e <= worst ? worst : (e == e ? e : INFINITY);
	}
	atomicMax(out, __float_as_uint(worst));
}

__global__ void gather(const float *c, const long *idx, int n, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = c[idx[i]];
}

__global__ void to_bf16(const float *in, bf16 *out, bf16 *abs_out, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		out[i] = __float2bfloat16(in[i]);
		abs_out[i] = __float2bfloat16(fabsf(in[i]));
	}
}

/* ---- host ---------------------------------------------------------------- */

struct Shape {
	int m, n, k;
	const char *kind; /* "square" or "skinny" */
};

struct Ctx {
	const bf16 *A, *B, *absA, *absB;
	float *C, *ref, *S;
	cublasHandle_t blas;
	bool has_wgmma;
	CUtensorMap map_a, map_b;
};

static void blas_check(cublasStatus_t s, const char *what)
{
	if (s != CUBLAS_STATUS_SUCCESS) {
		fprintf(stderr, "%s: cuBLAS status %d\n", what, (int)s);
		exit(3);
	}
}

/* C (M x N by rows) = A (M x K by rows) . B (K x N by columns). In cuBLAS's
 * column-major terms that is C^T = B^T A^T: B^T is B's storage read
 * transposed (op T), A^T is A's storage as it is (op N). */
static void blas_gemm(cublasHandle_t h, const bf16 *A, const bf16 *B, float *C,
                      const Shape &p)
{
	float one = 1, zero = 0;
	blas_check(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, p.n, p.m, p.k, &one,
	                        B, CUDA_R_16BF, p.k, A, CUDA_R_16BF, p.k, &zero,
	                        C, CUDA_R_32F, p.n, CUBLAS_COMPUTE_32F,
	                        CUBLAS_GEMM_DEFAULT),
	           "cublasGemmEx");
}

static bool fits(int step, const Shape &p)
{
	switch (step) {
	case SMEM: return p.m % 32 == 0 && p.n % 32 == 0 && p.k % 32 == 0;
	case REGS: return p.m % 128 == 0 && p.n % 128 == 0 && p.k % 16 == 0;
	case MMA: return p.m % 128 == 0 && p.n % 128 == 0 && p.k % MMA_BK == 0;
	case WGMMA:
		return p.m % WG_BM == 0 && p.n % WG_BN == 0 && p.k % WG_BK == 0;
	default: return true;
	}
}

static void launch(int step, const Shape &p, Ctx &c)
{
	switch (step) {
	case NAIVE:
		gemm_naive<<<dim3((p.n + 31) / 32, (p.m + 7) / 8), dim3(32, 8)>>>(
		    c.A, c.B, c.C, p.m, p.n, p.k);
		break;
	case SMEM:
		gemm_smem<<<dim3(p.n / 32, p.m / 32), dim3(32, 32)>>>(
		    c.A, c.B, c.C, p.m, p.n, p.k);
		break;
	case REGS:
		gemm_regs<<<dim3(p.n / 128, p.m / 128), 256>>>(c.A, c.B, c.C, p.m,
		                                                p.n, p.k);
		break;
	case MMA:
		gemm_mma<<<dim3(p.n / 128, p.m / 128), 256, MMA_SMEM>>>(
		    c.A, c.B, c.C, p.m, p.n, p.k);
		break;
	case WGMMA:
		gemm_wgmma<<<(p.m / WG_BM) * (p.n / WG_BN), WG_THREADS,
		             WG_SMEM>>>(c.map_a, c.map_b, c.C, p.m, p.n, p.k);
		break;
	case CUBLAS: blas_gemm(c.blas, c.A, c.B, c.C, p); break;
	}
	LAB_CHECK_LAUNCH();
}

static float bf16_round(float x)
{
	return __bfloat162float(__float2bfloat16(x));
}

/* Options for a point whose one launch took about est_ms: enough
 * repetitions for a stable median, but about a second at most. */
static lab::TimeOpts opts_for(double est_ms)
{
	lab::TimeOpts o;
	o.mode = lab::COLD;
	o.budget_ms = 300;
	o.max_reps = 200;
	if (est_ms > 15) {
		o.warmup = 1;
		o.min_reps = std::max(3, (int)(300 / est_ms));
	}
	return o;
}

/* Blocks in the grid of a hand-written step. */
static long blocks_of(int step, const Shape &p)
{
	switch (step) {
	case NAIVE: return (long)((p.n + 31) / 32) * ((p.m + 7) / 8);
	case SMEM: return (long)(p.n / 32) * (p.m / 32);
	case REGS:
	case MMA: return (long)(p.n / 128) * (p.m / 128);
	case WGMMA: return (long)(p.m / WG_BM) * (p.n / WG_BN);
	default: return 0;
	}
}

/* One launch's time, to size the repetitions; none under the profiler,
 * which should see each kernel as few times as possible. */
static double once_ms(int step, const Shape &p, Ctx &c)
{
	if (lab::profiling())
		return 0;
	cudaEvent_t a, b;
	LAB_CHECK(cudaEventCreate(&a));
	LAB_CHECK(cudaEventCreate(&b));
	LAB_CHECK(cudaEventRecord(a));
	launch(step, p, c);
	LAB_CHECK(cudaEventRecord(b));
	LAB_CHECK(cudaEventSynchronize(b));
	float ms;
	LAB_CHECK(cudaEventElapsedTime(&ms, a, b));
	LAB_CHECK(cudaEventDestroy(a));
	LAB_CHECK(cudaEventDestroy(b));
	return ms;
}

/* "MxNxK" into *p; false when it is not three positive numbers. */
static bool parse_shape(const char *s, Shape *p)
{
	char end;
	return sscanf(s, "%dx%dx%d%c", &p->m, &p->n, &p->k, &end) == 3 &&
	       p->m > 0 && p->n > 0 && p->k > 0;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> sizes = args.list("--sizes", "512:8192:x2");
	const char *skinny = args.str("--skinny", "8192x8192x512");
	long naive_max = args.integer("--naive-max", 2048);
	const int samples = 256;
	const lab::Device &dev = lab::device();

	std::vector<Shape> shapes;
	for (long n : sizes) {
		if (n < 1 || n > 16384) {
			fprintf(stderr, "--sizes: %ld is not in 1..16384\n", n);
			return 2;
		}
		shapes.push_back({(int)n, (int)n, (int)n, "square"});
	}
	if (strcmp(skinny, "none") != 0) {
		Shape p;
		if (!parse_shape(skinny, &p) || p.m > 16384 || p.n > 16384 ||
		    p.k > 16384) {
			fprintf(stderr, "--skinny: '%s' is not MxNxK (each "
			        "1..16384) or none\n", skinny);
			return 2;
		}
		p.kind = "skinny";
		shapes.push_back(p);
	}
	size_t max_a = 0, max_b = 0, max_c = 0;
	for (const Shape &p : shapes) {
		max_a = std::max(max_a, (size_t)p.m * p.k);
		max_b = std::max(max_b, (size_t)p.n * p.k);
		max_c = std::max(max_c, (size_t)p.m * p.n);
	}

	/* Inputs: uniform in [-1, 1] as FP32, rounded to BF16 on the device. */
	std::vector<float> ha(max_a), hb(max_b);
	lab::fill_uniform(ha.data(), max_a, 11);
	lab::fill_uniform(hb.data(), max_b, 12);
	Ctx c;
	bf16 *bufs[4];
	float *tmp;
	size_t counts[4] = {max_a, max_a, max_b, max_b};
	for (int i = 0; i < 4; i++)
		LAB_CHECK(cudaMalloc(&bufs[i], counts[i] * sizeof(bf16)));
	LAB_CHECK(cudaMalloc(&tmp, std::max(max_a, max_b) * sizeof(float)));
	LAB_CHECK(cudaMemcpy(tmp, ha.data(), max_a * 4, cudaMemcpyHostToDevice));
	to_bf16<<<1024, 256>>>(tmp, bufs[0], bufs[1], max_a);
	LAB_CHECK(cudaMemcpy(tmp, hb.data(), max_b * 4, cudaMemcpyHostToDevice));
	to_bf16<<<1024, 256>>>(tmp, bufs[2], bufs[3], max_b);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaFree(tmp));
	c.A = bufs[0], c.absA = bufs[1], c.B = bufs[2], c.absB = bufs[3];
	LAB_CHECK(cudaMalloc(&c.C, max_c * sizeof(float)));
	LAB_CHECK(cudaMalloc(&c.ref, max_c * sizeof(float)));
	LAB_CHECK(cudaMalloc(&c.S, max_c * sizeof(float)));
	long *d_idx;
	float *d_pick;
	unsigned *d_err;
	LAB_CHECK(cudaMalloc(&d_idx, samples * sizeof(long)));
	LAB_CHECK(cudaMalloc(&d_pick, samples * sizeof(float)));
	LAB_CHECK(cudaMalloc(&d_err, sizeof(unsigned)));
	blas_check(cublasCreate(&c.blas), "cublasCreate");

	int *d_has, has = 0;
	LAB_CHECK(cudaMalloc(&d_has, sizeof(int)));
	wgmma_probe<<<1, 1>>>(d_has);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaMemcpy(&has, d_has, sizeof has, cudaMemcpyDeviceToHost));
	c.has_wgmma = has && dev.prop.major == 9 && dev.prop.minor == 0;
	LAB_CHECK(cudaFuncSetAttribute(
	    gemm_mma, cudaFuncAttributeMaxDynamicSharedMemorySize, MMA_SMEM));
	if (c.has_wgmma)
		LAB_CHECK(cudaFuncSetAttribute(
		    gemm_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize,
		    WG_SMEM));

	printf("%s (sm_%d%d): %d SMs\n", dev.prop.name, dev.prop.major,
	       dev.prop.minor, dev.sm_count);
	printf("steps: naive up to %ld, smem, regs, mma%s, cublas\n", naive_max,
	       c.has_wgmma ? ", wgmma" : "");
	if (!c.has_wgmma)
		printf("wgmma: not run (it needs sm_90a; this card is sm_%d%d)\n",
		       dev.prop.major, dev.prop.minor);

	std::vector<std::vector<double>> tf(NSTEPS,
	                                    std::vector<double>(shapes.size()));
	int wrong = 0;
	for (size_t si = 0; si < shapes.size(); si++) {
		const Shape &p = shapes[si];
		double flops = 2.0 * p.m * p.n * p.k;
		double bytes = 2.0 * ((double)p.m * p.k + (double)p.n * p.k) +
		               4.0 * p.m * p.n;
		if (c.has_wgmma && fits(WGMMA, p)) {
			c.map_a = tensor_map(c.A, p.m, p.k, WG_BM);
			c.map_b = tensor_map(c.B, p.n, p.k, WG_BN);
		}
		blas_gemm(c.blas, c.A, c.B, c.ref, p);
		blas_gemm(c.blas, c.absA, c.absB, c.S, p);

		/* Exact sums at sampled entries, from the rounded inputs and
		 * from the FP32 numbers they were rounded from. */
		lab::Rng rng(100 + si);
		std::vector<long> idx(samples);
		std::vector<double> exact(samples), exact32(samples), sabs(samples);
		for (int i = 0; i < samples; i++) {
			long r = rng.next() % p.m, col = rng.next() % p.n;
			idx[i] = r * p.n + col;
			double e = 0, e32 = 0, s = 0;
			for (int k = 0; k < p.k; k++) {
				float a = ha[(size_t)r * p.k + k];
				float b = hb[(size_t)col * p.k + k];
				double ab = (double)bf16_round(a) * bf16_round(b);
				e += ab;
				e32 += (double)a * b;
				s += fabs(ab);
			}
			exact[i] = e, exact32[i] = e32, sabs[i] = s;
		}
		LAB_CHECK(cudaMemcpy(d_idx, idx.data(), samples * sizeof(long),
		                     cudaMemcpyHostToDevice));

		double bound = p.k * std::ldexp(1.0, -24);
		double cublas_rate = 0;
		for (int step : {CUBLAS, NAIVE, SMEM, REGS, MMA, WGMMA}) {
			tf[step][si] = NAN;
			if (!fits(step, p) || (step == WGMMA && !c.has_wgmma) ||
			    (step == NAIVE &&
			     std::max({p.m, p.n, p.k}) > naive_max))
				continue;
			lab::poison(c.C, (size_t)p.m * p.n * sizeof(float));
			launch(step, p, c);
			LAB_CHECK(cudaMemset(d_err, 0, sizeof(unsigned)));
			err_max<<<1024, 256>>>(c.C, c.ref, c.S,
			                       (size_t)p.m * p.n, d_err);
			gather<<<(samples + 255) / 256, 256>>>(c.C, d_idx, samples,
			                                       d_pick);
			LAB_CHECK_LAUNCH();
			unsigned err_bits;
			std::vector<float> pick(samples);
			LAB_CHECK(cudaMemcpy(&err_bits, d_err, sizeof err_bits,
			                     cudaMemcpyDeviceToHost));
			LAB_CHECK(cudaMemcpy(pick.data(), d_pick,
			                     samples * sizeof(float),
			                     cudaMemcpyDeviceToHost));
			float err;
			memcpy(&err, &err_bits, sizeof err);
			double err_exact = 0, err_fp32 = 0;
			for (int i = 0; i < samples; i++) {
				double e = fabs(pick[i] - exact[i]) / sabs[i];
				double e32 = fabs(pick[i] - exact32[i]) / sabs[i];
				err_exact = e <= err_exact ? err_exact
				                           : (e == e ? e : INFINITY);
				err_fp32 = e32 <= err_fp32 ? err_fp32
				                           : (e32 == e32 ? e32 : INFINITY);
			}
			bool ok = err_exact <= bound &&
			          (step == CUBLAS || err <= 2 * bound);
			if (!ok) {
				printf("WRONG: %s %dx%dx%d: error %.3g against "
				       "cuBLAS, %.3g against the exact sum "
				       "(bound %.3g)\n", names[step], p.m, p.n,
				       p.k, err, err_exact, bound);
				wrong++;
			}

			lab::Stats st = lab::time([&] { launch(step, p, c); },
			                          opts_for(once_ms(step, p, c)));
			double rate = flops / (st.median_ms * 1e6); /* GFLOP/s */
			if (step == CUBLAS)
				cublas_rate = rate;
			tf[step][si] = rate;
			lab::Record r;
			r.set("step", names[step]).set("shape", p.kind)
			    .set("m", p.m).set("n", p.n).set("k", p.k)
			    .set("ai", flops / bytes)
			    .set("ms", st.median_ms)
			    .set("tflops", rate / 1e3)
			    .rate("gflops", flops / 1e9, st)
			    .set("vs_cublas", rate / cublas_rate);
			if (step != CUBLAS)
				r.set("blocks", blocks_of(step, p)).set("err", err);
			r.set("err_exact", err_exact).set("err_fp32", err_fp32)
			    .set("bound", bound).set("correct", ok).stats(st).emit();
		}
	}

	printf("\nTFLOP/s (cold L2)");
	for (const Shape &p : shapes) {
		char col[32];
		snprintf(col, sizeof col, "%dx%dx%d", p.m, p.n, p.k);
		printf(" %15s", col);
	}
	printf("\n");
	for (int step = 0; step < NSTEPS; step++) {
		printf("%-17s", names[step]);
		for (size_t si = 0; si < shapes.size(); si++)
			if (std::isnan(tf[step][si]))
				printf(" %15s", "-");
			else
				printf(" %15.1f", tf[step][si] / 1e3);
		printf("\n");
	}
	for (size_t si = 0; si < shapes.size(); si++) {
		double best = 0;
		int best_step = NAIVE;
		for (int step = 0; step < CUBLAS; step++)
			if (tf[step][si] > best)
				best = tf[step][si], best_step = step;
		const Shape &p = shapes[si];
		printf("best hand-written at %dx%dx%d: %s, %.1f%% of cuBLAS\n",
		       p.m, p.n, p.k, names[best_step],
		       100 * best / tf[CUBLAS][si]);
	}
	printf("%s\n", wrong ? "SOME RESULTS WERE WRONG"
	                     : "every result within its bound");

	blas_check(cublasDestroy(c.blas), "cublasDestroy");
	for (int i = 0; i < 4; i++)
		LAB_CHECK(cudaFree(bufs[i]));
	LAB_CHECK(cudaFree(c.C));
	LAB_CHECK(cudaFree(c.ref));
	LAB_CHECK(cudaFree(c.S));
	LAB_CHECK(cudaFree(d_idx));
	LAB_CHECK(cudaFree(d_pick));
	LAB_CHECK(cudaFree(d_err));
	LAB_CHECK(cudaFree(d_has));
	return wrong ? 1 : 0;
}
