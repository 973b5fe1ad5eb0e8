/*
 * job.h - running experiments: each in several processes, in rounds.
 *
 * A build takes its runs in rounds: the first run of every experiment,
 * then the second of every experiment, and so on, so the runs of one
 * experiment lie minutes apart and a slow minute of the host falls on one
 * of them, which the merge (merge.h) outvotes. Each process gets a records
 * file of its own, LAB_RECORDS=<bundle>/.tmp/<id>.jsonl.tmp.PID.N
 * (bundle_scratch_new), and the experiment's env, in its own process
 * group, killed at its timeout, when labbook is asked to stop, or when
 * labbook dies (exec.h).
 * A run of an experiment with a sweep: (book/sweep.h) is one process per
 * argument set, its argv[0] the experiment's id; each set's records, those
 * written and those its capture: patterns find in its output
 * (bundle/capture.h), carry the set's fields. A pattern that matched
 * nothing in a run, or that could not be matched (a PCRE2 limit), or a set
 * that failed, fails the run, reported at the option's line; a pattern
 * that matched in some sets but not in others, and a swept value missing
 * from its set's output while others appear in theirs, are warned about.
 * capture: reads the whole of each process's output, up to
 * CAPTURE_OUTPUT_CAP (more fails the run), whatever of it is kept.
 *
 * What a run leaves is made safe when it is recorded: the output and every
 * string of the records have NUL, control characters and invalid UTF-8
 * replaced by visible characters (text_make_safe); the records file may
 * hold at most RESULTS_RECORDS_CAP bytes, and the output keeps
 * o->output_cap bytes (the rest is counted). After the last run, the
 * SASS (cuobjdump, names demangled here) and the Nsight Compute metrics
 * are taken, and all of it commits to the bundle as a whole
 * (bundle_commit), or the failure is kept (bundle_fail).
 */
#ifndef LB_JOB_H
#define LB_JOB_H

#include <stddef.h>

#include "book/book.h"
#include "measure/run.h"
#include "bundle/results.h"
#include "measure/toolchain.h"

#define JOB_ONE_GPU -1  /* the one GPU visible, as inherited */
#define JOB_ALL_GPUS -2 /* every GPU the build measures on (gpus: all) */

/*
 * Run list[0..n) in rounds on the one GPU visible (JOB_ONE_GPU), where
 * several run at once on worker gpu's GPU, or with every GPU the build
 * measures on visible to each run (JOB_ALL_GPUS: CUDA_VISIBLE_DEVICES set
 * to tc->all_visible, and the meta's gpu_count and gpu_uuids say which).
 * Sets each experiment's state (ST_RAN or ST_FAILED), why and seconds.
 * An interrupted build keeps what it had for the experiments it did not
 * finish.
 */
void job_run_rounds(struct exper **list, size_t n, struct bundle *b,
                    const struct run_opts *o, const struct toolchain *tc,
                    double t0, int gpu);

#endif
