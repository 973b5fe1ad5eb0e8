/*
 * hist_global.cuh - the plain global-memory histogram, shared by the
 * atomics and cluster experiments: one atomicAdd per value, straight to the
 * bin in global memory. Each thread reads 16 bytes (an int4, four values) at
 * a time, so that the loads are not what limits the counting: n is a
 * multiple of 4.
 */
#pragma once

__global__ void hist_global(const int4 *in, long n4, unsigned *hist)
{
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4;
	     i += (long)gridDim.x * blockDim.x) {
		int4 v = in[i];
		atomicAdd(&hist[v.x], 1u);
		atomicAdd(&hist[v.y], 1u);
		atomicAdd(&hist[v.z], 1u);
		atomicAdd(&hist[v.w], 1u);
	}
}
