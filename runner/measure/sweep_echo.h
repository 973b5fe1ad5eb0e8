/*
 * sweep_echo.h - a sweep's values looked for in what its sets printed.
 */
#ifndef LB_SWEEP_ECHO_H
#define LB_SWEEP_ECHO_H

#include <stddef.h>

#include "book/book.h"

/*
 * A swept value that appears nowhere in its set's output, while other
 * swept values appear in theirs, may have been ignored by the program (it
 * read "-n 1024" where it wanted "-n=1024"): warn, at the sweep's line,
 * naming the set and the value. outs holds the output of each of e's
 * sweep sets (sweep_sets), NULL for a set with none; a value counts as
 * there when it stands alone, not inside a longer number or word.
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
