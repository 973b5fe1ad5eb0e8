/*
 * expr.c - reading an expression into a tree (expr.h): its tokens, the
 * conditions of a filter, and the grammar, from || down to a primary.
 * Nothing here reads a bundle; expr_eval.c gives a tree its value.
 */
#include "book/expr.h"
#include "book/expr_tree.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

/* One parse: the first message kept in err (expr_fail), and the column
 * where it was found. */
struct parser {
	const char *s;
	size_t pos;
	char *err;
	size_t err_col;
	int words; /* bare words are strings (filter values, field names) */
	int depth; /* of nesting, bounded so that the stack is */
};

/* Deeper than any expression a person writes; far from the stack's end. */
#define MAX_DEPTH 200

static struct expr *parse_add(struct parser *p);
static struct expr *parse_expr(struct parser *p);

/* Keep the message as p->err unless one is kept already; returns NULL. */
static struct expr *expr_fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct expr *expr_fail(struct parser *p, const char *fmt, ...)
{
	if (p->err)
		return NULL;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	p->err = buf_detach(&b);
	p->err_col = p->pos + 1;
	return NULL;
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

static struct expr *node_new(struct parser *p, enum expr_kind kind)
{
	struct expr *x = xcalloc(1, sizeof *x);
	x->kind = kind;
	x->col = p->pos + 1;
	return x;
}

static struct expr *node_str(struct parser *p, const char *s, size_t n)
{
	struct expr *x = node_new(p, EX_STR);
	x->str = xstrndup(s, n);
	return x;
}

static struct expr *node_pair(struct parser *p, enum expr_kind kind,
                              struct expr *l, struct expr *r)
{
	struct expr *x = node_new(p, kind);
	x->col = l->col;
	*ARRAY_PUSH(x->kids, x->nkids) = l;
	*ARRAY_PUSH(x->kids, x->nkids) = r;
	return x;
}

void expr_free(struct expr *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nkids; i++)
		expr_free(x->kids[i]);
	for (size_t i = 0; i < x->nconds; i++) {
		free(x->conds[i].field);
		expr_free(x->conds[i].rhs);
	}
	free(x->kids);
	free(x->conds);
	free(x->str);
	free(x->field);
	free(x->text);
	free(x);
}

void expr_ids(const struct expr *x, char ***ids, size_t *n)
{
	if (!x)
		return;
	if (x->kind == EX_REF || x->kind == EX_MACHINE) {
		const char *id = x->kind == EX_MACHINE ? "machine" : x->str;
		size_t i = 0;
		while (i < *n && strcmp((*ids)[i], id))
			i++;
		if (i == *n) {
			*ids = xrealloc(*ids, (*n + 2) * sizeof **ids);
			(*ids)[(*n)++] = xstrdup(id);
			(*ids)[*n] = NULL;
		}
	}
	for (size_t i = 0; i < x->nkids; i++)
		expr_ids(x->kids[i], ids, n);
	for (size_t i = 0; i < x->nconds; i++)
		expr_ids(x->conds[i].rhs, ids, n);
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
	expr_fail(p, "expected a comparison (= != < <= > >=) at column %zu",
	          p->pos + 1);
	return -1;
}

/* One condition, field op value, onto x's conditions. */
static int parse_cond(struct parser *p, struct expr *x)
{
	char *field = expr_ident(p);
	if (!field) {
		expr_fail(p, "expected a field name at column %zu", p->pos + 1);
		return -1;
	}
	enum cmp_op op;
	if (parse_op(p, &op) != 0) {
		free(field);
		return -1;
	}
	int words = p->words;
	p->words = 1;
	struct expr *rhs = parse_add(p);
	p->words = words;
	if (!rhs) {
		free(field);
		return -1;
	}
	struct expr_cond *c = ARRAY_PUSH(x->conds, x->nconds);
	c->field = field;
	c->op = op;
	c->rhs = rhs;
	return 0;
}

/* Conditions ("view=sm, ilp>=2") onto x, up to and taking end (NULL: the
 * end of the text). */
static int parse_conds(struct parser *p, struct expr *x, const char *end)
{
	do {
		skip(p);
		if (end && expr_accept(p, end))
			return 0;
		if (parse_cond(p, x) != 0)
			return -1;
	} while (expr_accept(p, ","));
	if (end && !expr_accept(p, end)) {
		expr_fail(p, "expected '%s' at column %zu", end, p->pos + 1);
		return -1;
	}
	return 0;
}

/* ---- names ---------------------------------------------------------------- */

/* The reference id.FIELD[conditions], the text just past "id.": a column
 * of the records of experiment id, or machine.FIELD. Takes id. */
