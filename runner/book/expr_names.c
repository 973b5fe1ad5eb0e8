/*
 * expr_names.c - what the names in an expression stand for: a reference,
 * experiment.field[conditions] or machine.field, read from the bundle into
 * a column or a value; and a function call, its arguments parsed and the
 * function (an aggregate over columns, or arithmetic) applied.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "book/expr.h"
#include "book/expr_parse.h"
#include "base/util.h"

/* ---- references ----------------------------------------------------------- */

static char *field_list(const struct exp_result *r)
{
	struct buf b = BUF_INIT;
	if (!r->nrows)
		return xstrdup("(none)");
	const cJSON *f;
	/* The fields of the last record are a good sample of the rest. */
	cJSON_ArrayForEach(f, r->rows[r->nrows - 1])
		buf_printf(&b, "%s%s", b.len ? ", " : "", f->string);
	return buf_detach(&b);
}

int expr_parse_ref(struct parser *p, char *id, struct value *out)
{
	size_t start = p->pos - strlen(id) - 1;
	char *field = expr_ident(p);
	int rc = -1;
	if (!field) {
		expr_fail(p, "expected a field name after '%s.'", id);
		goto out;
	}
	if (!strcmp(id, "machine")) {
		p->facts.outdated |= bundle_outdated(p->b, "machine");
		const cJSON *v = machine_field(p->b, field);
		if (!v || (!cJSON_IsNumber(v) && !cJSON_IsString(v) &&
		           !cJSON_IsBool(v))) {
			expr_fail(p, "machine.json has no field '%s'%s", field,
			          p->b->machine ? "" : " (there is no machine.json)");
			goto out;
		}
		expr_cell_value(v, out);
		rc = 0;
		goto out;
	}
	struct exp_result *r = bundle_get(p->b, id);
	p->facts.outdated |= bundle_outdated(p->b, id);
	if (r->error && !p->facts.partial) {
		p->facts.partial = r->error;
		p->facts.partial_id = r->id;
	}
	if (!r->nrows) {
		expr_fail(p, "no results for experiment '%s'%s", id,
		          r->meta ? " (it recorded nothing)" : "");
		goto out;
	}
	struct filter f = {0};
	if (expr_accept(p, "[") && expr_parse_conds(p, &f, "]") != 0) {
		filter_free(&f);
		goto out;
	}
	int known = 0;
	value_free(out);
	out->type = VAL_COL;
	out->col.field = xstrdup(field);
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *cell = cJSON_GetObjectItemCaseSensitive(r->rows[i], field);
		if (!cell)
			continue;
		known = 1;
		if (!cJSON_IsNull(cell) && filter_match(&f, r->rows[i]))
			*ARRAY_PUSH(out->col.rows, out->col.n) = r->rows[i];
	}
	out->col.expr = xstrndup(p->s + start, p->pos - start);
	filter_free(&f);
	if (!known) {
		char *fields = field_list(r);
		expr_fail(p, "experiment '%s' has no field '%s'; its fields: %s", id,
		          field, fields);
		free(fields);
		goto out;
	}
	rc = 0;
out:
	free(field);
	free(id);
	return rc;
}

/* ---- functions ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* All numbers of the arguments: columns contribute every cell. */
static int gather(struct parser *p, const char *fn, struct value *args,
                  size_t nargs, double **xs, size_t *n)
{
	for (size_t i = 0; i < nargs; i++) {
		if (args[i].type != VAL_COL) {
			if (expr_number(p, &args[i], fn) != 0)
				return -1;
			*ARRAY_PUSH(*xs, *n) = args[i].num;
			continue;
		}
		for (size_t k = 0; k < args[i].col.n; k++) {
			double x;
			if (!row_number(args[i].col.rows[k], args[i].col.field, &x))
				return expr_fail(p, "%s() needs numbers, but %s holds text",
				                 fn, args[i].col.expr);
			*ARRAY_PUSH(*xs, *n) = x;
		}
	}
	if (!*n)
		return expr_fail(p, "%s() of nothing: %s selects no records", fn,
		                 nargs && args[0].type == VAL_COL ? args[0].col.expr
		                                             : "its argument");
	return 0;
}

