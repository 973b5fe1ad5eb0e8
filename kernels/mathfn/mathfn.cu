/*
 * mathfn.cu - the price of precision.
 *
 * Throughput and accuracy of single-precision math functions against their
 * fast intrinsics (sinf / __sinf, expf / __expf, x / y / __fdividef), of
 * the double-precision versions, and of plain FMA in float and double:
 * once as a loop of 8 FMAs per trip (which the compiler unrolls 4 times),
 * once unrolled 32 times. The ratio of the unrolled float and double rates
 * is the measured fact fp64_fma_ratio.
 * sinf is measured twice: on arguments in [-pi, pi] and on arguments above
 * 105615, where the CUDA C Programming Guide says argument reduction leaves
 * its fast path for a slow one that also uses local memory.
 *
 * Throughput: every thread evaluates the function on `iters` arguments
 * x = x0 + i * step (x0 drawn from the range) and sums the results.
 * Accuracy: the function on 2^20 arguments drawn from the range, against the
 * CPU in double: max_err = max |got - ref| / max(|ref|, 1).
 *
 *   mathfn --iters 1024
 */
#include "lab.h"

#define THREADS 256

struct SinF {
	typedef float T;
	__device__ static float f(float x) { return sinf(x); }
	static double ref(double x) { return sin(x); }
};
struct SinFast {
	typedef float T;
	__device__ static float f(float x) { return __sinf(x); }
	static double ref(double x) { return sin(x); }
};
struct SinD {
	typedef double T;
	__device__ static double f(double x) { return sin(x); }
	static double ref(double x) { return sin(x); }
};
struct ExpF {
	typedef float T;
	__device__ static float f(float x) { return expf(x); }
	static double ref(double x) { return exp(x); }
};
struct ExpFast {
	typedef float T;
	__device__ static float f(float x) { return __expf(x); }
	static double ref(double x) { return exp(x); }
};
struct ExpD {
	typedef double T;
	__device__ static double f(double x) { return exp(x); }
	static double ref(double x) { return exp(x); }
};
struct DivF {
	typedef float T;
	__device__ static float f(float x) { return 3.0f / x; }
	static double ref(double x) { return 3.0 / x; }
};
struct DivFast {
	typedef float T;
	__device__ static float f(float x) { return __fdividef(3.0f, x); }
	static double ref(double x) { return 3.0 / x; }
};
struct DivD {
	typedef double T;
	__device__ static double f(double x) { return 3.0 / x; }
	static double ref(double x) { return 3.0 / x; }
};

template <class F>
__global__ void throughput(const typename F::T *x0, typename F::T *out,
                           typename F::T step, int iters)
{
	typedef typename F::T T;
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	T x = x0[tid], acc = 0;
	for (int i = 0; i < iters; i++) {
		acc += F::f(x);
		x += step;
	}
	out[tid] = acc;
}

template <class F>
__global__ void evaluate(const typename F::T *x, typename F::T *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = F::f(x[i]);
}

__device__ inline float fma_t(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline double fma_t(double a, double b, double c) { return fma(a, b, c); }

/* 8 independent chains of FMAs per thread, for the peak FMA rate. */
template <class T>
__global__ void fma_chains(T *out, T a, T b, int iters)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	T c[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		c[k] = (T)(tid & 255) * (T)(1.0 / 256) + k;
	for (int i = 0; i < iters; i++)
#pragma unroll
		for (int k = 0; k < 8; k++)
			c[k] = fma_t(c[k], a, b);
	T s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s += c[k];
	out[tid] = s;
}

/* The same chains with the loop unrolled 32 times, 256 FMAs per trip, so
 * that loop control takes well under 1% of the issue slots: the ratio of
 * the float and double rates is then the ratio of the pipes. */
template <class T>
__global__ void fma_unrolled(T *out, T a, T b, int iters)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;
	T c[8];
#pragma unroll
	for (int k = 0; k < 8; k++)
		c[k] = (T)(tid & 255) * (T)(1.0 / 256) + k;
#pragma unroll 32
	for (int i = 0; i < iters; i++)
#pragma unroll
		for (int k = 0; k < 8; k++)
			c[k] = fma_t(c[k], a, b);
	T s = 0;
#pragma unroll
	for (int k = 0; k < 8; k++)
		s += c[k];
	out[tid] = s;
}

struct Env {
	int grid, nthreads, iters;
	void *dx0, *dout, *dx, *dy; /* device buffers sized for double */
};

