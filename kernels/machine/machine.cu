/*
 * machine.cu - the machine: its facts, its paper limits, and a measured one.
 *
 * Prints what the runtime says about the device, and what follows from it:
 * the FP32 peak (lanes x 2 flops x clock) and the DRAM bandwidth (memory
 * clock x 2 transfers x bus width). Then it measures the bandwidth that a
 * kernel really gets: a copy from one buffer to another, timed cold (L2
 * flushed first), counted as bytes read + bytes written, over buffer sizes.
 * Three kernels show what it takes to get near the limit:
 *
 *   float     one 4-byte element per thread, one grid covers the buffer
 *   float4    16-byte loads, a grid-stride loop over a full-occupancy grid
 *   float4x4  no loop: each block copies a contiguous chunk, each thread
 *             with four independent 16-byte loads in flight before
 *             its first store, and the grid covers the whole buffer
 *
 * and cudaMemcpy device to device is timed beside them. The best figure
 * of each, on buffers far larger than L2, becomes a machine fact
 * (bw_float_gbps, ...), and the best kernel's is bw_copy_gbps, which later
 * chapters compare against.
 *
 * L2 bandwidth: a read-only kernel makes many passes over a buffer well
 * inside L2 (from 1/32 to 1/2 of it, whatever its size) within one launch (loads marked .cg, so L1 keeps nothing), timed
 * hot, so the launch's fixed cost is a small part of its time. The best
 * figure on buffers of at most a quarter of L2 is bw_l2_gbps.
 *
 * The paper peaks of the other pipes (FP64, SFU, tensor cores) are not
 * computed here: labbook's facts table per compute capability gives them.
 * Then the roofline: for arithmetic intensities from 1/16 to 256 flops per byte,
 * min(FP32 peak, intensity x bandwidth) under the HBM (bw_copy_gbps) and
 * the L2 (bw_l2_gbps) roofs, as records of kind "roofline".
 *
 *   machine --mb 64:2048:x2 [--l2-kib 512,1024]
 */
#include "lab.h"

__global__ void copy_float(const float *__restrict__ src,
                           float *__restrict__ dst, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i];
}

/* U independent 16-byte loads per thread are issued before any store. */
template <int U>
__global__ void copy_float4(const float4 *__restrict__ src,
                            float4 *__restrict__ dst, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	for (; i + (U - 1) * stride < n; i += U * stride) {
		float4 v[U];
#pragma unroll
		for (int k = 0; k < U; k++)
			v[k] = src[i + k * stride];
#pragma unroll
		for (int k = 0; k < U; k++)
			dst[i + k * stride] = v[k];
	}
	for (; i < n; i += stride)
		dst[i] = src[i];
}

/*
 * No loop: each block copies one contiguous chunk of U x blockDim float4s,
 * all U loads in flight before the first store, and the grid covers the
 * whole buffer, so the hardware keeps replacing finished blocks.
 */
template <int U>
__global__ void copy_float4_chunk(const float4 *__restrict__ src,
                                  float4 *__restrict__ dst, size_t n)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
	float4 v[U];
#pragma unroll
	for (int k = 0; k < U; k++)
		if (base + k * blockDim.x < n)
			v[k] = src[base + k * blockDim.x];
#pragma unroll
	for (int k = 0; k < U; k++)
		if (base + k * blockDim.x < n)
			dst[base + k * blockDim.x] = v[k];
}

/*
 * Read the buffer `passes` times in one launch: U independent 16-byte loads
 * per thread in flight, .cg (cached in L2 only). The sums keep the loads
 * alive; one store per thread, only when a sum is not finite.
 */
template <int U>
__global__ void l2_read(const float4 *__restrict__ buf, size_t n4, int passes,
                        float *out)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float acc[U];
#pragma unroll
	for (int k = 0; k < U; k++)
		acc[k] = 0;
	for (int p = 0; p < passes; p++) {
		for (size_t i = t; i < n4; i += U * stride) {
#pragma unroll
			for (int k = 0; k < U; k++) {
				size_t j = i + k * stride;
				float4 v = j < n4 ? __ldcg(buf + j)
				                  : make_float4(0, 0, 0, 0);
				acc[k] += (v.x + v.y) + (v.z + v.w);
			}
		}
	}
	float s = 0;
