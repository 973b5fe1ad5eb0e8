/*
 * p2p.cu - the link between GPUs: what the driver says it is, and what it
 * carries.
 *
 * The runner gives this experiment every GPU of the machine at once
 * (gpus: all), and it measures each pair of them:
 *
 *   link     what the driver reports for each ordered pair: whether one GPU
 *            can address the other's memory (cudaDeviceCanAccessPeer), and
 *            its access, performance rank and native atomics as
 *            cudaDeviceGetP2PAttribute reports them;
 *            and from NVML, where the driver's libnvidia-ml.so.1 is there
 *            (opened at run time, so the build needs no NVML), the NVLink
 *            links between them. The rated bandwidth per direction is links
 *            x the per-link rate of the card's NVLink generation (the table
 *            below), or the PCIe link's lanes x the lane rate of its
 *            generation where there is no NVLink.
 *   copy     cudaMemcpyPeerAsync with peer access enabled, 64 KiB to 1 GiB:
 *            one way, for each ordered pair, issued on the source GPU; and
 *            both ways at once, for each pair, each GPU pushing to the other
 *            on a stream of its own.
 *   latency  a 4-byte peer copy.
 *   read     a kernel that reads a large buffer in the peer's memory directly,
 *            over the link, beside the same kernel reading its own memory.
 *
 * Every copy is checked: the destination is poisoned first, and summed on
 * its own GPU afterwards.
 *
 * Timing is lab.h's: the repetitions run on the default stream of the GPU
 * that issues the work (lab::sample), and the statistics are taken back on
 * GPU 0 (lab::summarize, whose clock reading is GPU 0's). The copies
 * themselves run on each sending GPU's own non-blocking stream, fenced into
 * the timed default stream by events: a peer copy on the default stream
 * also waits for the other GPU's default stream, which on an H100 pair adds
 * a few microseconds to every copy and serialises the two directions of a
 * both-ways copy.
 *
 * Records (src sends, dst receives; pair "0→1", or "0⇄1" for both ways):
 *   test=link     src, dst, pair, can_access, access_supported, perf_rank,
 *                 native_atomics, via (NVLink, PCIe or unknown), nvlink
 *                 (generation), nvml_version (as NVML reports it), links,
 *                 rated_gbps (per direction; absent when unknown)
 *   test=copy     dir (one-way, both), src, dst, pair, series, bytes, gbps
 *                 (both: the bytes of both directions per second), correct
 *   test=latency  src, dst, pair, bytes, us
 *   test=read     src (whose memory), dst (which GPU reads), pair, memory
 *                 (peer, local), bytes, gbps, correct
 *   test=none     with one GPU: gpus, not_measured
 *
 *   p2p --bytes 65536:1073741824:x4 --read-mb 1024
 */
#include "lab.h"

#include <dlfcn.h>

/* NVLink rate per link and direction, GB/s, by generation, as NVIDIA
 * publishes it: P100 4 links 80 GB/s, V100 6 links 150, A100 12 links 300,
 * H100 18 links 450, B200 18 links 900 per direction. */
static const double nvlink_gbps[] = {0, 20, 25, 25, 25, 50};

/* The NVLink generation of a compute capability: P100 (6.0) has the first,
 * V100 (7.0) the second, A100 (8.0) the third, H100 (9.0) the fourth, B200
 * (10.0) the fifth. NVML's own version number is recorded beside it: its
 * meaning changed between drivers. */
static int nvlink_generation(int cc)
{
	switch (cc) {
	case 60: return 1;
	case 70: return 2;
	case 80: return 3;
	case 90: return 4;
	case 100: return 5;
	default: return 0;
	}
}

/* PCIe rate per lane and direction, GB/s, by generation (after the line
 * code: 8b/10b up to 2.0, 128b/130b from 3.0, FLIT mode in 6.0). */
static const double pcie_lane_gbps[] = {0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563};

/* ---- NVML, opened at run time ---------------------------------------------- */

typedef struct nvmlDevice_st *nvmlDevice_t;
struct NvmlPci { /* nvmlPciInfo_t */
	char bus_id_legacy[16];
	unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
};

