/*
 * ilp.cu - instruction-level vs thread-level parallelism.
 *
 * Every thread runs ILP independent chains of dependent FMAs. With one
 * chain a warp must wait a full FMA latency between instructions; with
 * ILP chains it can issue ILP instructions back to back. The sweep measures
 * FP32 throughput against threads per block for each ILP, on one SM (one
 * block) and on the whole chip (one block per SM), and the latency of one
 * dependent FMA, which the chapter turns into Little's law.
 *
 *   ilp --ilp 1,2,4,8 --threads 32:1024:32 --fmas 262144
 */
#include "lab.h"

/* FMAs per loop iteration: enough that loop control costs about 1%. */
#define BODY 256

/* Each thread performs `fmas` FMAs in total, split over ILP chains. */
template <int ILP>
__global__ void fma_chains(float *out, float b, float c, int iters)
{
	float a[ILP];
#pragma unroll
	for (int i = 0; i < ILP; i++)
		a[i] = threadIdx.x * 1e-3f + i;
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int k = 0; k < BODY / ILP; k++)
#pragma unroll
			for (int i = 0; i < ILP; i++)
				a[i] = fmaf(a[i], b, c);
	}
	float s = 0;
#pragma unroll
	for (int i = 0; i < ILP; i++)
		s += a[i];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* The same chains with the addend a compile-time constant: the SASS is
 * FFMA Ra, Ra, Rb, imm, two register operands instead of three. */
template <int ILP>
__global__ void fma_chains_imm(float *out, float b, int iters)
{
	float a[ILP];
#pragma unroll
	for (int i = 0; i < ILP; i++)
		a[i] = threadIdx.x * 1e-3f + i;
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int k = 0; k < BODY / ILP; k++)
#pragma unroll
			for (int i = 0; i < ILP; i++)
				a[i] = fmaf(a[i], b, 1e-3f);
	}
	float s = 0;
#pragma unroll
	for (int i = 0; i < ILP; i++)
		s += a[i];
	out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* One thread, one chain: cycles per dependent FMA, from clock64(). */
__global__ void fma_latency(float *out, long long *cycles, float b, float c,
                            int n)
{
	float a = out[0];
	long long t0 = clock64();
	for (int i = 0; i < n; i++) {
#pragma unroll
		for (int k = 0; k < 64; k++)
			a = fmaf(a, b, c);
	}
	long long t1 = clock64();
	out[0] = a;
	*cycles = t1 - t0;
}

template <int ILP>
static void sweep(const std::vector<long> &threads, int fmas, bool imm,
                  float *out)
{
	const lab::Device &dev = lab::device();
	int iters = fmas / BODY;
	for (int blocks : {1, dev.sm_count}) {
		for (long t : threads) {
			auto launch = [&] {
				if (imm)
					fma_chains_imm<ILP><<<blocks, (int)t>>>(
					    out, 0.999f, iters);
				else
					fma_chains<ILP><<<blocks, (int)t>>>(
					    out, 0.999f, 1e-3f, iters);
			};
			lab::Stats st = lab::time(launch);
			double flops = 2.0 * iters * BODY * t * blocks;
			lab::Record()
			    .set("view", blocks == 1 ? "sm" : "chip")
			    .set("operand", imm ? "imm" : "reg")
			    .set("ilp", ILP)
			    .set("threads", t)
			    .set("blocks", blocks)
			    .rate("gflops", flops / 1e9, st)
			    .stats(st)
			    .emit();
		}
	}
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	std::vector<long> ilps = args.list("--ilp", "1,2,4,8");
	std::vector<long> threads = args.list("--threads", "32:1024:32");
	std::string operands = args.str("--operand", "reg,imm");
	int fmas = (int)args.integer("--fmas", 262144);
	const lab::Device &dev = lab::device();

	float *out;
	long long *cycles;
	LAB_CHECK(cudaMalloc(&out, sizeof(float) * 1024 * dev.sm_count));
	LAB_CHECK(cudaMalloc(&cycles, sizeof *cycles));
	LAB_CHECK(cudaMemset(out, 0, sizeof(float)));

	printf("%s: %d SMs, %d FP32 lanes per SM, %d MHz rated\n",
	       dev.prop.name, dev.sm_count, dev.fp32_lanes_per_sm, dev.clock_mhz);
	printf("peak FP32: %.1f GFLOP/s per SM, %.1f GFLOP/s per chip\n",
	       dev.peak_fp32_gflops_sm, dev.peak_fp32_gflops_sm * dev.sm_count);

	/* Latency: a long dependent chain in one thread, twice, take the second. */
	const int n = 4096;
	long long c = 0;
	for (int rep = 0; rep < 2; rep++) {
		fma_latency<<<1, 1>>>(out, cycles, 0.999f, 1e-3f, n);
		LAB_CHECK_LAUNCH();
		LAB_CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
	}
	double lat = (double)c / (n * 64.0);
	printf("dependent FMA latency: %.2f cycles\n", lat);
	lab::Record().set("view", "latency").set("cycles", lat).emit();

	for (const char *op : {"reg", "imm"}) {
		if (operands.find(op) == std::string::npos)
			continue;
		bool imm = op[0] == 'i';
		for (long ilp : ilps) {
			switch (ilp) {
			case 1: sweep<1>(threads, fmas, imm, out); break;
			case 2: sweep<2>(threads, fmas, imm, out); break;
			case 4: sweep<4>(threads, fmas, imm, out); break;
			case 8: sweep<8>(threads, fmas, imm, out); break;
			default:
				fprintf(stderr,
				        "--ilp: %ld is not one of 1, 2, 4, 8\n", ilp);
				return 2;
			}
			printf("ILP %ld, %s operand: done\n", ilp, op);
		}
	}
	LAB_CHECK(cudaFree(out));
	LAB_CHECK(cudaFree(cycles));
	return 0;
}
