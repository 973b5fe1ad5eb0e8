/*
 * streams.cu - copy in, compute, copy out, split over 1 to 8 streams.
 *
 * The job: upload `mb` MB of floats from pinned host memory, run a kernel
 * on them, download the result into pinned host memory. With one stream the
 * three steps run one after the other. With s streams the data is cut into
 * s chunks, and stream i uploads, computes and downloads chunk i, so chunk
 * i's kernel can run while chunk i+1 is uploaded and chunk i-1 downloaded,
 * as far as the card's copy engines allow.
 *
 * The kernel applies `iters` dependent FMAs to each float. Unless --iters
 * is given, it is calibrated first so that the kernel on the whole array
 * takes as long as the upload: a balanced job, where the ideal overlap is
 * largest. Each step alone is timed too (view=op).
 *
 * Records:
 *   view=job       iters, the card's copy engines (asyncEngineCount), mb
 *   view=op        each step alone on the whole array: ms
 *   view=streams   streams, ms, speedup (time with one stream / this time)
 *   view=timeline  a traced job per stream count (the median makespan of
 *                  five): stream, op, queued_ms, start_ms, end_ms. CUDA
 *                  events are recorded before and after each step: the one
 *                  before marks when the stream reached the step
 *                  (queued_ms), the one after when the step ended (end_ms).
 *                  A copy may then still wait for the copy in the same
 *                  direction that the card served before it (the one that
 *                  ended before it, whichever stream's), so start_ms is the
 *                  later of queued_ms and that copy's end; a kernel starts
 *                  when queued.
 *   view=overlap   all_three_ms: how long, in that traced job, an upload, a
 *                  kernel and a download ran at the same time (any streams')
 *   view=trace     the same segments as points for a chart: t_ms and lane
 *                  (the stream counted from 1, shifted by -0.25 for the
 *                  upload and +0.25 for the download), one point at each end
 *
 * Streams are created blocking, so they wait for work queued earlier on the
 * legacy default stream, and it for them: lab.h's gate and events, on the
 * default stream, bracket all of them. The stream counts are taken in
 * interleaved rounds (lab::sample), as host copies drift together.
 *
 *   streams --mb 256 --streams 1,2,4,8
 */
#include "lab.h"

__global__ void work(const float *in, float *out, size_t n, int iters)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i];
	for (int k = 0; k < iters; k++)
		x = x * 0.999f + 0.001f;
	out[i] = x;
}

static float work_ref(float x, int iters)
{
	for (int k = 0; k < iters; k++)
		x = fmaf(x, 0.999f, 0.001f);
	return x;
}

struct Job {
	size_t n;
	int iters;
	float *h_in, *h_out, *d_in, *d_out;
	cudaStream_t st[8];
};

static void launch(const Job &j, size_t off, size_t len, cudaStream_t s)
{
	work<<<(unsigned)((len + 255) / 256), 256, 0, s>>>(j.d_in + off,
	                                                  j.d_out + off, len,
	                                                  j.iters);
}

/* The whole job over `ns` streams; with ev, events around every step
 * (ev[3 * i + k] before step k of stream i, ev[24 + 3 * i + k] after). */
static void run(const Job &j, int ns, cudaEvent_t *ev)
{
	size_t chunk = j.n / ns;
	for (int i = 0; i < ns; i++) {
		size_t off = i * chunk, len = i == ns - 1 ? j.n - off : chunk;
		cudaStream_t s = j.st[i];
		if (ev)
			LAB_CHECK(cudaEventRecord(ev[3 * i], s));
		LAB_CHECK(cudaMemcpyAsync(j.d_in + off, j.h_in + off,
		                          len * sizeof(float),
		                          cudaMemcpyHostToDevice, s));
		if (ev) {
			LAB_CHECK(cudaEventRecord(ev[24 + 3 * i], s));
			LAB_CHECK(cudaEventRecord(ev[3 * i + 1], s));
		}
		launch(j, off, len, s);
		if (ev) {
			LAB_CHECK(cudaEventRecord(ev[24 + 3 * i + 1], s));
			LAB_CHECK(cudaEventRecord(ev[3 * i + 2], s));
		}
		LAB_CHECK(cudaMemcpyAsync(j.h_out + off, j.d_out + off,
		                          len * sizeof(float),
		                          cudaMemcpyDeviceToHost, s));
		if (ev)
			LAB_CHECK(cudaEventRecord(ev[24 + 3 * i + 2], s));
	}
}

