/*
 * lab.h - the shared header of labbook's experiments.
 *
 * One header, included by every kernels/<name>/<name>.cu, so that an
 * experiment stays a short, plain CUDA program with a main():
 *
 *   LAB_CHECK(call)          abort with file:line on any CUDA error
 *   lab::Args                --name value flags, with lists and ranges
 *   lab::device()            the device's facts, read once
 *   lab::time(fn, opts)      time a launch with CUDA events (see below)
 *   lab::Record              one structured result, appended to $LAB_RECORDS
 *   lab::fill_uniform/...    random inputs, poisoned outputs, checks
 *
 * How lab::time measures (the book's appendix explains why):
 *   - warm-up launches first (module load, first-touch, clocks ramping up);
 *   - each repetition is bracketed by its own pair of CUDA events on the
 *     stream, so host-side overhead is never counted as kernel time;
 *   - behind a gate: a one-thread kernel holds the stream until the host
 *     has queued the start event, the work and the stop event, so that the
 *     GPU never waits inside the events for a launch still on its way;
 *   - in cold mode L2 is flushed before every repetition (outside the
 *     events) by a kernel that reads a buffer twice the L2 size, so data
 *     comes from DRAM and L2 holds no dirty lines that the timed work
 *     would have to write back (opts.flush = FLUSH_WRITE overwrites the
 *     buffer with cudaMemsetAsync instead);
 *   - a hot launch shorter than batch_below_us is batched: each repetition
 *     times enough back-to-back launches to last batch_target_us, so the
 *     events' resolution is a small part of it (opts.batch > 0 sets the
 *     batch by hand; a cold launch is never batched, since the launches
 *     after the first would find L2 warm);
 *   - repetitions continue until at least min_reps are done and min_time_ms
 *     of event time is spent, then stop once the median is known to
 *     target_noise (its relative standard error, from the quartiles), or
 *     when budget_ms or max_reps runs out;
 *   - the statistics are median, min, max, quartiles, spread and noise;
 *   - the SM clock is read while the repetitions run: from NVML (loaded at
 *     run time, so a program builds and runs without it) after each
 *     repetition is queued, with the reasons the driver gives for holding
 *     the clock down; without NVML, by one thread right after the
 *     repetitions (clock64() against %globaltimer). A point whose clock fell
 *     below 85% of the rated one, or that a thermal or hardware slowdown
 *     held back, is `throttled` and lab::time takes it once more;
 *   - an experiment whose points drift together over time (copies through
 *     host memory) takes them in interleaved rounds with lab::sample() and
 *     pools each point's times with lab::summarize();
 *   - under Nsight Compute (LAB_PROFILE set) every point is a single launch
 *     with no warm-up, flush or clock reading, so the profiler sees each
 *     kernel once per point.
 *
 * Records are JSON objects, one per line, in the file named by the
 * environment variable LAB_RECORDS; without it they go to stdout, prefixed
 * with "record: ", so a program run by hand still shows its numbers.
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define LAB_CHECK(call)                                                        \
	do {                                                                   \
		cudaError_t lab_err_ = (call);                                 \
		if (lab_err_ != cudaSuccess) {                                 \
			fprintf(stderr, "%s:%d: CUDA error: %s (%s)\n",       \
			        __FILE__, __LINE__,                            \
			        cudaGetErrorString(lab_err_), #call);          \
			exit(3);                                               \
		}                                                              \
	} while (0)

/* Check the launch just made (configuration errors show up here). */
#define LAB_CHECK_LAUNCH() LAB_CHECK(cudaGetLastError())

namespace lab {

/* ---- command-line flags ------------------------------------------------ */

/*
 * Flags are "--name value". A list value is comma-separated, and each item
 * may be a range: "a:b:s" adds s from a to b, "a:b:xk" multiplies by k.
 * Example: --threads 32:1024:32 --n 16384:67108864:x4 --ilp 1,2,4,8
 */
class Args {
public:
	Args(int argc, char **argv) : argc_(argc), argv_(argv)
	{
		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
				printf("usage: %s [--flag value ...]\n"
				       "Flags and their defaults are listed in the "
				       "source, at the top of main().\n", argv[0]);
				exit(0);
			}
	}