static struct expr *parse_ref(struct parser *p, char *id)
{
	size_t start = p->pos - strlen(id) - 1;
	struct expr *x = node_new(p, EX_REF);
	x->col = start + 1;
	x->str = id;
	x->field = expr_ident(p);
	if (!x->field) {
		expr_fail(p, "expected a field name after '%s.'", id);
		goto fail;
	}
	/* machine.FIELD is a fact of machine.json; machine.FIELD[...], a
	 * column of the machine experiment's records. */
	if (!strcmp(id, "machine") && p->s[p->pos] != '[') {
		x->kind = EX_MACHINE;
		return x;
	}
	if (expr_accept(p, "[") && parse_conds(p, x, "]") != 0)
		goto fail;
	x->text = xstrndup(p->s + start, p->pos - start);
	return x;
fail:
	expr_free(x);
	return NULL;
}

/* The call fn(ARGS), the text just past "fn(". Takes fn. */
static struct expr *parse_call(struct parser *p, char *fn, size_t col)
{
	struct expr *x = node_new(p, EX_CALL);
	x->col = col;
	x->str = fn;
	if (expr_accept(p, ")"))
		return x;
	do {
		int words = p->words;
		p->words = func_word_arg(fn, x->nkids);
		struct expr *a = parse_expr(p);
		p->words = words;
		if (!a)
			goto fail;
		*ARRAY_PUSH(x->kids, x->nkids) = a;
	} while (expr_accept(p, ","));
	if (!expr_accept(p, ")")) {
		expr_fail(p, "expected ')' or ',' at column %zu", p->pos + 1);
		goto fail;
	}
	return x;
fail:
	expr_free(x);
	return NULL;
}

/* ---- the grammar ---------------------------------------------------------- */

static struct expr *parse_primary(struct parser *p)
{
	skip(p);
	const char *s = p->s + p->pos;
	size_t col = p->pos + 1;
	if (expr_accept(p, "(")) {
		struct expr *x = parse_expr(p);
		if (x && !expr_accept(p, ")")) {
			expr_free(x);
			return expr_fail(p, "expected ')' at column %zu", p->pos + 1);
		}
		return x;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		char *end;
		double v = strtod(s, &end);
		if (!isfinite(v))
			return expr_fail(p, "the number at column %zu is too large", col);
		struct expr *x = node_new(p, EX_NUM);
		x->num = v;
		p->pos += (size_t)(end - s);
		return x;
	}
	if (*s == '"' || *s == '\'') {
		const char *end = strchr(s + 1, *s);
		if (!end)
			return expr_fail(p, "unterminated string at column %zu", col);
		struct expr *x = node_str(p, s + 1, (size_t)(end - s - 1));
		p->pos += (size_t)(end - s) + 1;
		return x;
	}
	char *name = expr_ident(p);
	if (!name) {
		if (!*s)
			return expr_fail(p, "the expression ends too early");
		return expr_fail(p, "unexpected '%c' at column %zu", *s, col);
	}
	if (expr_accept(p, "("))
		return parse_call(p, name, col);
	if (p->s[p->pos] == '.') {
		p->pos++;
		return parse_ref(p, name);
	}
	if (!strcmp(name, "true") || !strcmp(name, "false")) {
		struct expr *x = node_new(p, EX_BOOL);
		x->num = name[0] == 't';
		x->col = col;
		free(name);
		return x;
	}
	if (p->words) {
		/* A bare word: the rest of a value such as 32x16 or sm_90. */
		while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_' ||
		       p->s[p->pos] == '-' || p->s[p->pos] == '.')
			p->pos++;
		free(name);
		return node_str(p, s, (size_t)(p->s + p->pos - s));
	}
	p->pos = col - 1;
	expr_fail(p, "unknown name '%s'; a value is written experiment.field or "
	          "machine.field", name);
	free(name);
	return NULL;
}

static struct expr *parse_unary(struct parser *p);

static struct expr *parse_unary_ops(struct parser *p)
{
	skip(p);
	size_t col = p->pos + 1;
	int op = expr_accept(p, "-") ? '-' : expr_accept(p, "!") ? '!' : 0;
	if (op) {
		struct expr *k = parse_unary(p);
		if (!k)
			return NULL;
		struct expr *x = node_new(p, op == '-' ? EX_NEG : EX_NOT);
		x->col = col;
		*ARRAY_PUSH(x->kids, x->nkids) = k;
		return x;
	}
	/* A word value may start with a digit (32x16): try it as a word. */
	if (p->words) {
		const char *s = p->s + p->pos;
		size_t k = 0;
		while (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '.' ||
		       s[k] == '-')
			k++;
		char *end;
		strtod(s, &end);
		if (k && isdigit((unsigned char)*s) && (size_t)(end - s) < k &&
		    isalpha((unsigned char)s[end - s])) {
			struct expr *x = node_str(p, s, k);
			p->pos += k;
			return x;
		}
	}
	return parse_primary(p);
}

