/*
 * cluster.cu - thread-block clusters and distributed shared memory (sm_90).
 *
 * A cluster is a group of blocks that the hardware places at once on the
 * SMs of one GPC (graphics processing cluster); its blocks can read, write
 * and do atomics on each other's shared memory, and wait for each other at
 * a cluster barrier.
 *
 * view=limits: for cluster sizes 1 to 8 and 16, with one block per SM (its
 * shared memory, more than half the SM's, forces that), how many clusters
 * cudaOccupancyMaxActiveClusters says fit at once, and so how many SMs they
 * use. Sizes above 8 are "non-portable": a kernel must allow them with
 * cudaFuncAttributeNonPortableClusterSizeAllowed.
 *
 * view=hist: a histogram of n random ints in [0, bins), cold.
 *   global    atomicAdd on the histogram in global memory (done in L2);
 *   cluster   the histogram is cut into cluster_size slices, one in each
 *             block's shared memory; a thread finds the block owning its
 *             bin (cluster.map_shared_rank) and does its atomicAdd there;
 *             at the end each block adds its slice to the global histogram.
 *             With cluster_size 1 this is a plain shared-memory histogram;
 *             a histogram larger than one block's shared memory needs
 *             cluster_size >= 2.
 * The grid is as many clusters as fit at once, times the cluster size; the
 * histogram is checked exactly against the CPU.
 *
 * view=hist_l2: the same for --l2-bins bins over --l2-n ints (16 MiB by
 * default, well inside L2), timed hot, so that the input comes from L2 and
 * the atomics, not DRAM, set the pace on both sides of the comparison
 * (--l2-sizes cluster sizes; --l2-n 0 leaves it out).
 *
 *   cluster --n 67108864 --bins 4096,65536 --sizes 1:8:1,16
 *           --l2-n 4194304 --l2-bins 4096 --l2-sizes 1,2,4,8
 */
#include "lab.h"
#include "atomics/hist_global.cuh"

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define THREADS 512

/* Add one to bin v, in the shared memory of the block that owns it. */
__device__ void add_owned(cg::cluster_group &cluster, unsigned *s, int v,
                          int per)
{
	unsigned *slice = cluster.map_shared_rank(s, v / per);
	atomicAdd(&slice[v % per], 1u);
}

/* Block r of a cluster holds bins [r * per, (r + 1) * per). */
__global__ void __launch_bounds__(THREADS)
    hist_cluster(const int4 *in, long n4, unsigned *hist, int bins, int per)
{
	extern __shared__ unsigned s[];
	cg::cluster_group cluster = cg::this_cluster();
	unsigned rank = cluster.block_rank();
	for (int b = threadIdx.x; b < per; b += blockDim.x)
		s[b] = 0;
	/* No block may add to a slice before its owner has zeroed it. */
	cluster.sync();
	for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4;
	     i += (long)gridDim.x * blockDim.x) {
		int4 v = in[i];
		add_owned(cluster, s, v.x, per);
		add_owned(cluster, s, v.y, per);
		add_owned(cluster, s, v.z, per);
		add_owned(cluster, s, v.w, per);
	}
	/* ...nor leave while others may still add to its slice. */
	cluster.sync();
	for (int b = threadIdx.x; b < per; b += blockDim.x) {
		int bin = rank * per + b;
		if (bin < bins && s[b])
			atomicAdd(&hist[bin], s[b]);
	}
}

static cudaLaunchConfig_t config(int cluster, int blocks, size_t smem,
                                 cudaLaunchAttribute *attr)
{
	cudaLaunchConfig_t c = {};
	c.gridDim = dim3(blocks);
	c.blockDim = dim3(THREADS);
	c.dynamicSmemBytes = smem;
	attr->id = cudaLaunchAttributeClusterDimension;
	attr->val.clusterDim.x = cluster;
	attr->val.clusterDim.y = 1;
	attr->val.clusterDim.z = 1;
	c.attrs = attr;
	c.numAttrs = 1;
	return c;
}

static int max_clusters(int cluster, size_t smem)
{
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t c = config(cluster, cluster, smem, &attr);
	int n = 0;
	LAB_CHECK(cudaOccupancyMaxActiveClusters(&n, (void *)hist_cluster, &c));
	return n;
}