	const char *str(const char *name, const char *def) const
	{
		for (int i = 1; i + 1 < argc_; i++)
			if (!strcmp(argv_[i], name))
				return argv_[i + 1];
		return def;
	}

	bool flag(const char *name) const
	{
		for (int i = 1; i < argc_; i++)
			if (!strcmp(argv_[i], name))
				return true;
		return false;
	}

	long integer(const char *name, long def) const
	{
		const char *s = str(name, nullptr);
		return s ? parse_long(name, s) : def;
	}

	double number(const char *name, double def) const
	{
		const char *s = str(name, nullptr);
		if (!s)
			return def;
		char *end;
		double v = strtod(s, &end);
		if (*end)
			die(name, s);
		return v;
	}

	std::vector<long> list(const char *name, const char *def) const
	{
		std::string s = str(name, def);
		std::vector<long> out;
		size_t pos = 0;
		while (pos <= s.size()) {
			size_t comma = s.find(',', pos);
			if (comma == std::string::npos)
				comma = s.size();
			std::string item = s.substr(pos, comma - pos);
			expand(name, item, out);
			pos = comma + 1;
		}
		return out;
	}

private:
	int argc_;
	char **argv_;

	[[noreturn]] static void die(const char *name, const char *value)
	{
		fprintf(stderr, "bad value for %s: '%s'\n", name, value);
		exit(2);
	}

	static long parse_long(const char *name, const char *s)
	{
		char *end;
		long v = strtol(s, &end, 0);
		if (*end || end == s)
			die(name, s);
		return v;
	}

	static void expand(const char *name, const std::string &item,
	                   std::vector<long> &out)
	{
		size_t c1 = item.find(':');
		if (c1 == std::string::npos) {
			out.push_back(parse_long(name, item.c_str()));
			return;
		}
		size_t c2 = item.find(':', c1 + 1);
		long a = parse_long(name, item.substr(0, c1).c_str());
		long b = parse_long(name, item.substr(c1 + 1, c2 == std::string::npos
		                                                   ? std::string::npos
		                                                   : c2 - c1 - 1).c_str());
		std::string step = c2 == std::string::npos ? "1" : item.substr(c2 + 1);
		bool mul = !step.empty() && step[0] == 'x';
		long s = parse_long(name, step.c_str() + (mul ? 1 : 0));
		if (s <= 0 || (mul && s < 2) || a > b)
			die(name, item.c_str());
		for (long v = a; v <= b; v = mul ? v * s : v + s)
			out.push_back(v);
	}
};

/* ---- the device ---------------------------------------------------------- */

struct Device {
	int id;
	cudaDeviceProp prop;
	int sm_count;
	int cc; /* 90 for compute capability 9.0 */
	int clock_mhz;     /* rated (boost) SM clock */
	int mem_clock_mhz;
	int bus_width_bits;
	long l2_bytes;
	int fp32_lanes_per_sm;
	double peak_fp32_gflops_sm; /* lanes x 2 flops x clock */
	double bw_theoretical_gbps; /* mem clock x 2 (DDR) x bus width */
};

/* FP32 lanes per SM by compute capability (CUDA C Programming Guide,
 * "Arithmetic Instructions"): 64 on GP100, Volta, Turing and GA100. */
inline int fp32_lanes(int cc)
{
	if (cc < 50)
		return 192;
	if (cc == 60 || cc == 70 || cc == 72 || cc == 75 || cc == 80)
		return 64;
	return 128;
}

