/*
 * expr_parse.h - one parse of an expression, private to expr.c, which
 * reads the text (its tokens, the conditions of a filter, the grammar), and
 * expr_names.c, which gives the names in it their values (references into
 * the bundle, function calls). Functions that can fail return 0, or -1
 * with the first message kept in p->err (expr_fail); a value they fill is
 * the caller's, freed with value_free.
 */
#ifndef LB_EXPR_PARSE_H
#define LB_EXPR_PARSE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "book/expr.h"
#include "bundle/results.h"

struct parser {
	const char *s;
	size_t pos;
	struct bundle *b;
	char *err;
	int words; /* bare words are strings (filter values, field names) */
	int depth; /* of nesting, bounded so that the stack is */
	struct eval_facts facts;
};

/* ---- expr.c ---- */
/* Keep the message as p->err unless one is kept already; returns -1. */
int expr_fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Skip spaces, then take tok if the text goes on with it: 1, else 0. */
int expr_accept(struct parser *p, const char *tok);
/* After spaces, a name (a letter or '_', then letters, digits and '_'),
 * taken from the text; NULL when none starts there. Caller frees. */
char *expr_ident(struct parser *p);
/* Make v the number x (what v held is freed). */
void expr_set_num(struct value *v, double x);
/* Make v the number x that what ("a sum", a function's name) made, or fail
 * when x is not finite. */
int expr_set_finite(struct parser *p, struct value *v, double x,
                    const char *what);
/* A cell's value as a scalar value: a number, a truth value, a string
 * (copied), else none. out is overwritten, not freed. */
void expr_cell_value(const cJSON *cell, struct value *out);
/* Reduce v to one value (value_scalar) that is a number or a truth value,
 * or fail saying that what needs a number. */
int expr_number(struct parser *p, struct value *v, const char *what);
/* Conditions ("view=sm, ilp>=2") into f, up to and taking end (NULL: the
 * end of the text). On failure f may hold some; filter_free frees them. */
int expr_parse_conds(struct parser *p, struct filter *f, const char *end);
/* A whole expression (the lowest rule, ||) into out. */
int expr_parse_expr(struct parser *p, struct value *out);

/* ---- expr_names.c ---- */
/* The reference id.FIELD[conditions], the text just past "id.": a column
 * of the records of experiment id, or the value of machine.FIELD. Frees
 * id. */
int expr_parse_ref(struct parser *p, char *id, struct value *out);
/* The call fn(ARGS), the text just past "fn(": its arguments and ")",
 * then fn applied to them. Frees fn. */
int expr_parse_call(struct parser *p, char *fn, struct value *out);

#endif
