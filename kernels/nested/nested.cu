/*
 * nested.cu - dynamic parallelism: kernels that launch kernels.
 *
 * Build with -rdc=true -lcudadevrt (relocatable device code, linked with
 * the device runtime, which is what a launch from device code calls).
 *
 * Part 1, hello: a grid of 2 blocks of 2 threads; thread 0 of every block
 * prints its depth and block, and, above the last level, launches a child
 * grid of the same shape one level deeper. Depth d therefore holds 2^(d+1)
 * blocks; a device counter per depth checks that every one of them ran.
 *
 * Part 2, a small two-step workload over n floats, y = 2x + 1 then y = y^2
 * (the second step needs all of the first), launched three ways:
 *
 *   flat     the host launches step 1, then step 2, into one stream;
 *   nested   the host launches one thread, which launches step 1 as a child
 *            grid and step 2 into cudaStreamTailLaunch: a tail launch runs
 *            only after the launching grid and all its children are done;
 *   fanout   the host launches `parts` blocks; each launches step 1 over its
 *            slice, and block 0 tail-launches step 2 over everything.
 *
 * Each timing pools --reps repetitions from each of --contexts fresh CUDA
 * contexts (see main).
 *
 *   nested --depth 4 --n 65536,1048576,16777216 --parts 32 --contexts 8
 */
#include "lab.h"

__global__ void hello(int depth, int max_depth, unsigned *blocks_at,
                      unsigned *failures)
{
	if (threadIdx.x != 0)
		return;
	atomicAdd(&blocks_at[depth], 1u);
	printf("depth %d: block %d of %d\n", depth, blockIdx.x, gridDim.x);
	if (depth + 1 < max_depth) {
		hello<<<2, 2>>>(depth + 1, max_depth, blocks_at, failures);
		if (cudaGetLastError() != cudaSuccess)
			atomicAdd(failures, 1u);
	}
}

__global__ void step1(const float *x, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = 2.0f * x[i] + 1.0f;
}

__global__ void step2(float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = y[i] * y[i];
}

static __host__ __device__ unsigned blocks_for(size_t n)
{
	return (unsigned)((n + 255) / 256);
}

__global__ void parent(const float *x, float *y, size_t n)
{
	step1<<<blocks_for(n), 256>>>(x, y, n);
	step2<<<blocks_for(n), 256, 0, cudaStreamTailLaunch>>>(y, n);
}

/* Block b handles elements [b * slice, (b + 1) * slice). */
__global__ void parent_fanout(const float *x, float *y, size_t n,
                              size_t slice)
{
	if (threadIdx.x != 0)
		return;
	size_t lo = (size_t)blockIdx.x * slice;
	size_t len = lo >= n ? 0 : n - lo < slice ? n - lo : slice;
	if (len)
		step1<<<blocks_for(len), 256>>>(x + lo, y + lo, len);
	if (blockIdx.x == 0)
		step2<<<blocks_for(n), 256, 0, cudaStreamTailLaunch>>>(y, n);
}