inline const Device &device()
{
	static Device d;
	static bool ready = false;
	if (ready)
		return d;
	LAB_CHECK(cudaGetDevice(&d.id));
	LAB_CHECK(cudaGetDeviceProperties(&d.prop, d.id));
	int khz = 0, mem_khz = 0;
	LAB_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, d.id));
	LAB_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, d.id));
	LAB_CHECK(cudaDeviceGetAttribute(&d.bus_width_bits,
	                                 cudaDevAttrGlobalMemoryBusWidth, d.id));
	d.sm_count = d.prop.multiProcessorCount;
	d.cc = d.prop.major * 10 + d.prop.minor;
	d.clock_mhz = khz / 1000;
	d.mem_clock_mhz = mem_khz / 1000;
	d.l2_bytes = d.prop.l2CacheSize;
	d.fp32_lanes_per_sm = fp32_lanes(d.cc);
	d.peak_fp32_gflops_sm = d.fp32_lanes_per_sm * 2.0 * d.clock_mhz / 1e3;
	d.bw_theoretical_gbps = mem_khz * 1e3 * 2.0 * d.bus_width_bits / 8 / 1e9;
	ready = true;
	return d;
}

/* ---- timing -------------------------------------------------------------- */

enum Mode { HOT, COLD };

/* How a cold repetition empties L2: read a buffer twice its size, or
 * overwrite it (leaving L2 full of dirty lines). */
enum Flush { FLUSH_READ, FLUSH_WRITE };

struct TimeOpts {
	Mode mode = HOT;        /* COLD flushes L2 before every repetition */
	int warmup = 3;
	int min_reps = 20;
	int max_reps = 2000;
	double budget_ms = 500;      /* stop once this much event time is spent */
	int batch = 0; /* launches per repetition; 0: lab::time chooses (hot
	                  launches under batch_below_us are batched) */
	bool gate = true; /* queue each repetition whole behind a gate kernel;
	                     off for work that waits on the host (a cudaMemcpy
	                     from pageable memory) */
	double min_time_ms = 5;     /* event time to spend before stopping */
	double target_noise = 0.0025; /* stop once the median's relative
	                                 standard error is below */
	double batch_below_us = 20; /* hot launches shorter than this are batched */
	double batch_target_us = 50; /* ... into repetitions this long */
	Flush flush = FLUSH_READ;
};

struct Stats {
	int reps;
	int batch;
	double median_ms, min_ms, max_ms, mean_ms, q1_ms, q3_ms;
	double spread;     /* (q3 - q1) / median */
	double noise;      /* the median's relative standard error */
	double clock_mhz;  /* SM clock while the repetitions ran (median) */
	double clock_min_mhz; /* the lowest reading (NVML only; else clock_mhz) */
	const char *clock_source; /* "nvml", or "after" without NVML */
	unsigned long long clock_reasons; /* NVML's, or'ed over the readings */
	bool throttled;    /* clock below 85% of rated, or a slowdown reason */
	bool retried;      /* throttled once, and taken again */
	bool cold;
};

/*
 * NVML, opened with dlopen so that a program builds and runs without it.
 * Only the calls lab.h needs; handles are the library's own pointers.
 */
struct Nvml {
	bool tried = false;
	void *dev = nullptr; /* the current CUDA device's handle, or null */
	int (*clock_info)(void *, int, unsigned *) = nullptr;
	int (*reasons)(void *, unsigned long long *) = nullptr;
};

/* NVML's clock-event reasons (nvml.h, nvmlClocksEventReason*). */
enum : unsigned long long {
	NVML_REASON_IDLE = 0x1,
	NVML_REASON_APP_CLOCKS = 0x2,
	NVML_REASON_SW_POWER_CAP = 0x4,
	NVML_REASON_HW_SLOWDOWN = 0x8,
	NVML_REASON_SYNC_BOOST = 0x10,
	NVML_REASON_SW_THERMAL = 0x20,
	NVML_REASON_HW_THERMAL = 0x40,
	NVML_REASON_HW_POWER_BRAKE = 0x80,
	NVML_REASON_DISPLAY_CLOCKS = 0x100,
	/* Reasons that hold a busy card below the clock it would run at. */
	NVML_REASON_SLOWDOWN = 0x8 | 0x20 | 0x40 | 0x80,
};

