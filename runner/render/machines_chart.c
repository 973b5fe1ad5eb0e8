/*
 * machines_chart.c - charts that overlay several machines: a {chart} with
 * "machines: all" or a list of names draws the records of each machine
 * named together, its limit lines at their value on each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/view.h"
#include "render/machines.h"
#include "base/util.h"

/*
 * A limit: line ("EXPR | label", option i of d) of an overlaid chart, as
 * one line per distinct value it has on the machines drawn (idx, n of
 * them; jo[k] their judged options), each labelled with the machines it
 * belongs to when they differ: appended to dd's options, with their
 * judged values to djo and their text kept in owned. A machine where it
 * has no value gets no line; where none has one, the line is kept as the
 * base judged it, for plot_render to show.
 */
static void chart_limits(const struct directive *d, size_t i,
                         const struct machine_set *ms, const size_t *idx,
                         size_t n, const struct judged_opt *const *jo,
                         struct directive *dd, struct judged_opt **djo,
                         char ***owned, size_t *nowned)
{
	const struct dir_opt *o = &d->opts[i];
	char *copy = xstrdup(o->value), *bar = strchr(copy, '|');
	if (bar)
		*bar = '\0';
	const char *label = str_trim(bar ? bar + 1 : copy);
	double *vals = xcalloc(n, sizeof *vals);
	struct buf *names = xcalloc(n, sizeof *names);
	size_t nv = 0, ndd = dd->nopts;
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
		*djo = xrealloc(*djo, dd->nopts * sizeof **djo);
		(*djo)[ndd] = jo[0][i];
	}
	for (size_t j = 0; j < nv; j++) {
		char *text = nv > 1 ? xasprintf("%.10g | %s, %s", vals[j], label,
		                                names[j].data)
		                    : xasprintf("%.10g | %s", vals[j], label);
		*ARRAY_PUSH(*owned, *nowned) = text;
		*ARRAY_PUSH(dd->opts, dd->nopts) = (struct dir_opt){o->key, text,
		                                                    o->line, NULL,
		                                                    NULL, 0};
		*djo = xrealloc(*djo, dd->nopts * sizeof **djo);
		(*djo)[dd->nopts - 1] = (struct judged_opt){1, {0}, vals[j], 0, 0,
		                                            NULL};
	}
	for (size_t j = 0; j < n; j++)
		buf_free(&names[j]);
	free(names);
	free(vals);
	free(copy);
}

/* How many points beyond noise a chart's note lists; the Machines page
 * lists them all. */
#define MARKS_LISTED 8

/* What an overlay adds to each record it draws (plot_overlay's points),
 * and the words for the points judged beyond noise. */
struct overlay {
	struct plot_extra *pts;
	size_t n, nmarked;
	struct buf words; /* "h100 at n=4: 12.50% slower ...; ..." */
};

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
 * with words for it (the x and series fields name the point) in ov.
 */
static void overlay_point(const struct directive *d, struct machine_set *ms,
                          size_t m, const char *id, size_t k,
                          const cJSON *row, struct overlay *ov)
{
	const char *xf = dir_opt(d, "x"), *yf = dir_opt(d, "y");
	const char *sf = dir_opt(d, "series");
	struct plot_extra *e = ARRAY_PUSH(ov->pts, ov->n);
	struct compare_point p;
	double y;
	e->run_lo = e->run_hi = NAN;
	run_spread(row, yf ? yf : "", &e->run_lo, &e->run_hi);
	/* Only a point the chart draws is ringed and named. */
	int drawn = yf && xf && row_number(row, yf, &y) &&
	            cJSON_GetObjectItem(row, xf) &&
	            !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"));
	e->mark = m && drawn &&
	          machines_judge(ms, m, id, k, &p) == COMPARE_JUDGED &&
	          (p.verdict == COMPARE_SLOWER || p.verdict == COMPARE_FASTER);
	if (!e->mark || ov->nmarked++ >= MARKS_LISTED)
		return;
	struct buf *w = &ov->words;
	buf_printf(w, "%s%s at", w->len ? "; " : "", ms->names[m]);
	for (int f = 0; f < 2; f++) {
		const char *name = f ? xf : sf;
		const cJSON *v = name ? cJSON_GetObjectItemCaseSensitive(row, name)
		                      : NULL;
		if (cJSON_IsString(v))
			buf_printf(w, " %s=%s", name, v->valuestring);
		else if (cJSON_IsNumber(v))
			buf_printf(w, " %s=%.15g", name, v->valuedouble);
	}
	buf_printf(w, ": %.2f%% %s, band \u00b1%.2f%%", fabs(p.diff) * 100,
	           compare_verdict_name(p.verdict), p.band * 100);
}

