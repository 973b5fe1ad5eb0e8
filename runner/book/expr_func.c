/*
 * expr_func.c - references into the bundle, read into a column or a value,
 * and the functions of the expression language, an aggregate over columns
 * or arithmetic, applied to arguments already evaluated (expr_func.h).
 */
#include "book/expr_func.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/ccfacts.h"

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

int ref_machine(struct bundle *b, const char *field, struct eval_facts *facts,
                struct value *out, char **err)
{
	facts->outdated |= bundle_outdated(b, "machine");
	double num;
	int need = 0, cc = bundle_cc(b);
	int rc = machine_fact(b, field, &num, &need);
	if (rc == 0) {
		value_free(out);
		out->type = VAL_NUM;
		out->num = num;
		return 0;
	}
	if (rc == 1) {
		facts->need_cc = need ? need : -1;
		*err = xasprintf("compute capability %d.%d has no unit for "
		                 "machine.%s", cc / 10, cc % 10, field);
		return -1;
	}
	const cJSON *v = machine_field(b, field);
	if (!v || (!cJSON_IsNumber(v) && !cJSON_IsString(v) && !cJSON_IsBool(v))) {
		if (cc && cc_fact_known(field))
			*err = xasprintf("machine.json has no field '%s', and "
			                 "compute capability %d.%d is not in the "
			                 "facts table", field, cc / 10, cc % 10);
		else
			*err = xasprintf("machine.json has no field '%s'%s", field,
			                 b->machine ? "" : " (there is no machine.json)");
		return -1;
	}
	value_free(out);
	value_from_cell(v, out);
	return 0;
}

int ref_records(struct bundle *b, const char *id, struct eval_facts *facts,
                struct exp_result **r, char **err)
{
	*r = bundle_get(b, id);
	int need = bundle_needs(b, id);
	if (need) {
		facts->need_cc = need;
		char w[48];
		*err = xasprintf("experiment '%s' needs compute capability %s", id,
		                 cc_need_words(need, w, sizeof w));
		return -1;
	}
	facts->outdated |= bundle_outdated(b, id);
	if ((*r)->error && !facts->partial) {
		facts->partial = (*r)->error;
		facts->partial_id = (*r)->id;
	}
	if (!(*r)->nrows) {
		*err = xasprintf("no results for experiment '%s'%s", id,
		                 (*r)->meta ? " (it recorded nothing)" : "");
		return -1;
	}
	return 0;
}

int ref_column(const struct exp_result *r, const char *field,
               const struct filter *f, const char *text, struct value *out,
               char **err)
{
	int known = 0;
	value_free(out);
	out->type = VAL_COL;
	out->col.field = xstrdup(field);
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *cell = cJSON_GetObjectItemCaseSensitive(r->rows[i], field);
		if (!cell)
			continue;
		known = 1;
		if (!cJSON_IsNull(cell) && filter_match(f, r->rows[i]))
			*ARRAY_PUSH(out->col.rows, out->col.n) = r->rows[i];
	}
	out->col.expr = xstrdup(text);
	if (!known) {
		char *fields = field_list(r);
		*err = xasprintf("experiment '%s' has no field '%s'; its fields: %s",
		                 r->id, field, fields);
		free(fields);
		return -1;
	}
	return 0;
}

/* ---- functions ------------------------------------------------------------ */

/* All numbers of the arguments: columns contribute every cell. */
static int gather(const char *fn, struct value *args, size_t nargs,
                  double **xs, size_t *n, char **err)
{
	for (size_t i = 0; i < nargs; i++) {
		if (args[i].type != VAL_COL) {
			if (value_number(&args[i], fn, err) != 0)
				return -1;
			*ARRAY_PUSH(*xs, *n) = args[i].num;
			continue;
		}
		for (size_t k = 0; k < args[i].col.n; k++) {
			double x;
			if (!row_number(args[i].col.rows[k], args[i].col.field, &x)) {
				*err = xasprintf("%s() needs numbers, but %s holds text", fn,
				                 args[i].col.expr);
				return -1;
			}
			*ARRAY_PUSH(*xs, *n) = x;
		}
	}
	if (!*n) {
		*err = xasprintf("%s() of nothing: %s selects no records", fn,
		                 nargs && args[0].type == VAL_COL ? args[0].col.expr
		                                                  : "its argument");
		return -1;
	}
	return 0;
}

