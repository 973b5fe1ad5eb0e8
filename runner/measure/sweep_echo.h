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
 * A capture: pattern that matched in some sets but nothing in others
 * leaves those sets without its records: warn at the pattern's line,
 * naming each such set and quoting the end of its output. miss holds,
 * for set k and pattern p, miss[k * npatterns + p] set where p matched
 * nothing in k's output; counts[p] the matches of p in every set (a
 * pattern that matched nowhere fails the run instead, job.c).
 */
void sweep_miss_check(const struct exper *e, char *const *outs,
                      const unsigned char *miss, const size_t *counts);

#endif
