/*
 * expr_eval.c - the value of an expression's tree over a bundle (expr.h):
 * each node's operands first, then the node, with the references given
 * their records and the calls their functions by expr_func.c.
 */
#include "book/expr.h"
#include "book/expr_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct eval {
	struct bundle *b;
	struct eval_facts *facts;
	char *err;
};

static int eval_node(struct eval *ev, const struct expr *x, struct value *out);

/* Keep err, the message of a step that failed, unless one is kept;
 * returns -1. */
static int eval_fail(struct eval *ev, char *err)
{
	if (!ev->err)
		ev->err = err;
	else
		free(err);
	return -1;
}

static int eval_number(struct eval *ev, struct value *v, const char *what)
{
	char *err = NULL;
	return value_number(v, what, &err) != 0 ? eval_fail(ev, err) : 0;
}

static int eval_scalar(struct eval *ev, struct value *v)
{
	char *err = NULL;
	return value_scalar(v, &err) != 0 ? eval_fail(ev, err) : 0;
}

static int eval_conds(struct eval *ev, const struct expr *x, struct filter *f)
{
	for (size_t i = 0; i < x->nconds; i++) {
		struct value rhs = {0};
		if (eval_node(ev, x->conds[i].rhs, &rhs) != 0 ||
		    eval_scalar(ev, &rhs) != 0) {
			value_free(&rhs);
			return -1;
		}
		filter_add(f, xstrdup(x->conds[i].field), x->conds[i].op, &rhs);
	}
	return 0;
}

/* Can the records reference x selects be kept in memo m? */
static int memo_fits(const struct eval_memo *m, const struct expr *x)
{
	for (size_t i = 0; i < x->nconds; i++) {
		enum expr_kind k = x->conds[i].rhs->kind;
		if (k != EX_NUM && k != EX_STR && k != EX_BOOL)
			return 0;
		for (size_t f = 0; f < m->nfields; f++)
			if (!strcmp(m->fields[f], x->conds[i].field))
				return 0;
	}
	return 1;
}

/* The slot of text in m's index: where it is, or the empty one where it
 * would go. */
static size_t *memo_slot(const struct eval_memo *m, const char *text)
{
	size_t mask = m->nslots - 1, i = (size_t)str_hash(text) & mask;
	while (m->slot[i] && strcmp(m->v[m->slot[i] - 1].text, text))
		i = (i + 1) & mask;
	return &m->slot[i];
}

/* The column of x from memo: 1, or 0 when it holds none. */
static int memo_take(const struct eval_memo *m, const struct expr *x,
                     struct value *out)
{
	if (!m->nslots)
		return 0;
	size_t k = *memo_slot(m, x->text);
	if (!k)
		return 0;
	const struct memo_entry *e = &m->v[k - 1];
	value_free(out);
	out->type = VAL_COL;
	out->col.field = xstrdup(x->field);
	out->col.expr = xstrdup(x->text);
	out->col.n = e->n;
	out->col.rows = xcalloc(e->n ? e->n : 1, sizeof *out->col.rows);
	if (e->n)
		memcpy(out->col.rows, e->rows, e->n * sizeof *out->col.rows);
	return 1;
}

static void memo_put(struct eval_memo *m, const struct expr *x,
                     const struct value *col)
{
	if (2 * (m->n + 1) > m->nslots) {
		free(m->slot);
		m->nslots = m->nslots ? 2 * m->nslots : 16;
		m->slot = xcalloc(m->nslots, sizeof *m->slot);
		for (size_t i = 0; i < m->n; i++)
			*memo_slot(m, m->v[i].text) = i + 1;
	}
	struct memo_entry *e = ARRAY_PUSH(m->v, m->n);
	e->text = x->text;
	e->n = col->col.n;
	e->rows = xcalloc(e->n ? e->n : 1, sizeof *e->rows);
	if (e->n)
		memcpy(e->rows, col->col.rows, e->n * sizeof *e->rows);
	*memo_slot(m, e->text) = m->n;
}

void eval_memo_free(struct eval_memo *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].rows);
	free(m->v);
	free(m->slot);
	m->v = NULL;
	m->slot = NULL;
	m->n = m->nslots = 0;
}

static int eval_ref(struct eval *ev, const struct expr *x, struct value *out)
{
	struct exp_result *r;
	struct filter f = {0};
	char *err = NULL;
	int rc = -1;
	if (x->kind == EX_MACHINE) {
		struct eval_reads *reads = ev->facts->reads;
		if (ref_machine(ev->b, x->field, ev->facts, out, &err) != 0)
			return eval_fail(ev, err);
		if (!reads)
			return 0;
		reads->machine = 1;
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(ev->b->machine, "measured"),
		    x->field);
		if (cJSON_IsNumber(m))
			*ARRAY_PUSH(reads->measured, reads->nmeasured) = m;
		return 0;
	}
	if (ref_records(ev->b, x->str, ev->facts, &r, &err) != 0)
		return eval_fail(ev, err);
	struct eval_memo *memo = ev->facts->memo;
	int kept = memo && memo_fits(memo, x);
	if (!kept || !memo_take(memo, x, out)) {
		if (eval_conds(ev, x, &f) != 0)
			goto out;
		if (ref_column(r, x->field, &f, x->text, out, &err) != 0) {
			eval_fail(ev, err);
			goto out;
		}
		if (kept)
			memo_put(memo, x, out);
	}
	struct eval_reads *reads = ev->facts->reads;
	if (reads) {
		struct eval_read *rd = ARRAY_PUSH(reads->v, reads->n);
		rd->id = r->id;
		rd->field = xstrdup(x->field);
		rd->n = out->col.n;
		rd->rows = xcalloc(rd->n ? rd->n : 1, sizeof *rd->rows);
		if (rd->n)
			memcpy(rd->rows, out->col.rows, rd->n * sizeof *rd->rows);
		rd->conds = NULL;
		rd->nconds = 0;
		for (size_t i = 0; i < x->nconds; i++)
			*ARRAY_PUSH(rd->conds, rd->nconds) = xstrdup(x->conds[i].field);
	}
	rc = 0;
