/*
 * coalesce.cu - how the addresses of a warp decide what DRAM delivers.
 *
 * Two copies from one buffer to another, timed cold (L2 flushed before every
 * repetition), over buffers far larger than L2:
 *
 *   offset   out[i] = in[i + offset]: every warp reads 128 contiguous bytes,
 *            shifted off their natural alignment by `offset` floats;
 *   stride   out[i] = in[i * stride]: neighbouring threads read floats
 *            `stride` apart, so a warp's 32 loads spread over 32 x stride
 *            floats.
 *
 * Bandwidth counts useful bytes only: 4 read and 4 written per element
 * copied. Every point copies the same n floats (--mb MiB read, as many
 * written), so the bytes moved are the same at every stride and the output
 * is always several times larger than L2; at stride s the input spans
 * s x n floats (made on the device, checked on the host against the same
 * formula), and the bytes the hardware fetches around the useful ones are
 * not counted. The stride kernel is a template on the stride, so that each
 * stride's launches carry their own kernel name under Nsight Compute.
 *
 * --fetch 32, 64 or 128 first sets cudaLimitMaxL2FetchGranularity, the
 * most bytes L2 fetches from DRAM for one miss; every record carries the
 * value the runtime reports back (fetch).
 *
 *   coalesce --mb 256 --offsets 0:32:1 --strides 1:32:x2 [--fetch 32]
 */
#include "lab.h"

#define PER_THREAD 4 /* independent loads in flight per thread */

/* Thread t of block b copies elements b*B*4 + k*B + t for k < 4: each of
 * the four loads of a warp covers 32 neighbouring elements. */
__global__ void copy_offset(const float *__restrict__ in,
                            float *__restrict__ out, size_t n, int offset)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
	float v[PER_THREAD];
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		v[k] = i < n ? in[i + offset] : 0.0f;
	}
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n)
			out[i] = v[k];
	}
}

template <int S>
__global__ void copy_stride(const float *__restrict__ in,
                            float *__restrict__ out, size_t m)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
	float v[PER_THREAD];
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		v[k] = i < m ? in[i * S] : 0.0f;
	}
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < m)
			out[i] = v[k];
	}
}

/* The value at index i of the strided input: exact in a float. */
__host__ __device__ inline float strided_value(size_t i)
{
	uint32_t h = (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32);
	h ^= h >> 15;
	h *= 2246822519u;
	h ^= h >> 13;
	return (float)(h >> 8) * (1.0f / 16777216.0f);
}

__global__ void fill_strided(float *in, size_t n)
{
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		in[i] = strided_value(i);
}

