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
 *              cold, over sizes below and above the L2 size; cold twice,
 *              with L2 flushed by a read pass (flush=read, lab.h's way)
 *              and by overwriting it (flush=write, which leaves it full
 *              of dirty lines).
 *   batch      short hot points timed one launch per repetition and
 *              batched as lab::time chooses, and short cold points, each
 *              --trials times, to show how far a point's median moves.
 *   timers     one launch timed three ways: a host clock around the launch
 *              call alone (host_async), a host clock around launch and
 *              cudaDeviceSynchronize (host_sync), and CUDA events (events).
 *   clock      the SM clock as lab::time reads it (NVML while the
 *              repetitions run) against clock64() over %globaltimer in
 *              the work itself and in one thread just after it: a
 *              tensor-core kernel that reads its own clock
 *              (case heavy), and a short read timed after the card sat
 *              idle (idle) and right after --load-s seconds of that kernel
 *              (after_load).
 *
 *   method --mb 1:1024:x2 --timer-mb 1,16,256 --rep-mb 16 --reps 100
 */
#include <mma.h>
#include <unistd.h>

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
	const struct {
		const char *mode, *flush;
	} ways[] = {{"hot", "none"}, {"cold", "read"}, {"cold", "write"}};
	for (const auto &w : ways) {
		lab::TimeOpts opts;
		opts.mode = strcmp(w.mode, "cold") ? lab::HOT : lab::COLD;
		opts.flush = strcmp(w.flush, "write") ? lab::FLUSH_READ
		                                       : lab::FLUSH_WRITE;
		opts.budget_ms = 100;
		opts.max_reps = 300;
		lab::Stats st = lab::time([&] { launch(b, bytes); }, opts);
		lab::Record()
		    .set("part", "bandwidth")
		    .set("mode", w.mode)
		    .set("flush", w.flush)
		    .set("bytes", bytes)
		    .set("mb", bytes >> 20)
		    .rate("gbps", bytes / 1e9, st)
		    .set("us", st.median_ms * 1e3)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%-4s %-5s %4zu MiB  %8.1f us  %6.0f GB/s  (%d reps, "
		       "batch %d)%s\n",
		       w.mode, w.flush, bytes >> 20, st.median_ms * 1e3,
		       bytes / 1e9 / (st.median_ms * 1e-3), st.reps, st.batch,
		       ok ? "" : "  WRONG");
	}
}

