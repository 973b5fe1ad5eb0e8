/*
 * method.cu - the timing method itself, measured.
 *
 * One kernel throughout: read_sum reads a buffer of unsigned ints with
 * 16-byte loads and writes one (wrapping) sum per block, which the CPU
 * checks. It is only read, so its bandwidth is bytes / time.
 *
 *   reps       our own loop of timed repetitions with no warm-up at all,
 *              hot then cold, each repetition kept as a record (lab::time
 *              keeps only statistics). Run first, so that its repetition 0
 *              is the kernel's first launch in this process.
 *   bandwidth  lab::time, hot (data left in L2 by the previous launch) and
 *              cold (L2 overwritten before every repetition), over sizes
 *              below and above the L2 size.
 *   timers     one launch timed three ways: a host clock around the launch
 *              call alone (host_async), a host clock around launch and
 *              cudaDeviceSynchronize (host_sync), and CUDA events (events).
 *
 *   method --mb 4:1024:x2 --timer-mb 1,16,256 --rep-mb 16 --reps 100
 */
#include <chrono>

#include "lab.h"

__global__ void read_sum(const uint4 *in, size_t n4, unsigned *partial)
{
	unsigned s = 0;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
	     i += stride) {
		uint4 v = in[i];
		s += v.x + v.y + v.z + v.w;
	}
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_down_sync(0xffffffffu, s, o);
	__shared__ unsigned warp_sum[32];
	int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	if (lane == 0)
		warp_sum[warp] = s;
	__syncthreads();
	if (warp == 0) {
		s = lane < (int)blockDim.x / 32 ? warp_sum[lane] : 0;
		for (int o = 16; o > 0; o /= 2)
			s += __shfl_down_sync(0xffffffffu, s, o);
		if (lane == 0)
			partial[blockIdx.x] = s;
	}
}

struct Buf {
	unsigned *d, *partial;
	std::vector<unsigned> h;
	int blocks, threads;
};

static void launch(const Buf &b, size_t bytes)
{
	read_sum<<<b.blocks, b.threads>>>((const uint4 *)b.d, bytes / 16,
	                                  b.partial);
}

/* Poison the block sums, run once, compare their total with the CPU's. */
static bool check(const Buf &b, size_t bytes)
{
	lab::poison(b.partial, b.blocks * sizeof(unsigned));
	launch(b, bytes);
	LAB_CHECK_LAUNCH();
	std::vector<unsigned> got(b.blocks);
	LAB_CHECK(cudaMemcpy(got.data(), b.partial, b.blocks * sizeof(unsigned),
	                     cudaMemcpyDeviceToHost));
	unsigned want = 0, have = 0;
	for (size_t i = 0; i < bytes / 4; i++)
		want += b.h[i];
	for (unsigned v : got)
		have += v;
	return want == have;
}

static double ms_since(std::chrono::steady_clock::time_point t0)
{
	std::chrono::duration<double, std::milli> d =
	    std::chrono::steady_clock::now() - t0;
	return d.count();
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return lab::quantile(v, 0.5);
}

/* Repetitions as they come, rep 0 included: no warm-up on purpose. */
static void reps(const Buf &b, size_t bytes, int n)
{
	cudaEvent_t e0, e1;
	LAB_CHECK(cudaEventCreate(&e0));
	LAB_CHECK(cudaEventCreate(&e1));
	for (int cold = 0; cold < 2; cold++) {
		const char *mode = cold ? "cold" : "hot";
		std::vector<double> ms;
		for (int r = 0; r < n; r++) {
			if (cold)
				lab::flush_l2();
			LAB_CHECK(cudaEventRecord(e0));
			launch(b, bytes);
			LAB_CHECK(cudaEventRecord(e1));
			LAB_CHECK(cudaEventSynchronize(e1));
			LAB_CHECK_LAUNCH();
			float t;
			LAB_CHECK(cudaEventElapsedTime(&t, e0, e1));
			ms.push_back(t);
			lab::Record()
			    .set("part", "reps")
			    .set("mode", mode)
			    .set("bytes", bytes)
			    .set("rep", r)
			    .set("ms", (double)t)
			    .set("us", t * 1e3)
			    .emit();
		}
		std::vector<double> s(ms.begin() + 1, ms.end());
		std::sort(s.begin(), s.end());
		double med = lab::quantile(s, 0.5);
		double spread = (lab::quantile(s, 0.75) - lab::quantile(s, 0.25)) /
		                med;
		bool ok = check(b, bytes);
		lab::Record()
		    .set("part", "reps_summary")
		    .set("mode", mode)
		    .set("bytes", bytes)
		    .set("first_us", ms[0] * 1e3)
		    .set("median_us", med * 1e3)
		    .set("min_us", s.front() * 1e3)
		    .set("max_us", s.back() * 1e3)
		    .set("spread", spread)
		    .set("correct", ok)
		    .emit();
		printf("%-4s %4zu MiB: rep 0 %8.1f us; reps 1-%d: median %.1f us, "
		       "min %.1f, max %.1f, spread %.2f%%%s\n",
		       mode, bytes >> 20, ms[0] * 1e3, n - 1, med * 1e3,
		       s.front() * 1e3, s.back() * 1e3, spread * 100,
		       ok ? "" : "  WRONG");
	}
	LAB_CHECK(cudaEventDestroy(e0));
	LAB_CHECK(cudaEventDestroy(e1));
}

