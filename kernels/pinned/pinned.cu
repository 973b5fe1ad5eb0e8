/*
 * pinned.cu - host <-> device copies from pageable and from pinned memory.
 *
 * Pageable memory comes from malloc: the operating system may move or swap
 * its pages, so the GPU's copy engines cannot read it directly and the
 * driver copies it through a pinned staging buffer of its own, chunk by
 * chunk. Pinned (page-locked) memory comes from cudaMallocHost: its pages
 * stay put, and the copy engine reads or writes it directly over the bus.
 *
 * Each copy is a cudaMemcpy bracketed by two CUDA events on the default
 * stream (lab::time). A copy from or to pageable memory returns to the host
 * only when the data has been handed over, but the events still measure it
 * whole: the start event is stamped as soon as the idle stream reaches it,
 * and the stop event is stamped only after the copy's last transfer.
 *
 * A copy through host memory depends on the host as much as on the GPU:
 * on which physical pages the buffer got and on what else the machine is
 * doing at that moment. So that a point measures the copy and not the
 * luck of one moment or one allocation, the points are taken in
 * interleaved rounds, each with freshly allocated host buffers, and a
 * point's statistics pool all its rounds.
 *
 * A pageable copy is, for the most part, a memcpy by the host's CPU into
 * the driver's staging buffer: its speed is the host's, and on a machine
 * shared with other tenants it moves with their load. Those records carry
 * host_bound: true, and `labbook compare` counts them apart from the
 * GPU's.
 *
 *   pinned --mb 1:256:x4 --rounds 5 --reps 8
 */
#include "lab.h"

enum Dir { H2D, D2H };
static const char *const kinds[] = {"pageable", "pinned"};

struct Point {
	size_t bytes;
	int pinned; /* index into kinds */
	Dir dir;
	std::vector<double> ms; /* every repetition of every round */
	bool ok = true;
};

/* The host buffers of one round: fresh pages every time. */
struct HostBuffers {
	char *pinned, *pageable;

	explicit HostBuffers(size_t bytes)
	{
		LAB_CHECK(cudaMallocHost(&pinned, bytes));
		pageable = (char *)malloc(bytes);
		if (!pageable) {
			fprintf(stderr, "out of host memory\n");
			exit(1);
		}
		/* Touch every page once, so no copy pays for first-touch
		 * faults. */
		memset(pageable, 0, bytes);
		memset(pinned, 0, bytes);
	}
	~HostBuffers()
	{
		LAB_CHECK(cudaFreeHost(pinned));
		free(pageable);
	}
};

/* Take one round of repetitions of p; src holds the data the copy must
 * deliver and check receives the device's contents after an upload. */
static void take(Point &p, const HostBuffers &hb, char *dev, char *check,
                 const char *src, const lab::TimeOpts &opts)
{
	char *host = p.pinned ? hb.pinned : hb.pageable;
	size_t bytes = p.bytes;
	std::vector<double> ms;
	if (p.dir == H2D) {
		memcpy(host, src, bytes);
		lab::poison(dev, bytes);
		ms = lab::sample([&] {
			LAB_CHECK(cudaMemcpy(dev, host, bytes,
			                     cudaMemcpyHostToDevice));
		}, opts);
		LAB_CHECK(cudaMemcpy(check, dev, bytes, cudaMemcpyDeviceToHost));
		p.ok = p.ok && memcmp(check, src, bytes) == 0;
	} else {
		LAB_CHECK(cudaMemcpy(dev, src, bytes, cudaMemcpyHostToDevice));
		memset(host, 0xff, bytes);
		ms = lab::sample([&] {
			LAB_CHECK(cudaMemcpy(host, dev, bytes,
			                     cudaMemcpyDeviceToHost));
		}, opts);
		p.ok = p.ok && memcmp(host, src, bytes) == 0;
	}
	p.ms.insert(p.ms.end(), ms.begin(), ms.end());
}

static void emit(const Point &p, const lab::TimeOpts &opts)
{
	lab::Stats st = lab::summarize(p.ms, opts);
	const char *memory = kinds[p.pinned];
	const char *d = p.dir == H2D ? "h2d" : "d2h";
	char path[32];
	snprintf(path, sizeof path, "%s-%s", memory, d);
	lab::Record()
	    .set("memory", memory)
	    .set("direction", d)
	    .set("path", path)
	    .set("bytes", p.bytes)
	    .set("ms", st.median_ms)
	    .rate("gbps", p.bytes / 1e9, st)
	    .set("correct", p.ok)
	    .set("host_bound", !p.pinned)
	    .stats(st)
	    .emit();
	printf("%-9s %s %6zu MiB  %8.3f ms  %6.1f GB/s  spread %4.1f%%%s\n",
	       memory, d, p.bytes >> 20, st.median_ms,
	       p.bytes / 1e9 / (st.median_ms * 1e-3), 100 * st.spread,
	       p.ok ? "" : "  WRONG");
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> mbs = args.list("--mb", "1:256:x4");
	int rounds = (int)args.integer("--rounds", 5);
	int reps = (int)args.integer("--reps", 8);
	const lab::Device &dev = lab::device();
	size_t max_bytes = (size_t)*std::max_element(mbs.begin(), mbs.end()) << 20;

	/* A fixed number of repetitions per round, so that every round
	 * weighs the same in the pooled statistics. */
	lab::TimeOpts opts;
	opts.warmup = 1;
	opts.min_reps = opts.max_reps = reps;
	/* A synchronous cudaMemcpy waits for the stream: it cannot be queued
	 * behind a closed gate. */
	opts.gate = false;

	/* src holds the random data every copy must deliver; check receives
	 * the device's contents after an upload. Both are pinned, so that the
	 * checking copies cost little. */
	char *src, *check, *d;
	LAB_CHECK(cudaMallocHost(&src, max_bytes));
	LAB_CHECK(cudaMallocHost(&check, max_bytes));
	LAB_CHECK(cudaMalloc(&d, max_bytes));
	lab::fill_int((int *)src, max_bytes / sizeof(int), 12, 0, 1 << 30);

	std::vector<Point> points;
	for (long mb : mbs)
		for (Dir dir : {H2D, D2H})
			for (int pinned : {0, 1})
				points.push_back({(size_t)mb << 20, pinned, dir, {}});

	printf("%s: host <-> device copies, CUDA events around cudaMemcpy, "
	       "%d rounds of %d\n", dev.prop.name, rounds, reps);
	/* Under the profiler one round is enough: it sees every copy once. */
	if (lab::profiling())
		rounds = 1;
	for (int r = 0; r < rounds; r++) {
		HostBuffers hb(max_bytes);
		for (Point &p : points)
			take(p, hb, d, check, src, opts);
	}
	for (const Point &p : points)
		emit(p, opts);

	LAB_CHECK(cudaFreeHost(src));
	LAB_CHECK(cudaFreeHost(check));
	LAB_CHECK(cudaFree(d));
	return 0;
}
