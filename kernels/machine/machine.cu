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
 * (bw_float_gbps, ...), and the best of the four is bw_copy_gbps.
 *
 * A copy is half reads and half writes, and DRAM pays for every turn of
 * its bus between the two, so a kernel with another mix has another roof.
 * The same chunked kernel (four 16-byte loads of each input in flight per
 * thread) streams three more mixes over the largest buffers, cold:
 *
 *   read     one input, no output (the sums are checked): bw_read_gbps
 *   write    no input, one output: bw_write_gbps
 *   2:1      two inputs, one output, c = a + b (SAXPY's mix):
 *            bw_read2write1_gbps
 *
 * Loaded latency: one thread follows a chain of pointers through 256 MiB
 * (a random order of 128-byte lines inside each 2 MiB page, the pages in
 * order), while every other warp of a full grid streams reads with `loads`
 * 4-byte loads in flight per thread (0: the chain alone). The time per
 * step is the latency of a DRAM load at that load level (dram_latency_ns
 * is the idle one), beside the bandwidth the other warps got.
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
 *   machine --mb 64:1024:x2 [--l2-kib 512,1024] --loads 0,1,4,16
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

/*
 * One chunk of U float4 per thread of each of R inputs, all loaded before
 * any store, then W (0 or 1) outputs: with R = 1, W = 0 the block's sum
 * goes to sums[blockIdx.x] (one store per 16 KiB read); with R = 0 the
 * output is a constant; with R = 2 it is a + b.
 */
template <int R, int W, int U>
__global__ void stream_mix(const float4 *__restrict__ a,
                           const float4 *__restrict__ b,
                           float4 *__restrict__ c, size_t n, float *sums)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * U + threadIdx.x;
	float4 x[U], y[U];
#pragma unroll
	for (int k = 0; k < U; k++) {
		size_t i = base + k * blockDim.x;
		x[k] = y[k] = make_float4(1, 2, 3, 4);
		if (R >= 1 && i < n)
			x[k] = a[i];
		if (R >= 2 && i < n)
			y[k] = b[i];
	}
	if constexpr (W == 0) {
		__shared__ float part[32];
		float s = 0;
#pragma unroll
		for (int k = 0; k < U; k++)
			if (base + k * blockDim.x < n)
				s += (x[k].x + x[k].y) + (x[k].z + x[k].w);
		for (int o = 16; o > 0; o /= 2)
			s += __shfl_down_sync(0xffffffffu, s, o);
		if (threadIdx.x % 32 == 0)
			part[threadIdx.x / 32] = s;
		__syncthreads();
		if (threadIdx.x == 0) {
			float t = 0;
			for (int w = 0; w < (int)blockDim.x / 32; w++)
				t += part[w];
			sums[blockIdx.x] = t;
		}
	} else {
#pragma unroll
		for (int k = 0; k < U; k++) {
			size_t i = base + k * blockDim.x;
			if (i >= n)
				continue;
			if (R == 2)
				c[i] = make_float4(x[k].x + y[k].x, x[k].y + y[k].y,
				                   x[k].z + y[k].z, x[k].w + y[k].w);
			else
				c[i] = x[k];
		}
	}
}

/*
 * Thread 0 of block 0 follows the chain `steps` times and writes the time
 * per step (ns) to out[0] and where it ended to out[2]; the other warps
 * read buf, `loads` 4-byte loads in flight per thread, until the chain is
 * done, and add the bytes they read to out[1].
 */
template <int L>
__global__ void chase_loaded(const unsigned *__restrict__ chain, int steps,
                             const float *__restrict__ buf, size_t n,
                             volatile int *done,
                             unsigned long long *out)
{
	if (blockIdx.x == 0 && threadIdx.x < 32) {
		if (threadIdx.x == 0) {
			unsigned j = 0;
			unsigned long long t0, t1;
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
			for (int s = 0; s < steps; s++)
				j = __ldcg(chain + j);
			asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
			out[0] = t1 - t0;
			out[2] = j;
			__threadfence();
			*done = 1;
		}
		return;
	}
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i = t;
	float acc = 0;
	unsigned long long trips = 0;
	for (;;) {
		if (i + (L - 1) * stride >= n)
			i = t;
		float v[L];
#pragma unroll
		for (int k = 0; k < L; k++)
			v[k] = __ldcg(buf + i + k * stride);
#pragma unroll
		for (int k = 0; k < L; k++)
			acc += v[k];
		i += L * stride;
		trips++;
		if ((trips & 7) == 0 && *done)
			break;
	}
	unsigned long long bytes = trips * L * sizeof(float);
	for (int o = 16; o > 0; o /= 2)
		bytes += __shfl_down_sync(0xffffffffu, bytes, o);
	if (threadIdx.x % 32 == 0)
		atomicAdd(out + 1, bytes);
	if (acc == 12345.0f)
		out[3] = 1;
}

/*
 * The three other mixes over the buffers of at least 4 x L2 (the largest
 * one when none is), cold; each best figure becomes a fact, and the read
 * figure is returned. a and b both hold h (b may be a itself, when no
 * third buffer fits), c is the output.
 */