struct Nvml {
	void *lib = nullptr;
	int (*init)();
	int (*handle)(const char *, nvmlDevice_t *);
	int (*link_state)(nvmlDevice_t, unsigned, unsigned *);
	int (*link_version)(nvmlDevice_t, unsigned, unsigned *);
	int (*link_remote)(nvmlDevice_t, unsigned, NvmlPci *);
	int (*pcie_gen)(nvmlDevice_t, unsigned *);
	int (*pcie_width)(nvmlDevice_t, unsigned *);

	bool open()
	{
		lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
		if (!lib)
			return false;
		init = (int (*)())dlsym(lib, "nvmlInit_v2");
		handle = (int (*)(const char *, nvmlDevice_t *))dlsym(
		    lib, "nvmlDeviceGetHandleByPciBusId_v2");
		link_state = (int (*)(nvmlDevice_t, unsigned, unsigned *))dlsym(
		    lib, "nvmlDeviceGetNvLinkState");
		link_version = (int (*)(nvmlDevice_t, unsigned, unsigned *))dlsym(
		    lib, "nvmlDeviceGetNvLinkVersion");
		link_remote = (int (*)(nvmlDevice_t, unsigned, NvmlPci *))dlsym(
		    lib, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
		pcie_gen = (int (*)(nvmlDevice_t, unsigned *))dlsym(
		    lib, "nvmlDeviceGetMaxPcieLinkGeneration");
		pcie_width = (int (*)(nvmlDevice_t, unsigned *))dlsym(
		    lib, "nvmlDeviceGetMaxPcieLinkWidth");
		return init && handle && link_state && link_version &&
		       link_remote && pcie_gen && pcie_width && init() == 0;
	}

	/* The NVML handle of CUDA device dev, found by its PCI address (CUDA
	 * and NVML number the GPUs differently). */
	bool device(int dev, nvmlDevice_t *h)
	{
		char bus[32];
		LAB_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, dev));
		return handle(bus, h) == 0;
	}
};

/* What links GPU src to GPU dst. */
struct Link {
	const char *via = "unknown";
	int nvlink = 0;       /* generation, 0: none */
	int nvml_version = 0; /* as NVML reported it */
	int links = 0;
	double rated_gbps = 0; /* per direction; 0: unknown */
};

static Link link_between(Nvml *nvml, int src, int dst)
{
	Link l;
	nvmlDevice_t h;
	if (!nvml || !nvml->device(src, &h))
		return l;
	cudaDeviceProp peer;
	LAB_CHECK(cudaGetDeviceProperties(&peer, dst));
	int active = 0, direct = 0;
	for (unsigned k = 0; k < 32; k++) {
		unsigned on = 0, version = 0;
		NvmlPci remote;
		if (nvml->link_state(h, k, &on) != 0 || !on)
			continue;
		active++;
		if (nvml->link_version(h, k, &version) == 0)
			l.nvml_version = (int)version;
		if (nvml->link_remote(h, k, &remote) == 0 &&
		    (int)remote.domain == peer.pciDomainID &&
		    (int)remote.bus == peer.pciBusID &&
		    (int)remote.device == peer.pciDeviceID)
			direct++;
	}
	if (active) {
		/* Links that end at the peer; through NVSwitches, all of them. */
		l.via = "NVLink";
		l.links = direct ? direct : active;
		l.nvlink = nvlink_generation(peer.major * 10 + peer.minor);
		l.rated_gbps = l.links * nvlink_gbps[l.nvlink];
		return l;
	}
	unsigned gen = 0, width = 0;
	if (nvml->pcie_gen(h, &gen) == 0 && nvml->pcie_width(h, &width) == 0 &&
	    gen >= 1 && gen <= 6) {
		l.via = "PCIe";
		l.links = (int)width;
		l.rated_gbps = width * pcie_lane_gbps[gen];
	}
	return l;
}

/* ---- kernels ------------------------------------------------------------------ */

/*
 * Sum a buffer as 32-bit words, with a grid-stride loop of 16-byte loads
 * and one atomic per warp. Over the link when buf lies in another GPU's
 * memory.
 */