static void say_hello(int depth)
{
	unsigned *counts;
	LAB_CHECK(cudaMalloc(&counts, (depth + 1) * sizeof(unsigned)));
	LAB_CHECK(cudaMemset(counts, 0, (depth + 1) * sizeof(unsigned)));
	/* Device printf output reaches stdout when the host synchronizes;
	 * flush ours first so the two stay in order. */
	fflush(stdout);
	hello<<<2, 2>>>(0, depth, counts, counts + depth);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaDeviceSynchronize());
	fflush(stdout);
	std::vector<unsigned> h(depth + 1);
	LAB_CHECK(cudaMemcpy(h.data(), counts, h.size() * sizeof(unsigned),
	                     cudaMemcpyDeviceToHost));
	LAB_CHECK(cudaFree(counts));
	printf("\nblocks that ran, by depth:");
	for (int d = 0; d < depth; d++) {
		unsigned want = 2u << d;
		printf(" %u", h[d]);
		lab::Record()
		    .set("part", "hello")
		    .set("depth", d)
		    .set("blocks", h[d])
		    .set("expected", want)
		    .set("correct", h[d] == want && h[depth] == 0)
		    .emit();
	}
	printf("; failed device launches: %u\n\n", h[depth]);
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	int depth = (int)args.integer("--depth", 4);
	std::vector<long> ns = args.list("--n", "65536,1048576,16777216");
	long parts = args.integer("--parts", 32);
	int contexts = (int)args.integer("--contexts", 8);
	long reps = args.integer("--reps", 100);
	const lab::Device &dev = lab::device();
	if (depth < 1 || depth > 8 || parts < 1 || parts > 1024 ||
	    contexts < 1 || reps < 1) {
		fprintf(stderr, "--depth must be 1..8, --parts 1..1024, and "
		        "--contexts and --reps positive\n");
		return 2;
	}

	printf("%s, compute capability %d.%d\n\n", dev.prop.name,
	       dev.prop.major, dev.prop.minor);
	say_hello(depth);

	size_t max_n = (size_t)*std::max_element(ns.begin(), ns.end());
	std::vector<float> hx(max_n), ref(max_n), got(max_n);
	lab::fill_uniform(hx.data(), max_n, 14);
	for (size_t i = 0; i < max_n; i++) {
		float t = 2.0f * hx[i] + 1.0f;
		ref[i] = t * t;
	}

	/* The cost of a device-side launch depends on the CUDA context it
	 * runs in: one context's median can sit 10% or more from the next
	 * one's, while repetitions inside a context agree. So each point
	 * pools a fixed number of repetitions from each of `contexts` fresh
	 * contexts (lab::reset_device between them), and its record gives the
	 * smallest and largest context median too. */
	lab::TimeOpts opts;
	opts.min_reps = opts.max_reps = (int)reps;
	const char *variants[] = {"flat", "nested", "fanout"};
	struct Point {
		size_t n;
		const char *variant;
		std::vector<double> ms, medians;
		bool ok = true;
	};
	std::vector<Point> points;
	for (long nl : ns)
		for (const char *v : variants)
			points.push_back({(size_t)nl, v, {}, {}});
	for (int c = 0; c < contexts; c++) {
		/* A fresh context; the last one stays for the clock probe. */
		if (c > 0)
			lab::reset_device();
		float *x, *y;
		LAB_CHECK(cudaMalloc(&x, max_n * sizeof(float)));
		LAB_CHECK(cudaMalloc(&y, max_n * sizeof(float)));
		LAB_CHECK(cudaMemcpy(x, hx.data(), max_n * sizeof(float),
		                     cudaMemcpyHostToDevice));
		for (Point &p : points) {
			size_t n = p.n, slice = (n + parts - 1) / parts;
			const char *v = p.variant;
			lab::poison(y, n * sizeof(float));
			std::vector<double> ms = lab::sample([&] {
				if (!strcmp(v, "flat")) {
					step1<<<blocks_for(n), 256>>>(x, y, n);
					step2<<<blocks_for(n), 256>>>(y, n);
				} else if (!strcmp(v, "nested")) {
					parent<<<1, 1>>>(x, y, n);
				} else {
					parent_fanout<<<(unsigned)parts, 32>>>(x, y, n,
					                                      slice);
				}
			}, opts);
			LAB_CHECK(cudaMemcpy(got.data(), y, n * sizeof(float),
			                     cudaMemcpyDeviceToHost));
			p.ok = p.ok && lab::check_close(got.data(), ref.data(), n, 1e-6);
			p.ms.insert(p.ms.end(), ms.begin(), ms.end());
			std::sort(ms.begin(), ms.end());
			p.medians.push_back(lab::quantile(ms, 0.5));
		}
		LAB_CHECK(cudaFree(x));
		LAB_CHECK(cudaFree(y));
		if (lab::profiling())
			break;
	}

	printf("%-8s %10s %10s   %s\n", "variant", "n", "us",
	       "context medians, us");
	for (Point &p : points) {
		lab::Stats st = lab::summarize(p.ms, opts);
		std::sort(p.medians.begin(), p.medians.end());
		lab::Record()
		    .set("part", "timing")
		    .set("variant", p.variant)
		    .set("n", p.n)
		    .set("ms", st.median_ms)
		    .set("us", st.median_ms * 1e3)
		    .set("correct", p.ok)
		    .set("contexts", (int)p.medians.size())
		    .set("ctx_min_ms", p.medians.front())
		    .set("ctx_max_ms", p.medians.back())
		    .stats(st)
		    .emit();
		printf("%-8s %10zu %10.1f   %.1f to %.1f%s\n", p.variant, p.n,
		       st.median_ms * 1e3, p.medians.front() * 1e3,
		       p.medians.back() * 1e3, p.ok ? "" : "  WRONG");
	}
	return 0;
}