static double run_mixes(const std::vector<size_t> &sizes, const float *a,
                      const float *b, float *c, float *sums,
                      const std::vector<float> &h, std::vector<float> &back)
{
	const lab::Device &dev = lab::device();
	const int threads = 256, U = 4;
	const char *names[] = {"read", "write", "2:1"};
	const char *facts[] = {"bw_read_gbps", "bw_write_gbps",
	                       "bw_read2write1_gbps"};
	const double reads[] = {1, 0, 2}, writes[] = {0, 1, 1};
	size_t largest = *std::max_element(sizes.begin(), sizes.end());
	lab::TimeOpts opts;
	opts.mode = lab::COLD;
	opts.budget_ms = 200;
	printf("\nother mixes (four 16-byte loads of each input in flight):\n");
	double read = 0;
	for (int m = 0; m < 3; m++) {
		double best = 0;
		for (size_t bytes : sizes) {
			if (bytes < 4 * (size_t)dev.l2_bytes && bytes != largest)
				continue;
			size_t n4 = bytes / sizeof(float4);
			unsigned grid = (unsigned)((n4 + U * threads - 1) / (U * threads));
			auto launch = [&] {
				const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
				float4 *c4 = (float4 *)c;
				if (m == 0)
					stream_mix<1, 0, U><<<grid, threads>>>(a4, b4, c4, n4, sums);
				else if (m == 1)
					stream_mix<0, 1, U><<<grid, threads>>>(a4, b4, c4, n4, sums);
				else
					stream_mix<2, 1, U><<<grid, threads>>>(a4, b4, c4, n4, sums);
			};
			lab::poison(c, bytes);
			lab::poison(sums, grid * sizeof(float));
			launch();
			LAB_CHECK_LAUNCH();
			bool ok = true;
			size_t nf = bytes / sizeof(float);
			if (m == 0) {
				std::vector<float> got(grid);
				LAB_CHECK(cudaMemcpy(got.data(), sums, grid * sizeof(float),
				                     cudaMemcpyDeviceToHost));
				double want = 0, sum = 0, mag = 0;
				for (size_t i = 0; i < nf; i++) {
					want += h[i];
					mag += fabs(h[i]);
				}
				for (float g : got)
					sum += g;
				ok = fabs(sum - want) <= 1e-4 * mag;
			} else {
				LAB_CHECK(cudaMemcpy(back.data(), c, bytes,
				                     cudaMemcpyDeviceToHost));
				const float k[4] = {1, 2, 3, 4};
				for (size_t i = 0; i < nf && ok; i++) {
					float want = m == 1 ? k[i % 4] : h[i] + h[i];
					ok = back[i] == want;
				}
			}
			lab::Stats st = lab::time(launch, opts);
			double moved = (reads[m] + writes[m]) * bytes;
			double gbps = moved / 1e9 / (st.median_ms * 1e-3);
			lab::Record()
			    .set("kind", "mix")
			    .set("variant", names[m])
			    .set("bytes", bytes)
			    .set("mb", (long)(bytes >> 20))
			    .set("read_share", reads[m] / (reads[m] + writes[m]))
			    .set("moved_bytes", moved)
			    .rate("gbps", moved / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
			printf("%6zu MiB  %-6s %10.3f ms  %9.1f GB/s  %s\n", bytes >> 20,
			       names[m], st.median_ms, gbps, ok ? "yes" : "NO");
			if (ok)
				best = std::max(best, gbps);
		}
		if (best > 0)
			lab::Record::fact(facts[m], best);
		if (m == 0)
			read = best;
	}
	return read;
}

/*
 * A chain through `bytes` of memory: the 128-byte lines of each 2 MiB page
 * in a random order (one cycle), page after page, the last line of the
 * last page leading back to the first. Word indices, one per line.
 */
static std::vector<unsigned> chain_make(size_t bytes)
{
	const size_t line = 32, page = (2u << 20) / sizeof(unsigned);
	size_t words = bytes / sizeof(unsigned);
	std::vector<unsigned> chain(words, 0);
	std::vector<unsigned> order(page / line);
	unsigned long long seed = 12345;
	size_t first = 0, prev = (size_t)-1;
	for (size_t p = 0; p < words / page; p++) {
		for (size_t k = 0; k < order.size(); k++)
			order[k] = (unsigned)k;
		for (size_t k = order.size() - 1; k > 0; k--) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			size_t r = (seed >> 33) % (k + 1);
			std::swap(order[k], order[r]);
		}
		for (unsigned o : order) {
			size_t w = p * page + o * line;
			if (prev == (size_t)-1)
				first = w;
			else
				chain[prev] = (unsigned)w;
			prev = w;
		}
	}
	chain[prev] = (unsigned)first;
	return chain; /* word 0 starts a line, so it is on the cycle */
}

