/*
 * chart_pick.c - the points a chart draws, and what is wrong with its
 * data (chart_pick.h).
 */
#include "judge/chart_pick.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/expr_value.h"
#include "bundle/results.h"
#include "judge/machine_set.h"
#include "judge/view.h"

/* The problem of pk, at line; -1. */
static int pick_fail(struct chart_pick *pk, const char *path, int line,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int pick_fail(struct chart_pick *pk, const char *path, int line,
                     const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	pk->why = buf_detach(&b);
	pk->line = line;
	pk->shown = xasprintf("%s:%d: %s", path, line, pk->why);
	return -1;
}

void chart_pick_free(struct chart_pick *pk)
{
	if (!pk)
		return;
	for (size_t s = 0; s < pk->nser; s++) {
		free(pk->ser[s].key);
		free(pk->ser[s].pts);
	}
	free(pk->ser);
	for (size_t i = 0; i < pk->ncats; i++)
		free(pk->cats[i]);
	free(pk->cats);
	for (size_t i = 0; i < pk->nlabels; i++) {
		free(pk->labels[i].value);
		free(pk->labels[i].words);
	}
	free(pk->labels);
	if (pk->own_opts) {
		free(pk->d.opts);
		free(pk->jo);
	}
	for (size_t i = 0; i < pk->nowned; i++)
		free(pk->owned[i]);
	free(pk->owned);
	for (size_t i = 0; i < pk->all.nrows; i++)
		cJSON_Delete(pk->all.rows[i]);
	free(pk->all.rows);
	free(pk->extra);
	free(pk->drawn);
	free(pk->missing);
	free(pk->marked);
	free(pk->mark_title);
	free(pk->why);
	free(pk->shown);
	memset(pk, 0, sizeof *pk);
}

/* ---- selecting the points ---------------------------------------------- */

static char *cell_text(const cJSON *row, const char *field)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(row, field);
	if (cJSON_IsString(c))
		return xstrdup(c->valuestring);
	if (cJSON_IsNumber(c))
		return xasprintf("%.15g", c->valuedouble);
	if (cJSON_IsBool(c))
		return xstrdup(cJSON_IsTrue(c) ? "true" : "false");
	return xstrdup("");
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
	return (x > y) - (x < y);
}

static size_t series_find(struct chart_pick *pk, char *key)
{
	size_t s = 0;
	while (s < pk->nser && strcmp(pk->ser[s].key, key))
		s++;
	if (s == pk->nser) {
		struct series *ns = ARRAY_PUSH(pk->ser, pk->nser);
		memset(ns, 0, sizeof *ns);
		ns->key = key;
	} else {
		free(key);
	}
	return s;
}

/* Record row (i of r) as a point of its series; 0, or -1 when it is not
 * drawn. */