inline Nvml &nvml()
{
	static Nvml n;
	if (n.tried)
		return n;
	n.tried = true;
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return n;
	typedef int (*init_fn)(void);
	typedef int (*by_bus_fn)(const char *, void **);
	init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
	by_bus_fn by_bus = (by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	n.clock_info = (int (*)(void *, int, unsigned *))dlsym(
	    lib, "nvmlDeviceGetClockInfo");
	void *r = dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
	if (!r)
		r = dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
	n.reasons = (int (*)(void *, unsigned long long *))r;
	char bus[32];
	if (!init || !by_bus || !n.clock_info ||
	    cudaDeviceGetPCIBusId(bus, sizeof bus, device().id) != cudaSuccess ||
	    init() != 0 || by_bus(bus, &n.dev) != 0)
		n.dev = nullptr;
	return n;
}

/* The NVML reasons as words, "sw_power_cap hw_slowdown"; idle left out. */
inline std::string clock_reason_words(unsigned long long r)
{
	static const struct {
		unsigned long long bit;
		const char *word;
	} names[] = {{NVML_REASON_APP_CLOCKS, "app_clocks"},
	             {NVML_REASON_SW_POWER_CAP, "sw_power_cap"},
	             {NVML_REASON_HW_SLOWDOWN, "hw_slowdown"},
	             {NVML_REASON_SYNC_BOOST, "sync_boost"},
	             {NVML_REASON_SW_THERMAL, "sw_thermal"},
	             {NVML_REASON_HW_THERMAL, "hw_thermal"},
	             {NVML_REASON_HW_POWER_BRAKE, "hw_power_brake"},
	             {NVML_REASON_DISPLAY_CLOCKS, "display_clocks"}};
	std::string s;
	for (const auto &n : names)
		if (r & n.bit)
			s += (s.empty() ? "" : " ") + std::string(n.word);
	return s;
}

/*
 * The clock readings taken since the last summarize(): kept apart from
 * Scratch so that times pooled over several contexts keep theirs.
 */
struct ClockLog {
	std::vector<double> mhz; /* NVML readings */
	unsigned long long reasons = 0;
	std::chrono::steady_clock::time_point last;
};

inline ClockLog &clock_log()
{
	static ClockLog l;
	return l;
}

/* Read NVML's SM clock and reasons, at most once a millisecond: the card
 * changes its clock no faster, and a reading costs the host tens of us. */
inline void clock_read_nvml()
{
	Nvml &n = nvml();
	ClockLog &l = clock_log();
	if (!n.dev)
		return;
	std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now();
	if (!l.mhz.empty() && now - l.last < std::chrono::milliseconds(1))
		return;
	unsigned mhz = 0;
	unsigned long long r = 0;
	if (n.clock_info(n.dev, 1 /* NVML_CLOCK_SM */, &mhz) != 0 || !mhz)
		return;
	if (n.reasons && n.reasons(n.dev, &r) == 0)
		l.reasons |= r & ~NVML_REASON_IDLE;
	l.mhz.push_back(mhz);
	l.last = now;
}

__global__ void lab_clock_probe(long long spin_ns, unsigned long long *out)
{
	unsigned long long t0, t1;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	long long c0 = clock64();
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
	while ((long long)(t1 - t0) < spin_ns);
	long long c1 = clock64();
	out[0] = (unsigned long long)(c1 - c0);
	out[1] = t1 - t0;
}

/*
 * Device memory lab.h keeps for itself, made on first use. It belongs to
 * the current CUDA context: lab::reset_device() drops it with the context.
 */
struct Scratch {
	unsigned long long *probe = nullptr; /* the clock probe's output */
	void *l2 = nullptr;                  /* what the L2 flush goes through */
	size_t l2_bytes = 0;
	unsigned *sink = nullptr;            /* the read flush's unused result */
	volatile int *gate = nullptr; /* mapped: [0] open, [1] timed out */
	int *gate_dev = nullptr;
	int pass = 0;
};

inline Scratch &scratch()
{
	static Scratch s;
	return s;
}

/* cudaDeviceReset: a fresh context, and lab.h's own memory with it. */
inline void reset_device()
{
	LAB_CHECK(cudaDeviceReset());
	scratch() = Scratch();
}

/* The SM clock in MHz, measured over about a millisecond by one thread,
 * now: with the card near idle, not under the work just timed. */
inline double sm_clock_mhz()
{
	Scratch &s = scratch();
	if (!s.probe)
		LAB_CHECK(cudaMalloc(&s.probe, 2 * sizeof *s.probe));
	lab_clock_probe<<<1, 1>>>(1000000, s.probe);
	LAB_CHECK_LAUNCH();
	unsigned long long h[2];
	LAB_CHECK(cudaMemcpy(h, s.probe, sizeof h, cudaMemcpyDeviceToHost));
	return h[1] ? (double)h[0] / (double)h[1] * 1e3 : 0;
}

/*
 * The gate: one thread that spins until the host opens it (a flag in
 * mapped host memory) or timeout_ns passes, and notes which. While it
 * spins, the host queues a whole repetition behind it, then opens it. Work that itself waits for the GPU
 * (a synchronous copy) would wait for the timeout instead: lab::time sees
 * the gate time out and stops using it for that point.
 */
__global__ void lab_gate(volatile int *flag, long long timeout_ns)
{
	unsigned long long t0, t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	do
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	while (!flag[0] && (long long)(t - t0) < timeout_ns);
	if (!flag[0])
		flag[1] = 1;
}

inline void gate_close()
{
	Scratch &s = scratch();
	if (!s.gate) {
		int *h;
		LAB_CHECK(cudaHostAlloc(&h, 2 * sizeof(int), cudaHostAllocMapped));
		LAB_CHECK(cudaHostGetDevicePointer(&s.gate_dev, h, 0));
		s.gate = h;
	}
	s.gate[0] = s.gate[1] = 0;
	lab_gate<<<1, 1>>>(s.gate_dev, 100 * 1000 * 1000);
}

inline void gate_open() { scratch().gate[0] = 1; }
inline bool gate_timed_out() { return scratch().gate[1] != 0; }

/* Read every 16-byte word of buf; the sum goes to *sink only if it is
 * never-seen, so the loads cannot be dropped. */
__global__ void lab_flush_read(const uint4 *buf, size_t n4, unsigned *sink)
{
	unsigned s = 0;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
	     i += (size_t)gridDim.x * blockDim.x) {
		uint4 v = buf[i];
		s ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	if (s == 0x9e3779b9u)
		*sink = s;
}

/* Empty L2 of the timed work's data: read (FLUSH_READ) or overwrite
 * (FLUSH_WRITE) a buffer twice the L2 size, at least 8 MiB. */
inline void flush_l2(Flush how = FLUSH_READ)
{
	Scratch &s = scratch();
	if (!s.l2) {
		s.l2_bytes = std::max<size_t>(2 * (size_t)device().l2_bytes, 8u << 20);
		LAB_CHECK(cudaMalloc(&s.l2, s.l2_bytes));
		LAB_CHECK(cudaMemset(s.l2, 0, s.l2_bytes));
		LAB_CHECK(cudaMalloc(&s.sink, sizeof *s.sink));
	}
	if (how == FLUSH_WRITE) {
		LAB_CHECK(cudaMemsetAsync(s.l2, ++s.pass & 0xff, s.l2_bytes));
		return;
	}
	lab_flush_read<<<4 * device().sm_count, 512>>>((const uint4 *)s.l2,
	                                               s.l2_bytes / 16, s.sink);
	LAB_CHECK_LAUNCH();
}

inline double quantile(const std::vector<double> &sorted, double q)
{
	double pos = q * (sorted.size() - 1);
	size_t i = (size_t)pos;
	double f = pos - i;
	return i + 1 < sorted.size() ? sorted[i] * (1 - f) + sorted[i + 1] * f
	                             : sorted[i];
}

/* The relative standard error of the median of sorted times: 1.2533
 * sigma / sqrt(n), with sigma estimated from the quartiles (IQR / 1.349),
 * so that a few slow outliers do not inflate it. */
inline double median_noise(const std::vector<double> &sorted)
{
	double med = quantile(sorted, 0.5);
	if (med <= 0 || sorted.size() < 2)
		return 0;
	double iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
	return 1.2533 * iqr / 1.349 / std::sqrt((double)sorted.size()) / med;
}

/* Under Nsight Compute (LAB_PROFILE set by labbook) each point is one
 * launch: the profiler replays it to read its counters. */
inline bool profiling()
{
	static const bool on = getenv("LAB_PROFILE") != nullptr;
	return on;
}

/*
 * Time fn(), which enqueues work on the default stream, and return each
 * repetition's time in milliseconds per launch (its time divided by
 * opts.batch, 1 when 0), in the order taken. time() below summarises them;
 * an experiment that interleaves its points calls sample() once per round
 * and summarize() on the pooled times. The clock readings wait in
 * clock_log() for summarize().
 */
template <class F> std::vector<double> sample(F fn, TimeOpts o = TimeOpts())
{
	if (o.batch < 1)
		o.batch = 1;
	if (profiling()) {
		o.warmup = 0;
		o.min_reps = o.max_reps = 1;
		o.mode = HOT;
		o.batch = 1;
		o.gate = false;
	}
	for (int i = 0; i < o.warmup; i++)
		fn();
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaDeviceSynchronize());

	cudaEvent_t start, stop;
	LAB_CHECK(cudaEventCreate(&start));
	LAB_CHECK(cudaEventCreate(&stop));
	std::vector<double> ms;
	double total = 0;
	while ((int)ms.size() < o.max_reps) {
		if (o.gate)
			gate_close();
		if (o.mode == COLD)
			flush_l2(o.flush);
		LAB_CHECK(cudaEventRecord(start));
		for (int b = 0; b < o.batch; b++)
			fn();
		LAB_CHECK(cudaEventRecord(stop));
		if (o.gate)
			gate_open();
		if (!profiling())
			clock_read_nvml();
		LAB_CHECK(cudaEventSynchronize(stop));
		LAB_CHECK_LAUNCH();
		if (o.gate && gate_timed_out())
			o.gate = false;
		float t;
		LAB_CHECK(cudaEventElapsedTime(&t, start, stop));
		ms.push_back(t / o.batch);
		total += t;
		if ((int)ms.size() < o.min_reps || total < o.min_time_ms)
			continue;
		if (total > o.budget_ms)
			break;
		std::vector<double> s = ms;
		std::sort(s.begin(), s.end());
		if (median_noise(s) < o.target_noise)
			break;
	}
	LAB_CHECK(cudaEventDestroy(start));
	LAB_CHECK(cudaEventDestroy(stop));
	return ms;
}