/* Every cycle of the grammar passes here: count the nesting. */
static struct expr *parse_unary(struct parser *p)
{
	if (p->depth >= MAX_DEPTH)
		return expr_fail(p, "the expression nests more than %d deep at "
		                 "column %zu", MAX_DEPTH, p->pos + 1);
	p->depth++;
	struct expr *x = parse_unary_ops(p);
	p->depth--;
	return x;
}

/* A left-associative level: operand (op operand)*, ops[i] giving kinds[i]. */
static struct expr *parse_level(struct parser *p,
                                struct expr *(*operand)(struct parser *),
                                const char *const *ops,
                                const enum expr_kind *kinds, size_t nops)
{
	struct expr *x = operand(p);
	while (x) {
		size_t i = 0;
		while (i < nops && !expr_accept(p, ops[i]))
			i++;
		if (i == nops)
			return x;
		struct expr *r = operand(p);
		if (!r) {
			expr_free(x);
			return NULL;
		}
		x = node_pair(p, kinds[i], x, r);
	}
	return NULL;
}

static struct expr *parse_mul(struct parser *p)
{
	static const char *const ops[] = {"*", "/"};
	static const enum expr_kind kinds[] = {EX_MUL, EX_DIV};
	return parse_level(p, parse_unary, ops, kinds, 2);
}

static struct expr *parse_add(struct parser *p)
{
	static const char *const ops[] = {"+", "-"};
	static const enum expr_kind kinds[] = {EX_ADD, EX_SUB};
	return parse_level(p, parse_mul, ops, kinds, 2);
}

static struct expr *parse_cmp(struct parser *p)
{
	struct expr *x = parse_add(p);
	if (!x)
		return NULL;
	skip(p);
	const char *s = p->s + p->pos;
	if (!strchr("<>=!", *s) || !*s || (*s == '!' && s[1] != '=') ||
	    (*s == '=' && s[1] != '='))
		return x;
	enum cmp_op op;
	struct expr *r = NULL;
	if (parse_op(p, &op) != 0 || !(r = parse_add(p))) {
		expr_free(x);
		return NULL;
	}
	x = node_pair(p, EX_CMP, x, r);
	x->op = op;
	return x;
}

static struct expr *parse_and(struct parser *p)
{
	static const char *const ops[] = {"&&"};
	static const enum expr_kind kinds[] = {EX_AND};
	return parse_level(p, parse_cmp, ops, kinds, 1);
}

static struct expr *parse_expr(struct parser *p)
{
	static const char *const ops[] = {"||"};
	static const enum expr_kind kinds[] = {EX_OR};
	return parse_level(p, parse_and, ops, kinds, 1);
}

/* The whole text as one tree (conds: as conditions), or NULL with
 * *err and *col. */
static struct expr *parse_text(const char *text, int conds, char **err,
                               size_t *col)
{
	struct parser p = {text, 0, NULL, 0, 0, 0};
	struct expr *x;
	if (conds) {
		x = node_new(&p, EX_CONDS);
		skip(&p);
		if (p.s[p.pos] && parse_conds(&p, x, NULL) != 0) {
			expr_free(x);
			x = NULL;
		}
	} else {
		x = parse_expr(&p);
	}
	if (x) {
		skip(&p);
		if (p.s[p.pos]) {
			expr_fail(&p, "unexpected '%s' at column %zu", p.s + p.pos,
			          p.pos + 1);
			expr_free(x);
			x = NULL;
		}
	}
	if (!x) {
		*err = p.err;
		if (col)
			*col = p.err_col;
	}
	return x;
}

int expr_parse(const char *text, struct expr **out, char **err, size_t *col)
{
	*out = parse_text(text, 0, err, col);
	return *out ? 0 : -1;
}

int conds_parse(const char *text, struct expr **out, char **err, size_t *col)
{
	*out = parse_text(text, 1, err, col);
	return *out ? 0 : -1;
}

int expr_eval_at(const char *text, struct bundle *b, struct value *out,
                 char **err, struct eval_facts *facts)
{
	struct expr *x;
	memset(out, 0, sizeof *out);
	if (facts)
		memset(facts, 0, sizeof *facts);
	if (expr_parse(text, &x, err, NULL) != 0)
		return -1;
	int rc = expr_eval_tree(x, b, out, err, facts);
	expr_free(x);
	return rc;
}

int expr_eval(const char *text, struct bundle *b, struct value *out, char **err)
{
	return expr_eval_at(text, b, out, err, NULL);
}

int filter_parse(const char *text, struct bundle *b, struct filter *f,
                 char **err)
{
	struct expr *x;
	memset(f, 0, sizeof *f);
	if (conds_parse(text, &x, err, NULL) != 0)
		return -1;
	int rc = conds_eval(x, b, f, err);
	expr_free(x);
	return rc;
}
