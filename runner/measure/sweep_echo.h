/*
 * sweep_echo.h - a sweep's values looked for in what its sets printed.
 */
#ifndef LB_SWEEP_ECHO_H
#define LB_SWEEP_ECHO_H

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

#endif
