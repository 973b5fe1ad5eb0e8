/*
 * launch.cu - what a kernel launch costs, and what hides it.
 *
 * Build with -rdc=true -lcudadevrt (the device method launches from the
 * GPU).
 *
 * The job is a chain of --chain dependent kernels. Each kernel is one block
 * per SM of 128 threads that spins on %globaltimer for d microseconds (each
 * value of --us; 0 is a kernel that does nearly nothing), and checks on
 * entry that every block of every kernel before it in the chain has
 * finished. The chain runs seven ways, each timed with CUDA events and
 * reported per kernel (the chain's time / --chain):
 *
 *   host        launched back to back from the host, ungated: the GPU starts
 *               each kernel as it arrives, so the host's cost of a launch is
 *               inside the time
 *   stream      the same launches, queued whole behind lab.h's gate before
 *               the GPU starts: what the GPU alone spends between two
 *               dependent kernels of one stream
 *   graph       the chain captured once into a CUDA graph, launched as one
 *   pdl         Programmatic Dependent Launch (compute capability 9.0): each
 *               kernel lets the next one launch as soon as it runs, and the
 *               next one waits for it in cudaGridDependencySynchronize
 *   pdl_graph   the PDL chain captured into a graph
 *   device      one GPU thread launches the chain (dynamic parallelism)
 *   persistent  one cooperative kernel runs the chain's steps, grid.sync()
 *               between them: no launches at all
 *
 * Every timed record also has work_us, a block's own spin in the chain's
 * last kernel, read from %globaltimer inside it; over_us, the time per
 * kernel beyond that work; and enqueue_us, the host's own time to enqueue
 * the chain, per kernel (its CPU cost, whether or not the GPU waits for
 * it). A record per duration with method "work" holds the work alone.
 * On a card below compute capability 9.0 the two PDL methods print a line
 * and write no records.
 *
 *   launch --us 0,2,4,8,16,32,64,128,256,512,1024 --chain 32
 */
#include "lab.h"

#include <chrono>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

static const int THREADS = 128;

struct Chain {
	unsigned long long *arrived; /* blocks finished, over every chain */
	unsigned *bad;               /* kernels that started too early */
	unsigned long long *work_ns; /* block 0's spin in the last kernel */
	int blocks;
	int chain;
};

__device__ unsigned long long globaltimer()
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/*
 * Step k of a chain. Every chain starts when the one before it has ended,
 * so on entry the blocks finished in this chain, arrived modulo the
 * chain's blocks, must be at least k times the grid.
 */
__device__ void step_body(Chain c, int k, long long spin_ns)
{
	if (threadIdx.x == 0) {
		unsigned long long per_chain =
		    (unsigned long long)c.chain * c.blocks;
		unsigned long long done = atomicAdd(c.arrived, 0ull) % per_chain;
		if (done < (unsigned long long)k * c.blocks)
			atomicAdd(c.bad, 1u);
	}
	__syncthreads();
	unsigned long long t0 = globaltimer(), t = t0;
	while ((long long)(t - t0) < spin_ns)
		t = globaltimer();
	__syncthreads();
	if (threadIdx.x == 0) {
		if (blockIdx.x == 0)
			*c.work_ns = t - t0;
		__threadfence();
		atomicAdd(c.arrived, 1ull);
	}
}

__global__ void step(Chain c, int k, long long spin_ns)
{
#if __CUDA_ARCH__ >= 900
	/* Launched with PDL, wait for the kernel before; let the next one
	 * launch now. Launched plainly, both do nothing. */
	cudaGridDependencySynchronize();
	cudaTriggerProgrammaticLaunchCompletion();
#endif
	step_body(c, k, spin_ns);
}

/* One thread launches the whole chain into its block's stream, which
 * runs the kernels in the order launched. */
__global__ void device_chain(Chain c, long long spin_ns)
{
	for (int k = 0; k < c.chain; k++)
		step<<<c.blocks, THREADS>>>(c, k, spin_ns);
}

/* The chain as one kernel: a grid-wide barrier between steps. */
__global__ void persistent(Chain c, long long spin_ns)
{
	cg::grid_group grid = cg::this_grid();
	for (int k = 0; k < c.chain; k++) {
		if (k)
			grid.sync();
		step_body(c, k, spin_ns);
	}
}

