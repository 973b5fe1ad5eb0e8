/*
 * expr.h - the inline expression language over a results bundle.
 *
 *   machine.sm_count                     a field of machine.json
 *   ilp.gflops[view=sm, ilp=8]           a column: a field of the records
 *                                        that match every condition
 *   max(X) min mean median sum count first last argmax(X, f) argmin(X, f)
 *   abs sqrt log2 log10 pow round        numbers
 *   + - * /  < <= > >= == !=  && || !    arithmetic, comparison, logic
 *
 * A column used where one value is needed must select exactly one record.
 * Functions return 0 on success and -1 on failure with *err set to a
 * message (the caller frees it and reports it with its file and line).
 *
 *   expr.c        the tokens, the conditions of a filter and the grammar:
 *                 text into a tree (expr_tree.h), with no bundle
 *   expr_eval.c   a tree's value over a bundle
 *   expr_func.c   references into the bundle, and the functions
 *   expr_value.c  the values, and filters matched against records
 *   format.c      a value as text (format.h)
 */
#ifndef LB_EXPR_H
#define LB_EXPR_H

#include "book/expr_func.h"
#include "book/expr_value.h"
#include "bundle/results.h"

struct expr;

/* Parse text into a tree (*out, freed with expr_free). On failure -1, with
 * *err the message (caller frees) and *col (when not NULL) the column,
 * from 1, where it was found. Reads no bundle. */
int expr_parse(const char *text, struct expr **out, char **err, size_t *col);
/* Conditions, "view=sm, ilp>=2" as in a chart's where:, parsed the same
 * way into a tree of kind EX_CONDS ("" is no condition). */
int conds_parse(const char *text, struct expr **out, char **err, size_t *col);
void expr_free(struct expr *x);
/* The experiments tree x reads (x NULL: none), each once, appended to
 * (*ids)[0..*n): an id, or "machine" for a fact of machine.json. Each id
 * and the array are the caller's (argv_free). */
void expr_ids(const struct expr *x, char ***ids, size_t *n);

/* The value of tree x over b into *out (freed with value_free), and what
 * it read in *facts (when not NULL; its reads list, when set, is
 * appended to). */
int expr_eval_tree(const struct expr *x, struct bundle *b, struct value *out,
                   char **err, struct eval_facts *facts);
/* Conditions x (conds_parse) over b into *f (freed with filter_free); on
 * failure f is empty. */
int conds_eval(const struct expr *x, struct bundle *b, struct filter *f,
               char **err);

/* Parse text and evaluate it at once, and what it read in *facts (when
 * not NULL). */
int expr_eval_at(const char *text, struct bundle *b, struct value *out,
                 char **err, struct eval_facts *facts);
/* Evaluate text against b into *out (freed with value_free). */
int expr_eval(const char *text, struct bundle *b, struct value *out,
              char **err);

/* Conditions, "view=sm, ilp>=2" as in a chart's where:, parsed and
 * evaluated over b into *f (freed with filter_free); their values may be
 * expressions over b. On failure f is empty. */
int filter_parse(const char *text, struct bundle *b, struct filter *f,
                 char **err);

#endif
