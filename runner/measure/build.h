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

/*
 * Bring results up to date in b (see above). Returns the number of
 * experiments that failed and were not allowed to. With o->run 0 and no
 * compile_only, it only checks each experiment (its source, options and
 * the bundle's inputs) and starts no process. Each experiment's state is
 * kept in the bundle too (results_meta_load), so pages can be rendered
 * from the bundle alone.
 */
int book_run(struct book *bk, struct bundle *b, const struct run_opts *o);

#endif