template <class F>
static void measure(const Env &e, const char *name, const char *op,
                    const char *variant, const char *range, double lo,
                    double hi, double step, double tol)
{
	typedef typename F::T T;
	const char *prec = sizeof(T) == 4 ? "float" : "double";
	cudaFuncAttributes fa;
	LAB_CHECK(cudaFuncGetAttributes(&fa, throughput<F>));

	/* Accuracy, on arguments drawn from [lo, hi]. */
	const int n = 1 << 20;
	std::vector<float> u(n);
	lab::fill_uniform(u.data(), n, 8, 0, 1);
	std::vector<T> hx(n), hy(n);
	for (int i = 0; i < n; i++)
		hx[i] = (T)(lo + u[i] * (hi - lo));
	LAB_CHECK(cudaMemcpy(e.dx, hx.data(), n * sizeof(T),
	                     cudaMemcpyHostToDevice));
	lab::poison(e.dy, n * sizeof(T));
	evaluate<F><<<(n + THREADS - 1) / THREADS, THREADS>>>((const T *)e.dx,
	                                                      (T *)e.dy, n);
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaMemcpy(hy.data(), e.dy, n * sizeof(T),
	                     cudaMemcpyDeviceToHost));
	double max_err = 0;
	bool finite = true;
	for (int i = 0; i < n; i++) {
		double ref = F::ref((double)hx[i]);
		double err = std::fabs(hy[i] - ref) / std::max(std::fabs(ref), 1.0);
		if (!std::isfinite((double)hy[i]))
			finite = false;
		max_err = std::max(max_err, err);
	}

	/* Throughput: starting points from the range, so that the arguments
	 * stay in it (step * iters is small against the range). */
	std::vector<T> hx0(e.nthreads), hout(e.nthreads);
	for (int i = 0; i < e.nthreads; i++)
		hx0[i] = hx[i % n];
	LAB_CHECK(cudaMemcpy(e.dx0, hx0.data(), e.nthreads * sizeof(T),
	                     cudaMemcpyHostToDevice));
	lab::poison(e.dout, e.nthreads * sizeof(T));
	auto launch = [&] {
		throughput<F><<<e.grid, THREADS>>>((const T *)e.dx0, (T *)e.dout,
		                                   (T)step, e.iters);
	};
	launch();
	LAB_CHECK_LAUNCH();
	LAB_CHECK(cudaMemcpy(hout.data(), e.dout, e.nthreads * sizeof(T),
	                     cudaMemcpyDeviceToHost));
	for (int i = 0; i < e.nthreads; i++)
		if (!std::isfinite((double)hout[i]))
			finite = false;
	lab::Stats st = lab::time(launch);
	double ops = (double)e.nthreads * e.iters;
	bool ok = finite && max_err <= tol;

	printf("%-20s %-8s %9.3f %9.1f %10.2e %6zu%s\n", name, range,
	       st.median_ms, ops / 1e6 / st.median_ms, max_err, fa.localSizeBytes,
	       ok ? "" : "  OUT OF BOUND");
	lab::Record()
	    .set("op", op)
	    .set("precision", prec)
	    .set("variant", variant)
	    .set("range", range)
	    .set("name", name)
	    .set("regs", fa.numRegs)
	    .set("local_bytes", fa.localSizeBytes)
	    .rate("gops", ops / 1e9, st)
	    .set("ms", st.median_ms)
	    .set("max_err", max_err)
	    .set("tolerance", tol)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
}

