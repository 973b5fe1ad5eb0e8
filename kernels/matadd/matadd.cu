/*
 * matadd.cu - block shape and a two-dimensional kernel.
 *
 * C = A + B on an nx by ny matrix of floats, one element per thread, with a
 * 2D grid of 2D blocks. The same kernel is launched with many block shapes
 * (bx by by threads); for each the program records the time, the effective
 * bandwidth (three matrices moved) and the occupancy the runtime predicts.
 * Rows are contiguous in memory, so bx decides how many bytes of one row a
 * warp touches, and bx * by decides how many blocks fit on an SM.
 *
 *   matadd --nx 8192 --ny 8192 --shapes 32x32,32x16,16x32,16x16
 */
#include "lab.h"

__global__ void matadd(const float *a, const float *b, float *c, int nx, int ny)
{
	int ix = blockIdx.x * blockDim.x + threadIdx.x;
	int iy = blockIdx.y * blockDim.y + threadIdx.y;
	if (ix < nx && iy < ny) {
		size_t i = (size_t)iy * nx + ix;
		c[i] = a[i] + b[i];
	}
}

/* Parse "32x16" into bx = 32, by = 16. */
static bool parse_shape(const char *s, int *bx, int *by)
{
	char x;
	return sscanf(s, "%d%c%d", bx, &x, by) == 3 && x == 'x' && *bx > 0 &&
	       *by > 0 && *bx * *by <= 1024;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	int nx = (int)args.integer("--nx", 8192);
	int ny = (int)args.integer("--ny", 8192);
	std::string shapes = args.str("--shapes",
	                              "32x32,32x16,16x32,16x16,32x8,8x32,64x8,"
	                              "128x2,256x1,1024x1,32x4,8x8,8x4,4x64,1x128");
	const lab::Device &dev = lab::device();

	size_t n = (size_t)nx * ny, bytes = n * sizeof(float);
	std::vector<float> ha(n), hb(n), hc(n), ref(n);
	lab::fill_uniform(ha.data(), n, 1);
	lab::fill_uniform(hb.data(), n, 2);
	for (size_t i = 0; i < n; i++)
		ref[i] = ha[i] + hb[i];

	float *a, *b, *c;
	LAB_CHECK(cudaMalloc(&a, bytes));
	LAB_CHECK(cudaMalloc(&b, bytes));
	LAB_CHECK(cudaMalloc(&c, bytes));
	LAB_CHECK(cudaMemcpy(a, ha.data(), bytes, cudaMemcpyHostToDevice));
	LAB_CHECK(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));

	int max_warps = dev.prop.maxThreadsPerMultiProcessor / dev.prop.warpSize;
	printf("%s: %d x %d floats, %.0f MB per matrix, %d warps per SM at most\n",
	       dev.prop.name, nx, ny, bytes / 1e6, max_warps);
	printf("%-8s %9s %9s %10s %9s\n", "shape", "ms", "GB/s", "blocks/SM",
	       "occupancy");

	size_t pos = 0;
	while (pos < shapes.size()) {
		size_t comma = shapes.find(',', pos);
		if (comma == std::string::npos)
			comma = shapes.size();
		std::string shape = shapes.substr(pos, comma - pos);
		pos = comma + 1;
		int bx, by;
		if (!parse_shape(shape.c_str(), &bx, &by)) {
			fprintf(stderr, "--shapes: bad shape '%s'\n", shape.c_str());
			return 2;
		}

		int threads = bx * by, per_sm;
		LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		    &per_sm, matadd, threads, 0));
		int warps = (threads + dev.prop.warpSize - 1) / dev.prop.warpSize;
		double occ = (double)per_sm * warps / max_warps;

		dim3 block(bx, by), grid((nx + bx - 1) / bx, (ny + by - 1) / by);
		lab::poison(c, bytes);
		matadd<<<grid, block>>>(a, b, c, nx, ny);
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(hc.data(), c, bytes, cudaMemcpyDeviceToHost));
		bool ok = lab::check_close(hc.data(), ref.data(), n, 1e-6);

		lab::Stats st = lab::time(
		    [&] { matadd<<<grid, block>>>(a, b, c, nx, ny); },
		    {.mode = lab::COLD});
		printf("%-8s %9.3f %9.1f %10d %8.0f%%%s\n", shape.c_str(),
		       st.median_ms, 3.0 * bytes / 1e6 / st.median_ms, per_sm,
		       occ * 100, ok ? "" : "  WRONG");
		lab::Record()
		    .set("shape", shape.c_str())
		    .set("bx", bx)
		    .set("by", by)
		    .set("threads", threads)
		    .set("blocks_per_sm", per_sm)
		    .set("occupancy_theoretical", occ)
		    .set("ms", st.median_ms)
		    .rate("gbps", 3.0 * bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
	}
	LAB_CHECK(cudaFree(a));
	LAB_CHECK(cudaFree(b));
	LAB_CHECK(cudaFree(c));
	return 0;
}