/* Latency of a dependent DRAM load under several load levels. */
static void run_latency(const std::vector<long> &loads, const float *buf,
                        size_t buf_bytes)
{
	const lab::Device &dev = lab::device();
	const size_t chain_bytes = (size_t)256 << 20;
	const int steps = 4000, threads = 256;
	std::vector<unsigned> h = chain_make(chain_bytes);
	unsigned *chain;
	int *done;
	unsigned long long *out;
	LAB_CHECK(cudaMalloc(&chain, chain_bytes));
	LAB_CHECK(cudaMalloc(&done, sizeof(int)));
	LAB_CHECK(cudaMalloc(&out, 4 * sizeof(unsigned long long)));
	LAB_CHECK(cudaMemcpy(chain, h.data(), chain_bytes,
	                     cudaMemcpyHostToDevice));
	size_t n = buf_bytes / sizeof(float);
	printf("\nloaded latency: a chain of %d dependent loads over %zu MiB\n",
	       steps, chain_bytes >> 20);
	printf("%6s  %12s  %10s  %9s\n", "loads", "in flight/SM", "latency", "GB/s");
	for (long L : loads) {
		int per_sm = 0;
		unsigned grid = 1, block = 32;
		if (L > 0) {
			LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &per_sm, L == 1 ? chase_loaded<1>
			                    : L == 4 ? chase_loaded<4> : chase_loaded<16>,
			    threads, 0));
			grid = per_sm * dev.sm_count;
			block = threads;
		}
		std::vector<double> ns, gbps;
		for (int rep = 0; rep < 6; rep++) {
			LAB_CHECK(cudaMemset(done, 0, sizeof(int)));
			LAB_CHECK(cudaMemset(out, 0, 4 * sizeof(unsigned long long)));
			/* Each repetition walks the same lines: out of L2 first. */
			lab::flush_l2();
			switch (L) {
			case 0: case 1:
				chase_loaded<1><<<grid, block>>>(chain, steps, buf, n, done, out);
				break;
			case 4:
				chase_loaded<4><<<grid, block>>>(chain, steps, buf, n, done, out);
				break;
			default:
				chase_loaded<16><<<grid, block>>>(chain, steps, buf, n, done, out);
			}
			LAB_CHECK_LAUNCH();
			unsigned long long o[4];
			LAB_CHECK(cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost));
			if (rep == 0)
				continue; /* the first launch warms the TLBs */
			ns.push_back((double)o[0] / steps);
			gbps.push_back((double)o[1] / o[0]);
		}
		std::sort(ns.begin(), ns.end());
		std::sort(gbps.begin(), gbps.end());
		double lat = ns[ns.size() / 2], bw = gbps[gbps.size() / 2];
		double inflight = L > 0 ? (double)per_sm * threads * L * 4 : 0;
		lab::Record()
		    .set("kind", "latency")
		    .set("loads", L)
		    .set("blocks_per_sm", per_sm)
		    .set("inflight_kib", inflight / 1024)
		    .set("latency_ns", lat)
		    .set("latency_min_ns", ns.front())
		    .set("latency_max_ns", ns.back())
		    .set("gbps", bw)
		    .emit();
		printf("%6ld  %9.0f KiB  %7.0f ns  %9.1f\n", L, inflight / 1024, lat, bw);
		if (L == 0)
			lab::Record::fact("dram_latency_ns", lat);
	}
	LAB_CHECK(cudaFree(chain));
	LAB_CHECK(cudaFree(done));
	LAB_CHECK(cudaFree(out));
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
	std::vector<long> sizes_mb = args.list("--mb", "64:1024:x2");
	std::vector<long> loads = args.list("--loads", "0,1,4,16");
	for (long L : loads)
		if (L != 0 && L != 1 && L != 4 && L != 16) {
			fprintf(stderr, "--loads: %ld is not one of 0, 1, 4, 16\n", L);
			return 2;
		}
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
		copy = std::max(copy, b);
	}
	if (copy > 0)
		lab::Record::fact("bw_copy_gbps", copy);

	/* A third buffer for the 2:1 mix, when it fits beside the other two;
	 * it holds what src holds. */
	float *src2 = src, *sums;
	size_t grid_max = max_bytes / sizeof(float4) / 1024 + 1;
	if (3 * max_bytes + 2 * (size_t)dev.l2_bytes < free_b * 9 / 10) {
		LAB_CHECK(cudaMalloc(&src2, max_bytes));
		LAB_CHECK(cudaMemcpy(src2, src, max_bytes, cudaMemcpyDeviceToDevice));
	}
	LAB_CHECK(cudaMalloc(&sums, grid_max * sizeof(float)));
	double read = run_mixes(sizes, src, src2, dst, sums, h_src, h_dst);
	if (src2 != src)
		LAB_CHECK(cudaFree(src2));
	LAB_CHECK(cudaFree(sums));
	run_latency(loads, src, max_bytes);

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
	const char *roofs[] = {"HBM copy", "HBM read", "L2"};
	double bws[] = {copy, read, l2};
	for (int r = 0; r < 3; r++) {
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