static void bandwidth(const Buf &b, size_t bytes)
{
	bool ok = check(b, bytes);
	for (int cold = 0; cold < 2; cold++) {
		lab::TimeOpts opts;
		opts.mode = cold ? lab::COLD : lab::HOT;
		opts.budget_ms = 100;
		opts.max_reps = 300;
		lab::Stats st = lab::time([&] { launch(b, bytes); }, opts);
		lab::Record()
		    .set("part", "bandwidth")
		    .set("mode", cold ? "cold" : "hot")
		    .set("bytes", bytes)
		    .set("mb", bytes >> 20)
		    .rate("gbps", bytes / 1e9, st)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%-4s %4zu MiB  %8.1f us  %6.0f GB/s  (%d reps)%s\n",
		       cold ? "cold" : "hot", bytes >> 20, st.median_ms * 1e3,
		       bytes / 1e9 / (st.median_ms * 1e-3), st.reps,
		       ok ? "" : "  WRONG");
	}
}

/* One launch, three clocks, n times each; the medians are recorded. */
static void timers(const Buf &b, size_t bytes, int n)
{
	using clock = std::chrono::steady_clock;
	cudaEvent_t e0, e1;
	LAB_CHECK(cudaEventCreate(&e0));
	LAB_CHECK(cudaEventCreate(&e1));
	for (int i = 0; i < 3; i++)
		launch(b, bytes);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaDeviceSynchronize());

	std::vector<double> async_ms, sync_ms, event_ms;
	for (int r = 0; r < n; r++) {
		/* The mistake: the launch returns at once, the kernel runs
		 * later, and the clock stops before it does. */
		clock::time_point t0 = clock::now();
		launch(b, bytes);
		async_ms.push_back(ms_since(t0));
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaDeviceSynchronize());

		t0 = clock::now();
		launch(b, bytes);
		LAB_CHECK(cudaDeviceSynchronize());
		sync_ms.push_back(ms_since(t0));
		LAB_CHECK_LAUNCH();

		LAB_CHECK(cudaEventRecord(e0));
		launch(b, bytes);
		LAB_CHECK(cudaEventRecord(e1));
		LAB_CHECK(cudaEventSynchronize(e1));
		LAB_CHECK_LAUNCH();
		float t;
		LAB_CHECK(cudaEventElapsedTime(&t, e0, e1));
		event_ms.push_back(t);
	}
	LAB_CHECK(cudaEventDestroy(e0));
	LAB_CHECK(cudaEventDestroy(e1));

	bool ok = check(b, bytes);
	struct {
		const char *name;
		std::vector<double> *ms;
	} rows[] = {{"host_async", &async_ms},
	            {"host_sync", &sync_ms},
	            {"events", &event_ms}};
	for (auto &row : rows) {
		double med = median(*row.ms);
		lab::Record()
		    .set("part", "timers")
		    .set("timer", row.name)
		    .set("bytes", bytes)
		    .set("mb", bytes >> 20)
		    .set("ms", med)
		    .set("us", med * 1e3)
		    .set("gbps", bytes / 1e9 / (med * 1e-3))
		    .set("correct", ok)
		    .emit();
		printf("%-10s %4zu MiB  %9.1f us  %8.0f \"GB/s\"%s\n", row.name,
		       bytes >> 20, med * 1e3, bytes / 1e9 / (med * 1e-3),
		       ok ? "" : "  WRONG");
	}
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> mbs = args.list("--mb", "4:1024:x2");
	std::vector<long> timer_mbs = args.list("--timer-mb", "1,16,256");
	long rep_mb = args.integer("--rep-mb", 16);
	int n_reps = (int)args.integer("--reps", 100);
	const lab::Device &dev = lab::device();
	if (n_reps < 2 || rep_mb < 1) {
		fprintf(stderr, "--reps must be >= 2 and --rep-mb >= 1\n");
		return 2;
	}

	long max_mb = rep_mb;
	for (long mb : mbs)
		max_mb = std::max(max_mb, mb);
	for (long mb : timer_mbs)
		max_mb = std::max(max_mb, mb);
	size_t max_bytes = (size_t)max_mb << 20;

	Buf b;
	b.threads = 256;
	/* A full chip: as many blocks as fit by thread count (read_sum needs
	 * few registers). The occupancy API would load the kernel's module
	 * and so spoil the first launch that reps() wants to show. */
	b.blocks = dev.prop.maxThreadsPerMultiProcessor / b.threads *
	           dev.sm_count;
	b.h.resize(max_bytes / 4);
	lab::fill_int((int *)b.h.data(), b.h.size(), 16, 0, 1000);
	LAB_CHECK(cudaMalloc(&b.d, max_bytes));
	LAB_CHECK(cudaMalloc(&b.partial, b.blocks * sizeof(unsigned)));
	LAB_CHECK(cudaMemcpy(b.d, b.h.data(), max_bytes,
	                     cudaMemcpyHostToDevice));

	printf("%s: L2 %ld MiB, %d blocks of %d threads\n\n", dev.prop.name,
	       dev.l2_bytes >> 20, b.blocks, b.threads);
	printf("repetitions, no warm-up:\n");
	reps(b, (size_t)rep_mb << 20, n_reps);
	printf("\nbandwidth, lab::time:\n");
	for (long mb : mbs)
		bandwidth(b, (size_t)mb << 20);
	const int timer_reps = 20;
	printf("\nthree timers, median of %d:\n", timer_reps);
	for (long mb : timer_mbs)
		timers(b, (size_t)mb << 20, timer_reps);

	LAB_CHECK(cudaFree(b.d));
	LAB_CHECK(cudaFree(b.partial));
	return 0;
}