int main(int argc, char **argv)
{
	lab::Args args(argc, argv);
	long n = args.integer("--n", 67108864);
	std::vector<long> bins_list = args.list("--bins", "4096,65536");
	std::vector<long> sizes = args.list("--sizes", "1:8:1,16");
	long n_l2 = args.integer("--l2-n", 4194304);
	long bins_l2 = args.integer("--l2-bins", 4096);
	std::vector<long> sizes_l2 = args.list("--l2-sizes", "1,2,4,8");
	const lab::Device &dev = lab::device();
	if (n % 4) {
		fprintf(stderr, "--n: %ld is not a multiple of 4\n", n);
		return 2;
	}
	if (n_l2 % 4 || n_l2 < 0 || bins_l2 < 1) {
		fprintf(stderr, "--l2-n: %ld is not a multiple of 4, or --l2-bins "
		        "%ld is not positive\n", n_l2, bins_l2);
		return 2;
	}
	size_t smem_max = dev.prop.sharedMemPerBlockOptin;
	LAB_CHECK(cudaFuncSetAttribute(
	    hist_cluster, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
	LAB_CHECK(cudaFuncSetAttribute(
	    hist_cluster, cudaFuncAttributeMaxDynamicSharedMemorySize,
	    (int)smem_max));
	printf("%s: %d SMs, %zu KiB of shared memory per block at most\n",
	       dev.prop.name, dev.sm_count, smem_max / 1024);

	/* One block per SM: more than half the SM's shared memory each. */
	size_t big = dev.prop.sharedMemPerMultiprocessor / 2 + 1024;
	printf("\nwith one block per SM:\ncluster  clusters  SMs used\n");
	for (long c : sizes) {
		int m = max_clusters((int)c, big);
		lab::Record()
		    .set("view", "limits")
		    .set("cluster_size", c)
		    .set("max_active_clusters", m)
		    .set("sms_used", c * m)
		    .emit();
		printf("%7ld  %8d  %8ld\n", c, m, c * m);
	}

	std::vector<int> h_in(std::max(n, n_l2));
	int *in;
	unsigned *hist;
	long maxbins = *std::max_element(bins_list.begin(), bins_list.end());
	maxbins = std::max(maxbins, bins_l2);
	LAB_CHECK(cudaMalloc(&in, std::max(n, n_l2) * sizeof(int)));
	LAB_CHECK(cudaMalloc(&hist, maxbins * sizeof(unsigned)));
	auto run = [&](const char *view, long n, const std::vector<long> &bins_list,
	               const std::vector<long> &sizes, lab::Mode mode) {
		printf("\n%s: histogram of %ld ints\nbins     variant  cluster  blocks "
		       "G elem/s\n", view, n);
		for (long bins : bins_list) {
			lab::fill_int(h_in.data(), n, 60 + bins, 0, (int)bins - 1);
			std::vector<unsigned> ref(bins, 0), got(bins);
			for (long i = 0; i < n; i++)
				ref[h_in[i]]++;
			LAB_CHECK(cudaMemcpy(in, h_in.data(), n * sizeof(int),
			                     cudaMemcpyHostToDevice));
			/* size 0 stands for the global-atomics baseline */
			std::vector<long> points(1, 0);
			points.insert(points.end(), sizes.begin(), sizes.end());
			for (long c : points) {
				int per = c ? (int)((bins + c - 1) / c) : 0;
				size_t smem = per * sizeof(unsigned);
				if (smem > smem_max) {
					printf("%-8ld cluster  %7ld  does not fit (%zu KiB a block)\n",
					       bins, c, smem / 1024);
					continue;
				}
				int blocks, active = 0;
				cudaLaunchAttribute attr;
				cudaLaunchConfig_t cfg;
				if (c) {
					active = max_clusters((int)c, smem);
					blocks = active * (int)c;
					cfg = config((int)c, blocks, smem, &attr);
				} else {
					int per_sm = 0;
					LAB_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
					    &per_sm, hist_global, THREADS, 0));
					blocks = per_sm * dev.sm_count;
				}
				auto job = [&] {
					LAB_CHECK(cudaMemsetAsync(hist, 0, bins * sizeof(unsigned)));
					if (c)
						LAB_CHECK(cudaLaunchKernelEx(&cfg, hist_cluster,
						                             (const int4 *)in, n / 4,
						                             hist, (int)bins, per));
					else
						hist_global<<<blocks, THREADS>>>((const int4 *)in,
						                                 n / 4, hist);
				};
				lab::poison(hist, bins * sizeof(unsigned));
				job();
				LAB_CHECK_LAUNCH();
				LAB_CHECK(cudaMemcpy(got.data(), hist, bins * sizeof(unsigned),
				                     cudaMemcpyDeviceToHost));
				bool ok = got == ref;
				lab::Stats st = lab::time(job, {.mode = mode});
				lab::Record()
				    .set("view", view)
				    .set("n", n)
				    .set("variant", c ? "cluster" : "global")
				    .set("bins", bins)
				    .set("cluster_size", c)
				    .set("blocks", blocks)
				    .set("max_active_clusters", active)
				    .set("smem_kib", (double)smem / 1024)
				    .set("ms", st.median_ms)
				    .rate("gelems", n / 1e9, st)
				    .set("correct", ok)
				    .stats(st)
				    .emit();
				printf("%-8ld %-8s %7ld  %6d %8.1f%s\n", bins,
				       c ? "cluster" : "global", c, blocks,
				       n / 1e6 / st.median_ms, ok ? "" : "  WRONG");
			}
		}
	};
	run("hist", n, bins_list, sizes, lab::COLD);
	if (n_l2 > 0)
		run("hist_l2", n_l2, std::vector<long>(1, bins_l2), sizes_l2, lab::HOT);
	LAB_CHECK(cudaFree(in));
	LAB_CHECK(cudaFree(hist));
	return 0;
}