static int pick_row(struct chart_pick *pk, const cJSON *row, size_t i)
{
	struct point p = {0};
	if (!row_number(row, pk->yf, &p.y) || !cJSON_GetObjectItem(row, pk->xf))
		return -1;
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"))) {
		pk->nwrong++;
		return -1;
	}
	if (pk->bars) {
		char *cat = cell_text(row, pk->xf);
		size_t k = 0;
		while (k < pk->ncats && strcmp(pk->cats[k], cat))
			k++;
		if (k == pk->ncats)
			*ARRAY_PUSH(pk->cats, pk->ncats) = cat;
		else
			free(cat);
		p.x = (double)k;
	} else if (!row_number(row, pk->xf, &p.x)) {
		return -1;
	}
	if (pk->logx && p.x <= 0) {
		pk->nunlogged++;
		return -1;
	}
	char *lo_f = xasprintf("%s_lo", pk->yf), *hi_f = xasprintf("%s_hi", pk->yf);
	p.lo = p.hi = p.y;
	p.has_err = row_number(row, lo_f, &p.lo) && row_number(row, hi_f, &p.hi);
	free(lo_f);
	free(hi_f);
	p.y *= pk->yscale;
	p.lo *= pk->yscale;
	p.hi *= pk->yscale;
	/* Far beyond, the axes' room round the data overflows a double. */
	if (!(fabs(p.y) <= CHART_MAX_VALUE) || !(fabs(p.x) <= CHART_MAX_VALUE)) {
		pk->nhuge++;
		return -1;
	}
	p.has_err &= fabs(p.lo) <= CHART_MAX_VALUE &&
	             fabs(p.hi) <= CHART_MAX_VALUE;
	/* A log axis has no place for 0 or less: such a point is left out,
	 * and a spread that reaches there is not drawn. */
	if (pk->logy && p.y <= 0) {
		pk->nunlogged++;
		return -1;
	}
	if (pk->logy && p.lo <= 0)
		p.has_err = 0;
	if (!row_number(row, "runs", &p.runs))
		p.runs = 0;
	if (!row_number(row, "reps", &p.reps))
		p.reps = 0;
	if (pk->extra) {
		p.run_lo = pk->extra[i].run_lo * pk->yscale;
		p.run_hi = pk->extra[i].run_hi * pk->yscale;
		p.has_run = isfinite(p.run_lo) && isfinite(p.run_hi);
		p.mark = pk->extra[i].mark;
		pk->nringed += p.mark != 0;
	}
	size_t k = series_find(pk, pk->sf ? cell_text(row, pk->sf)
	                                  : xstrdup(pk->yf));
	struct series *s = &pk->ser[k];
	*ARRAY_PUSH(s->pts, s->n) = p;
	s->err_bars |= p.has_err && fabs(p.hi - p.lo) > 0.01 * fabs(p.y);
	s->run_bars |= p.has_run;
	pk->npoints++;
	return 0;
}

/* The records r split into series; 0 or -1. */
static int pick_points(struct chart_pick *pk, const char *path,
                       const struct exp_result *r)
{
	const struct directive *d = &pk->d;
	const char *data = dir_opt(d, "data");
	static const struct filter everything = {0};
	const struct filter *where = &everything;

	if (!r->nrows) {
		pk->why = xasprintf("chart '%s': no results for experiment '%s' yet",
		                    d->id, data);
		pk->shown = xasprintf("no results for experiment '%s' yet", data);
		pk->line = d->line;
		pk->warn = 1;
		return -1;
	}
	const char *fields[] = {pk->xf, pk->yf, pk->sf};
	const char *names[] = {"x", "y", "series"};
	for (size_t i = 0; i < 3; i++)
		if (fields[i] && !field_known(r, fields[i])) {
			char *why = field_others(r, fields[i]);
			pick_fail(pk, path, dir_opt_line(d, names[i]), "chart '%s': "
			          "experiment '%s' has no field '%s' (option %s); %s",
			          d->id, data, fields[i], names[i], why);
			free(why);
			return -1;
		}
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "where"))
			continue;
		if (!pk->jo[i].ok) {
			pick_fail(pk, path, d->opts[i].line, "chart '%s': where: %s",
			          d->id, pk->jo[i].why);
			pk->quiet = 1;
			return -1;
		}
		where = &pk->jo[i].where;
		char *missing = filter_field_missing(r, data, where);
		if (missing) {
			pick_fail(pk, path, d->opts[i].line, "chart '%s': where: %s",
			          d->id, missing);
			free(missing);
			return -1;
		}
	}
	int numbers = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(r->rows[i], pk->xf);
		pk->bars |= cJSON_IsString(x);
		numbers |= cJSON_IsNumber(x);
	}
	pk->mixed_x = pk->bars && numbers;
	if (pk->bars)
		pk->logx = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		if (!filter_match(where, r->rows[i]) || pick_row(pk, r->rows[i], i))
			continue;
		/* Stopping here keeps the search for a series short. */
		if (pk->nser > CHART_MAX_SERIES || pk->npoints > CHART_MAX_POINTS ||
		    pk->ncats > CHART_MAX_POINTS)
			break;
	}
	if (pk->nser > CHART_MAX_SERIES || pk->npoints > CHART_MAX_POINTS ||
	    pk->ncats > CHART_MAX_POINTS) {
		int many = pk->nser > CHART_MAX_SERIES;
		return pick_fail(pk, path, d->line, "chart '%s': more than %d %s of "
		                 "'%s' to draw, more than a reader can tell apart; "
		                 "draw those the text discusses with where: (e.g. "
		                 "where: %s=...), and pick out a few with "
		                 "highlight:, or split the chart", d->id,
		                 many ? CHART_MAX_SERIES : CHART_MAX_POINTS,
		                 many ? "series" : "points", data,
		                 many && pk->sf ? pk->sf : pk->xf);
	}
	if (pk->nhuge)
		return pick_fail(pk, path, dir_opt_line(d, dir_opt(d, "y-scale") ?
		                                           "y-scale" : "y"),
		                 "chart '%s': %zu record%s of '%s' ha%s %s or %s%s "
		                 "beyond %g, more than a chart can draw; leave %s out "
		                 "with where:", d->id, pk->nhuge,
		                 pk->nhuge > 1 ? "s" : "", data,
		                 pk->nhuge > 1 ? "ve" : "s", pk->xf, pk->yf,
		                 dir_opt(d, "y-scale") ? " (times y-scale:)" : "",
		                 CHART_MAX_VALUE, pk->nhuge > 1 ? "them" : "it");
	if (!pk->npoints && pk->nunlogged)
		return pick_fail(pk, path, d->line, "chart '%s': no records of '%s' "
		                 "to draw: the %zu left lie at or below 0, where a "
		                 "log axis has no place", d->id, data, pk->nunlogged);
	if (!pk->npoints)
		return pick_fail(pk, path, d->line, "chart '%s': no records of '%s' "
		                 "to draw%s", d->id, data, dir_opt(d, "where") ?
		                 " (check its where:)" : "");
	if (!pk->bars)
		for (size_t s = 0; s < pk->nser; s++)
			qsort(pk->ser[s].pts, pk->ser[s].n, sizeof *pk->ser[s].pts,
			      cmp_point);
	return 0;
}