static int call_arg(struct parser *p, const char *fn, struct value *args,
                    size_t nargs, struct value *out)
{
	if (!strcmp(fn, "argmax") || !strcmp(fn, "argmin")) {
		if (nargs != 2 || args[0].type != VAL_COL || args[1].type != VAL_STR)
			return expr_fail(p, "%s(column, field) wants a column and a field "
			                 "name", fn);
		const struct column *c = &args[0].col;
		const cJSON *best = NULL;
		double bx = 0;
		for (size_t i = 0; i < c->n; i++) {
			double x;
			if (!row_number(c->rows[i], c->field, &x))
				continue;
			if (!best || (fn[3] == 'm' && fn[4] == 'a' ? x > bx : x < bx)) {
				best = c->rows[i];
				bx = x;
			}
		}
		if (!best)
			return expr_fail(p, "%s(): %s selects no numbers", fn, c->expr);
		const cJSON *cell = cJSON_GetObjectItemCaseSensitive(best, args[1].str);
		if (!cell)
			return expr_fail(p, "%s(): the record has no field '%s'", fn,
			                 args[1].str);
		if (cJSON_IsNull(cell))
			return expr_fail(p, "%s(): the record's '%s' is null", fn,
			                 args[1].str);
		value_free(out);
		expr_cell_value(cell, out);
		return 0;
	}
	return 1; /* not an argmax */
}

static int call(struct parser *p, const char *fn, struct value *args,
                size_t nargs, struct value *out)
{
	int rc = call_arg(p, fn, args, nargs, out);
	if (rc <= 0)
		return rc;

	static const char *aggs[] = {"max", "min", "mean", "median", "sum",
	                             "count", "first", "last"};
	for (size_t a = 0; a < sizeof aggs / sizeof aggs[0]; a++) {
		if (strcmp(fn, aggs[a]))
			continue;
		if (!nargs)
			return expr_fail(p, "%s() needs an argument", fn);
		if (!strcmp(fn, "count")) {
			size_t n = 0;
			for (size_t i = 0; i < nargs; i++)
				n += args[i].type == VAL_COL ? args[i].col.n : 1;
			expr_set_num(out, (double)n);
			return 0;
		}
		if ((!strcmp(fn, "first") || !strcmp(fn, "last")) && nargs == 1 &&
		    args[0].type == VAL_COL) {
			struct column *c = &args[0].col;
			if (!c->n)
				return expr_fail(p, "%s(): %s selects no records", fn, c->expr);
			value_free(out);
			expr_cell_value(cJSON_GetObjectItemCaseSensitive(
			                    c->rows[fn[0] == 'f' ? 0 : c->n - 1], c->field),
			                out);
			return 0;
		}
		double *xs = NULL;
		size_t n = 0;
		if (gather(p, fn, args, nargs, &xs, &n) != 0) {
			free(xs);
			return -1;
		}
		double r = xs[0], sum = 0;
		for (size_t i = 0; i < n; i++) {
			sum += xs[i];
			if (!strcmp(fn, "max") ? xs[i] > r : xs[i] < r)
				r = xs[i];
		}
		if (!strcmp(fn, "sum"))
			r = sum;
		else if (!strcmp(fn, "mean"))
			r = sum / n;
		else if (!strcmp(fn, "median")) {
			qsort(xs, n, sizeof *xs, cmp_double);
			r = n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
		} else if (!strcmp(fn, "first"))
			r = xs[0];
		else if (!strcmp(fn, "last"))
			r = xs[n - 1];
		free(xs);
		return expr_set_finite(p, out, r, fn);
	}

	static const struct {
		const char *name;
		int nargs;
	} maths[] = {{"abs", 1}, {"sqrt", 1}, {"log2", 1}, {"log10", 1},
	             {"round", 1}, {"pow", 2}};
	for (size_t m = 0; m < sizeof maths / sizeof maths[0]; m++) {
		if (strcmp(fn, maths[m].name))
			continue;
		if ((int)nargs != maths[m].nargs)
			return expr_fail(p, "%s() takes %d argument%s", fn, maths[m].nargs,
			                 maths[m].nargs > 1 ? "s" : "");
		for (size_t i = 0; i < nargs; i++)
			if (expr_number(p, &args[i], fn) != 0)
				return -1;
		double x = args[0].num, r;
		switch (m) {
		case 0: r = fabs(x); break;
		case 1: r = sqrt(x); break;
		case 2: r = log2(x); break;
		case 3: r = log10(x); break;
		case 4: r = round(x); break;
		default: r = pow(x, args[1].num); break;
		}
		return expr_set_finite(p, out, r, fn);
	}
	return expr_fail(p, "unknown function '%s'; known: max min mean median sum "
	                 "count first last argmax argmin abs sqrt log2 log10 round pow",
	                 fn);
}

int expr_parse_call(struct parser *p, char *fn, struct value *out)
{
	struct value *args = NULL;
	size_t nargs = 0;
	int rc = -1;
	int arg_words = !strcmp(fn, "argmax") || !strcmp(fn, "argmin");
	if (!expr_accept(p, ")")) {
		do {
			struct value *v = ARRAY_PUSH(args, nargs);
			memset(v, 0, sizeof *v);
			int words = p->words;
			p->words = arg_words && nargs == 2;
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
	rc = call(p, fn, args, nargs, out);
out:
	for (size_t i = 0; i < nargs; i++)
		value_free(&args[i]);
	free(args);
	free(fn);
	return rc;
}
