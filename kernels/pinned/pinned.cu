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
 *   pinned --mb 1:256:x2
 */
#include "lab.h"

enum Dir { H2D, D2H };

static void point(const char *memory, char *host, char *dev, char *check,
                  const char *src, size_t bytes, Dir dir)
{
	lab::TimeOpts opts;
	opts.budget_ms = 300;
	opts.max_reps = 200;
	bool ok;
	lab::Stats st;
	if (dir == H2D) {
		memcpy(host, src, bytes);
		lab::poison(dev, bytes);
		st = lab::time([&] {
			LAB_CHECK(cudaMemcpy(dev, host, bytes,
			                     cudaMemcpyHostToDevice));
		}, opts);
		LAB_CHECK(cudaMemcpy(check, dev, bytes, cudaMemcpyDeviceToHost));
		ok = memcmp(check, src, bytes) == 0;
	} else {
		LAB_CHECK(cudaMemcpy(dev, src, bytes, cudaMemcpyHostToDevice));
		memset(host, 0xff, bytes);
		st = lab::time([&] {
			LAB_CHECK(cudaMemcpy(host, dev, bytes,
			                     cudaMemcpyDeviceToHost));
		}, opts);
		ok = memcmp(host, src, bytes) == 0;
	}
	const char *d = dir == H2D ? "h2d" : "d2h";
	char path[32];
	snprintf(path, sizeof path, "%s-%s", memory, d);
	lab::Record()
	    .set("memory", memory)
	    .set("direction", d)
	    .set("path", path)
	    .set("bytes", bytes)
	    .set("ms", st.median_ms)
	    .rate("gbps", bytes / 1e9, st)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	printf("%-9s %s %6zu MB  %8.3f ms  %6.1f GB/s%s\n", memory, d,
	       bytes >> 20, st.median_ms, bytes / 1e9 / (st.median_ms * 1e-3),
	       ok ? "" : "  WRONG");
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> mbs = args.list("--mb", "1:256:x2");
	const lab::Device &dev = lab::device();
	size_t max_bytes = (size_t)*std::max_element(mbs.begin(), mbs.end()) << 20;

	/* src holds the random data every copy must deliver; check receives
	 * the device's contents after an upload. Both are pinned, so that the
	 * checking copies cost little; only `pageable` comes from malloc. */
	char *src, *check, *pinned, *pageable, *d;
	LAB_CHECK(cudaMallocHost(&src, max_bytes));
	LAB_CHECK(cudaMallocHost(&check, max_bytes));
	LAB_CHECK(cudaMallocHost(&pinned, max_bytes));
	pageable = (char *)malloc(max_bytes);
	if (!pageable) {
		fprintf(stderr, "out of host memory\n");
		return 1;
	}
	LAB_CHECK(cudaMalloc(&d, max_bytes));
	lab::fill_int((int *)src, max_bytes / sizeof(int), 12, 0, 1 << 30);
	/* Touch every page once, so no copy pays for first-touch faults. */
	memset(pageable, 0, max_bytes);
	memset(pinned, 0, max_bytes);

	printf("%s: host <-> device copies, %s\n", dev.prop.name,
	       "CUDA events around cudaMemcpy");
	for (long mb : mbs) {
		size_t bytes = (size_t)mb << 20;
		point("pageable", pageable, d, check, src, bytes, H2D);
		point("pinned", pinned, d, check, src, bytes, H2D);
		point("pageable", pageable, d, check, src, bytes, D2H);
		point("pinned", pinned, d, check, src, bytes, D2H);
	}

	LAB_CHECK(cudaFreeHost(src));
	LAB_CHECK(cudaFreeHost(check));
	LAB_CHECK(cudaFreeHost(pinned));
	free(pageable);
	LAB_CHECK(cudaFree(d));
	return 0;
}