/* The statistics of repetition times taken with the options o, and the
 * clock readings taken since the last call. */
inline Stats summarize(std::vector<double> ms, const TimeOpts &o)
{
	Stats st;
	std::sort(ms.begin(), ms.end());
	st.reps = (int)ms.size();
	st.batch = profiling() || o.batch < 1 ? 1 : o.batch;
	st.median_ms = quantile(ms, 0.5);
	st.min_ms = ms.front();
	st.max_ms = ms.back();
	st.q1_ms = quantile(ms, 0.25);
	st.q3_ms = quantile(ms, 0.75);
	double sum = 0;
	for (double v : ms)
		sum += v;
	st.mean_ms = sum / ms.size();
	st.spread = st.median_ms > 0 ? (st.q3_ms - st.q1_ms) / st.median_ms : 0;
	st.noise = median_noise(ms);
	ClockLog &l = clock_log();
	st.clock_reasons = l.reasons;
	if (profiling()) {
		st.clock_mhz = st.clock_min_mhz = 0;
		st.clock_source = "none";
	} else if (!l.mhz.empty()) {
		std::vector<double> c = l.mhz;
		std::sort(c.begin(), c.end());
		st.clock_mhz = quantile(c, 0.5);
		st.clock_min_mhz = c.front();
		st.clock_source = "nvml";
	} else {
		st.clock_mhz = st.clock_min_mhz = sm_clock_mhz();
		st.clock_source = "after";
	}
	l = ClockLog();
	st.throttled = !profiling() &&
	               (st.clock_min_mhz < 0.85 * device().clock_mhz ||
	                (st.clock_reasons & NVML_REASON_SLOWDOWN));
	st.retried = false;
	st.cold = o.mode == COLD && !profiling();
	return st;
}