/* One point timed `trials` times over: how far apart its medians land. */
static void batch(const Buf &b, size_t bytes, int trials)
{
	bool ok = check(b, bytes);
	const struct {
		const char *mode;
		int batch;
	} ways[] = {{"hot", 1}, {"hot", 0}, {"cold", 0}};
	for (const auto &w : ways) {
		std::vector<double> us;
		int used = 1;
		for (int t = 0; t < trials; t++) {
			lab::TimeOpts opts;
			opts.mode = strcmp(w.mode, "cold") ? lab::HOT : lab::COLD;
			opts.batch = w.batch;
			opts.budget_ms = 100;
			lab::Stats st = lab::time([&] { launch(b, bytes); }, opts);
			used = st.batch;
			us.push_back(st.median_ms * 1e3);
			lab::Record()
			    .set("part", "batch")
			    .set("mode", w.mode)
			    .set("batching", w.batch ? "off" : "auto")
			    .set("bytes", bytes)
			    .set("mb", bytes >> 20)
			    .set("trial", t)
			    .set("us", st.median_ms * 1e3)
			    .set("correct", ok)
			    .stats(st)
			    .emit();
		}
		std::vector<double> s = us;
		std::sort(s.begin(), s.end());
		double med = lab::quantile(s, 0.5);
		lab::Record()
		    .set("part", "batch_summary")
		    .set("mode", w.mode)
		    .set("batching", w.batch ? "off" : "auto")
		    .set("bytes", bytes)
		    .set("mb", bytes >> 20)
		    .set("batch", used)
		    .set("trials", trials)
		    .set("median_us", med)
		    .set("trial_spread", (s.back() - s.front()) / med)
		    .set("correct", ok)
		    .emit();
		printf("%-4s %4zu MiB, batch %4d: median of %d trials %7.2f us, "
		       "trials %.1f%% apart%s\n",
		       w.mode, bytes >> 20, used, trials, med,
		       100 * (s.back() - s.front()) / med, ok ? "" : "  WRONG");
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

/*
 * A tensor-core load with no memory traffic: every warp chains mma.sync
 * through four accumulators. Thread 0 of block 0 notes the SM cycles and
 * nanoseconds of its whole run, the clock the work itself ran at.
 */
__global__ void heavy(long iters, float *out, unsigned long long *clk)
{
	using namespace nvcuda;
	unsigned long long t0, t1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	long long c0 = clock64();
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bm;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[4];
	wmma::fill_fragment(a, __float2half(1e-3f * (threadIdx.x % 7)));
	wmma::fill_fragment(bm, __float2half(1e-3f));
	for (int k = 0; k < 4; k++)
		wmma::fill_fragment(c[k], 0.0f);
	for (long i = 0; i < iters; i++)
		for (int k = 0; k < 4; k++)
			wmma::mma_sync(c[k], a, bm, c[k]);
	float s = c[0].x[0] + c[1].x[0] + c[2].x[0] + c[3].x[0];
	if (s == 12345.0f)
		out[0] = s;
	__syncthreads();
	long long c1 = clock64();
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		clk[0] = (unsigned long long)(c1 - c0);
		clk[1] = t1 - t0;
	}
}

struct Heavy {
	float *out;
	unsigned long long *clk;
	int blocks;
	long iters;
};

static void heavy_launch(const Heavy &h)
{
	heavy<<<h.blocks, 256>>>(h.iters, h.out, h.clk);
}

/* The clock the last heavy launch ran at, in MHz. */
static double heavy_mhz(const Heavy &h)
{
	unsigned long long c[2];
	LAB_CHECK(cudaMemcpy(c, h.clk, sizeof c, cudaMemcpyDeviceToHost));
	return c[1] ? (double)c[0] / c[1] * 1e3 : 0;
}

/* Time fn with lab::sample, and record lab.h's reading of the clock and
 * the one-thread probe's right after. */
template <class F>
static void clock_point(const char *kase, F fn, double kernel_mhz_if,
                        const Heavy *h, double load_s)
{
	lab::TimeOpts opts;
	opts.budget_ms = 200;
	std::vector<double> ms = lab::sample(fn, opts);
	lab::Stats st = lab::summarize(ms, opts);
	double kernel = h ? heavy_mhz(*h) : kernel_mhz_if;
	double after = lab::sm_clock_mhz();
	lab::Record r;
	r.set("part", "clock").set("case", kase).set("load_s", load_s);
	r.set("us", st.median_ms * 1e3);
	r.set("after_mhz", after);
	if (kernel > 0)
		r.set("kernel_mhz", kernel);
	r.stats(st).emit();
	printf("%-10s %9.1f us  lab.h (%s) %6.0f MHz (lowest %.0f)%s%s  after "
	       "%6.0f",
	       kase, st.median_ms * 1e3, st.clock_source, st.clock_mhz,
	       st.clock_min_mhz, st.clock_reasons ? "  " : "",
	       lab::clock_reason_words(st.clock_reasons).c_str(), after);
	if (kernel > 0)
		printf("  kernel %6.0f", kernel);
	printf("%s\n", st.throttled ? "  throttled" : "");
}

static void clock_parts(const Buf &b, double load_s, long iters)
{
	const lab::Device &dev = lab::device();
	Heavy h;
	h.blocks = dev.sm_count * 4;
	h.iters = iters;
	LAB_CHECK(cudaMalloc(&h.out, sizeof(float)));
	LAB_CHECK(cudaMalloc(&h.clk, 2 * sizeof *h.clk));
	size_t bytes = 16u << 20;

	/* Idle first: a second with nothing on the card. */
	LAB_CHECK(cudaDeviceSynchronize());
	sleep(1);
	clock_point("idle", [&] { launch(b, bytes); }, 0, nullptr, 0);

	/* The same read right after load_s seconds of the heavy kernel. */
	std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
	while (ms_since(t0) < load_s * 1e3) {
		for (int i = 0; i < 10; i++)
			heavy_launch(h);
		LAB_CHECK(cudaDeviceSynchronize());
	}
	LAB_CHECK_LAUNCH();
	double load_mhz = heavy_mhz(h);
	clock_point("after_load", [&] { launch(b, bytes); }, load_mhz, nullptr,
	            load_s);

	/* The heavy kernel itself, which reads its own clock. */
	clock_point("heavy", [&] { heavy_launch(h); }, 0, &h, 0);
	LAB_CHECK(cudaFree(h.out));
	LAB_CHECK(cudaFree(h.clk));
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> mbs = args.list("--mb", "1:1024:x2");
	std::vector<long> timer_mbs = args.list("--timer-mb", "1,16,256");
	long rep_mb = args.integer("--rep-mb", 16);
	int n_reps = (int)args.integer("--reps", 100);
	std::vector<long> batch_mbs = args.list("--batch-mb", "1,4");
	int trials = (int)args.integer("--trials", 5);
	double load_s = args.number("--load-s", 1);
	long iters = args.integer("--heavy-iters", 20000);
	const lab::Device &dev = lab::device();
	if (n_reps < 2 || rep_mb < 1 || trials < 1) {
		fprintf(stderr, "--reps must be >= 2, --rep-mb and --trials >= 1\n");
		return 2;
	}

	long max_mb = rep_mb;
	for (long mb : mbs)
		max_mb = std::max(max_mb, mb);
	for (long mb : timer_mbs)
		max_mb = std::max(max_mb, mb);
	for (long mb : batch_mbs)
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
	printf("\nshort points, %d trials each:\n", trials);
	for (long mb : batch_mbs)
		batch(b, (size_t)mb << 20, trials);
	printf("\nthe SM clock:\n");
	clock_parts(b, load_s, iters);

	LAB_CHECK(cudaFree(b.d));
	LAB_CHECK(cudaFree(b.partial));
	return 0;
}
