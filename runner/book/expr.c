/*
 * expr.c - reading an expression: its tokens, the values the grammar
 * passes between its rules, the conditions of a filter, and the grammar
 * itself, from || down to a primary (expr.h). What a name in it stands for,
 * a reference or a function, is expr_names.c's.
 */
#include "book/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/expr_parse.h"
#include "base/util.h"

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

struct cond {
	char *field;
	enum op op;
	struct value rhs; /* a number or a string */
};

/* Deeper than any expression a person writes; far from the stack's end. */
#define MAX_DEPTH 200

static int parse_add(struct parser *p, struct value *out);

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

int expr_fail(struct parser *p, const char *fmt, ...)
{
	if (p->err)
		return -1;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	p->err = buf_detach(&b);
	return -1;
}

static void skip(struct parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

int expr_accept(struct parser *p, const char *tok)
{
	skip(p);
	size_t n = strlen(tok);
	if (strncmp(p->s + p->pos, tok, n))
		return 0;
	p->pos += n;
	return 1;
}

char *expr_ident(struct parser *p)
{
	skip(p);
	size_t start = p->pos;
	const char *s = p->s;
	if (!isalpha((unsigned char)s[start]) && s[start] != '_')
		return NULL;
	while (isalnum((unsigned char)s[p->pos]) || s[p->pos] == '_')
		p->pos++;
	return xstrndup(s + start, p->pos - start);
}

void expr_set_num(struct value *v, double x)
{
	value_free(v);
	v->type = VAL_NUM;
	v->num = x;
}

/*
 * A number that an operator or function made: one that is not finite
 * (x/0, log2(0), sqrt(-1), 1e400) is an error, never a value in the page
 * nor a claim that holds.
 */
int expr_set_finite(struct parser *p, struct value *v, double x,
                    const char *what)
{
	if (!isfinite(x))
		return expr_fail(p, "%s is not a finite number (%s)", what,
		                 isnan(x) ? "undefined" : "infinite");
	expr_set_num(v, x);
	return 0;
}

static void set_bool(struct value *v, int x)
{
	value_free(v);
	v->type = VAL_BOOL;
	v->num = x ? 1 : 0;
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

/* A cell's value as a scalar value. */
void expr_cell_value(const cJSON *cell, struct value *out)
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
	expr_cell_value(
	    cJSON_GetObjectItemCaseSensitive(v->col.rows[0], v->col.field), &s);
	value_free(v);
	*v = s;
	return 0;
}

static int scalar(struct parser *p, struct value *v)
{
	char *err = NULL;
	if (value_scalar(v, &err) != 0) {
		expr_fail(p, "%s", err);
		free(err);
		return -1;
	}
	return 0;
}

int expr_number(struct parser *p, struct value *v, const char *what)
{
	if (scalar(p, v) != 0)
		return -1;
	if (v->type == VAL_NUM || v->type == VAL_BOOL)
		return 0;
	return expr_fail(p, "%s needs a number, not %s%s%s%s", what,
	                 type_name(v->type), v->str ? " ('" : "",
	                 v->str ? v->str : "", v->str ? "')" : "");
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

/* ---- filters ------------------------------------------------------------ */

static int parse_op(struct parser *p, enum op *op)
{
	static const struct {
		const char *tok;
		enum op op;
	} ops[] = {{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE},
	           {"=", OP_EQ},  {"<", OP_LT},  {">", OP_GT}};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (expr_accept(p, ops[i].tok)) {
			*op = ops[i].op;
			return 0;
		}
	return expr_fail(p, "expected a comparison (= != < <= > >=) at column %zu",
	                 p->pos + 1);
}

int expr_parse_conds(struct parser *p, struct filter *f, const char *end)
{
	do {
		skip(p);
		if (end && expr_accept(p, end))
			return 0;
		char *field = expr_ident(p);
		if (!field)
			return expr_fail(p, "expected a field name at column %zu",
			                 p->pos + 1);
		struct cond *c = ARRAY_PUSH(f->conds, f->n);
		memset(c, 0, sizeof *c);
		c->field = field;
		if (parse_op(p, &c->op) != 0)
			return -1;
		int words = p->words;
		p->words = 1;
		int rc = parse_add(p, &c->rhs);
		p->words = words;
		if (rc != 0 || scalar(p, &c->rhs) != 0)
			return -1;
		if (c->rhs.type == VAL_BOOL)
			c->rhs.type = VAL_NUM;
	} while (expr_accept(p, ","));
	if (end && !expr_accept(p, end))
		return expr_fail(p, "expected '%s' at column %zu", end, p->pos + 1);
	return 0;
}

static int compare(double a, double b, enum op op)
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

static int cond_match(const struct cond *c, const cJSON *row)
{
	const cJSON *cell = cJSON_GetObjectItemCaseSensitive(row, c->field);
	if (!cell)
		return 0;
	double x;
	if (c->rhs.type == VAL_NUM && row_number(row, c->field, &x))
		return compare(x, c->rhs.num, c->op);
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
	return compare(strcmp(a, b), 0, c->op);
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

int filter_parse(const char *text, struct bundle *b, struct filter *f,
                 char **err)
{
	struct parser p = {text, 0, b, NULL, 0, 0, {0, NULL, NULL}};
	memset(f, 0, sizeof *f);
	skip(&p);
	if (p.s[p.pos] && expr_parse_conds(&p, f, NULL) == 0) {
		skip(&p);
		if (p.s[p.pos])
			expr_fail(&p, "unexpected '%s' at column %zu", p.s + p.pos,
			          p.pos + 1);
	}
	if (p.err) {
		filter_free(f);
		*err = p.err;
		return -1;
	}
	return 0;
}

/* ---- the grammar ---------------------------------------------------------- */

static int parse_primary(struct parser *p, struct value *out)
{
	skip(p);
	const char *s = p->s + p->pos;
	if (expr_accept(p, "(")) {
		if (expr_parse_expr(p, out) != 0)
			return -1;
		if (!expr_accept(p, ")"))
			return expr_fail(p, "expected ')' at column %zu", p->pos + 1);
		return 0;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		char *end;
		double x = strtod(s, &end);
		size_t at = p->pos + 1;
		p->pos += (size_t)(end - s);
		if (!isfinite(x))
			return expr_fail(p, "the number at column %zu is too large", at);
		expr_set_num(out, x);
		return 0;
	}
	if (*s == '"' || *s == '\'') {
		const char *end = strchr(s + 1, *s);
		if (!end)
			return expr_fail(p, "unterminated string at column %zu",
			                 p->pos + 1);
		value_free(out);
		out->type = VAL_STR;
		out->str = xstrndup(s + 1, (size_t)(end - s - 1));
		p->pos += (size_t)(end - s) + 1;
		return 0;
	}
	char *name = expr_ident(p);
	if (!name) {
		if (!*s)
			return expr_fail(p, "the expression ends too early");
		return expr_fail(p, "unexpected '%c' at column %zu", *s, p->pos + 1);
	}
	if (expr_accept(p, "("))
		return expr_parse_call(p, name, out);
	if (p->s[p->pos] == '.') {
		p->pos++;
		return expr_parse_ref(p, name, out);
	}
	if (!strcmp(name, "true") || !strcmp(name, "false")) {
		set_bool(out, name[0] == 't');
		free(name);
		return 0;
	}
	if (p->words) {
		/* A bare word: the rest of a value such as 32x16 or sm_90. */
		while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_' ||
		       p->s[p->pos] == '-' || p->s[p->pos] == '.')
			p->pos++;
		value_free(out);
		out->type = VAL_STR;
		out->str = xstrndup(s, (size_t)(p->s + p->pos - s));
		free(name);
		return 0;
	}
	expr_fail(p, "unknown name '%s'; a value is written experiment.field or "
	          "machine.field", name);
	free(name);
	return -1;
}

static int parse_unary(struct parser *p, struct value *out);

static int parse_unary_ops(struct parser *p, struct value *out)
{
	if (expr_accept(p, "-")) {
		if (parse_unary(p, out) != 0 || expr_number(p, out, "'-'") != 0)
			return -1;
		expr_set_num(out, -out->num);
		return 0;
	}
	if (expr_accept(p, "!")) {
		if (parse_unary(p, out) != 0 || expr_number(p, out, "'!'") != 0)
			return -1;
		set_bool(out, out->num == 0);
		return 0;
	}
	/* A word value may start with a digit (32x16): try it as a word. */
	if (p->words) {
		skip(p);
		const char *s = p->s + p->pos;
		size_t k = 0;
		while (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '.' ||
		       s[k] == '-')
			k++;
		char *end;
		strtod(s, &end);
		if (k && isdigit((unsigned char)*s) && (size_t)(end - s) < k &&
		    isalpha((unsigned char)s[end - s])) {
			value_free(out);
			out->type = VAL_STR;
			out->str = xstrndup(s, k);
			p->pos += k;
			return 0;
		}
	}
	return parse_primary(p, out);
}

/* Every cycle of the grammar passes here: count the nesting. */
static int parse_unary(struct parser *p, struct value *out)
{
	if (p->depth >= MAX_DEPTH)
		return expr_fail(p, "the expression nests more than %d deep at column %zu",
		                 MAX_DEPTH, p->pos + 1);
	p->depth++;
	int rc = parse_unary_ops(p, out);
	p->depth--;
	return rc;
}

static int parse_mul(struct parser *p, struct value *out)
{
	if (parse_unary(p, out) != 0)
		return -1;
	for (;;) {
		int op = expr_accept(p, "*") ? '*' : expr_accept(p, "/") ? '/' : 0;
		if (!op)
			return 0;
		struct value r = {0};
		if (expr_number(p, out, op == '*' ? "'*'" : "'/'") != 0 ||
		    parse_unary(p, &r) != 0 ||
		    expr_number(p, &r, op == '*' ? "'*'" : "'/'") != 0) {
			value_free(&r);
			return -1;
		}
		int zero = op == '/' && r.num == 0;
		double x = op == '*' ? out->num * r.num : out->num / r.num;
		value_free(&r);
		if (zero)
			return expr_fail(p, "division by zero");
		if (expr_set_finite(p, out, x,
		                    op == '*' ? "a product" : "a quotient") != 0)
			return -1;
	}
}

static int parse_add(struct parser *p, struct value *out)
{
	if (parse_mul(p, out) != 0)
		return -1;
	for (;;) {
		int op = expr_accept(p, "+") ? '+' : expr_accept(p, "-") ? '-' : 0;
		if (!op)
			return 0;
		struct value r = {0};
		if (expr_number(p, out, op == '+' ? "'+'" : "'-'") != 0 ||
		    parse_mul(p, &r) != 0 ||
		    expr_number(p, &r, op == '+' ? "'+'" : "'-'") != 0) {
			value_free(&r);
			return -1;
		}
		double x = op == '+' ? out->num + r.num : out->num - r.num;
		value_free(&r);
		if (expr_set_finite(p, out, x,
		                    op == '+' ? "a sum" : "a difference") != 0)
			return -1;
	}
}

static int parse_cmp(struct parser *p, struct value *out)
{
	if (parse_add(p, out) != 0)
		return -1;
	skip(p);
	const char *s = p->s + p->pos;
	if (!strchr("<>=!", *s) || !*s || (*s == '!' && s[1] != '=') ||
	    (*s == '=' && s[1] != '='))
		return 0;
	enum op op;
	if (parse_op(p, &op) != 0)
		return -1;
	struct value r = {0};
	if (parse_add(p, &r) != 0 || scalar(p, out) != 0 || scalar(p, &r) != 0) {
		value_free(&r);
		return -1;
	}
	int res;
	if (out->type == VAL_STR && r.type == VAL_STR) {
		res = compare(strcmp(out->str, r.str), 0, op);
	} else if (out->type != VAL_STR && r.type != VAL_STR) {
		res = compare(out->num, r.num, op);
	} else {
		value_free(&r);
		return expr_fail(p, "cannot compare a string with a number");
	}
	value_free(&r);
	set_bool(out, res);
	return 0;
}

static int parse_and(struct parser *p, struct value *out)
{
	if (parse_cmp(p, out) != 0)
		return -1;
	while (expr_accept(p, "&&")) {
		struct value r = {0};
		if (expr_number(p, out, "'&&'") != 0 || parse_cmp(p, &r) != 0 ||
		    expr_number(p, &r, "'&&'") != 0) {
			value_free(&r);
			return -1;
		}
		set_bool(out, out->num != 0 && r.num != 0);
		value_free(&r);
	}
	return 0;
}

int expr_parse_expr(struct parser *p, struct value *out)
{
	if (parse_and(p, out) != 0)
		return -1;
	while (expr_accept(p, "||")) {
		struct value r = {0};
		if (expr_number(p, out, "'||'") != 0 || parse_and(p, &r) != 0 ||
		    expr_number(p, &r, "'||'") != 0) {
			value_free(&r);
			return -1;
		}
		set_bool(out, out->num != 0 || r.num != 0);
		value_free(&r);
	}
	return 0;
}

int expr_eval_at(const char *text, struct bundle *b, struct value *out,
                 char **err, struct eval_facts *facts)
{
	struct parser p = {text, 0, b, NULL, 0, 0, {0, NULL, NULL}};
	memset(out, 0, sizeof *out);
	if (expr_parse_expr(&p, out) == 0) {
		skip(&p);
		if (p.s[p.pos])
			expr_fail(&p, "unexpected '%s' at column %zu", p.s + p.pos,
			          p.pos + 1);
	}
	if (facts)
		*facts = p.facts;
	if (p.err) {
		value_free(out);
		*err = p.err;
		return -1;
	}
	return 0;
}

int expr_eval(const char *text, struct bundle *b, struct value *out, char **err)
{
	return expr_eval_at(text, b, out, err, NULL);
}