/*
 * The launch count per repetition for o: o.batch when set; for a hot
 * launch (gated, not profiled) shorter than o.batch_below_us, enough
 * launches to last o.batch_target_us, judged from the fastest of three
 * single launches (which also warm it up); else 1.
 */
template <class F> int batch_for(F fn, TimeOpts &o)
{
	if (o.batch > 0)
		return o.batch;
	if (o.mode != HOT || !o.gate || profiling())
		return 1;
	TimeOpts one = o;
	one.batch = 1;
	one.min_reps = one.max_reps = 3;
	std::vector<double> ms = sample(fn, one);
	o.warmup = 0;
	double us = *std::min_element(ms.begin(), ms.end()) * 1e3;
	if (!o.gate || us >= o.batch_below_us || us <= 0)
		return 1;
	return std::min(1000, (int)std::ceil(o.batch_target_us / us));
}

template <class F> Stats time(F fn, TimeOpts o = TimeOpts())
{
	o.batch = batch_for(fn, o);
	Stats st = summarize(sample(fn, o), o);
	if (st.throttled) {
		o.warmup = 0;
		st = summarize(sample(fn, o), o);
		st.retried = true;
	}
	return st;
}

/* ---- records --------------------------------------------------------------- */

/*
 * One result: fields in the order they are set, then emit().
 *   lab::Record().set("ilp", 4).set("threads", 256)
 *       .rate("gflops", flops / 1e9, st).stats(st).emit();
 * rate(name, amount, st) sets name = amount / median seconds, and name_lo /
 * name_hi from the slowest and fastest repetition, for error bars.
 */