/* ---- what the options name ------------------------------------------------ */

static int pick_yscale(struct chart_pick *pk, const char *path)
{
	const char *v = dir_opt(&pk->d, "y-scale");
	pk->yscale = 1;
	if (v && (parse_double(v, 1e-30, 1e30, &pk->yscale) != 0 ||
	          pk->yscale <= 0))
		return pick_fail(pk, path, dir_opt_line(&pk->d, "y-scale"),
		                 "chart '%s': y-scale: '%s' is not a number from "
		                 "1e-30 to 1e30 (0.001 draws GFLOP/s as TFLOP/s)",
		                 pk->d.id, v);
	return 0;
}

/* A limit: whose value the judge could not find, unless it reads what
 * this card lacks (it is then not drawn, and its chart says so). */
static int pick_limits(struct chart_pick *pk, const char *path)
{
	const struct directive *d = &pk->d;
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, "limit") && !pk->jo[i].ok &&
		    !pk->jo[i].need_cc) {
			pick_fail(pk, path, d->opts[i].line, "chart '%s': limit: %s",
			          d->id, pk->jo[i].why);
			pk->quiet = 1;
			return -1;
		}
	return 0;
}

static struct label *label_find(struct chart_pick *pk, const char *value)
{
	for (size_t i = 0; i < pk->nlabels; i++)
		if (!strcmp(pk->labels[i].value, value))
			return &pk->labels[i];
	return NULL;
}

/* label: lines ("value | words"), each naming a series or category
 * drawn, and series-label:; 0 or -1. */
