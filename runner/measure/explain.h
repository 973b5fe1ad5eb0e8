/*
 * explain.h - labbook explain: what the next build will do with one
 * experiment, and why.
 */
#ifndef LB_EXPLAIN_H
#define LB_EXPLAIN_H

#include "book/book.h"
#include "bundle/results.h"
#include "measure/run.h"

/*
 * Print on stdout what the build that o describes would do with
 * experiment id of bk, whose results are in b, deciding as book_run
 * decides (build.h, book_plan_exper), and why:
 *   it will run: each input whose part of the key changed (why.h), or
 *   another reason (no results, a failed attempt, --rerun);
 *   it will not run here, as it requires a compute capability (requires:)
 *   that this machine's card lacks (a machine without a GPU lacks all);
 *   it will not run (--no-run, no GPU or no nvcc for a CUDA experiment):
 *   it is rendered from the recorded results, and what changed since
 *   they were recorded;
 *   it is cached: the build and date it ran in, and why it ran then
 *   (meta.json's ran_because), or that its results do not say.
 * A derived id (ilp_ptxas) is explained as the experiment it comes from.
 * Starts what the build would start to find its tools and GPUs, and
 * writes nothing of b. 0, or -1 when id names no experiment (reported,
 * with the nearest ids of the book).
 */
int book_explain(struct book *bk, struct bundle *b, const char *id,
                 const struct run_opts *o);

#endif
