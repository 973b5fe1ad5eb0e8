/*
 * chart_overlay.c - a chart that overlays machines (chart_pick.h): the
 * records of each machine it names, each series named by its value and
 * the machine, each limit: at its value on each, and what the overlay
 * adds to each point: the spread of its runs, and whether compare judges
 * it beyond noise against the base.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/expr_value.h"
#include "bundle/results.h"
#include "judge/chart_pick.h"
#include "judge/machine_set.h"
#include "judge/view.h"

/*
 * A limit: line ("EXPR | label", option i of d) of an overlaid chart, as
 * one line per distinct value it has on the machines drawn (idx, n of
 * them; jo[k] their judged options), each labelled with the machines it
 * belongs to when they differ: appended to pk's options. A machine where
 * it has no value gets no line; where none has one, the line is kept as
 * the base judged it.
 */
static void overlay_limit(struct chart_pick *pk, const struct directive *d,
                          size_t i, const struct machine_set *ms,
                          const size_t *idx, size_t n,
                          const struct judged_opt *const *jo)
{
	const struct dir_opt *o = &d->opts[i];
	char *copy = xstrdup(o->value), *bar = strchr(copy, '|');
	if (bar)
		*bar = '\0';
	const char *label = str_trim(bar ? bar + 1 : copy);
	double *vals = xcalloc(n, sizeof *vals);
	struct buf *names = xcalloc(n, sizeof *names);
	size_t nv = 0;
	struct directive *dd = &pk->d;
	for (size_t k = 0; k < n; k++) {
		if (!jo[k][i].ok)
			continue;
		double v = jo[k][i].num;
		size_t j = 0;
		while (j < nv && fabs(vals[j] - v) > 1e-3 * fabs(vals[j]))
			j++;
		if (j == nv)
			vals[nv++] = v;
		buf_printf(&names[j], "%s%s", names[j].len ? ", " : "",
		           ms->names[idx[k]]);
	}
	if (!nv) {
		*ARRAY_PUSH(dd->opts, dd->nopts) = *o;
		pk->jo = xrealloc(pk->jo, dd->nopts * sizeof *pk->jo);
		pk->jo[dd->nopts - 1] = jo[0][i];
	}
	for (size_t j = 0; j < nv; j++) {
		char *text = nv > 1 ? xasprintf("%.10g | %s, %s", vals[j], label,
		                                names[j].data)
		                    : xasprintf("%.10g | %s", vals[j], label);
		*ARRAY_PUSH(pk->owned, pk->nowned) = text;
		*ARRAY_PUSH(dd->opts, dd->nopts) = (struct dir_opt){o->key, text,
		                                                    o->line, NULL,
		                                                    NULL, 0};
		pk->jo = xrealloc(pk->jo, dd->nopts * sizeof *pk->jo);
		pk->jo[dd->nopts - 1] = (struct judged_opt){1, {0}, vals[j], 0, 0,
		                                            NULL};
	}
	for (size_t j = 0; j < n; j++)
		buf_free(&names[j]);
	free(names);
	free(vals);
	free(copy);
}

/*
 * The spread of the medians of row's runs (run_min_ms to run_max_ms) in
 * the unit of its field yf: those times themselves where yf is its median
 * time, scaled as yf where yf is a rate (amount / time, as lab.h's
 * Record::rate writes it: yf_lo x max_ms = yf x median_ms). 0 with *lo
 * and *hi set, or -1 where the record has no runs or yf is neither.
 */
static int run_spread(const cJSON *row, const char *yf, double *lo, double *hi)
{
	double y, m, rmin, rmax, ylo, mx;
	if (!row_number(row, yf, &y) || !row_number(row, "median_ms", &m) ||
	    !row_number(row, "run_min_ms", &rmin) ||
	    !row_number(row, "run_max_ms", &rmax) || !(m > 0) || !(rmin > 0) ||
	    rmax < rmin)
		return -1;
	if (fabs(y - m) <= 1e-9 * m) {
		*lo = rmin;
		*hi = rmax;
		return 0;
	}
	char *lo_f = xasprintf("%s_lo", yf);
	int rate = row_number(row, lo_f, &ylo) && row_number(row, "max_ms", &mx) &&
	           fabs(ylo * mx - y * m) <= 1e-6 * fabs(y * m);
	free(lo_f);
	if (!rate)
		return -1;
	*lo = y * m / rmax;
	*hi = y * m / rmin;
	return 0;
}

