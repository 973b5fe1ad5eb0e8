/*
 * transpose.cu - an n x n float matrix transposed in stages, timed cold.
 *
 *   copy      the same tiles copied without transposing: the ceiling a
 *             transpose can hope for (64 x 64 tiles, 16 floats a thread);
 *   naive     one float a thread, 32 x 32 threads: reads along rows
 *             (coalesced), writes down columns (each lane its own row);
 *   tiled     a 32 x 32 tile through shared memory: rows in, then each lane
 *             reads a column of the tile and writes a row of the output, so
 *             both global accesses are coalesced; reading a column of
 *             float[32][32] puts all 32 lanes in one bank (32-way conflict);
 *   padded    the same tile declared float[32][33]: row r starts r banks
 *             later, and a column touches 32 different banks;
 *   rows4     padded, 32 x 8 threads, 4 floats a thread (Harris's kernel);
 *   rows16    padded 64 x 64 tiles, 32 x 8 threads, 16 floats a thread.
 *
 * gbps counts the bytes read plus the bytes written (2 x 4 x n x n). The
 * output is poisoned before each variant and compared with a transpose on
 * the CPU, element by element.
 *
 *   transpose --n 2048,4096,8192
 */
#include "lab.h"

/* Naive: thread (x, y) reads in[y][x] and writes out[x][y]. */
__global__ void transpose_naive(const float *in, float *out, int n)
{
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

/*
 * Through shared memory: a TILE x TILE tile, blockDim = (32, ROWS); each
 * thread moves TILE / 32 columns x TILE / ROWS rows. PAD is 0 or 1 word.
 */
template <int TILE, int ROWS, int PAD>
__global__ void transpose_tiled(const float *in, float *out, int n)
{
	__shared__ float t[TILE][TILE + PAD];
	int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
#pragma unroll
	for (int c = 0; c < TILE; c += 32)
#pragma unroll
		for (int r = 0; r < TILE; r += ROWS)
			t[threadIdx.y + r][threadIdx.x + c] =
			    in[(size_t)(by + threadIdx.y + r) * n + bx + threadIdx.x + c];
	__syncthreads();
	/* Output tile (bx, by) swapped: its row r is the tile's column r. */
#pragma unroll
	for (int c = 0; c < TILE; c += 32)
#pragma unroll
		for (int r = 0; r < TILE; r += ROWS)
			out[(size_t)(bx + threadIdx.y + r) * n + by + threadIdx.x + c] =
			    t[threadIdx.x + c][threadIdx.y + r];
}

/* The copy with rows16's shape and no shared memory. */
template <int TILE, int ROWS>
__global__ void copy_tiled(const float *in, float *out, int n)
{
	int bx = blockIdx.x * TILE, by = blockIdx.y * TILE;
	float v[TILE / 32][TILE / ROWS];
#pragma unroll
	for (int c = 0; c < TILE / 32; c++)
#pragma unroll
		for (int r = 0; r < TILE / ROWS; r++)
			v[c][r] = in[(size_t)(by + threadIdx.y + r * ROWS) * n + bx +
			             threadIdx.x + c * 32];
#pragma unroll
	for (int c = 0; c < TILE / 32; c++)
#pragma unroll
		for (int r = 0; r < TILE / ROWS; r++)
			out[(size_t)(by + threadIdx.y + r * ROWS) * n + bx + threadIdx.x +
			    c * 32] = v[c][r];
}

struct Variant {
	const char *name;
	void (*kernel)(const float *, float *, int);
	int tile, rows;
	bool transposes;
};

static const Variant variants[] = {
	{"copy", copy_tiled<64, 8>, 64, 8, false},
	{"naive", transpose_naive, 32, 32, true}, /* one float a thread */
	{"tiled", transpose_tiled<32, 32, 0>, 32, 32, true},
	{"padded", transpose_tiled<32, 32, 1>, 32, 32, true},
	{"rows4", transpose_tiled<32, 8, 1>, 32, 8, true},
	{"rows16", transpose_tiled<64, 8, 1>, 64, 8, true},
};

/* out == in transposed (or copied), compared in 64 x 64 blocks so that
 * both matrices are walked through the CPU's caches. */
static bool check(const std::vector<float> &in, const std::vector<float> &out,
                  size_t n, bool transposes)
{
	for (size_t by = 0; by < n; by += 64)
		for (size_t bx = 0; bx < n; bx += 64)
			for (size_t y = by; y < by + 64; y++)
				for (size_t x = bx; x < bx + 64; x++)
					if (out[y * n + x] !=
					    (transposes ? in[x * n + y] : in[y * n + x]))
						return false;
	return true;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> sizes = args.list("--n", "2048,4096,8192");
	const lab::Device &dev = lab::device();
	printf("%s: %d SMs\n", dev.prop.name, dev.sm_count);
	printf("%-8s %6s %9s %8s\n", "variant", "n", "ms", "GB/s");

	for (long n : sizes) {
		if (n % 64) {
			fprintf(stderr, "--n: %ld is not a multiple of 64\n", n);
			return 2;
		}
		size_t count = (size_t)n * n, bytes = count * sizeof(float);
		std::vector<float> h_in(count), h_out(count);
		lab::fill_uniform(h_in.data(), count, 16);
		float *in, *out;
		LAB_CHECK(cudaMalloc(&in, bytes));
		LAB_CHECK(cudaMalloc(&out, bytes));
		LAB_CHECK(cudaMemcpy(in, h_in.data(), bytes, cudaMemcpyHostToDevice));

		for (const Variant &v : variants) {
			dim3 block(32, v.rows), grid(n / v.tile, n / v.tile);
			lab::poison(out, bytes);
			v.kernel<<<grid, block>>>(in, out, (int)n);
			LAB_CHECK_LAUNCH();
			LAB_CHECK(cudaMemcpy(h_out.data(), out, bytes,
			                     cudaMemcpyDeviceToHost));
			bool ok = check(h_in, h_out, n, v.transposes);
			lab::Stats st = lab::time(
			    [&] { v.kernel<<<grid, block>>>(in, out, (int)n); },
			    {.mode = lab::COLD});
			/* Loads each SM can have in flight: resident threads x
			 * the floats each thread loads before it stores any. */
			int per_sm = 0;
			LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &per_sm, v.kernel, 32 * v.rows, 0));
			int floats = v.tile * v.tile / (32 * v.rows);
			double kib = per_sm * 32 * v.rows * floats * 4 / 1024.0;
			lab::Record()
			    .set("variant", v.name)
			    .set("n", n)
			    .set("floats_per_thread", floats)
			    .set("threads_per_sm", per_sm * 32 * v.rows)
			    .set("kib_in_flight_sm", kib)
			    .set("ms", st.median_ms)
			    .rate("gbps", 2.0 * bytes / 1e9, st)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
			printf("%-8s %6ld %9.4f %8.0f%s\n", v.name, n, st.median_ms,
			       2.0 * bytes / 1e9 / (st.median_ms * 1e-3),
			       ok ? "" : "  WRONG");
		}
		LAB_CHECK(cudaFree(in));
		LAB_CHECK(cudaFree(out));
	}
	return 0;
}