/*
 * The records of chart d on each machine drawn (idx, n of them), filtered
 * by its where: on that machine, into r, each with its series field
 * (field) renamed "VALUE · MACHINE", or "MACHINE" when the chart has no
 * series, and what the overlay adds to each in ov. drawn and missing get
 * the machines' names. 0, or -1 when the where: does not parse on a
 * machine.
 */
static int overlay_records(const struct directive *d, struct machine_set *ms,
                           const size_t *idx, size_t n,
                           const struct judged_opt *const *jo,
                           const char *field,
                           struct exp_result *r, struct overlay *ov,
                           struct buf *drawn, struct buf *missing)
{
	const char *sf = dir_opt(d, "series");
	static const struct filter everything = {0};
	for (size_t k = 0; k < n; k++) {
		const char *name = ms->names[idx[k]];
		const struct exp_result *src = view_records(ms->views[idx[k]], r->id);
		const struct filter *where = &everything;
		if (!src->nrows || !machines_measured(ms, idx[k], r->id)) {
			buf_printf(missing, "%s%s", missing->len ? ", " : "", name);
			continue;
		}
		for (size_t i = 0; i < d->nopts; i++)
			if (!strcmp(d->opts[i].key, "where")) {
				if (!jo[k][i].ok)
					return -1;
				where = &jo[k][i].where;
			}
		for (size_t i = 0; i < src->nrows; i++) {
			if (!filter_match(where, src->rows[i]))
				continue;
			overlay_point(d, ms, idx[k], r->id, i, src->rows[i], ov);
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
			*ARRAY_PUSH(r->rows, r->nrows) = row;
		}
		buf_printf(drawn, "%s%s", drawn->len ? ", " : "", name);
		const cJSON *mj = view_machine(ms->views[idx[k]]);
		const char *gpu = cJSON_GetStringValue(
		    mj ? cJSON_GetObjectItem(mj, "gpu") : NULL);
		if (gpu && strcmp(gpu, "none"))
			buf_printf(drawn, " (%s)", gpu);
	}
	return 0;
}

/*
 * What an overlay adds, in words: to the note under the chart, what its
 * bars mean and the points judged beyond noise against the base (or that
 * there are none); to its text alternative, how many are ringed.
 */
static void overlay_words(const struct machine_set *ms, const size_t *idx,
                          size_t n, const struct overlay *ov, struct buf *note,
                          struct plot *out)
{
	int runs = 0, others = 0;
	for (size_t i = 0; i < ov->n; i++)
		runs |= isfinite(ov->pts[i].run_lo);
	for (size_t k = 0; k < n; k++)
		others |= idx[k] != 0;
	if (runs)
		buf_puts(note, " Thick bars span the medians of each point's runs; "
		               "whiskers, where drawn, its slowest and fastest "
		               "repetition.");
	if (!ov->nmarked) {
		if (others)
			buf_printf(note, " No point drawn differs from %s beyond its "
			           "noise.", ms->names[0]);
		return;
	}
	buf_printf(note, " Ringed: %zu point%s slower or faster than on %s "
	           "beyond %s noise, by more than %s band (the Machines page "
	           "lists them all): %s", ov->nmarked, plural(ov->nmarked),
	           ms->names[0], ov->nmarked == 1 ? "its" : "their",
	           ov->nmarked == 1 ? "its" : "their", ov->words.data);
	if (ov->nmarked > MARKS_LISTED)
		buf_printf(note, "; and %zu more", ov->nmarked - MARKS_LISTED);
	buf_putc(note, '.');
	if (out->alt) {
		char *alt = xasprintf("%s Ringed: %zu point%s judged beyond noise "
		                      "against %s, listed below the chart.", out->alt,
		                      ov->nmarked, plural(ov->nmarked), ms->names[0]);
		free(out->alt);
		out->alt = alt;
	}
}

