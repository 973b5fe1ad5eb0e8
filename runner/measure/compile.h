/*
 * compile.h - the compile scheduler: experiments compiled in parallel.
 *
 * Up to o->jobs compilers run at once, each in its own process group
 * with its output in build/exp/<id>.log. A compile that runs past
 * o->compile_timeout seconds (COMPILE_TIMEOUT unless LABBOOK_COMPILE_TIMEOUT
 * says otherwise), or is still running when labbook is asked to
 * stop (SIGINT, SIGTERM), has its group killed. A compile that fails is
 * kept in the bundle as the experiment's failed attempt (error.json, stage
 * "compile", with the compiler's output) and reported at its directive.
 */
#ifndef LB_COMPILE_H
#define LB_COMPILE_H

#include <stddef.h>

#include "book/book.h"
#include "measure/run.h"
#include "bundle/results.h"
#include "measure/toolchain.h"

#define COMPILE_TIMEOUT 600.0

/* Compile todo[0..n); those that fail get state ST_FAILED. A run:
 * experiment is not compiled: its inputs are set to none (key.h). */
void compile_all(struct exper **todo, size_t n, struct bundle *b,
                 const struct toolchain *tc, const struct run_opts *o, double t0);

#endif