static unsigned blocks_for(size_t elems, int threads)
{
	size_t per_block = (size_t)threads * PER_THREAD;
	return (unsigned)((elems + per_block - 1) / per_block);
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	size_t mb = (size_t)args.integer("--mb", 256);
	std::vector<long> offsets = args.list("--offsets", "0:32:1");
	std::vector<long> strides = args.list("--strides", "1:32:x2");
	long fetch_ask = args.integer("--fetch", 0);
	const int threads = 256;
	const lab::Device &dev = lab::device();
	if (fetch_ask != 0 && fetch_ask != 32 && fetch_ask != 64 &&
	    fetch_ask != 128) {
		fprintf(stderr, "--fetch: %ld is not 32, 64 or 128\n", fetch_ask);
		return 2;
	}
	if (fetch_ask)
		LAB_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity,
		                             (size_t)fetch_ask));
	size_t fetch = 0;
	LAB_CHECK(cudaDeviceGetLimit(&fetch, cudaLimitMaxL2FetchGranularity));
	printf("L2 fetch granularity: %zu bytes%s\n", fetch,
	       fetch_ask ? " (set by --fetch)" : " (the default)");

	size_t n = mb << 18; /* floats in the copied range */
	long max_off = *std::max_element(offsets.begin(), offsets.end());
	long min_off = *std::min_element(offsets.begin(), offsets.end());
	long min_stride = *std::min_element(strides.begin(), strides.end());
	if (min_off < 0 || max_off > 1024 || min_stride < 1) {
		fprintf(stderr, "offsets must be 0..1024 and strides >= 1\n");
		return 2;
	}
	size_t n_in = n + (size_t)max_off;

	float *h_in = (float *)malloc(n_in * sizeof(float));
	float *h_out = (float *)malloc(n * sizeof(float));
	float *in, *out;
	if (!h_in || !h_out) {
		fprintf(stderr, "out of host memory\n");
		return 1;
	}
	lab::fill_uniform(h_in, n_in, 6);
	LAB_CHECK(cudaMalloc(&in, n_in * sizeof(float)));
	LAB_CHECK(cudaMalloc(&out, n * sizeof(float)));
	LAB_CHECK(cudaMemcpy(in, h_in, n_in * sizeof(float),
	                     cudaMemcpyHostToDevice));

	printf("%s: %zu MiB copied per offset point, L2 %ld MiB, cold\n",
	       dev.prop.name, 2 * n * sizeof(float) >> 20, dev.l2_bytes >> 20);
	lab::TimeOpts opts;
	opts.mode = lab::COLD;
	opts.budget_ms = 100;
	opts.max_reps = 200;

	printf("offset  GB/s\n");
	for (long off : offsets) {
		lab::poison(out, n * sizeof(float));
		lab::Stats st = lab::time([&] {
			copy_offset<<<blocks_for(n, threads), threads>>>(
			    in, out, n, (int)off);
		}, opts);
		LAB_CHECK(cudaMemcpy(h_out, out, n * sizeof(float),
		                     cudaMemcpyDeviceToHost));
		bool ok = memcmp(h_out, h_in + off, n * sizeof(float)) == 0;
		double bytes = 2.0 * n * sizeof(float);
		lab::Record()
		    .set("pattern", "offset")
		    .set("fetch", (long)fetch)
		    .set("offset", off)
		    .set("bytes", bytes)
		    .rate("gbps", bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%6ld  %6.0f%s\n", off, bytes / 1e9 / (st.median_ms * 1e-3),
		       ok ? "" : "  WRONG");
	}

	/* The strided copies: n floats copied at every stride, from an input
	 * of max_stride x n floats. */
	long max_stride = *std::max_element(strides.begin(), strides.end());
	LAB_CHECK(cudaFree(in));
	size_t n_span = n * (size_t)max_stride;
	LAB_CHECK(cudaMalloc(&in, n_span * sizeof(float)));
	fill_strided<<<4 * dev.sm_count, 256>>>(in, n_span);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaDeviceSynchronize());

	printf("stride  input span  useful GB/s\n");
	for (long s : strides) {
		lab::poison(out, n * sizeof(float));
		auto launch = [&] {
			unsigned g = blocks_for(n, threads);
			switch (s) {
			case 1: copy_stride<1><<<g, threads>>>(in, out, n); break;
			case 2: copy_stride<2><<<g, threads>>>(in, out, n); break;
			case 4: copy_stride<4><<<g, threads>>>(in, out, n); break;
			case 8: copy_stride<8><<<g, threads>>>(in, out, n); break;
			case 16: copy_stride<16><<<g, threads>>>(in, out, n); break;
			case 32: copy_stride<32><<<g, threads>>>(in, out, n); break;
			}
		};
		if (s != 1 && s != 2 && s != 4 && s != 8 && s != 16 && s != 32) {
			fprintf(stderr, "--strides: %ld is not one of 1, 2, 4, 8, "
			        "16, 32\n", s);
			return 2;
		}
		lab::Stats st = lab::time(launch, opts);
		LAB_CHECK(cudaMemcpy(h_out, out, n * sizeof(float),
		                     cudaMemcpyDeviceToHost));
		bool ok = true;
		for (size_t i = 0; i < n && ok; i++)
			ok = h_out[i] == strided_value(i * (size_t)s);
		double bytes = 2.0 * n * sizeof(float);
		lab::Record()
		    .set("pattern", "stride")
		    .set("fetch", (long)fetch)
		    .set("stride", s)
		    .set("bytes", bytes)
		    .set("span_bytes", (double)n * s * sizeof(float))
		    .rate("gbps", bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%6ld  %6zu MiB  %6.0f%s\n", s,
		       n * (size_t)s * sizeof(float) >> 20,
		       bytes / 1e9 / (st.median_ms * 1e-3), ok ? "" : "  WRONG");
	}

	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(out));
	free(h_in);
	free(h_out);
	return 0;
}