__global__ void read_sum(const uint4 *buf, size_t n4, unsigned long long *sum)
{
	unsigned long long s = 0;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
	     i += stride) {
		uint4 v = buf[i];
		s += (unsigned long long)v.x + v.y + v.z + v.w;
	}
	for (int d = 16; d > 0; d /= 2)
		s += __shfl_down_sync(0xffffffffu, s, d);
	if (threadIdx.x % 32 == 0)
		atomicAdd(sum, s);
}

/* ---- the GPUs ------------------------------------------------------------------ */

struct Gpu {
	char *src, *dst;          /* max_bytes each: what it sends, receives */
	unsigned long long *sum;  /* read_sum's result */
	cudaStream_t stream;      /* where its copies run (non-blocking) */
	cudaEvent_t go, done;     /* the fences around them */
	int grid;                 /* blocks of 256 that fill it once */
};

static std::vector<Gpu> gpus;

/* Every byte GPU g sends is this. */
static int pattern(int g) { return 0x10 + g; }

static void poison(int g, size_t bytes)
{
	LAB_CHECK(cudaSetDevice(g));
	LAB_CHECK(cudaMemset(gpus[g].dst, 0xff, bytes));
}

/* The sum of the first bytes of buf, read by GPU g. */
static unsigned long long sum_on(int g, const char *buf, size_t bytes)
{
	unsigned long long s;
	LAB_CHECK(cudaSetDevice(g));
	LAB_CHECK(cudaMemset(gpus[g].sum, 0, sizeof s));
	read_sum<<<gpus[g].grid, 256>>>((const uint4 *)buf, bytes / 16, gpus[g].sum);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaMemcpy(&s, gpus[g].sum, sizeof s, cudaMemcpyDeviceToHost));
	return s;
}

/* Did dst's buffer receive bytes of what src sends? */
static bool received(int src, int dst, size_t bytes)
{
	unsigned long long word = 0x01010101ull * pattern(src);
	return sum_on(dst, gpus[dst].dst, bytes) == bytes / 4 * word;
}

/* lab::time with the repetitions on GPU g's default stream, the statistics
 * on GPU 0. */
template <class F> static lab::Stats time_on(int g, F fn, lab::TimeOpts o = {})
{
	LAB_CHECK(cudaSetDevice(g));
	std::vector<double> ms = lab::sample(fn, o);
	LAB_CHECK(cudaSetDevice(0));
	return lab::summarize(ms, o);
}

/*
 * src pushes bytes to dst on its own stream, once the current GPU's default
 * stream has passed the event go, and that stream waits for the copy's end:
 * lab.h's gate and events on the default stream bracket the copy.
 */
static void push(int src, int dst, size_t bytes, cudaEvent_t go)
{
	Gpu &g = gpus[src];
	LAB_CHECK(cudaStreamWaitEvent(g.stream, go, 0));
	LAB_CHECK(cudaMemcpyPeerAsync(gpus[dst].dst, dst, g.src, src, bytes,
	                              g.stream));
	LAB_CHECK(cudaEventRecord(g.done, g.stream));
	LAB_CHECK(cudaStreamWaitEvent(0, g.done, 0));
}

static std::string pair_name(int src, int dst, const char *arrow)
{
	return std::to_string(src) + arrow + std::to_string(dst);
}

/* ---- the measurements -------------------------------------------------------- */

static void measure_link(Nvml *nvml, int src, int dst)
{
	int access = 0, supported = 0, rank = 0, atomics = 0;
	LAB_CHECK(cudaDeviceCanAccessPeer(&access, src, dst));
	LAB_CHECK(cudaDeviceGetP2PAttribute(
	    &supported, cudaDevP2PAttrAccessSupported, src, dst));
	LAB_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank,
	                                    src, dst));
	LAB_CHECK(cudaDeviceGetP2PAttribute(
	    &atomics, cudaDevP2PAttrNativeAtomicSupported, src, dst));
	Link l = link_between(nvml, src, dst);
	std::string pair = pair_name(src, dst, "→");
	printf("link %s  peer access %s, performance rank %d, native atomics %s; "
	       "%s", pair.c_str(), access ? "yes" : "no", rank,
	       atomics ? "yes" : "no", l.via);
	if (l.nvlink)
		printf(" %d, %d links", l.nvlink, l.links);
	else if (!strcmp(l.via, "PCIe"))
		printf(" x%d", l.links);
	if (l.rated_gbps > 0)
		printf(", rated %.0f GB/s per direction", l.rated_gbps);
	printf("\n");
	lab::Record r;
	r.set("test", "link").set("src", src).set("dst", dst)
	    .set("pair", pair.c_str()).set("can_access", access)
	    .set("access_supported", supported).set("perf_rank", rank).set("native_atomics", atomics)
	    .set("via", l.via).set("nvlink", l.nvlink)
	    .set("nvml_version", l.nvml_version).set("links", l.links);
	if (l.rated_gbps > 0)
		r.set("rated_gbps", l.rated_gbps);
	r.emit();
}