/*
 * Record k of experiment id on machine m, drawn: its runs' spread, and
 * whether it is judged beyond noise against the base (machines_judge),
 * with words for it (the x and series fields name the point) in marked.
 */
static void overlay_point(struct chart_pick *pk, const struct directive *d,
                          struct machine_set *ms, size_t m, const char *id,
                          size_t k, const cJSON *row, struct buf *marked)
{
	const char *xf = dir_opt(d, "x"), *yf = dir_opt(d, "y");
	const char *sf = dir_opt(d, "series");
	size_t n = pk->all.nrows;
	pk->extra = xrealloc(pk->extra, (n + 1) * sizeof *pk->extra);
	struct plot_extra *e = &pk->extra[n];
	struct compare_point p;
	double y;
	e->run_lo = e->run_hi = NAN;
	run_spread(row, yf ? yf : "", &e->run_lo, &e->run_hi);
	pk->runs |= isfinite(e->run_lo);
	/* Only a point the chart draws is ringed and named. */
	int drawn = yf && xf && row_number(row, yf, &y) &&
	            cJSON_GetObjectItem(row, xf) &&
	            !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"));
	e->mark = m && drawn &&
	          machines_judge(ms, m, id, k, &p) == COMPARE_JUDGED &&
	          (p.verdict == COMPARE_SLOWER || p.verdict == COMPARE_FASTER);
	if (!e->mark || pk->nmarked++ >= CHART_MARKS_LISTED)
		return;
	buf_printf(marked, "%s%s at", marked->len ? "; " : "", ms->names[m]);
	for (int f = 0; f < 2; f++) {
		const char *name = f ? xf : sf;
		const cJSON *v = name ? cJSON_GetObjectItemCaseSensitive(row, name)
		                      : NULL;
		if (cJSON_IsString(v))
			buf_printf(marked, " %s=%s", name, v->valuestring);
		else if (cJSON_IsNumber(v))
			buf_printf(marked, " %s=%.15g", name, v->valuedouble);
	}
	buf_printf(marked, ": %.2f%% %s, band \u00b1%.2f%%", fabs(p.diff) * 100,
	           compare_verdict_name(p.verdict), p.band * 100);
}

/*
 * The records of chart d on each machine drawn (idx, n of them), filtered
 * by its where: on that machine, into pk->all, each with its series field
 * (field) renamed "VALUE · MACHINE", or "MACHINE" when the chart has no
 * series, and what the overlay adds to each. 0, or -1 when the where:
 * does not parse on a machine.
 */