static double median_ms(std::vector<double> ms)
{
	std::sort(ms.begin(), ms.end());
	return lab::quantile(ms, 0.5);
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	long mb = args.integer("--mb", 256);
	std::vector<long> counts = args.list("--streams", "1,2,4,8");
	int rounds = (int)args.integer("--rounds", 8);
	const lab::Device &dev = lab::device();
	for (long c : counts)
		if (c < 1 || c > 8) {
			fprintf(stderr, "--streams: %ld is not between 1 and 8\n", c);
			return 2;
		}

	Job j;
	j.n = (size_t)mb * 1000000 / sizeof(float);
	size_t bytes = j.n * sizeof(float);
	LAB_CHECK(cudaMallocHost(&j.h_in, bytes));
	LAB_CHECK(cudaMallocHost(&j.h_out, bytes));
	LAB_CHECK(cudaMalloc(&j.d_in, bytes));
	LAB_CHECK(cudaMalloc(&j.d_out, bytes));
	lab::fill_uniform(j.h_in, j.n, 21);
	for (int i = 0; i < 8; i++)
		LAB_CHECK(cudaStreamCreate(&j.st[i]));
	LAB_CHECK(cudaMemcpy(j.d_in, j.h_in, bytes, cudaMemcpyHostToDevice));

	/* Calibrate: kernel time grows linearly with iters. */
	lab::TimeOpts quick;
	quick.min_reps = 5;
	quick.max_reps = 5;
	j.iters = 256;
	double k_ms = median_ms(lab::sample([&] { launch(j, 0, j.n, 0); }, quick));
	double up_ms = median_ms(lab::sample([&] {
		LAB_CHECK(cudaMemcpyAsync(j.d_in, j.h_in, bytes,
		                          cudaMemcpyHostToDevice));
	}, quick));
	long want = args.integer("--iters", 0);
	j.iters = want > 0 ? (int)want
	                   : std::max(1, (int)std::lround(256 * up_ms / k_ms));

	lab::Record()
	    .set("view", "job")
	    .set("mb", mb)
	    .set("iters", j.iters)
	    .set("copy_engines", dev.prop.asyncEngineCount)
	    .emit();
	printf("%s: %d copy engines; %ld MB each way; %d FMAs per float\n",
	       dev.prop.name, dev.prop.asyncEngineCount, mb, j.iters);

	/* Each step alone, on the whole array. */
	const char *ops[3] = {"h2d", "kernel", "d2h"};
	lab::TimeOpts o;
	o.min_reps = o.max_reps = 5;
	o.warmup = 1;
	std::vector<double> op_ms[3], st_ms[8];
	for (int r = 0; r < rounds; r++) {
		std::vector<double> t[3] = {
		    lab::sample([&] {
			    LAB_CHECK(cudaMemcpyAsync(j.d_in, j.h_in, bytes,
			                              cudaMemcpyHostToDevice));
		    }, o),
		    lab::sample([&] { launch(j, 0, j.n, 0); }, o),
		    lab::sample([&] {
			    LAB_CHECK(cudaMemcpyAsync(j.h_out, j.d_out, bytes,
			                              cudaMemcpyDeviceToHost));
		    }, o)};
		for (int k = 0; k < 3; k++)
			op_ms[k].insert(op_ms[k].end(), t[k].begin(), t[k].end());
		for (size_t c = 0; c < counts.size(); c++) {
			std::vector<double> s =
			    lab::sample([&] { run(j, (int)counts[c], nullptr); }, o);
			st_ms[c].insert(st_ms[c].end(), s.begin(), s.end());
		}
	}

	/* Check the last job's output against the CPU. */
	bool ok = true;
	for (size_t i = 0; i < j.n && ok; i += 997)
		ok = std::fabs(j.h_out[i] - work_ref(j.h_in[i], j.iters)) <=
		     1e-5f * std::max(1.0f, std::fabs(work_ref(j.h_in[i], j.iters)));

	for (int k = 0; k < 3; k++) {
		lab::Stats st = lab::summarize(op_ms[k], o);
		lab::Record()
		    .set("view", "op")
		    .set("op", ops[k])
		    .set("ms", st.median_ms)
		    .rate("gbps", bytes / 1e9, st)
		    .stats(st)
		    .emit();
		printf("%-6s alone   %8.3f ms  %6.1f GB/s\n", ops[k], st.median_ms,
		       bytes / 1e6 / st.median_ms);
	}
	double one = 0;
	for (size_t c = 0; c < counts.size(); c++) {
		lab::Stats st = lab::summarize(st_ms[c], o);
		if (c == 0)
			one = st.median_ms;
		lab::Record()
		    .set("view", "streams")
		    .set("streams", counts[c])
		    .set("ms", st.median_ms)
		    .set("speedup", one / st.median_ms)
		    .set("correct", ok)
		    .stats(st)
		    .emit();
		printf("%ld stream%s %8.3f ms  speedup %.2f%s\n", counts[c],
		       counts[c] > 1 ? "s" : " ", st.median_ms, one / st.median_ms,
		       ok ? "" : "  WRONG");
	}

	/*
	 * Traced jobs, times from a common start event: five per stream count,
	 * of which the one with the median makespan is recorded, so that the
	 * timeline shown is a typical one and not one odd job.
	 */
	const int traces = 5;
	cudaEvent_t ev[48], t0;
	for (int i = 0; i < 48; i++)
		LAB_CHECK(cudaEventCreate(&ev[i]));
	LAB_CHECK(cudaEventCreate(&t0));
	for (long ns : counts) {
		std::vector<std::vector<float>> queued(traces), ended(traces);
		std::vector<std::pair<float, int>> span(traces);
		for (int t = 0; t < traces; t++) {
			LAB_CHECK(cudaDeviceSynchronize());
			lab::gate_close();
			LAB_CHECK(cudaEventRecord(t0));
			run(j, (int)ns, ev);
			lab::gate_open();
			LAB_CHECK(cudaDeviceSynchronize());
			queued[t].resize(3 * ns);
			ended[t].resize(3 * ns);
			float last = 0;
			for (int e = 0; e < 3 * ns; e++) {
				LAB_CHECK(cudaEventElapsedTime(&queued[t][e], t0, ev[e]));
				LAB_CHECK(cudaEventElapsedTime(&ended[t][e], t0, ev[24 + e]));
				last = std::max(last, ended[t][e]);
			}
			span[t] = {last, t};
		}
		std::sort(span.begin(), span.end());
		const std::vector<float> &q = queued[span[traces / 2].second];
		const std::vector<float> &b = ended[span[traces / 2].second];
		/*
		 * A copy starts when its stream reaches it or, if later, when the
		 * copy the card served before it in the same direction ended. The
		 * card chooses which stream's copy to serve first, so that order is
		 * the order in which they ended, not the streams' order.
		 */
		std::vector<float> start(3 * ns);
		for (int k = 0; k < 3; k++) {
			std::vector<int> order;
			for (int i = 0; i < ns; i++)
				order.push_back(3 * i + k);
			std::sort(order.begin(), order.end(),
			          [&](int x, int y) { return b[x] < b[y]; });
			float prev = 0;
			for (int e : order) {
				start[e] = k == 1 ? q[e] : std::max(q[e], prev);
				prev = b[e];
			}
		}
		for (int i = 0; i < ns; i++)
			for (int k = 0; k < 3; k++) {
				int e = 3 * i + k;
				lab::Record()
				    .set("view", "timeline")
				    .set("streams", ns)
				    .set("stream", i)
				    .set("op", ops[k])
				    .set("queued_ms", q[e])
				    .set("start_ms", start[e])
				    .set("end_ms", b[e])
				    .emit();
				double lane = i + 1 + (k - 1) * 0.25;
				lab::Record().set("view", "trace").set("streams", ns)
				    .set("op", ops[k]).set("t_ms", start[e]).set("lane", lane).emit();
				lab::Record().set("view", "trace").set("streams", ns)
				    .set("op", ops[k]).set("t_ms", b[e]).set("lane", lane).emit();
			}
		/* How long an upload, a kernel and a download all ran at once,
		 * whichever streams' they were: a sweep over the segments' ends. */
		std::vector<std::pair<float, int>> edges; /* time, +-(1 + step) */
		for (int e = 0; e < 3 * ns; e++) {
			edges.push_back({start[e], 1 + e % 3});
			edges.push_back({b[e], -(1 + e % 3)});
		}
		std::sort(edges.begin(), edges.end());
		int active[3] = {0, 0, 0};
		double all3 = 0;
		for (size_t x = 0; x + 1 < edges.size(); x++) {
			int k = abs(edges[x].second) - 1;
			active[k] += edges[x].second > 0 ? 1 : -1;
			if (active[0] > 0 && active[1] > 0 && active[2] > 0)
				all3 += edges[x + 1].first - edges[x].first;
		}
		lab::Record()
		    .set("view", "overlap")
		    .set("streams", ns)
		    .set("all_three_ms", all3)
		    .emit();
	}
	return ok ? 0 : 1;
}
