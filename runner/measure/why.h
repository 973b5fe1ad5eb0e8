/*
 * why.h - why an experiment runs: no results yet, a failed attempt, and
 * the parts of its cache key (key.h, key_parts) that differ from those its
 * recorded results were made with, each said in words.
 */
#ifndef LB_WHY_H
#define LB_WHY_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "book/book.h"
#include "bundle/results.h"
#include "measure/run.h"
#include "measure/toolchain.h"

/*
 * What differs between e as key_compute keyed it now and meta, the
 * meta.json of its recorded results in b: its source key always, and its
 * key as well unless tc is NULL (a build that compiles nothing; tc must be
 * the toolchain e was keyed with). One line per change, e.g.
 *   the header kernels/common/scale.h changed
 *   args: was '2', now '12'
 *   driver: was '580.65', now '590.12'
 * A meta without key_parts (recorded before they were kept) gives what its
 * command lines and b's machine.json tell, and a line that names the
 * inputs it cannot tell apart. Empty when the keys are the same, or meta
 * is NULL. NULL-terminated, count in *n; caller frees with argv_free.
 */
char **why_changed(const struct exper *e, const struct bundle *b,
                   const cJSON *meta, const struct toolchain *tc, size_t *n);

/*
 * Why a build that can run e (book_run's decision, with tc and o) runs
 * it, a line each, into e->reasons (what it held is freed): --rerun, no
 * results in b (r is e's), no key recorded, a failed last attempt,
 * malformed records, no machine.json (nothing says where the results came
 * from), and each part of its key that changed (why_changed). Returns how
 * many: 0 when its results are up to date.
 */
size_t why_run(struct exper *e, const struct bundle *b,
               const struct exp_result *r, const struct toolchain *tc,
               const struct run_opts *o);

#endif