static int overlay_records(struct chart_pick *pk, const struct directive *d,
                           struct machine_set *ms, const size_t *idx,
                           size_t n, const struct judged_opt *const *jo,
                           const char *field)
{
	const char *sf = dir_opt(d, "series");
	static const struct filter everything = {0};
	struct buf drawn = BUF_INIT, missing = BUF_INIT, marked = BUF_INIT;
	int rc = 0;
	for (size_t k = 0; k < n && !rc; k++) {
		const char *name = ms->names[idx[k]];
		const struct exp_result *src = bundle_get(ms->b[idx[k]],
		                                          pk->all.id);
		const struct filter *where = &everything;
		if (!src->nrows || !machines_measured(ms, idx[k], pk->all.id)) {
			buf_printf(&missing, "%s%s", missing.len ? ", " : "", name);
			continue;
		}
		for (size_t i = 0; i < d->nopts && !rc; i++)
			if (!strcmp(d->opts[i].key, "where")) {
				rc = jo[k][i].ok ? 0 : -1;
				where = &jo[k][i].where;
			}
		for (size_t i = 0; i < src->nrows && !rc; i++) {
			if (!filter_match(where, src->rows[i]))
				continue;
			overlay_point(pk, d, ms, idx[k], pk->all.id, i, src->rows[i],
			              &marked);
			cJSON *row = cJSON_Duplicate(src->rows[i], 1);
			const cJSON *s = cJSON_GetObjectItemCaseSensitive(row, field);
			char *label;
			if (sf && cJSON_IsString(s))
				label = xasprintf("%s · %s", s->valuestring, name);
			else if (sf && cJSON_IsNumber(s))
				label = xasprintf("%.15g · %s", s->valuedouble, name);
			else
				label = xstrdup(name);
			cJSON_DeleteItemFromObjectCaseSensitive(row, field);
			cJSON_AddStringToObject(row, field, label);
			free(label);
			*ARRAY_PUSH(pk->all.rows, pk->all.nrows) = row;
		}
		buf_printf(&drawn, "%s%s", drawn.len ? ", " : "", name);
		const cJSON *mj = view_machine(ms->views[idx[k]]);
		const char *gpu = cJSON_GetStringValue(
		    mj ? cJSON_GetObjectItem(mj, "gpu") : NULL);
		if (gpu && strcmp(gpu, "none"))
			buf_printf(&drawn, " (%s)", gpu);
	}
	pk->drawn = buf_detach(&drawn);
	pk->missing = buf_detach(&missing);
	pk->marked = buf_detach(&marked);
	return rc;
}

int chart_overlay(struct chart_pick *pk, struct machine_set *ms,
                        size_t c, size_t di, const struct directive *d,
                        const char *spec)
{
	const char *sf = dir_opt(d, "series"), *data = dir_opt(d, "data");
	const char *field = sf ? sf : "machine";
	size_t *idx = xcalloc(ms->n, sizeof *idx);
	const struct judged_opt **jo = xcalloc(ms->n, sizeof *jo);
	const struct judged_opt *jo0 = judge_opts(ms->jb, c, di, 0);
	struct buf unknown = BUF_INIT;
	size_t n = machines_pick(ms, spec, idx, &unknown);
	buf_free(&unknown); /* a name that is none of them: dircheck.c */
	for (size_t k = 0; k < n; k++) {
		jo[k] = judge_opts(ms->jb, c, di, idx[k]);
		pk->others |= idx[k] != 0;
	}
	pk->all.id = (char *)(data ? data : "");
	if (!n || overlay_records(pk, d, ms, idx, n, jo, field) != 0) {
		free(idx);
		free(jo);
		return 0;
	}
	/* The directive as written, less its where: (applied above), with
	 * the series field named, and each limit line at its value on each
	 * machine drawn. */
	pk->own_opts = 1;
	pk->overlay = 1;
	pk->base = ms->names[0];
	pk->mark_title = xasprintf("beyond noise against %s", ms->names[0]);
	pk->d.opts = NULL;
	pk->d.nopts = 0;
	pk->jo = NULL;
	for (size_t i = 0; i < d->nopts; i++) {
		const struct dir_opt *o = &d->opts[i];
		if (!strcmp(o->key, "limit")) {
			overlay_limit(pk, d, i, ms, idx, n, jo);
		} else if (strcmp(o->key, "where") && strcmp(o->key, "series")) {
			*ARRAY_PUSH(pk->d.opts, pk->d.nopts) = *o;
			pk->jo = xrealloc(pk->jo, pk->d.nopts * sizeof *pk->jo);
			pk->jo[pk->d.nopts - 1] = jo0[i];
		}
	}
	*ARRAY_PUSH(pk->d.opts, pk->d.nopts) = (struct dir_opt){
		"series", (char *)field, d->line, NULL, NULL, 0};
	pk->jo = xrealloc(pk->jo, pk->d.nopts * sizeof *pk->jo);
	memset(&pk->jo[pk->d.nopts - 1], 0, sizeof *pk->jo);
	free(idx);
	free(jo);
	return 1;
}
