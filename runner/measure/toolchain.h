/*
 * toolchain.h - the tools a build uses and the GPUs it may measure on.
 *
 * toolchain_init looks only for what the build will use: nothing at all
 * under --no-run (no nvcc, no nvidia-smi, no GPU, no process started);
 * the C compiler's version when a .c experiment is compiled; nvcc, its
 * version, cuobjdump and ncu beside it when a .cu experiment is; and the
 * GPUs (nvidia-smi, then tools/probe.cu) only when experiments will run.
 * LABBOOK_GPU=0 hides every GPU.
 */
#ifndef LB_TOOLCHAIN_H
#define LB_TOOLCHAIN_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct book;
struct run_opts;

/* A GPU a build may use: its CUDA_VISIBLE_DEVICES entry and, where
 * nvidia-smi names it, its UUID and model (else NULL). */
struct visible_gpu {
	char *dev;
	char *uuid;
	char *name;
};

struct toolchain {
	char *nvcc;         /* path, or NULL when not found or not looked for */
	char *nvcc_version; /* the "release" line */
	char *cc;
	char *cc_version;
	int gpu;            /* a GPU is present and usable */
	int ngpus;          /* identical GPUs visible */
	struct visible_gpu *devs;
	size_t ndevs;
	cJSON *probe;       /* the GPU's facts (tools/probe.cu), or NULL */
	char *arch;         /* sm_XX for nvcc */
	char *gpu_id;       /* name, uuid and driver, for cache keys; or NULL */
	char *cuobjdump;    /* beside nvcc, or NULL */
	char *ncu;          /* Nsight Compute beside nvcc, or NULL */
	char *ncu_version;
	/* Set by toolchain_use: the GPUs the build measures on, which an
	 * experiment with gpus: all is given at once. */
	int nused;
	char *all_visible;  /* their entries, "a,b", for CUDA_VISIBLE_DEVICES;
	                     * NULL when none is known (the inherited value stands) */
	char *all_id;       /* entry, UUID and model of each, for cache keys */
};

/* Find what the build described by bk and o needs (see above). Never
 * fails: what is missing stays NULL, and the build says so where it
 * matters. */
void toolchain_init(struct toolchain *tc, const struct book *bk,
                    const struct run_opts *o);
/* The build measures on n GPUs (0: every one in devs): the first n of
 * devs, and past them the indices the workers use (workers.h). Sets
 * nused, all_visible and all_id. */
void toolchain_use(struct toolchain *tc, int n);
/* NULL-safe; leaves tc zeroed. */
void toolchain_free(struct toolchain *tc);

#endif
