/*
 * build.h - each experiment of the book checked, keyed, compiled and run as
 * needed, into the bundle (compile.h compiles, job.h runs, workers.h spreads
 * the runs over the GPUs).
 */
#ifndef LB_BUILD_H
#define LB_BUILD_H

#include "book/book.h"
#include "bundle/results.h"
#include "measure/run.h"
#include "measure/toolchain.h"

/*
 * Bring results up to date in b (see above). Returns the number of
 * experiments that failed and were not allowed to. With o->run 0 and no
 * compile_only, it only checks each experiment (its source, options and
 * the bundle's inputs) and starts no process. Only a build that runs
 * (o->run, no compile_only) writes b (bundle_run_begin), and it sets
 * b->here (machine_is_here), so pages can be rendered from the bundle and
 * that one fact.
 */
int book_run(struct book *bk, struct bundle *b, const struct run_opts *o);

/* Does e require a compute capability (requires:) that tc's GPU lacks?
 * A machine without a GPU lacks every one. */
int exper_card_lacks(const struct exper *e, const struct toolchain *tc);

/*
 * What book_run does with e before it compiles anything, on its own: e
 * checked, keyed against b and tc (toolchain_init and toolchain_use as
 * book_run calls them), and whether the build that o describes runs it.
 * 1 it runs, e->reasons saying why, a line each; 0 it does not, e->why
 * saying why where it says anything; -1 e failed its checks (reported at
 * its line, e->why saying why).
 */
int book_plan_exper(struct exper *e, struct bundle *b,
                    const struct toolchain *tc, const struct run_opts *o);

/*
 * After book_run, at each experiment's directive line: one whose source
 * changed since its results in b were recorded (a warning, or with strict
 * an error), and, with strict, one that has no results in b at all (not
 * run, and never recorded there; an error). Returns how many.
 */
int book_check_measured(const struct book *bk, struct bundle *b, int strict);

#endif
