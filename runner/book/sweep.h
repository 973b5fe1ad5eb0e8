/*
 * sweep.h - the argument sets of an experiment's sweep: options.
 *
 * The program runs once per set. A sweep: line is groups of arguments, and
 * the sets are the product of its groups (and of several sweep: lines), the
 * first group changing slowest. Each group is written as the program reads
 * its argument:
 *
 *   -n=1024,2048        one word per value: -n=1024, then -n=2048
 *   --block 32,64,128   the flag, then the value: --block 32
 *   1024 2048 4096      a positional value (or 1024,2048,4096)
 *   -dimX=64,128 with -dimY=64,128
 *                       groups joined by "with" change together (a zip),
 *                       so they need as many values each
 *   --n 1<<20,1<<24     a value A<<B is passed as the number it makes
 *
 * A group's field is named after its flag without the dashes ("-n" -> n,
 * "--block-size" -> block_size), positional ones arg1, arg2, ... in the
 * order written; "as NAME" after a group names it. The words of a set come
 * after the experiment's args:, in the order written.
 *
 * Errors: sweep_add returns 0 or -1 with *why set (caller frees, nothing
 * reported), for the caller to report at the option's line.
 */
#ifndef LB_SWEEP_H
#define LB_SWEEP_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define SWEEP_SETS_MAX 10000

struct sweep;

/* An empty sweep (one set, no words). Never NULL; sweep_free(NULL) does
 * nothing. */
struct sweep *sweep_new(void);
void sweep_free(struct sweep *s);

/* Add the groups of one sweep: line (text, at line). 0, or -1 with *why
 * and s as it was (a caller may go on to the next line, to report it
 * too). A quote left open is refused. */
int sweep_add(struct sweep *s, const char *text, int line, char **why);

/* How many sets (1 for an empty sweep) and groups. */
size_t sweep_sets(const struct sweep *s);
size_t sweep_groups(const struct sweep *s);
/* Group g's field name, its line, and the text of its value in set k (the
 * number an A<<B makes). Borrowed from s. */
const char *sweep_name(const struct sweep *s, size_t g);
int sweep_line(const struct sweep *s, size_t g);
const char *sweep_value(const struct sweep *s, size_t k, size_t g);
/* The line of the group whose field is name, or 0. */
int sweep_field_line(const struct sweep *s, const char *name);

/* Append set k's words to *argv (n words, built by ARRAY_PUSH). */
void sweep_args(const struct sweep *s, size_t k, char ***argv, size_t *n);
/* Set k's words as one line, for messages ("-n=1024 --block 32"). Caller
 * frees. */
char *sweep_text(const struct sweep *s, size_t k);
/* Give row set k's fields, a number where the value is one; a field the
 * row already has is kept. */
void sweep_fields(const struct sweep *s, size_t k, cJSON *row);

#endif