out:
	filter_free(&f);
	return rc;
}

static int eval_call(struct eval *ev, const struct expr *x, struct value *out)
{
	struct value *args = xcalloc(x->nkids ? x->nkids : 1, sizeof *args);
	char *err = NULL;
	int rc = -1;
	for (size_t i = 0; i < x->nkids; i++)
		if (eval_node(ev, x->kids[i], &args[i]) != 0)
			goto out;
	if (func_call(x->str, args, x->nkids, out, &err) != 0) {
		eval_fail(ev, err);
		goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < x->nkids; i++)
		value_free(&args[i]);
	free(args);
	return rc;
}

static const char *op_name(enum expr_kind k)
{
	switch (k) {
	case EX_NEG: return "'-'";
	case EX_NOT: return "'!'";
	case EX_MUL: return "'*'";
	case EX_DIV: return "'/'";
	case EX_ADD: return "'+'";
	case EX_SUB: return "'-'";
	case EX_AND: return "'&&'";
	default: return "'||'";
	}
}

/* l op r for the arithmetic and logical operators, both numbers. */
static int eval_binary(struct eval *ev, const struct expr *x, struct value *out)
{
	struct value r = {0};
	const char *what = op_name(x->kind);
	if (eval_node(ev, x->kids[0], out) != 0 || eval_number(ev, out, what) != 0 ||
	    eval_node(ev, x->kids[1], &r) != 0 || eval_number(ev, &r, what) != 0) {
		value_free(&r);
		return -1;
	}
	double a = out->num, c = r.num, v = 0;
	const char *made = NULL;
	value_free(&r);
	switch (x->kind) {
	case EX_AND: value_set_bool(out, a != 0 && c != 0); return 0;
	case EX_OR: value_set_bool(out, a != 0 || c != 0); return 0;
	case EX_MUL: v = a * c; made = "a product"; break;
	case EX_DIV:
		if (c == 0)
			return eval_fail(ev, xstrdup("division by zero"));
		v = a / c;
		made = "a quotient";
		break;
	case EX_ADD: v = a + c; made = "a sum"; break;
	default: v = a - c; made = "a difference"; break;
	}
	char *err = NULL;
	return value_set_finite(out, v, made, &err) != 0 ? eval_fail(ev, err) : 0;
}

static int eval_cmp(struct eval *ev, const struct expr *x, struct value *out)
{
	struct value r = {0};
	if (eval_node(ev, x->kids[0], out) != 0 || eval_node(ev, x->kids[1], &r) != 0 ||
	    eval_scalar(ev, out) != 0 || eval_scalar(ev, &r) != 0) {
		value_free(&r);
		return -1;
	}
	int res;
	if (out->type == VAL_STR && r.type == VAL_STR) {
		res = cmp_op_holds(strcmp(out->str, r.str), 0, x->op);
	} else if (out->type != VAL_STR && r.type != VAL_STR) {
		res = cmp_op_holds(out->num, r.num, x->op);
	} else {
		value_free(&r);
		return eval_fail(ev, xstrdup("cannot compare a string with a number"));
	}
	value_free(&r);
	value_set_bool(out, res);
	return 0;
}

static int eval_node(struct eval *ev, const struct expr *x, struct value *out)
{
	switch (x->kind) {
	case EX_NUM: value_set_num(out, x->num); return 0;
	case EX_BOOL: value_set_bool(out, x->num != 0); return 0;
	case EX_STR:
		value_free(out);
		out->type = VAL_STR;
		out->str = xstrdup(x->str);
		return 0;
	case EX_REF:
	case EX_MACHINE: return eval_ref(ev, x, out);
	case EX_CALL: return eval_call(ev, x, out);
	case EX_NEG:
	case EX_NOT:
		if (eval_node(ev, x->kids[0], out) != 0 ||
		    eval_number(ev, out, op_name(x->kind)) != 0)
			return -1;
		if (x->kind == EX_NEG)
			value_set_num(out, -out->num);
		else
			value_set_bool(out, out->num == 0);
		return 0;
	case EX_CMP: return eval_cmp(ev, x, out);
	case EX_CONDS:
		return eval_fail(ev, xstrdup("conditions are not a value"));
	default: return eval_binary(ev, x, out);
	}
}

int expr_eval_tree(const struct expr *x, struct bundle *b, struct value *out,
                   char **err, struct eval_facts *facts)
{
	struct eval_facts local = {0};
	struct eval ev = {b, facts ? facts : &local, NULL};
	memset(out, 0, sizeof *out);
	if (eval_node(&ev, x, out) == 0)
		return 0;
	value_free(out);
	*err = ev.err ? ev.err : xstrdup("the expression has no value");
	return -1;
}

int conds_eval(const struct expr *x, struct bundle *b, struct filter *f,
               char **err)
{
	struct eval_facts local = {0};
	struct eval ev = {b, &local, NULL};
	memset(f, 0, sizeof *f);
	if (eval_conds(&ev, x, f) == 0)
		return 0;
	filter_free(f);
	*err = ev.err ? ev.err : xstrdup("the conditions have no value");
	return -1;
}

void eval_reads_free(struct eval_reads *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].field);
		free(r->v[i].rows);
		for (size_t k = 0; k < r->v[i].nconds; k++)
			free(r->v[i].conds[k]);
		free(r->v[i].conds);
	}
	free(r->v);
	free(r->measured);
	memset(r, 0, sizeof *r);
}