#pragma unroll
	for (int k = 0; k < U; k++)
		s += acc[k];
	if (!isfinite(s))
		out[t] = s;
}

/* Blocks of `threads` that fill every SM once, by the occupancy API. */
template <class K> static int full_grid(K kernel, int threads)
{
	int per_sm = 0;
	LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
	                                                        threads, 0));
	return std::max(per_sm, 1) * lab::device().sm_count;
}

static void print_facts(const lab::Device &d)
{
	const cudaDeviceProp &p = d.prop;
	int rt = 0, drv = 0;
	LAB_CHECK(cudaRuntimeGetVersion(&rt));
	LAB_CHECK(cudaDriverGetVersion(&drv));
	printf("device            %s (compute capability %d.%d)\n", p.name,
	       d.cc / 10, d.cc % 10);
	printf("runtime / driver  %d.%d / %d.%d\n", rt / 1000, rt % 1000 / 10,
	       drv / 1000, drv % 1000 / 10);
	printf("SMs               %d, FP32 lanes per SM %d\n", d.sm_count,
	       d.fp32_lanes_per_sm);
	printf("SM clock          %d MHz rated\n", d.clock_mhz);
	printf("memory            %.1f GiB, %d MHz, %d-bit bus\n",
	       p.totalGlobalMem / 1073741824.0, d.mem_clock_mhz,
	       d.bus_width_bits);
	printf("L2 cache          %.1f MiB\n", d.l2_bytes / 1048576.0);
	printf("shared memory     %zu KiB per SM, %zu KiB per block "
	       "(%zu KiB opt-in)\n", p.sharedMemPerMultiprocessor / 1024,
	       p.sharedMemPerBlock / 1024, p.sharedMemPerBlockOptin / 1024);
	printf("registers         %d per SM, %d per block\n",
	       p.regsPerMultiprocessor, p.regsPerBlock);
	printf("threads           %d per SM, %d per block, %d blocks per SM, "
	       "warp of %d\n", p.maxThreadsPerMultiProcessor,
	       p.maxThreadsPerBlock, p.maxBlocksPerMultiProcessor, p.warpSize);
	printf("FP32 peak         %.1f GFLOP/s per SM, %.1f GFLOP/s per chip\n",
	       d.peak_fp32_gflops_sm, d.peak_fp32_gflops_sm * d.sm_count);
	printf("DRAM bandwidth    %.1f GB/s (memory clock x 2 x bus width)\n",
	       d.bw_theoretical_gbps);
	printf("balance           %.1f flops per byte of DRAM traffic\n\n",
	       d.peak_fp32_gflops_sm * d.sm_count / d.bw_theoretical_gbps);

	/* Facts the chapter quotes that machine.json does not already hold. */
	lab::Record::fact("mem_gib", p.totalGlobalMem / 1073741824.0);
	lab::Record::fact("smem_per_sm_kib", p.sharedMemPerMultiprocessor / 1024.0);
	lab::Record::fact("smem_per_block_kib", p.sharedMemPerBlock / 1024.0);
	lab::Record::fact("smem_per_block_optin_kib",
	                  p.sharedMemPerBlockOptin / 1024.0);
	lab::Record::fact("regs_per_sm", p.regsPerMultiprocessor);
	lab::Record::fact("regs_per_block", p.regsPerBlock);
	lab::Record::fact("max_threads_per_sm", p.maxThreadsPerMultiProcessor);
	lab::Record::fact("max_threads_per_block", p.maxThreadsPerBlock);
	lab::Record::fact("max_blocks_per_sm", p.maxBlocksPerMultiProcessor);
	lab::Record::fact("warp_size", p.warpSize);
	lab::Record::fact("fp32_lanes_per_sm", d.fp32_lanes_per_sm);
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> sizes_mb = args.list("--mb", "64:2048:x2");
	const lab::Device &dev = lab::device();
	/* L2 buffers: 1/32 to 1/2 of this card's L2, in 64 KiB steps. */
	std::string l2_def;
	for (int k = 5; k >= 1; k--)
		if ((dev.l2_bytes >> k) >= 65536)
			l2_def += (l2_def.empty() ? "" : ",") +
			          std::to_string(((dev.l2_bytes >> k) & ~0xFFFFL) >> 10);
	std::vector<long> l2_kib = args.list("--l2-kib", l2_def.c_str());
	print_facts(dev);

	/* Two buffers of the largest size; drop sizes this card cannot hold. */
	size_t free_b = 0, total_b = 0;
	LAB_CHECK(cudaMemGetInfo(&free_b, &total_b));
	size_t max_bytes = 0;
	std::vector<size_t> sizes;
	for (long mb : sizes_mb) {
		size_t b = (size_t)mb << 20;
		if (mb <= 0 || 2 * b + 2 * (size_t)dev.l2_bytes > free_b * 9 / 10) {
			printf("skipping %ld MiB: it does not fit twice in memory\n",
			       mb);
			continue;
		}
		sizes.push_back(b);
		max_bytes = std::max(max_bytes, b);
	}
	if (sizes.empty()) {
		fprintf(stderr, "no buffer size fits\n");
		return 1;
	}

	size_t nf = max_bytes / sizeof(float);
	std::vector<float> h_src(nf), h_dst(nf);
	lab::fill_uniform(h_src.data(), nf, 1);
	float *src, *dst;
	LAB_CHECK(cudaMalloc(&src, max_bytes));
	LAB_CHECK(cudaMalloc(&dst, max_bytes));
	LAB_CHECK(cudaMemcpy(src, h_src.data(), max_bytes,
	                     cudaMemcpyHostToDevice));

	const int threads = 256;
	int grid4 = full_grid(copy_float4<1>, threads);
	printf("float4 grid-stride: %d blocks of %d threads\n\n", grid4, threads);
	printf("%10s  %-9s  %10s  %9s  %s\n", "buffer", "copy", "ms", "GB/s",
	       "correct");

	/* The best figure of each variant on buffers of 4 x L2 or more, where
	 * L2 cannot keep a useful part of the destination (any size when no
	 * buffer is that large). */
	const char *variants[] = {"float", "float4", "float4x4", "cudaMemcpy"};
	const char *facts[] = {"bw_float_gbps", "bw_float4_gbps",
	                       "bw_float4x4_gbps", "bw_memcpy_gbps"};
	double best[4] = {0, 0, 0, 0}, best_any[4] = {0, 0, 0, 0};
	lab::TimeOpts opts;
	opts.mode = lab::COLD;
	opts.budget_ms = 200;
	for (size_t bytes : sizes) {
		size_t n = bytes / sizeof(float), n4 = bytes / sizeof(float4);
		for (int v = 0; v < 4; v++) {
			auto launch = [&] {
				switch (v) {
				case 0:
					copy_float<<<(unsigned)((n + threads - 1) / threads),
					             threads>>>(src, dst, n);
					break;
				case 1:
					copy_float4<1><<<grid4, threads>>>(
					    (const float4 *)src, (float4 *)dst, n4);
					break;
				case 2:
					copy_float4_chunk<4><<<(unsigned)((n4 + 4 * threads - 1) /
					                                  (4 * threads)),
					                       threads>>>(
					    (const float4 *)src, (float4 *)dst, n4);
					break;
				default:
					LAB_CHECK(cudaMemcpyAsync(dst, src, bytes,
					                          cudaMemcpyDeviceToDevice));
				}
			};
			lab::poison(dst, bytes);
			lab::Stats st = lab::time(launch, opts);
			LAB_CHECK(cudaMemcpy(h_dst.data(), dst, bytes,
			                     cudaMemcpyDeviceToHost));
			bool ok = memcmp(h_dst.data(), h_src.data(), bytes) == 0;
			double gbps = 2.0 * bytes / 1e9 / (st.median_ms * 1e-3);
			lab::Record()
			    .set("kind", v == 3 ? "memcpy" : "copy")
			    .set("variant", variants[v])
			    .set("bytes", bytes)
			    .set("mb", (long)(bytes >> 20))
			    .set("moved_bytes", 2 * bytes)
			    .rate("gbps", 2.0 * bytes / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
			printf("%6zu MiB  %-10s %10.3f  %9.1f  %s\n", bytes >> 20,
			       variants[v], st.median_ms, gbps, ok ? "yes" : "NO");
			if (!ok)
				continue;
			best_any[v] = std::max(best_any[v], gbps);
			if (bytes >= 4 * (size_t)dev.l2_bytes)
				best[v] = std::max(best[v], gbps);
		}
	}

	printf("\nbest on large buffers (theoretical %.1f GB/s):\n",
	       dev.bw_theoretical_gbps);
	double copy = 0;
	for (int v = 0; v < 4; v++) {
		double b = best[v] > 0 ? best[v] : best_any[v];
		if (b == 0)
			continue;
		printf("  %-10s  %9.1f GB/s  %5.1f%%\n", variants[v], b,
		       100 * b / dev.bw_theoretical_gbps);
		lab::Record::fact(facts[v], b);
		if (v < 3)
			copy = std::max(copy, b);
	}
	if (copy > 0)
		lab::Record::fact("bw_copy_gbps", copy);

	/* L2: about 2 GB read per launch, whatever the buffer size. */
	int gridl2 = full_grid(l2_read<4>, threads);
	double l2 = 0;
	printf("\nL2 read, hot, %d blocks of %d threads:\n", gridl2, threads);
	printf("%10s  %7s  %10s  %9s\n", "buffer", "passes", "ms", "GB/s");
	for (long kib : l2_kib) {
		size_t bytes = (size_t)kib << 10;
		double mb = kib / 1024.0;
		if (kib <= 0 || bytes > max_bytes)
			continue;
		int passes = (int)std::max<size_t>(1, ((size_t)2 << 30) / bytes);
		lab::Stats st = lab::time([&] {
			l2_read<4><<<gridl2, threads>>>((const float4 *)src,
			                                bytes / sizeof(float4),
			                                passes, dst);
		});
		double read = (double)bytes * passes;
		double gbps = read / 1e9 / (st.median_ms * 1e-3);
		lab::Record()
		    .set("kind", "l2")
		    .set("variant", "l2 read")
		    .set("bytes", bytes)
		    .set("mb", mb)
		    .set("passes", passes)
		    .set("moved_bytes", read)
		    .rate("gbps", read / 1e9, st)
		    .set("correct", true)
		    .stats(st)
		    .emit();
		printf("%8.2f MiB  %7d  %10.3f  %9.1f\n", mb, passes, st.median_ms,
		       gbps);
		if (bytes <= (size_t)dev.l2_bytes / 4)
			l2 = std::max(l2, gbps);
	}
	if (l2 > 0)
		lab::Record::fact("bw_l2_gbps", l2);

	/* The roofline under the FP32 peak. */
	double fp32 = dev.peak_fp32_gflops_sm * dev.sm_count;
	printf("\npeak: FP32 %.0f GFLOP/s\n", fp32);
	const char *roofs[] = {"HBM", "L2"};
	double bws[] = {copy, l2};
	for (int r = 0; r < 2; r++) {
		if (bws[r] <= 0)
			continue;
		std::vector<double> ai;
		for (double x = 1.0 / 16; x <= 256; x *= 2)
			ai.push_back(x);
		ai.push_back(fp32 / bws[r]); /* the ridge point */
		std::sort(ai.begin(), ai.end());
		for (double x : ai)
			lab::Record()
			    .set("kind", "roofline")
			    .set("roof", roofs[r])
			    .set("flops_per_byte", x)
			    .set("gflops", std::min(fp32, x * bws[r]))
			    .emit();
		printf("ridge under %s: %.1f flops per byte\n", roofs[r],
		       fp32 / bws[r]);
	}

	LAB_CHECK(cudaFree(src));
	LAB_CHECK(cudaFree(dst));
	return 0;
}