int machines_chart(const struct directive *d, size_t c, size_t di,
                   const char *path, struct machine_set *ms,
                   const struct bundle_view *base, const char *site_dir,
                   struct plot_memo *memo, struct plot *out)
{
	const char *spec = dir_opt(d, "machines");
	const struct judged_opt *jo0 = judge_opts(ms->jb, c, di, 0);
	if (ms->n < 2 || !spec)
		return plot_render(memo, d, jo0, path, base, site_dir, out);

	const char *sf = dir_opt(d, "series"), *data = dir_opt(d, "data");
	const char *field = sf ? sf : "machine";
	size_t *idx = xcalloc(ms->n, sizeof *idx);
	struct buf unknown = BUF_INIT, missing = BUF_INIT, drawn = BUF_INIT;
	struct directive dd = *d;
	struct judged_opt *djo = NULL;
	const struct judged_opt **jo = xcalloc(ms->n, sizeof *jo);
	char **owned = NULL;
	size_t nowned = 0;
	struct exp_result all = {0};
	struct overlay ov = {0};
	char *mark_title = xasprintf("beyond noise against %s", ms->names[0]);
	int rc;
	size_t n = machines_pick(ms, spec, idx, &unknown);
	for (size_t k = 0; k < n; k++)
		jo[k] = judge_opts(ms->jb, c, di, idx[k]);
	/* A name that is none of them the judge reported. */

	/* The records of every machine drawn, in place of the base's own. */
	all.id = (char *)(data ? data : "");
	if (!n || overlay_records(d, ms, idx, n, jo, field, &all, &ov, &drawn,
	                          &missing) != 0) {
		/* The chart of the base alone, which says what is wrong, if
		 * anything is. */
		rc = plot_render(memo, d, jo0, path, base, site_dir, out);
		goto out;
	}

	/* The directive as written, less its where: (applied above), with
	 * the series field named, and each limit line at its value on each
	 * machine drawn. */
	dd.opts = NULL;
	dd.nopts = 0;
	for (size_t i = 0; i < d->nopts; i++) {
		const struct dir_opt *o = &d->opts[i];
		if (!strcmp(o->key, "limit")) {
			chart_limits(d, i, ms, idx, n, jo, &dd, &djo, &owned, &nowned);
		} else if (strcmp(o->key, "where") && strcmp(o->key, "series")) {
			*ARRAY_PUSH(dd.opts, dd.nopts) = *o;
			djo = xrealloc(djo, dd.nopts * sizeof *djo);
			djo[dd.nopts - 1] = jo0[i];
		}
	}
	*ARRAY_PUSH(dd.opts, dd.nopts) = (struct dir_opt){"series", (char *)field,
	                                                  d->line, NULL, NULL, 0};
	djo = xrealloc(djo, dd.nopts * sizeof *djo);
	memset(&djo[dd.nopts - 1], 0, sizeof *djo);
	struct plot_overlay po = {ov.pts, mark_title};
	rc = plot_render_overlay(&dd, djo, path, base, &all, site_dir, &po, out);

	struct buf note = BUF_INIT;
	buf_printf(&note, "Machines overlaid: %s.", drawn.len ? drawn.data : "none");
	if (missing.len)
		buf_printf(&note, " The data of this chart was not measured on %s.",
		           missing.data);
	overlay_words(ms, idx, n, &ov, &note, out);
	if (out->note)
		buf_printf(&note, " %s", out->note);
	free(out->note);
	out->note = buf_detach(&note);
out:
	if (dd.opts != d->opts)
		free(dd.opts);
	free(djo);
	free(jo);
	for (size_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	for (size_t i = 0; i < all.nrows; i++)
		cJSON_Delete(all.rows[i]);
	free(all.rows);
	free(ov.pts);
	buf_free(&ov.words);
	free(mark_title);
	buf_free(&unknown);
	buf_free(&missing);
	buf_free(&drawn);
	free(idx);
	return rc;
}
