/*
 * layout.cu - the same work over two data layouts, timed cold.
 *
 * AoS vs SoA: n particles of eight floats (position x, y, z, velocity
 * vx, vy, vz, mass, charge). The update turns each (x, y) a quarter turn,
 * in place: x' = -y, y' = x; the other six fields are not touched. As an
 * array of structures a particle is one 32-byte sector, so the sector that
 * brings x and y also brings the six fields nobody asked for; as a
 * structure of arrays x and y sit in their own dense arrays. Each thread
 * updates PER_THREAD particles one block apart, loading all of them before
 * it stores any, so that both layouts keep enough loads in flight to be
 * limited by DRAM, not by latency.
 *
 * Pitched vs unpitched: a 2D array `width` floats wide (4097 by default, an
 * awkward width) scaled by a 2D grid, out = 2 in + 1. Unpitched rows follow
 * each other at width x 4 bytes, so most rows start off any alignment;
 * cudaMallocPitch pads each row to an aligned pitch. Each thread scales
 * PER_THREAD rows of one column, loads first, so both are bound by DRAM.
 *
 * Bandwidth counts useful bytes: for AoS/SoA 8 read and 8 written per
 * particle, for the 2D arrays 4 read and 4 written per element.
 *
 *   layout --n 16777216 --width 4097 --height 16384
 */
#include "lab.h"

#define FIELDS 8     /* floats per particle */
#define PER_THREAD 4 /* particles per thread, a block apart */

struct __align__(32) Particle {
	float x, y, z, vx, vy, vz, mass, charge;
};
static_assert(sizeof(Particle) == FIELDS * sizeof(float), "one sector");

__global__ void turn_aos(Particle *p, size_t n)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
	float x[PER_THREAD] = {}, y[PER_THREAD] = {};
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n) {
			x[k] = p[i].x;
			y[k] = p[i].y;
		}
	}
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n) {
			p[i].x = -y[k];
			p[i].y = x[k];
		}
	}
}

__global__ void turn_soa(float *__restrict__ x, float *__restrict__ y,
                         size_t n)
{
	size_t base = (size_t)blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
	float a[PER_THREAD] = {}, b[PER_THREAD] = {};
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n) {
			a[k] = x[i];
			b[k] = y[i];
		}
	}
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n) {
			x[i] = -b[k];
			y[i] = a[k];
		}
	}
}

/* pitch is in floats: the distance from one row to the next. Each thread
 * scales one column of PER_THREAD rows a block apart, loading all of them
 * before it stores any, so that the kernel keeps enough loads in flight
 * to be bound by DRAM, as the particle kernels are. */
__global__ void scale_2d(const float *in, float *out, int width, int height,
                         size_t pitch)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r0 = blockIdx.y * blockDim.y * PER_THREAD + threadIdx.y;
	float v[PER_THREAD] = {};
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		int r = r0 + k * blockDim.y;
		if (c < width && r < height)
			v[k] = in[r * pitch + c];
	}
#pragma unroll
	for (int k = 0; k < PER_THREAD; k++) {
		int r = r0 + k * blockDim.y;
		if (c < width && r < height)
			out[r * pitch + c] = 2.0f * v[k] + 1.0f;
	}
}

/* The expected (x, y) after `turns` quarter turns of (x0, y0). */
static void turned(float x0, float y0, long turns, float *x, float *y)
{
	switch (turns % 4) {
	case 0: *x = x0; *y = y0; break;
	case 1: *x = -y0; *y = x0; break;
	case 2: *x = -x0; *y = -y0; break;
	default: *x = y0; *y = -x0; break;
	}
}

