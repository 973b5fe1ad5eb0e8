/*
 * expr_value.c - the values of the expression language, a record's cells
 * read as values, and filters matched against records (expr_value.h).
 */
#include "book/expr_value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct cond {
	char *field;
	enum cmp_op op;
	struct value rhs; /* a number or a string */
};

void value_free(struct value *v)
{
	if (!v)
		return;
	free(v->str);
	free(v->col.rows);
	free(v->col.field);
	free(v->col.expr);
	memset(v, 0, sizeof *v);
}

void value_set_num(struct value *v, double x)
{
	value_free(v);
	v->type = VAL_NUM;
	v->num = x;
}

void value_set_bool(struct value *v, int x)
{
	value_free(v);
	v->type = VAL_BOOL;
	v->num = x ? 1 : 0;
}

/*
 * A number that an operator or function made: one that is not finite
 * (x/0, log2(0), sqrt(-1), 1e400) is an error, never a value in the page
 * nor a claim that holds.
 */
int value_set_finite(struct value *v, double x, const char *what, char **err)
{
	if (!isfinite(x)) {
		*err = xasprintf("%s is not a finite number (%s)", what,
		                 isnan(x) ? "undefined" : "infinite");
		return -1;
	}
	value_set_num(v, x);
	return 0;
}

static const char *type_name(enum val_type t)
{
	switch (t) {
	case VAL_NUM: return "a number";
	case VAL_STR: return "a string";
	case VAL_BOOL: return "a truth value";
	case VAL_COL: return "a column";
	default: return "nothing";
	}
}

void value_from_cell(const cJSON *cell, struct value *out)
{
	memset(out, 0, sizeof *out);
	if (cJSON_IsNumber(cell)) {
		out->type = VAL_NUM;
		out->num = cell->valuedouble;
	} else if (cJSON_IsBool(cell)) {
		out->type = VAL_BOOL;
		out->num = cJSON_IsTrue(cell);
	} else if (cJSON_IsString(cell)) {
		out->type = VAL_STR;
		out->str = xstrdup(cell->valuestring);
	}
}

int value_scalar(struct value *v, char **err)
{
	if (v->type != VAL_COL)
		return 0;
	if (v->col.n != 1) {
		*err = v->col.n ? xasprintf("%s selects %zu records where one value "
		                            "is needed; use max(), min(), mean(), "
		                            "first() or a narrower [filter]",
		                            v->col.expr, v->col.n)
		                : xasprintf("%s selects no records", v->col.expr);
		return -1;
	}
	struct value s;
	value_from_cell(
	    cJSON_GetObjectItemCaseSensitive(v->col.rows[0], v->col.field), &s);
	value_free(v);
	*v = s;
	return 0;
}

int value_number(struct value *v, const char *what, char **err)
{
	if (value_scalar(v, err) != 0)
		return -1;
	if (v->type == VAL_NUM || v->type == VAL_BOOL)
		return 0;
	*err = xasprintf("%s needs a number, not %s%s%s%s", what,
	                 type_name(v->type), v->str ? " ('" : "",
	                 v->str ? v->str : "", v->str ? "')" : "");
	return -1;
}

int row_number(const cJSON *row, const char *field, double *out)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(row, field);
	if (cJSON_IsNumber(c))
		*out = c->valuedouble;
	else if (cJSON_IsBool(c))
		*out = cJSON_IsTrue(c);
	else
		return 0;
	return 1;
}

int cmp_op_holds(double a, double b, enum cmp_op op)
{
	switch (op) {
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	}
	return 0;
}

/* ---- filters ------------------------------------------------------------ */

void filter_add(struct filter *f, char *field, enum cmp_op op,
                struct value *rhs)
{
	struct cond *c = ARRAY_PUSH(f->conds, f->n);
	c->field = field;
	c->op = op;
	c->rhs = *rhs;
	if (c->rhs.type == VAL_BOOL)
		c->rhs.type = VAL_NUM;
	memset(rhs, 0, sizeof *rhs);
}

static int cond_match(const struct cond *c, const cJSON *row)
{
	const cJSON *cell = cJSON_GetObjectItemCaseSensitive(row, c->field);
	if (!cell)
		return 0;
	double x;
	if (c->rhs.type == VAL_NUM && row_number(row, c->field, &x))
		return cmp_op_holds(x, c->rhs.num, c->op);
	char num[64];
	const char *a, *b;
	if (cJSON_IsString(cell)) {
		a = cell->valuestring;
	} else if (row_number(row, c->field, &x)) {
		snprintf(num, sizeof num, "%.15g", x);
		a = num;
	} else {
		return 0;
	}
	char rhs[64];
	if (c->rhs.type == VAL_NUM) {
		snprintf(rhs, sizeof rhs, "%.15g", c->rhs.num);
		b = rhs;
	} else {
		b = c->rhs.str;
	}
	return cmp_op_holds(strcmp(a, b), 0, c->op);
}

const char *filter_field(const struct filter *f, size_t i)
{
	return i < f->n ? f->conds[i].field : NULL;
}

int filter_match(const struct filter *f, const cJSON *row)
{
	for (size_t i = 0; i < f->n; i++)
		if (!cond_match(&f->conds[i], row))
			return 0;
	return 1;
}

void filter_free(struct filter *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->conds[i].field);
		value_free(&f->conds[i].rhs);
	}
	free(f->conds);
	f->conds = NULL;
	f->n = 0;
}
