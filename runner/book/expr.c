/*
 * expr.c - reading an expression: its tokens, the conditions of a filter,
 * and the grammar, from || down to a primary (expr.h). A reference or a
 * call is read here, its conditions or arguments parsed, and then given its
 * value by expr_func.c; the values themselves are expr_value.c's.
 */
#include "book/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

/* One parse: the first message kept in err (expr_fail). */
struct parser {
	const char *s;
	size_t pos;
	struct bundle *b;
	char *err;
	int words; /* bare words are strings (filter values, field names) */
	int depth; /* of nesting, bounded so that the stack is */
	struct eval_facts facts;
};

/* Deeper than any expression a person writes; far from the stack's end. */
#define MAX_DEPTH 200

static int parse_add(struct parser *p, struct value *out);
static int expr_parse_expr(struct parser *p, struct value *out);

/* Keep the message as p->err unless one is kept already; returns -1. */
static int expr_fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int expr_fail(struct parser *p, const char *fmt, ...)
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

/* Keep err, the message of a step that failed, as expr_fail does; frees
 * it and returns -1. */
static int fail_with(struct parser *p, char *err)
{
	expr_fail(p, "%s", err);
	free(err);
	return -1;
}

static void skip(struct parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

/* Skip spaces, then take tok if the text goes on with it: 1, else 0. */
static int expr_accept(struct parser *p, const char *tok)
{
	skip(p);
	size_t n = strlen(tok);
	if (strncmp(p->s + p->pos, tok, n))
		return 0;
	p->pos += n;
	return 1;
}

/* After spaces, a name (a letter or '_', then letters, digits and '_'),
 * taken from the text; NULL when none starts there. Caller frees. */
static char *expr_ident(struct parser *p)
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

static int expr_set_finite(struct parser *p, struct value *v, double x,
                      const char *what)
{
	char *err = NULL;
	return value_set_finite(v, x, what, &err) != 0 ? fail_with(p, err) : 0;
}

static int scalar(struct parser *p, struct value *v)
{
	char *err = NULL;
	return value_scalar(v, &err) != 0 ? fail_with(p, err) : 0;
}

static int expr_number(struct parser *p, struct value *v, const char *what)
{
	char *err = NULL;
	return value_number(v, what, &err) != 0 ? fail_with(p, err) : 0;
}

/* ---- filters ------------------------------------------------------------ */

static int parse_op(struct parser *p, enum cmp_op *op)
{
	static const struct {
		const char *tok;
		enum cmp_op op;
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

/* One condition, field op value, into f. */
static int parse_cond(struct parser *p, struct filter *f)
{
	char *field = expr_ident(p);
	if (!field)
		return expr_fail(p, "expected a field name at column %zu", p->pos + 1);
	enum cmp_op op;
	struct value rhs = {0};
	int rc = -1;
	if (parse_op(p, &op) != 0)
		goto out;
	int words = p->words;
	p->words = 1;
	rc = parse_add(p, &rhs);
	p->words = words;
	if (rc != 0 || (rc = scalar(p, &rhs)) != 0)
		goto out;
	filter_add(f, field, op, &rhs);
	field = NULL;
out:
	free(field);
	value_free(&rhs);
	return rc;
}

/* Conditions ("view=sm, ilp>=2") into f, up to and taking end (NULL: the
 * end of the text). On failure f may hold some; filter_free frees them. */
static int expr_parse_conds(struct parser *p, struct filter *f, const char *end)
{
	do {
		skip(p);
		if (end && expr_accept(p, end))
			return 0;
		if (parse_cond(p, f) != 0)
			return -1;
	} while (expr_accept(p, ","));
	if (end && !expr_accept(p, end))
		return expr_fail(p, "expected '%s' at column %zu", end, p->pos + 1);
	return 0;
}

int filter_parse(const char *text, struct bundle *b, struct filter *f,
                 char **err)
{
	struct parser p = {text, 0, b, NULL, 0, 0, {0, NULL, NULL, 0}};
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

/* ---- names ---------------------------------------------------------------- */

/* The reference id.FIELD[conditions], the text just past "id.": a column
 * of the records of experiment id, or the value of machine.FIELD. Frees
 * id. */
static int expr_parse_ref(struct parser *p, char *id, struct value *out)
{
	size_t start = p->pos - strlen(id) - 1;
	char *field = expr_ident(p), *err = NULL, *text = NULL;
	struct filter f = {0};
	struct exp_result *r;
	int rc = -1;
	if (!field) {
		expr_fail(p, "expected a field name after '%s.'", id);
		goto out;
	}
	/* machine.FIELD is a fact of machine.json; machine.FIELD[...], a
	 * column of the machine experiment's records. */
	if (!strcmp(id, "machine") && p->s[p->pos] != '[') {
		if (ref_machine(p->b, field, &p->facts, out, &err) != 0)
			goto out;
		rc = 0;
		goto out;
	}
	if (ref_records(p->b, id, &p->facts, &r, &err) != 0)
		goto out;
	if (expr_accept(p, "[") && expr_parse_conds(p, &f, "]") != 0)
		goto out;
	text = xstrndup(p->s + start, p->pos - start);
	if (ref_column(r, field, &f, text, out, &err) != 0)
		goto out;
	rc = 0;
out:
	if (err)
		fail_with(p, err);
	filter_free(&f);
	free(text);
	free(field);
	free(id);
	return rc;
}

/* The call fn(ARGS), the text just past "fn(": its arguments and ")",
 * then fn applied to them. Frees fn. */
static int expr_parse_call(struct parser *p, char *fn, struct value *out)
{
	struct value *args = NULL;
	size_t nargs = 0;
	char *err = NULL;
	int rc = -1;
	if (!expr_accept(p, ")")) {
		do {
			int words = p->words;
			p->words = func_word_arg(fn, nargs);
			struct value *v = ARRAY_PUSH(args, nargs);
			memset(v, 0, sizeof *v);
			int r = expr_parse_expr(p, v);
			p->words = words;
			if (r != 0)
				goto out;
		} while (expr_accept(p, ","));
		if (!expr_accept(p, ")")) {
			expr_fail(p, "expected ')' or ',' at column %zu", p->pos + 1);
			goto out;
		}
	}
	if (func_call(fn, args, nargs, out, &err) != 0) {
		fail_with(p, err);
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < nargs; i++)
		value_free(&args[i]);
	free(args);
	free(fn);
	return rc;
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
		value_set_num(out, x);
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
		value_set_bool(out, name[0] == 't');
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
		value_set_num(out, -out->num);
		return 0;
	}
	if (expr_accept(p, "!")) {
		if (parse_unary(p, out) != 0 || expr_number(p, out, "'!'") != 0)
			return -1;
		value_set_bool(out, out->num == 0);
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
	enum cmp_op op;
	if (parse_op(p, &op) != 0)
		return -1;
	struct value r = {0};
	if (parse_add(p, &r) != 0 || scalar(p, out) != 0 || scalar(p, &r) != 0) {
		value_free(&r);
		return -1;
	}
	int res;
	if (out->type == VAL_STR && r.type == VAL_STR) {
		res = cmp_op_holds(strcmp(out->str, r.str), 0, op);
	} else if (out->type != VAL_STR && r.type != VAL_STR) {
		res = cmp_op_holds(out->num, r.num, op);
	} else {
		value_free(&r);
		return expr_fail(p, "cannot compare a string with a number");
	}
	value_free(&r);
	value_set_bool(out, res);
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
		value_set_bool(out, out->num != 0 && r.num != 0);
		value_free(&r);
	}
	return 0;
}

static int expr_parse_expr(struct parser *p, struct value *out)
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
		value_set_bool(out, out->num != 0 || r.num != 0);
		value_free(&r);
	}
	return 0;
}

int expr_eval_at(const char *text, struct bundle *b, struct value *out,
                 char **err, struct eval_facts *facts)
{
	struct parser p = {text, 0, b, NULL, 0, 0, {0, NULL, NULL, 0}};
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