static int pick_labels(struct chart_pick *pk, const char *path)
{
	const struct directive *d = &pk->d;
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "label"))
			continue;
		char *bar = strchr(d->opts[i].value, '|');
		if (!bar)
			return pick_fail(pk, path, d->opts[i].line, "chart '%s': "
			                 "label: write 'VALUE | words'", d->id);
		char *v = xstrndup(d->opts[i].value, (size_t)(bar - d->opts[i].value));
		const struct label *twice = label_find(pk, str_trim(v));
		if (twice) {
			int first = twice->line;
			pick_fail(pk, path, d->opts[i].line, "chart '%s': label: '%s' "
			          "is given words twice; first at line %d", d->id,
			          str_trim(v), first);
			free(v);
			return -1;
		}
		struct label *l = ARRAY_PUSH(pk->labels, pk->nlabels);
		l->value = xstrdup(str_trim(v));
		free(v);
		v = xstrdup(bar + 1);
		l->words = xstrdup(str_trim(v));
		free(v);
		l->line = d->opts[i].line;
		l->used = 0;
	}
	const char *fmt = dir_opt(d, "series-label");
	if (fmt && (!strstr(fmt, "%s") || strstr(strstr(fmt, "%s") + 2, "%")))
		return pick_fail(pk, path, dir_opt_line(d, "series-label"),
		                 "chart '%s': series-label: write one %%s where the "
		                 "value goes, e.g. 'ILP %%s'", d->id);
	for (size_t s = 0; s < pk->nser; s++) {
		struct label *l = label_find(pk, pk->ser[s].key);
		if (l)
			l->used = 1;
	}
	for (size_t k = 0; k < pk->ncats; k++) {
		struct label *l = label_find(pk, pk->cats[k]);
		if (l)
			l->used = 1;
	}
	for (size_t i = 0; i < pk->nlabels; i++)
		if (!pk->labels[i].used)
			return pick_fail(pk, path, pk->labels[i].line, "chart '%s': "
			                 "label: no series or category '%s' is drawn",
			                 d->id, pk->labels[i].value);
	return 0;
}

/* highlight: names series drawn; 0 or -1. */
static int pick_highlight(struct chart_pick *pk, const char *path)
{
	const char *hl = dir_opt(&pk->d, "highlight");
	if (!hl)
		return 0;
	char *list = xstrdup(hl), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(list, ",", &save); t && !rc;
	     t = strtok_r(NULL, ",", &save)) {
		t = str_trim(t);
		size_t s = 0;
		while (s < pk->nser && strcmp(pk->ser[s].key, t))
			s++;
		if (s == pk->nser)
			rc = pick_fail(pk, path, dir_opt_line(&pk->d, "highlight"),
			               "chart '%s': highlight: no series '%s'",
			               pk->d.id, t);
		else
			pk->ser[s].highlight = 1;
	}
	free(list);
	return rc;
}

int chart_pick(struct machine_set *ms, size_t c, size_t di,
               const struct directive *d, const char *path,
               struct chart_pick *pk)
{
	memset(pk, 0, sizeof *pk);
	pk->src = d;
	pk->d = *d;
	pk->jo = (struct judged_opt *)judge_opts(ms->jb, c, di, 0);
	const char *spec = dir_opt(d, "machines");
	const struct exp_result *r = NULL;
	if (ms->n >= 2 && spec && chart_overlay(pk, ms, c, di, d, spec)) {
		r = &pk->all;
	} else {
		r = bundle_get(ms->b[0], dir_opt(d, "data"));
		pk->partial = r->error;
	}
	pk->xf = dir_opt(&pk->d, "x");
	pk->yf = dir_opt(&pk->d, "y");
	pk->sf = dir_opt(&pk->d, "series");
	pk->logx = dir_opt(&pk->d, "logx") ? atoi(dir_opt(&pk->d, "logx")) : 0;
	pk->logy = dir_opt(&pk->d, "logy") ? atoi(dir_opt(&pk->d, "logy")) : 0;
	if (pick_yscale(pk, path) || pick_points(pk, path, r) ||
	    pick_limits(pk, path) || pick_labels(pk, path) ||
	    pick_highlight(pk, path))
		return -1;
	return 0;
}