class Record {
public:
	Record &set(const char *k, double v)
	{
		char buf[64];
		if (std::isfinite(v))
			snprintf(buf, sizeof buf, "%.9g", v);
		else
			snprintf(buf, sizeof buf, "null");
		return raw(k, buf);
	}
	Record &set(const char *k, float v) { return set(k, (double)v); }
	Record &set(const char *k, long long v)
	{
		return raw(k, std::to_string(v));
	}
	Record &set(const char *k, long v) { return set(k, (long long)v); }
	Record &set(const char *k, int v) { return set(k, (long long)v); }
	Record &set(const char *k, unsigned v) { return set(k, (long long)v); }
	Record &set(const char *k, size_t v) { return set(k, (long long)v); }
	Record &set(const char *k, bool v) { return raw(k, v ? "true" : "false"); }
	Record &set(const char *k, const char *v) { return raw(k, quote(v)); }

	Record &stats(const Stats &s)
	{
		set("reps", s.reps);
		if (s.batch > 1)
			set("batch", s.batch);
		set("median_ms", s.median_ms);
		set("min_ms", s.min_ms);
		set("max_ms", s.max_ms);
		set("q1_ms", s.q1_ms);
		set("q3_ms", s.q3_ms);
		set("spread", s.spread);
		set("noise", s.noise);
		set("clock_mhz", s.clock_mhz);
		set("clock_min_mhz", s.clock_min_mhz);
		set("clock_source", s.clock_source);
		if (s.clock_reasons)
			set("clock_reasons",
			    clock_reason_words(s.clock_reasons).c_str());
		set("throttled", s.throttled);
		if (s.retried)
			set("retried", true);
		return set("cold", s.cold);
	}