int func_word_arg(const char *fn, size_t i)
{
	return i == 1 && (!strcmp(fn, "argmax") || !strcmp(fn, "argmin"));
}

/* argmax(X, f) and argmin(X, f): 0 or -1, else 1 for another function. */
static int func_arg(const char *fn, struct value *args, size_t nargs,
                    struct value *out, char **err)
{
	if (strcmp(fn, "argmax") && strcmp(fn, "argmin"))
		return 1;
	if (nargs != 2 || args[0].type != VAL_COL || args[1].type != VAL_STR) {
		*err = xasprintf("%s(column, field) wants a column and a field name",
		                 fn);
		return -1;
	}
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
	if (!best) {
		*err = xasprintf("%s(): %s selects no numbers", fn, c->expr);
		return -1;
	}
	const cJSON *cell = cJSON_GetObjectItemCaseSensitive(best, args[1].str);
	if (!cell) {
		*err = xasprintf("%s(): the record has no field '%s'", fn, args[1].str);
		return -1;
	}
	if (cJSON_IsNull(cell)) {
		*err = xasprintf("%s(): the record's '%s' is null", fn, args[1].str);
		return -1;
	}
	value_free(out);
	value_from_cell(cell, out);
	return 0;
}

/* max min mean median sum count first last: 0 or -1, else 1 for another
 * function. */
static int func_agg(const char *fn, struct value *args, size_t nargs,
                    struct value *out, char **err)
{
	static const char *aggs[] = {"max", "min", "mean", "median", "sum",
	                             "count", "first", "last"};
	size_t a = 0;
	while (a < sizeof aggs / sizeof aggs[0] && strcmp(fn, aggs[a]))
		a++;
	if (a == sizeof aggs / sizeof aggs[0])
		return 1;
	if (!nargs) {
		*err = xasprintf("%s() needs an argument", fn);
		return -1;
	}
	if (!strcmp(fn, "count")) {
		size_t n = 0;
		for (size_t i = 0; i < nargs; i++)
			n += args[i].type == VAL_COL ? args[i].col.n : 1;
		value_set_num(out, (double)n);
		return 0;
	}
	if ((!strcmp(fn, "first") || !strcmp(fn, "last")) && nargs == 1 &&
	    args[0].type == VAL_COL) {
		struct column *c = &args[0].col;
		if (!c->n) {
			*err = xasprintf("%s(): %s selects no records", fn, c->expr);
			return -1;
		}
		value_free(out);
		value_from_cell(cJSON_GetObjectItemCaseSensitive(
		                    c->rows[fn[0] == 'f' ? 0 : c->n - 1], c->field),
		                out);
		return 0;
	}
	double *xs = NULL;
	size_t n = 0;
	if (gather(fn, args, nargs, &xs, &n, err) != 0) {
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
	return value_set_finite(out, r, fn, err);
}

int func_call(const char *fn, struct value *args, size_t nargs,
              struct value *out, char **err)
{
	int rc = func_arg(fn, args, nargs, out, err);
	if (rc <= 0)
		return rc;
	rc = func_agg(fn, args, nargs, out, err);
	if (rc <= 0)
		return rc;

	static const struct {
		const char *name;
		int nargs;
	} maths[] = {{"abs", 1}, {"sqrt", 1}, {"log2", 1}, {"log10", 1},
	             {"round", 1}, {"pow", 2}};
	for (size_t m = 0; m < sizeof maths / sizeof maths[0]; m++) {
		if (strcmp(fn, maths[m].name))
			continue;
		if ((int)nargs != maths[m].nargs) {
			*err = xasprintf("%s() takes %d argument%s", fn, maths[m].nargs,
			                 maths[m].nargs > 1 ? "s" : "");
			return -1;
		}
		for (size_t i = 0; i < nargs; i++)
			if (value_number(&args[i], fn, err) != 0)
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
		return value_set_finite(out, r, fn, err);
	}
	*err = xasprintf("unknown function '%s'; known: max min mean median sum "
	                 "count first last argmax argmin abs sqrt log2 log10 round "
	                 "pow", fn);
	return -1;
}