static bool same(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static void particles(size_t n, const lab::TimeOpts &opts)
{
	std::vector<float> h(FIELDS * n), back(FIELDS * n);
	lab::fill_uniform(h.data(), h.size(), 8);
	const unsigned threads = 256;
	unsigned blocks = (unsigned)((n + threads * PER_THREAD - 1) /
	                             (threads * PER_THREAD));
	double bytes = 16.0 * n;

	/* The update runs in place, once per launch; counting the launches
	 * tells the CPU reference how many quarter turns to expect. */
	Particle *aos;
	LAB_CHECK(cudaMalloc(&aos, n * sizeof(Particle)));
	LAB_CHECK(cudaMemcpy(aos, h.data(), n * sizeof(Particle),
	                     cudaMemcpyHostToDevice));
	long turns = 0;
	lab::Stats st = lab::time([&] {
		turn_aos<<<blocks, threads>>>(aos, n);
		turns++;
	}, opts);
	LAB_CHECK(cudaMemcpy(back.data(), aos, n * sizeof(Particle),
	                     cudaMemcpyDeviceToHost));
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const float *p0 = &h[FIELDS * i], *p = &back[FIELDS * i];
		float x, y;
		turned(p0[0], p0[1], turns, &x, &y);
		ok = same(p[0], x) && same(p[1], y);
		for (int f = 2; f < FIELDS && ok; f++)
			ok = same(p[f], p0[f]);
	}
	LAB_CHECK(cudaFree(aos));
	lab::Record()
	    .set("layout", "aos")
	    .set("n", n)
	    .set("ms", st.median_ms)
	    .rate("gbps", bytes / 1e9, st)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	printf("aos        %8.3f ms  %6.0f GB/s%s\n", st.median_ms,
	       bytes / 1e9 / (st.median_ms * 1e-3), ok ? "" : "  WRONG");

	/* The same particles as FIELDS arrays: x[n], y[n], z[n], ... */
	float *soa;
	LAB_CHECK(cudaMalloc(&soa, FIELDS * n * sizeof(float)));
	std::vector<float> cols(FIELDS * n);
	for (size_t i = 0; i < n; i++)
		for (int f = 0; f < FIELDS; f++)
			cols[f * n + i] = h[FIELDS * i + f];
	LAB_CHECK(cudaMemcpy(soa, cols.data(), FIELDS * n * sizeof(float),
	                     cudaMemcpyHostToDevice));
	turns = 0;
	st = lab::time([&] {
		turn_soa<<<blocks, threads>>>(soa, soa + n, n);
		turns++;
	}, opts);
	LAB_CHECK(cudaMemcpy(back.data(), soa, FIELDS * n * sizeof(float),
	                     cudaMemcpyDeviceToHost));
	ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		const float *p0 = &h[FIELDS * i];
		float x, y;
		turned(p0[0], p0[1], turns, &x, &y);
		ok = same(back[i], x) && same(back[n + i], y);
		for (int f = 2; f < FIELDS && ok; f++)
			ok = same(back[f * n + i], p0[f]);
	}
	LAB_CHECK(cudaFree(soa));
	lab::Record()
	    .set("layout", "soa")
	    .set("n", n)
	    .set("ms", st.median_ms)
	    .rate("gbps", bytes / 1e9, st)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	printf("soa        %8.3f ms  %6.0f GB/s%s\n", st.median_ms,
	       bytes / 1e9 / (st.median_ms * 1e-3), ok ? "" : "  WRONG");
}

static void grid_2d(int width, int height, bool pitched,
                    const lab::TimeOpts &opts)
{
	size_t w = (size_t)width, h = (size_t)height;
	std::vector<float> src(w * h), ref(w * h), back(w * h);
	lab::fill_uniform(src.data(), src.size(), 9);
	for (size_t i = 0; i < src.size(); i++)
		ref[i] = 2.0f * src[i] + 1.0f;

	float *in, *out;
	size_t pitch_bytes = w * sizeof(float);
	if (pitched) {
		LAB_CHECK(cudaMallocPitch(&in, &pitch_bytes, w * sizeof(float), h));
		size_t p2;
		LAB_CHECK(cudaMallocPitch(&out, &p2, w * sizeof(float), h));
		if (p2 != pitch_bytes) {
			fprintf(stderr, "two pitches for one shape\n");
			exit(1);
		}
	} else {
		LAB_CHECK(cudaMalloc(&in, w * h * sizeof(float)));
		LAB_CHECK(cudaMalloc(&out, w * h * sizeof(float)));
	}
	LAB_CHECK(cudaMemcpy2D(in, pitch_bytes, src.data(), w * sizeof(float),
	                       w * sizeof(float), h, cudaMemcpyHostToDevice));
	LAB_CHECK(cudaMemset2D(out, pitch_bytes, 0xff, w * sizeof(float), h));

	dim3 block(32, 8);
	dim3 grid((width + 31) / 32, (height + 8 * PER_THREAD - 1) / (8 * PER_THREAD));
	size_t pitch = pitch_bytes / sizeof(float);
	lab::Stats st = lab::time([&] {
		scale_2d<<<grid, block>>>(in, out, width, height, pitch);
	}, opts);
	LAB_CHECK(cudaMemcpy2D(back.data(), w * sizeof(float), out, pitch_bytes,
	                       w * sizeof(float), h, cudaMemcpyDeviceToHost));
	bool ok = lab::check_close(back.data(), ref.data(), back.size(), 1e-6);
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(out));

	double bytes = 8.0 * w * h;
	lab::Record()
	    .set("layout", pitched ? "pitched" : "unpitched")
	    .set("width", width)
	    .set("height", height)
	    .set("pitch_bytes", pitch_bytes)
	    .set("rows_per_thread", PER_THREAD)
	    .set("ms", st.median_ms)
	    .rate("gbps", bytes / 1e9, st)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	printf("%-10s %8.3f ms  %6.0f GB/s  (row pitch %zu bytes)%s\n",
	       pitched ? "pitched" : "unpitched", st.median_ms,
	       bytes / 1e9 / (st.median_ms * 1e-3), pitch_bytes,
	       ok ? "" : "  WRONG");
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	size_t n = (size_t)args.integer("--n", 1L << 24);
	int width = (int)args.integer("--width", 4097);
	int height = (int)args.integer("--height", 16384);
	const lab::Device &dev = lab::device();

	lab::TimeOpts opts;
	opts.mode = lab::COLD;
	opts.budget_ms = 100;
	opts.max_reps = 200;

	printf("%s, cold\n", dev.prop.name);
	printf("%zu particles, %zu MiB as AoS\n", n, n * sizeof(Particle) >> 20);
	particles(n, opts);
	printf("%d x %d floats, %zu MiB per array\n", width, height,
	       (size_t)width * height * sizeof(float) >> 20);
	grid_2d(width, height, false, opts);
	grid_2d(width, height, true, opts);
	return 0;
}