	Record &rate(const char *k, double amount, const Stats &s)
	{
		std::string lo = std::string(k) + "_lo", hi = std::string(k) + "_hi";
		set(k, amount / (s.median_ms * 1e-3));
		set(lo.c_str(), amount / (s.max_ms * 1e-3));
		return set(hi.c_str(), amount / (s.min_ms * 1e-3));
	}

	void emit()
	{
		std::string line = "{" + body_ + "}\n";
		const char *path = getenv("LAB_RECORDS");
		FILE *f = path && *path ? fopen(path, "a") : nullptr;
		if (f) {
			fputs(line.c_str(), f);
			fclose(f);
		} else {
			printf("record: %s", line.c_str());
		}
		body_.clear();
	}

	/* A fact about the machine (e.g. "bw_copy_gbps"), merged into the
	 * bundle's machine.json under "measured". */
	static void fact(const char *name, double value)
	{
		Record().set("fact", name).set("value", value).emit();
	}

private:
	std::string body_;

	Record &raw(const char *k, const std::string &v)
	{
		if (!body_.empty())
			body_ += ",";
		body_ += quote(k) + ":" + v;
		return *this;
	}

	static std::string quote(const char *s)
	{
		std::string q = "\"";
		for (; *s; s++) {
			unsigned char c = *s;
			if (c == '"' || c == '\\') {
				q += '\\';
				q += c;
			} else if (c < 0x20) {
				char e[8];
				snprintf(e, sizeof e, "\\u%04x", c);
				q += e;
			} else {
				q += c;
			}
		}
		return q + "\"";
	}
};

/* ---- data: random inputs, poisoned outputs, checks ------------------------ */

/* xorshift64*: the same stream on every machine for a given seed. */
struct Rng {
	uint64_t s;
	explicit Rng(uint64_t seed) : s(seed * 2685821657736338717ull + 1) {}
	uint64_t next()
	{
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		return s * 2685821657736338717ull;
	}
	double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

inline void fill_uniform(float *h, size_t n, uint64_t seed, float lo = -1,
                         float hi = 1)
{
	Rng r(seed);
	for (size_t i = 0; i < n; i++)
		h[i] = lo + (float)r.uniform() * (hi - lo);
}

inline void fill_int(int *h, size_t n, uint64_t seed, int lo, int hi)
{
	Rng r(seed);
	for (size_t i = 0; i < n; i++)
		h[i] = lo + (int)(r.next() % (uint64_t)(hi - lo + 1));
}

/* Fill device memory with 0xff bytes: NaN as float, -1 as int. */
inline void poison(void *dev, size_t bytes)
{
	LAB_CHECK(cudaMemset(dev, 0xff, bytes));
}

/*
 * True when every got[i] is within rel_tol of ref[i] (relative to
 * max(|ref[i]|, 1)); NaN never passes. The first bad index goes to *bad.
 */
inline bool check_close(const float *got, const float *ref, size_t n,
                        double rel_tol, size_t *bad = nullptr)
{
	for (size_t i = 0; i < n; i++) {
		double d = std::fabs((double)got[i] - ref[i]);
		if (!(d <= rel_tol * std::max(1.0, std::fabs((double)ref[i])))) {
			if (bad)
				*bad = i;
			return false;
		}
	}
	return true;
}

} /* namespace lab */

#endif