/* Kernel k with the PDL attribute (all but the first of a chain). */
static void launch_pdl(cudaStream_t s, Chain c, int k, long long ns)
{
	cudaLaunchAttribute attr[1];
	attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	attr[0].val.programmaticStreamSerializationAllowed = 1;
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(c.blocks);
	cfg.blockDim = dim3(THREADS);
	cfg.stream = s;
	cfg.attrs = attr;
	cfg.numAttrs = k > 0 ? 1 : 0;
	LAB_CHECK(cudaLaunchKernelEx(&cfg, step, c, k, ns));
}

static void enqueue_chain(cudaStream_t s, Chain c, long long ns, bool pdl)
{
	for (int k = 0; k < c.chain; k++) {
		if (pdl)
			launch_pdl(s, c, k, ns);
		else
			step<<<c.blocks, THREADS, 0, s>>>(c, k, ns);
	}
}

static cudaGraphExec_t capture_chain(Chain c, long long ns, bool pdl)
{
	cudaStream_t s;
	LAB_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cudaGraph_t g;
	LAB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	enqueue_chain(s, c, ns, pdl);
	LAB_CHECK(cudaStreamEndCapture(s, &g));
	cudaGraphExec_t exec;
	LAB_CHECK(cudaGraphInstantiate(&exec, g, 0));
	LAB_CHECK(cudaGraphDestroy(g));
	LAB_CHECK(cudaStreamDestroy(s));
	return exec;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> uss =
	    args.list("--us", "0,2,4,8,16,32,64,128,256,512,1024");
	int chain = (int)args.integer("--chain", 32);
	const lab::Device &dev = lab::device();
	for (long us : uss)
		if (us < 0 || us > 100000) {
			fprintf(stderr, "--us: durations must lie in 0..100000\n");
			return 2;
		}
	if (chain < 2 || chain > 1024) {
		fprintf(stderr, "--chain must be 2..1024\n");
		return 2;
	}

	/* The persistent kernel needs its whole grid resident at once. */
	int per_sm = 0;
	LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
	    &per_sm, persistent, THREADS, 0));
	int coop = 0;
	LAB_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch,
	                                 dev.id));
	bool has_pdl = dev.cc >= 90;
	printf("%s, compute capability %d.%d, %d SMs; a chain of %d kernels "
	       "of %d blocks x %d threads\n", dev.prop.name, dev.prop.major,
	       dev.prop.minor, dev.sm_count, chain, dev.sm_count, THREADS);
	if (!has_pdl)
		printf("PDL needs compute capability 9.0: skipped on this card, "
		       "no pdl or pdl_graph records\n");
	if (!coop || per_sm < 1)
		printf("no cooperative launch here: persistent skipped\n");

	Chain c;
	c.blocks = dev.sm_count;
	c.chain = chain;
	LAB_CHECK(cudaMalloc(&c.arrived, sizeof *c.arrived));
	LAB_CHECK(cudaMalloc(&c.bad, sizeof *c.bad));
	LAB_CHECK(cudaMalloc(&c.work_ns, sizeof *c.work_ns));
	LAB_CHECK(cudaMemset(c.arrived, 0, sizeof *c.arrived));
	LAB_CHECK(cudaMemset(c.bad, 0, sizeof *c.bad));
	LAB_CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount,
	                             std::max(2048, 2 * chain)));

	const char *methods[] = {"host", "stream", "graph", "pdl",
	                         "pdl_graph", "device", "persistent"};
	printf("\nus per kernel\n%8s", "spin us");
	for (const char *m : methods)
		printf(" %10s", m);
	printf("   work us\n");
	int wrong = 0;
	std::string enq_line;
	for (long us : uss) {
		long long ns = us * 1000;
		lab::TimeOpts o;
		/* Long kernels settle at once; a few chains are enough. */
		o.warmup = us >= 256 ? 1 : 3;
		o.min_reps = us >= 256 ? 5 : 20;
		o.max_reps = 500;
		o.budget_ms = 100;
		cudaGraphExec_t graph = capture_chain(c, ns, false);
		cudaGraphExec_t pdl_graph =
		    has_pdl ? capture_chain(c, ns, true) : nullptr;
		void *coop_args[] = {&c, &ns};
		double work_us = 0;
		printf("%8ld", us);
		std::vector<lab::Record> recs;
		for (const char *m : methods) {
			bool pdl = !strncmp(m, "pdl", 3);
			if ((pdl && !has_pdl) ||
			    (!strcmp(m, "persistent") && (!coop || per_sm < 1))) {
				printf(" %10s", "-");
				continue;
			}
			lab::TimeOpts mo = o;
			mo.gate = strcmp(m, "host") != 0;
			LAB_CHECK(cudaMemset(c.bad, 0, sizeof *c.bad));
			std::vector<double> enq;
			std::vector<double> ms = lab::sample([&] {
				auto t0 = std::chrono::steady_clock::now();
				if (!strcmp(m, "host") || !strcmp(m, "stream"))
					enqueue_chain(0, c, ns, false);
				else if (!strcmp(m, "pdl"))
					enqueue_chain(0, c, ns, true);
				else if (!strcmp(m, "graph"))
					LAB_CHECK(cudaGraphLaunch(graph, 0));
				else if (!strcmp(m, "pdl_graph"))
					LAB_CHECK(cudaGraphLaunch(pdl_graph, 0));
				else if (!strcmp(m, "device"))
					device_chain<<<1, 1>>>(c, ns);
				else
					LAB_CHECK(cudaLaunchCooperativeKernel(
					    (void *)persistent, c.blocks, THREADS,
					    coop_args, 0, 0));
				std::chrono::duration<double, std::micro> dt =
				    std::chrono::steady_clock::now() - t0;
				enq.push_back(dt.count() / chain);
			}, mo);
			std::sort(enq.begin(), enq.end());
			LAB_CHECK(cudaDeviceSynchronize());
			unsigned bad;
			unsigned long long wns;
			LAB_CHECK(cudaMemcpy(&bad, c.bad, sizeof bad,
			                     cudaMemcpyDeviceToHost));
			LAB_CHECK(cudaMemcpy(&wns, c.work_ns, sizeof wns,
			                     cudaMemcpyDeviceToHost));
			work_us = wns * 1e-3;
			for (double &t : ms)
				t /= chain;
			lab::Stats st = lab::summarize(ms, mo);
			if (bad) {
				wrong++;
				printf("\nWRONG: %s at %ld us: %u kernels started "
				       "before the one before them ended\n", m, us,
				       bad);
			}
			printf(" %10.2f", st.median_ms * 1e3);
			char e[32];
			snprintf(e, sizeof e, " %10.2f", lab::quantile(enq, 0.5));
			if (us == uss.front())
				enq_line += e;
			lab::Record r;
			r.set("method", m)
			    .set("us_set", us)
			    .set("chain", chain)
			    .set("blocks", c.blocks)
			    .set("us", st.median_ms * 1e3)
			    .set("work_us", work_us)
			    .set("over_us", st.median_ms * 1e3 - work_us)
			    .set("enqueue_us", lab::quantile(enq, 0.5))
			    .set("correct", bad == 0);
			if (!mo.gate)
				r.set("host_bound", true);
			r.stats(st);
			recs.push_back(r);
		}
		printf("   %7.2f\n", work_us);
		lab::Record()
		    .set("method", "work")
		    .set("us_set", us)
		    .set("us", work_us)
		    .set("work_us", work_us)
		    .emit();
		for (lab::Record &r : recs)
			r.emit();
		LAB_CHECK(cudaGraphExecDestroy(graph));
		if (pdl_graph)
			LAB_CHECK(cudaGraphExecDestroy(pdl_graph));
	}
	printf("\nthe host's time to enqueue, us per kernel (at %ld us)\n%8s%s\n",
	       uss.front(), "", enq_line.c_str());
	if (wrong)
		printf("\n%d points ran a kernel before the one it depends on\n",
		       wrong);
	LAB_CHECK(cudaFree(c.arrived));
	LAB_CHECK(cudaFree(c.bad));
	LAB_CHECK(cudaFree(c.work_ns));
	return 0;
}
