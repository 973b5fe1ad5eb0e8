/*
 * occupancy.cu - what the occupancy calculator predicts, and what it buys.
 *
 * Two copy kernels move the same bytes with a grid-stride loop:
 *   light  one float per thread per trip: few registers, little in flight;
 *   heavy  U floats per thread per trip, all loaded before any is stored:
 *          many registers, U times the bytes in flight per thread.
 * For each block size the program asks the runtime how many blocks of each
 * kernel fit on one SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor),
 * turns that into occupancy (active warps / maximum warps), and then
 * launches exactly that many blocks per SM, a single full wave, so that
 * the measured bandwidth belongs to the predicted occupancy. Block sizes
 * at which a kernel cannot launch at all are recorded with no time.
 *
 *   occupancy --threads 32:1024:32 --n 67108864
 */
#include "lab.h"

#define U 32

__global__ void light(const float *__restrict__ src, float *__restrict__ dst,
                      size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 1
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		dst[i] = src[i];
}

__global__ void heavy(const float *__restrict__ src, float *__restrict__ dst,
                      size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float v[U];
#pragma unroll 1
	for (size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	     base < n; base += U * stride) {
#pragma unroll
		for (int k = 0; k < U; k++) {
			size_t i = base + k * stride;
			v[k] = i < n ? src[i] : 0;
		}
#pragma unroll
		for (int k = 0; k < U; k++) {
			size_t i = base + k * stride;
			if (i < n)
				dst[i] = v[k];
		}
	}
}

typedef void (*KernelFn)(const float *, float *, size_t);

struct Kernel {
	const char *name;
	KernelFn fn;
};

/* Blocks per SM as the runtime predicts; 0 when a block cannot fit. */
static int predict(KernelFn fn, int threads)
{
	int n = 0;
	cudaError_t err =
	    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, threads, 0);
	if (err != cudaSuccess) {
		printf("occupancy API, %d threads: %s\n", threads,
		       cudaGetErrorString(err));
		cudaGetLastError();
		return 0;
	}
	return n;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> threads = args.list("--threads", "32:1024:32");
	size_t n = (size_t)args.integer("--n", 64l << 20);
	const lab::Device &dev = lab::device();
	int max_warps = dev.prop.maxThreadsPerMultiProcessor / dev.prop.warpSize;

	size_t bytes = n * sizeof(float);
	std::vector<float> hsrc(n), hdst(n);
	lab::fill_uniform(hsrc.data(), n, 3);
	float *src, *dst;
	LAB_CHECK(cudaMalloc(&src, bytes));
	LAB_CHECK(cudaMalloc(&dst, bytes));
	LAB_CHECK(cudaMemcpy(src, hsrc.data(), bytes, cudaMemcpyHostToDevice));

	printf("%s: %d SMs, %d warps and %d registers per SM, %.0f MB copied\n",
	       dev.prop.name, dev.sm_count, max_warps, dev.prop.regsPerMultiprocessor,
	       bytes / 1e6);

	Kernel kernels[] = {{"light", light}, {"heavy", heavy}};
	for (const Kernel &k : kernels) {
		cudaFuncAttributes fa;
		LAB_CHECK(cudaFuncGetAttributes(&fa, k.fn));
		printf("%s: %d registers per thread, %zu bytes of local memory\n",
		       k.name, fa.numRegs, fa.localSizeBytes);
		printf("%8s %10s %10s %9s\n", "threads", "blocks/SM", "occupancy",
		       "GB/s");
		for (long t : threads) {
			int per_sm = predict(k.fn, (int)t);
			int warps = (int)(t + dev.prop.warpSize - 1) / dev.prop.warpSize;
			double occ = (double)per_sm * warps / max_warps;
			lab::Record r;
			r.set("kernel", k.name)
			    .set("threads", t)
			    .set("regs", fa.numRegs)
			    .set("blocks_per_sm", per_sm)
			    .set("occupancy", occ)
			    .set("max_warps", max_warps)
			    .set("max_blocks_sm", dev.prop.maxBlocksPerMultiProcessor)
			    .set("regs_per_sm", dev.prop.regsPerMultiprocessor);
			if (per_sm == 0) {
				/* Try it: the launch itself must fail. */
				k.fn<<<1, (int)t>>>(src, dst, n);
				cudaError_t err = cudaGetLastError();
				LAB_CHECK(cudaDeviceSynchronize());
				printf("%8ld %10d %10s   launch: %s\n", t, 0, "-",
				       cudaGetErrorString(err));
				r.set("launch_error", cudaGetErrorString(err)).emit();
				continue;
			}

			int grid = per_sm * dev.sm_count;
			lab::poison(dst, bytes);
			k.fn<<<grid, (int)t>>>(src, dst, n);
			LAB_CHECK_LAUNCH();
			LAB_CHECK(cudaMemcpy(hdst.data(), dst, bytes,
			                     cudaMemcpyDeviceToHost));
			bool ok = !memcmp(hdst.data(), hsrc.data(), bytes);

			lab::Stats st = lab::time(
			    [&] { k.fn<<<grid, (int)t>>>(src, dst, n); },
			    {.mode = lab::COLD, .budget_ms = 200});
			printf("%8ld %10d %9.1f%% %9.1f%s\n", t, per_sm, occ * 100,
			       2.0 * bytes / 1e6 / st.median_ms, ok ? "" : "  WRONG");
			r.set("grid", grid)
			    .set("ms", st.median_ms)
			    .rate("gbps", 2.0 * bytes / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
		}
	}
	LAB_CHECK(cudaFree(src));
	LAB_CHECK(cudaFree(dst));
	return 0;
}
