/*
 * derived.h - the records derived from a good run of an experiment
 * (enum derived, bundle/results.h), taken after its last run: the
 * resources ptxas reported when it was compiled, its kernels' SASS from
 * cuobjdump with their instruction counts, and the Nsight Compute metrics
 * it asks for (ncu.h), from one more run under ncu.
 */
#ifndef LB_DERIVED_H
#define LB_DERIVED_H

#include "book/book.h"
#include "bundle/results.h"
#include "measure/run.h"
#include "measure/toolchain.h"

/*
 * Take them for e: text[DERIVED_PTXAS], text[DERIVED_SASS] and
 * text[DERIVED_NCU] get records text, *listing the SASS listing with
 * demangled names, each NULL when there is none (not CUDA, no such tool,
 * nothing reported). The ncu run sees visible ("CUDA_VISIBLE_DEVICES=...",
 * or NULL), as the timed runs did; when it gives no metrics, that is a
 * warning at e's line, and the timed results stand. Never fails. The
 * caller frees each string.
 */
void derived_take(const struct exper *e, const struct toolchain *tc,
                  const struct run_opts *o, char *visible, char *text[3],
                  char **listing);

#endif