static void emit_copy(const char *dir, int src, int dst, size_t bytes,
                      double moved, const lab::Stats &st, bool ok)
{
	bool both = !strcmp(dir, "both");
	std::string pair = pair_name(src, dst, both ? "⇄" : "→");
	std::string series = pair + (both ? " both ways" : " one way");
	lab::Record()
	    .set("test", "copy").set("dir", dir).set("src", src).set("dst", dst)
	    .set("pair", pair.c_str()).set("series", series.c_str())
	    .set("bytes", bytes).rate("gbps", moved / 1e9, st)
	    .set("correct", ok).stats(st).emit();
	printf("copy %-5s %-10s %10zu B  %8.1f GB/s%s\n", pair.c_str(), dir, bytes,
	       moved / 1e9 / (st.median_ms * 1e-3), ok ? "" : "  WRONG");
}

/* src pushes bytes to dst, timed on src. */
static void copy_one_way(int src, int dst, size_t bytes)
{
	poison(dst, bytes);
	cudaEvent_t go = gpus[src].go;
	lab::Stats st = time_on(src, [&] {
		LAB_CHECK(cudaEventRecord(go, 0));
		push(src, dst, bytes, go);
	});
	emit_copy("one-way", src, dst, bytes, bytes, st, received(src, dst, bytes));
}

/* a pushes to b and b to a at the same time, timed on a. */
static void copy_both_ways(int a, int b, size_t bytes)
{
	poison(a, bytes);
	poison(b, bytes);
	cudaEvent_t go = gpus[a].go;
	lab::Stats st = time_on(a, [&] {
		LAB_CHECK(cudaEventRecord(go, 0));
		push(a, b, bytes, go);
		push(b, a, bytes, go);
	});
	bool ok = received(a, b, bytes) && received(b, a, bytes);
	emit_copy("both", a, b, bytes, 2.0 * bytes, st, ok);
}

static void latency(int src, int dst)
{
	lab::TimeOpts o;
	o.min_reps = 200;
	o.budget_ms = 200;
	cudaEvent_t go = gpus[src].go;
	lab::Stats st = time_on(src, [&] {
		LAB_CHECK(cudaEventRecord(go, 0));
		push(src, dst, 4, go);
	}, o);
	std::string pair = pair_name(src, dst, "→");
	lab::Record()
	    .set("test", "latency").set("src", src).set("dst", dst)
	    .set("pair", pair.c_str()).set("bytes", 4)
	    .set("us", st.median_ms * 1e3).stats(st).emit();
	printf("latency %s  4-byte copy  %.2f us\n", pair.c_str(),
	       st.median_ms * 1e3);
}

