/*
 * expr_value.h - the values an expression computes with: a number, a
 * string, a truth value or a column of records; a record's cells read as
 * values; and filters, lists of conditions matched against records. Nothing
 * here reads expression text (expr.h does).
 *
 * Functions that can fail return 0 on success and -1 on failure with *err
 * set to a message that the caller frees (and reports with its file and
 * line). A value is its holder's, freed with value_free.
 */
#ifndef LB_EXPR_VALUE_H
#define LB_EXPR_VALUE_H

#include <cjson/cJSON.h>
#include <stddef.h>

enum val_type { VAL_NONE, VAL_NUM, VAL_STR, VAL_BOOL, VAL_COL };

struct column {
	const cJSON **rows; /* borrowed from the bundle; the array is owned */
	size_t n;
	char *field;
	char *expr; /* the reference as written, for messages */
};

struct value {
	enum val_type type;
	double num; /* VAL_NUM, and VAL_BOOL as 0 or 1 */
	char *str;  /* VAL_STR */
	struct column col;
};

/* Free what v holds and make it VAL_NONE; v itself is the caller's. */
void value_free(struct value *v);

/* Make v the number x (what v held is freed). */
void value_set_num(struct value *v, double x);
/* Make v the truth value x (what v held is freed). */
void value_set_bool(struct value *v, int x);
/* Make v the number x that what ("a sum", a function's name) made, or fail
 * when x is not finite (x/0, log2(0), sqrt(-1)); v is then unchanged. */
int value_set_finite(struct value *v, double x, const char *what, char **err);

/* A cell's value as a scalar value: a number, a truth value, a string
 * (copied), else none. out is overwritten, not freed. */
void value_from_cell(const cJSON *cell, struct value *out);

/* Reduce a value to one number, string or boolean (a one-record column). */
int value_scalar(struct value *v, char **err);
/* Reduce v to one value (value_scalar) that is a number or a truth value,
 * or fail saying that what ("'+'", a function's name) needs a number. */
int value_number(struct value *v, const char *what, char **err);

/* The value of field in row as a number in *out: 1, or 0 when it is not a
 * number or a truth value. */
int row_number(const cJSON *row, const char *field, double *out);

/* A comparison, in a condition or between two values. */
enum cmp_op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

/* Does "a op b" hold: 1 or 0. */
int cmp_op_holds(double a, double b, enum cmp_op op);

/* A list of conditions, as in "[view=sm, ilp>=2]" or a chart's where:,
 * all of which a record must meet. {0} is the empty filter, which every
 * record meets. */
struct cond;
struct filter {
	struct cond *conds;
	size_t n;
};

/* Add the condition "field op rhs" to f, which takes field and what rhs
 * holds (rhs is left VAL_NONE). rhs is a number, a truth value (compared
 * as 0 or 1) or a string. */
void filter_add(struct filter *f, char *field, enum cmp_op op,
                struct value *rhs);
/* The field condition i of f reads, or NULL past the last (borrowed). */
const char *filter_field(const struct filter *f, size_t i);
/* Does row meet every condition of f: 1 or 0. A row without a condition's
 * field does not. */
int filter_match(const struct filter *f, const cJSON *row);
/* Free f's conditions and make it empty. */
void filter_free(struct filter *f);

#endif
