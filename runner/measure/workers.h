/*
 * workers.h - several GPUs of one model measuring at once.
 *
 * The experiments are shared out by their last duration (the longest
 * first, each to the least loaded worker). One worker process per GPU,
 * with CUDA_VISIBLE_DEVICES set to that GPU's entry (its UUID where
 * nvidia-smi named it, else the inherited entry), runs its share in
 * rounds (job.h) and writes the results to the bundle itself. Each
 * experiment's outcome comes back to the parent on a pipe, one line
 * "INDEX<TAB>STATE<TAB>SECONDS<TAB>WHY", and the parent reads the bundle
 * again.
 */
#ifndef LB_WORKERS_H
#define LB_WORKERS_H

#include <stddef.h>

#include "book/book.h"
#include "measure/run.h"
#include "bundle/results.h"
#include "measure/toolchain.h"

/* Run list[0..n) on workers GPUs at once; sets each experiment's state,
 * seconds and why as job_run_rounds does. */
void workers_run(struct exper **list, size_t n, int workers, struct bundle *b,
                 const struct run_opts *o, const struct toolchain *tc, double t0);

#endif