/* Gop/s of FMA in T, with the loop (unrolled = false) or unrolled 32x. */
template <class T> static double measure_fma(const Env &e, bool unrolled)
{
	const char *prec = sizeof(T) == 4 ? "float" : "double";
	const T a = (T)0.999, b = (T)0.001;
	cudaFuncAttributes fa;
	LAB_CHECK(cudaFuncGetAttributes(&fa, unrolled ? fma_unrolled<T>
	                                              : fma_chains<T>));
	/* Long enough (milliseconds) that the launch and the last blocks'
	 * tail are under 1% of the time. */
	int iters = e.iters * 32;
	lab::poison(e.dout, e.nthreads * sizeof(T));
	auto launch = [&] {
		if (unrolled)
			fma_unrolled<T><<<e.grid, THREADS>>>((T *)e.dout, a, b,
			                                     iters);
		else
			fma_chains<T><<<e.grid, THREADS>>>((T *)e.dout, a, b,
			                                   iters);
	};
	launch();
	LAB_CHECK_LAUNCH();
	std::vector<T> hout(e.nthreads);
	LAB_CHECK(cudaMemcpy(hout.data(), e.dout, e.nthreads * sizeof(T),
	                     cudaMemcpyDeviceToHost));
	/* One thread in 4099 against the CPU: the same FMAs, exactly. */
	double max_err = 0;
	for (int t = 0; t < e.nthreads; t += 4099) {
		T c[8], s = 0;
		for (int k = 0; k < 8; k++)
			c[k] = (T)(t & 255) * (T)(1.0 / 256) + k;
		for (int i = 0; i < iters; i++)
			for (int k = 0; k < 8; k++)
				c[k] = std::fma(c[k], a, b);
		for (int k = 0; k < 8; k++)
			s += c[k];
		double err = std::fabs((double)hout[t] - (double)s) /
		             std::max(std::fabs((double)s), 1.0);
		if (!(err <= max_err))
			max_err = std::isfinite(err) ? err : INFINITY;
	}
	lab::Stats st = lab::time(launch);
	double ops = 8.0 * iters * e.nthreads;
	bool ok = max_err <= 1e-6;

	const char *name = sizeof(T) == 4
	                       ? (unrolled ? "fmaf unrolled" : "fmaf")
	                       : (unrolled ? "fma (double) unrolled"
	                                   : "fma (double)");
	printf("%-20s %-8s %9.3f %9.1f %10.2e %6zu%s\n", name, "-",
	       st.median_ms, ops / 1e6 / st.median_ms, max_err, fa.localSizeBytes,
	       ok ? "" : "  WRONG");
	lab::Record()
	    .set("op", "fma")
	    .set("precision", prec)
	    .set("variant", unrolled ? "unrolled" : "hardware")
	    .set("range", "-")
	    .set("name", name)
	    .set("regs", fa.numRegs)
	    .set("local_bytes", fa.localSizeBytes)
	    .rate("gops", ops / 1e9, st)
	    .set("gflops", 2 * ops / 1e9 / (st.median_ms * 1e-3))
	    .set("ms", st.median_ms)
	    .set("max_err", max_err)
	    .set("tolerance", 1e-6)
	    .set("correct", ok)
	    .stats(st)
	    .emit();
	return ok ? ops / 1e9 / (st.median_ms * 1e-3) : 0;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	int iters = (int)args.integer("--iters", 1024);
	int blocks = (int)args.integer("--blocks-per-sm", 16);
	const lab::Device &dev = lab::device();

	Env e;
	e.grid = blocks * dev.sm_count;
	e.nthreads = e.grid * THREADS;
	e.iters = iters;
	LAB_CHECK(cudaMalloc(&e.dx0, e.nthreads * sizeof(double)));
	LAB_CHECK(cudaMalloc(&e.dout, e.nthreads * sizeof(double)));
	LAB_CHECK(cudaMalloc(&e.dx, (1 << 20) * sizeof(double)));
	LAB_CHECK(cudaMalloc(&e.dy, (1 << 20) * sizeof(double)));

	printf("%s: %d threads, %d evaluations each\n", dev.prop.name,
	       e.nthreads, iters);
	printf("%-20s %-8s %9s %9s %10s %6s\n", "function", "range", "ms",
	       "Gop/s", "max_err", "local");

	/* Tolerances: the CUDA C Programming Guide's bounds, loosened a little
	 * for the |ref| >= 1 scaling; 2 means "no promise" (|sin| <= 1). */
	const double pi = 3.14159265358979;
	measure<SinF>(e, "sinf small", "sin", "precise", "small", -pi, pi, 1e-3,
	              1e-6);
	measure<SinFast>(e, "__sinf small", "sin", "fast", "small", -pi, pi, 1e-3,
	                 1e-6);
	measure<SinD>(e, "sin (double) small", "sin", "precise", "small", -pi, pi,
	              1e-3, 1e-15);
	measure<SinF>(e, "sinf large", "sin", "precise", "large", 2e5, 3e5,
	              1.0 / 32, 1e-6);
	measure<SinFast>(e, "__sinf large", "sin", "fast", "large", 2e5, 3e5,
	                 1.0 / 32, 2);
	measure<SinD>(e, "sin (double) large", "sin", "precise", "large", 2e5,
	              3e5, 1.0 / 32, 1e-15);
	measure<ExpF>(e, "expf", "exp", "precise", "-10..10", -10, 10, 1e-3, 1e-6);
	measure<ExpFast>(e, "__expf", "exp", "fast", "-10..10", -10, 10, 1e-3,
	                 1e-5);
	measure<ExpD>(e, "exp (double)", "exp", "precise", "-10..10", -10, 10,
	              1e-3, 1e-15);
	measure<DivF>(e, "3/x", "div", "precise", "1..2", 1, 2, 1e-4, 1e-7);
	measure<DivFast>(e, "__fdividef", "div", "fast", "1..2", 1, 2, 1e-4,
	                 1e-6);
	measure<DivD>(e, "3/x (double)", "div", "precise", "1..2", 1, 2, 1e-4,
	              1e-15);
	measure_fma<float>(e, false);
	measure_fma<double>(e, false);
	double f32 = measure_fma<float>(e, true);
	double f64 = measure_fma<double>(e, true);
	if (f32 > 0 && f64 > 0) {
		printf("FP32 / FP64 FMA rate, unrolled: %.3f\n", f32 / f64);
		lab::Record::fact("fp64_fma_ratio", f32 / f64);
	}

	LAB_CHECK(cudaFree(e.dx0));
	LAB_CHECK(cudaFree(e.dout));
	LAB_CHECK(cudaFree(e.dx));
	LAB_CHECK(cudaFree(e.dy));
	return 0;
}
