/*
 * sweep_echo.h - a sweep's values looked for in what its sets printed.
 */
#ifndef LB_SWEEP_ECHO_H
#define LB_SWEEP_ECHO_H

#include <stddef.h>

#include "book/book.h"

/*
 * Two sets that differ in one swept argument alone and printed the same
 * output (its numbers with a fraction, times and rates, aside) were most
 * likely run the same: the program ignored the argument (it read
 * "-n=1024" where it was given "-n 1024", or took its size from a
 * position). Warn, at that sweep line, naming the two sets. A program
 * that prints a value made from the swept one (bytes for a size) prints
 * something else in each set, and is not warned of. outs holds the output
 * of each of e's sweep sets (sweep_sets), NULL for a set with none.
 */
void sweep_echo_check(const struct exper *e, char *const *outs);

/*
 * Every sweep set must give each capture: pattern records: the first set
 * where a pattern that matched elsewhere matched nothing (miss[k *
 * npatterns + p] set; counts[p] its matches in every set) is a failure of
 * the run: -1 with *why ("capture: matched nothing in the output of the
 * sweep set '-n=2', ...; that output ends '...'"; caller frees) and *line
 * the pattern's line; else 0. (A pattern that matched nowhere fails the
 * run already, job.c.)
 */
int sweep_miss_check(const struct exper *e, char *const *outs,
                     const unsigned char *miss, const size_t *counts,
                     char **why, int *line);

/* Both checks of a sweep's outputs: sweep_echo_check, then what
 * sweep_miss_check returns. */
int sweep_outputs_check(const struct exper *e, char *const *outs,
                        const unsigned char *miss, const size_t *counts,
                        char **why, int *line);

#endif