/* GPU reader sums bytes of what GPU owner sends, in owner's memory. */
static void direct_read(int owner, int reader, size_t bytes)
{
	const Gpu &g = gpus[reader];
	const uint4 *buf = (const uint4 *)gpus[owner].src;
	lab::Stats st = time_on(reader, [&] {
		read_sum<<<g.grid, 256>>>(buf, bytes / 16, g.sum);
	});
	unsigned long long word = 0x01010101ull * pattern(owner);
	bool ok = sum_on(reader, gpus[owner].src, bytes) == bytes / 4 * word;
	bool peer = owner != reader;
	std::string pair = pair_name(owner, reader, "→");
	lab::Record()
	    .set("test", "read").set("src", owner).set("dst", reader)
	    .set("pair", pair.c_str()).set("memory", peer ? "peer" : "local")
	    .set("bytes", bytes).rate("gbps", bytes / 1e9, st)
	    .set("correct", ok).stats(st).emit();
	printf("read %s  GPU %d reads %s memory  %8.1f GB/s%s\n", pair.c_str(),
	       reader, peer ? "the peer's" : "its own",
	       bytes / 1e9 / (st.median_ms * 1e-3), ok ? "" : "  WRONG");
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> sizes = args.list("--bytes", "65536:1073741824:x4");
	size_t read_bytes = (size_t)args.integer("--read-mb", 1024) << 20;
	int n = 0;
	LAB_CHECK(cudaGetDeviceCount(&n));
	LAB_CHECK(cudaSetDevice(0));
	const lab::Device &dev = lab::device();
	if (n < 2) {
		printf("%s: one GPU: there is no link to measure\n", dev.prop.name);
		lab::Record().set("test", "none").set("gpus", n)
		    .set("not_measured", "one GPU: there is no link to measure").emit();
		return 0;
	}
	size_t max_bytes = std::max(read_bytes,
	                            (size_t)*std::max_element(sizes.begin(), sizes.end()));
	printf("%d x %s: peer-to-peer copies and reads, %zu to %zu bytes\n", n,
	       dev.prop.name, (size_t)sizes.front(), (size_t)sizes.back());

	Nvml nvml;
	bool have_nvml = nvml.open();
	if (!have_nvml)
		printf("NVML (libnvidia-ml.so.1) is not available: the links and "
		       "their rated bandwidth are unknown\n");
	gpus.resize(n);
	for (int g = 0; g < n; g++) {
		Gpu &x = gpus[g];
		LAB_CHECK(cudaSetDevice(g));
		LAB_CHECK(cudaMalloc(&x.src, max_bytes));
		LAB_CHECK(cudaMalloc(&x.dst, max_bytes));
		LAB_CHECK(cudaMalloc(&x.sum, sizeof *x.sum));
		LAB_CHECK(cudaMemset(x.src, pattern(g), max_bytes));
		LAB_CHECK(cudaStreamCreateWithFlags(&x.stream, cudaStreamNonBlocking));
		LAB_CHECK(cudaEventCreateWithFlags(&x.go, cudaEventDisableTiming));
		LAB_CHECK(cudaEventCreateWithFlags(&x.done, cudaEventDisableTiming));
		int per_sm = 0;
		LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm,
		                                                        read_sum, 256, 0));
		x.grid = std::max(per_sm, 1) * dev.sm_count;
		for (int p = 0; p < n; p++) {
			int access = 0;
			LAB_CHECK(cudaDeviceCanAccessPeer(&access, g, p));
			if (p != g && access)
				LAB_CHECK(cudaDeviceEnablePeerAccess(p, 0));
		}
	}
	LAB_CHECK(cudaSetDevice(0));

	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++)
			if (s != d)
				measure_link(have_nvml ? &nvml : nullptr, s, d);
	for (long bytes : sizes)
		for (int s = 0; s < n; s++)
			for (int d = 0; d < n; d++)
				if (s != d)
					copy_one_way(s, d, (size_t)bytes);
	for (long bytes : sizes)
		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				copy_both_ways(a, b, (size_t)bytes);
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++)
			if (s != d)
				latency(s, d);
	for (int r = 0; r < n; r++) {
		direct_read(r, r, read_bytes);
		for (int o = 0; o < n; o++) {
			int access = 0;
			LAB_CHECK(cudaDeviceCanAccessPeer(&access, r, o));
			if (o != r && access)
				direct_read(o, r, read_bytes);
		}
	}

	for (Gpu &x : gpus) {
		LAB_CHECK(cudaFree(x.src));
		LAB_CHECK(cudaFree(x.dst));
		LAB_CHECK(cudaFree(x.sum));
		LAB_CHECK(cudaStreamDestroy(x.stream));
		LAB_CHECK(cudaEventDestroy(x.go));
		LAB_CHECK(cudaEventDestroy(x.done));
	}
	return 0;
}
