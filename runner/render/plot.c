/*
 * plot.c - a {chart} directive made into a chart (plot.h): its records
 * selected into series, its limits, labels and titles, its styles and the
 * ranges it is drawn over. plot_render puts a chart together from these,
 * plot_words.c's words and gnuplot.c's drawing, and keeps the charts
 * plot_prepare made for it.
 */
#include "render/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "judge/judge.h"
#include "judge/view.h"
#include "render/box.h"
#include "render/chart_roofs.h"
#include "render/chart_svg.h"
#include "render/gnuplot.h"
#include "render/plot_words.h"
#include "base/util.h"

/* Okabe and Ito's colour-blind-safe palette, without its black and yellow. */
static const char *const palette[] = {"#0072b2", "#d55e00", "#009e73",
                                      "#cc79a7", "#e69f00", "#56b4e9"};
#define NPALETTE (sizeof palette / sizeof palette[0])
/* Series that highlight: leaves out. */
static const char *const greys[] = {"#9a9a9a", "#c4c4c4"};
/* Limit lines: black and dark grey, never a series colour. */
static const char *const limit_colors[] = {"#000000", "#5e5e5e"};
/* gnuplot dash types: solid first, then patterns told apart at a glance. */
static const char *const dashes[] = {"1",        "(8,4)",         "(2,3)",
                                     "(10,3,2,3)", "(4,6)", "(12,3,2,3,2,3)"};
#define NDASHES (sizeof dashes / sizeof dashes[0])
/* Filled circle, square, triangles, diamond, pentagon; then open ones. */
static const int markers[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14};
#define NMARKERS (sizeof markers / sizeof markers[0])

void plot_free(struct plot *p)
{
	if (!p)
		return;
	free(p->svg);
	free(p->svg_narrow);
	free(p->csv);
	free(p->gp);
	free(p->alt);
	free(p->coincide);
	free(p->error);
	free(p->note);
	free(p->svg_title);
	for (size_t i = 0; i < p->nlayers; i++)
		free(p->layer_titles[i]);
	free(p->layer_titles);
	for (size_t i = 0; i < p->nhover; i++)
		free(p->hover[i].title);
	free(p->hover);
	free(p->values);
	free(p->limit_fy);
	memset(p, 0, sizeof *p);
}

static void chart_free(struct chart *c)
{
	for (size_t s = 0; s < c->nser; s++) {
		free(c->ser[s].key);
		free(c->ser[s].title);
		free(c->ser[s].pts);
	}
	free(c->ser);
	for (size_t i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->cats);
	for (size_t i = 0; i < c->nlim; i++)
		free(c->lim[i].text);
	free(c->lim);
	for (size_t i = 0; i < c->nlabels; i++) {
		free(c->labels[i].value);
		free(c->labels[i].words);
	}
	free(c->labels);
}

/* ---- labels ----------------------------------------------------------------- */

/* The words label: gives value, or NULL; the label counts as used. */
static const char *label_use(struct chart *c, const char *value)
{
	struct label *l = chart_label_find(c, value);
	if (!l)
		return NULL;
	l->used = 1;
	return l->words;
}

/* ---- selecting the points ----------------------------------------------------- */

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

static int has_field(const struct exp_result *r, const char *field)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (cJSON_GetObjectItemCaseSensitive(r->rows[i], field))
			return 1;
	return 0;
}

static size_t series_find(struct chart *c, char *key)
{
	size_t s = 0;
	while (s < c->nser && strcmp(c->ser[s].key, key))
		s++;
	if (s == c->nser) {
		struct series *ns = ARRAY_PUSH(c->ser, c->nser);
		memset(ns, 0, sizeof *ns);
		ns->key = key;
	} else {
		free(key);
	}
	return s;
}

/* The records the chart draws, r or else those of its data in v, split
 * into series; 0 or -1 (reported). */
static int chart_select(struct chart *c, const struct bundle_view *v,
                        const struct exp_result *r, struct plot *out)
{
	const struct directive *d = c->d;
	const char *data = dir_opt(d, "data");
	if (!r)
		r = view_records(v, data);
	static const struct filter everything = {0};
	const struct filter *where = &everything;
	const char *wtext = dir_opt(d, "where");
	int rc = -1;

	if (!r->nrows) {
		out->error = xasprintf("no results for experiment '%s' yet", data);
		warn_at(c->path, d->line, "chart '%s': %s", d->id, out->error);
		return -1;
	}
	const char *fields[] = {c->xf, c->yf, c->sf};
	const char *names[] = {"x", "y", "series"};
	for (size_t i = 0; i < 3; i++)
		if (fields[i] && !has_field(r, fields[i])) {
			char *why = field_others(r, fields[i]);
			chart_fail(out, c->path, dir_opt_line(d, names[i]), "chart '%s': "
			           "experiment '%s' has no field '%s' (option %s); %s",
			           d->id, data, fields[i], names[i], why);
			free(why);
			return -1;
		}
	const struct judged_opt *jw = NULL;
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, "where"))
			jw = &c->jo[i];
	if (jw && !jw->ok) {
		/* Reported by the judge. */
		out->error = xasprintf("%s:%d: chart '%s': where: %s", c->path,
		                       dir_opt_line(d, "where"), d->id, jw->why);
		goto out;
	}
	if (jw)
		where = &jw->where;
	for (size_t i = 0; i < r->nrows; i++)
		c->bars |= cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r->rows[i],
		                                                           c->xf));
	if (c->bars)
		c->logx = 0;
	char *lo_f = xasprintf("%s_lo", c->yf), *hi_f = xasprintf("%s_hi", c->yf);
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *row = r->rows[i];
		struct point p = {0};
		if (!filter_match(where, row) || !row_number(row, c->yf, &p.y) ||
		    !cJSON_GetObjectItem(row, c->xf))
			continue;
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"))) {
			out->nwrong++;
			continue;
		}
		if (c->bars) {
			char *cat = cell_text(row, c->xf);
			size_t k = 0;
			while (k < c->ncats && strcmp(c->cats[k], cat))
				k++;
			if (k == c->ncats)
				*ARRAY_PUSH(c->cats, c->ncats) = cat;
			else
				free(cat);
			p.x = (double)k;
		} else if (!row_number(row, c->xf, &p.x)) {
			continue;
		}
		if (c->logx && p.x <= 0)
			continue;
		p.lo = p.hi = p.y;
		p.has_err = row_number(row, lo_f, &p.lo) && row_number(row, hi_f, &p.hi);
		p.y *= c->yscale;
		p.lo *= c->yscale;
		p.hi *= c->yscale;
		if (!row_number(row, "runs", &p.runs))
			p.runs = 0;
		if (!row_number(row, "reps", &p.reps))
			p.reps = 0;
		if (c->ov) {
			p.run_lo = c->ov->pts[i].run_lo * c->yscale;
			p.run_hi = c->ov->pts[i].run_hi * c->yscale;
			p.has_run = isfinite(p.run_lo) && isfinite(p.run_hi);
			p.mark = c->ov->pts[i].mark;
			c->nmarked += p.mark != 0;
		}
		size_t k = series_find(c, c->sf ? cell_text(row, c->sf)
		                                : xstrdup(c->yf));
		struct series *s = &c->ser[k];
		*ARRAY_PUSH(s->pts, s->n) = p;
		s->err_bars |= p.has_err && fabs(p.hi - p.lo) > 0.01 * fabs(p.y);
		s->run_bars |= p.has_run;
		out->npoints++;
		/* Stopping here keeps the search for a series short. */
		if (c->nser > CHART_MAX_SERIES || out->npoints > CHART_MAX_POINTS ||
		    c->ncats > CHART_MAX_POINTS)
			break;
	}
	if (c->nser > CHART_MAX_SERIES || out->npoints > CHART_MAX_POINTS ||
	    c->ncats > CHART_MAX_POINTS) {
		int many = c->nser > CHART_MAX_SERIES;
		chart_fail(out, c->path, d->line, "chart '%s': more than %d %s of "
		          "'%s' to draw, more than a reader can tell apart; draw "
		          "those the text discusses with where: (e.g. where: %s=...), "
		          "and pick out a few with highlight:, or split the chart",
		          d->id, many ? CHART_MAX_SERIES : CHART_MAX_POINTS,
		          many ? "series" : "points", data,
		          many && c->sf ? c->sf : c->xf);
		free(lo_f);
		free(hi_f);
		goto out;
	}
	free(lo_f);
	free(hi_f);
	if (!out->npoints) {
		chart_fail(out, c->path, d->line, "chart '%s': no records of '%s' to "
		          "draw%s", d->id, data, wtext ? " (check its where:)" : "");
		goto out;
	}
	if (!c->bars)
		for (size_t s = 0; s < c->nser; s++)
			qsort(c->ser[s].pts, c->ser[s].n, sizeof *c->ser[s].pts,
			      cmp_point);
	rc = 0;
out:
	return rc;
}

/* label: lines ("value | words"), series-label: and the titles; 0 or -1. */
static int chart_titles(struct chart *c, struct plot *out)
{
	const struct directive *d = c->d;
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "label"))
			continue;
		char *bar = strchr(d->opts[i].value, '|');
		if (!bar)
			return chart_fail(out, c->path, d->opts[i].line, "chart '%s': "
			                 "label: write 'VALUE | words'", d->id);
		struct label *l = ARRAY_PUSH(c->labels, c->nlabels);
		char *v = xstrndup(d->opts[i].value, (size_t)(bar - d->opts[i].value));
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
		return chart_fail(out, c->path, dir_opt_line(d, "series-label"),
		                 "chart '%s': series-label: write one %%s where the "
		                 "value goes, e.g. 'ILP %%s'", d->id);
	for (size_t s = 0; s < c->nser; s++) {
		const char *w = label_use(c, c->ser[s].key);
		c->ser[s].title = w ? xstrdup(w)
		                  : fmt ? chart_series_format(fmt, c->ser[s].key)
		                        : xstrdup(c->sf ? c->ser[s].key
		                                        : c->ylabel ? c->ylabel : c->yf);
	}
	for (size_t k = 0; k < c->ncats; k++)
		label_use(c, c->cats[k]);
	for (size_t i = 0; i < c->nlabels; i++)
		if (!c->labels[i].used)
			return chart_fail(out, c->path, c->labels[i].line, "chart '%s': "
			                 "label: no series or category '%s' is drawn",
			                 d->id, c->labels[i].value);
	return 0;
}

/* ---- styles -------------------------------------------------------------------- */

/* 0 or -1 (reported). */
static int chart_styles(struct chart *c, struct plot *out)
{
	const struct directive *d = c->d;
	const char *hl = dir_opt(d, "highlight");
	if (hl) {
		char *list = xstrdup(hl), *save = NULL;
		for (char *t = strtok_r(list, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			t = str_trim(t);
			size_t s = 0;
			while (s < c->nser && strcmp(c->ser[s].key, t))
				s++;
			if (s == c->nser) {
				chart_fail(out, c->path, dir_opt_line(d, "highlight"),
				          "chart '%s': highlight: no series '%s'", d->id, t);
				free(list);
				return -1;
			}
			c->ser[s].highlight = 1;
		}
		free(list);
	}
	size_t ngrey = 0, nhl = 0;
	for (size_t s = 0; s < c->nser; s++) {
		struct series *sr = &c->ser[s];
		/* Each grey has a dash and a marker of its own: two greys are
		 * too alike to tell lines apart by. */
		if (hl && !sr->highlight) {
			sr->grey = 1;
			sr->color = greys[ngrey % 2];
			sr->dash = dashes[(ngrey + ngrey / NMARKERS) % NDASHES];
			sr->marker = markers[ngrey % NMARKERS];
			ngrey++;
			continue;
		}
		size_t k = hl ? nhl++ : s;
		sr->color = palette[k % NPALETTE];
		sr->dash = dashes[(k / NPALETTE) % NDASHES];
		/* Colour and dash repeat after 36 series: the marker moves on. */
		sr->marker = markers[(k + k / (NPALETTE * NDASHES)) % NMARKERS];
	}
	for (size_t i = 0; i < c->nlim; i++) {
		c->lim[i].color = limit_colors[i % 2];
		c->lim[i].dash = dashes[1 + (i / 2) % (NDASHES - 1)];
	}
	/*
	 * Of series that coincide, the later ones are dashed, so the one
	 * beneath shows through; their colours already tell them apart.
	 */
	if (c->nser <= NPALETTE && !hl)
		for (size_t s = 0; s < c->nser; s++) {
			size_t k = 0;
			for (size_t t = 0; t < s; t++)
				k += c->ser[t].group == c->ser[s].group;
			if (k)
				c->ser[s].dash = dashes[k % NDASHES];
		}
	return 0;
}

/* ---- ranges and ticks -------------------------------------------------------- */

static void chart_ranges(struct chart *c)
{
	double lo = INFINITY, hi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
	double lim_hi = -INFINITY;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++) {
			struct point *p = &c->ser[s].pts[i];
			double a = c->ser[s].err_bars ? fmin(p->lo, p->y) : p->y;
			double z = c->ser[s].err_bars ? fmax(p->hi, p->y) : p->y;
			if (p->has_run) {
				a = fmin(a, p->run_lo);
				z = fmax(z, p->run_hi);
			}
			if (!c->logy || a > 0)
				lo = fmin(lo, a);
			hi = fmax(hi, z);
			xlo = fmin(xlo, p->x);
			xhi = fmax(xhi, p->x);
		}
	for (size_t i = 0; i < c->nlim; i++)
		if (!c->logy || c->lim[i].v > 0) {
			lo = fmin(lo, c->lim[i].v);
			lim_hi = fmax(lim_hi, c->lim[i].v);
		}
	/* A limit above the data needs room for its label above it. */
	int lim_top = lim_hi >= hi;
	hi = fmax(hi, lim_hi);
	if (!(lo < INFINITY))
		lo = hi = 1;
	if (c->logy) {
		double span = log(hi) - log(lo) + 0.1;
		c->ylo = lo * exp(-0.04 * span);
		c->yhi = hi * exp((lim_top ? 0.14 : 0.04) * span);
	} else {
		lo = fmin(lo, 0);
		if (hi <= lo)
			hi = lo + 1;
		double room = (hi - lo) * (lim_top ? 0.1 : 0.03);
		double step = chart_nice_step(hi + room - lo, 6);
		c->ylo = lo < 0 ? floor(lo / step) * step : 0;
		c->yhi = ceil((hi + room) / step) * step;
		/* A limit on the bottom axis would hide in it: lift the axis. */
		for (size_t i = 0; i < c->nlim; i++)
			if (c->lim[i].v <= c->ylo)
				c->ylo = c->lim[i].v - 0.05 * (c->yhi - c->lim[i].v);
	}
	if (c->bars) {
		c->xmin = -0.6;
		c->xmax = (double)c->ncats - 0.4;
	} else if (xlo == xhi) {
		c->xmin = c->logx ? xlo / 2 : xlo - 1;
		c->xmax = c->logx ? xhi * 2 : xhi + 1;
	} else if (c->logx) {
		/* A hair wider, so gnuplot keeps the ticks at both ends. */
		c->xmin = xlo / 1.0001;
		c->xmax = xhi * 1.0001;
	} else {
		c->xmin = xlo - (xhi - xlo) * 1e-6;
		c->xmax = xhi + (xhi - xlo) * 1e-6;
	}
}

/* ---- charts made and kept --------------------------------------------------- */

/* The charts plot_prepare made, kept for plot_render to take. */
struct plot_memo {
	struct memo {
		const struct directive *d;
		const struct bundle_view *v;
		char *site_dir;
		struct plot p;
	} *v;
	size_t n;
};

struct plot_memo *plot_memo_new(void)
{
	return xcalloc(1, sizeof(struct plot_memo));
}

/* The chart plot_prepare made for d, if one was drawn: 1 (in *out) or 0. */
static int plot_memo_take(struct plot_memo *memo, const struct directive *d,
                          const struct bundle_view *v, const char *site_dir,
                          struct plot *out)
{
	for (size_t i = 0; memo && i < memo->n; i++) {
		struct memo *m = &memo->v[i];
		if (m->d != d || m->v != v || strcmp(m->site_dir, site_dir))
			continue;
		*out = m->p;
		free(m->site_dir);
		*m = memo->v[--memo->n];
		/* plot_draw has drawn it since, or failed to: then it is made
		 * again, and drawn alone, so that gnuplot's words are shown. */
		if (out->pending) {
			out->pending = 0;
			out->drawn = chart_svg_finish(site_dir, d->id, out) == 0;
		}
		out->redrawn = 0;
		if (!out->drawn) {
			plot_free(out);
			memset(out, 0, sizeof *out);
			return 0;
		}
		return 1;
	}
	return 0;
}

void plot_memo_free(struct plot_memo *memo)
{
	if (!memo)
		return;
	for (size_t i = 0; i < memo->n; i++) {
		plot_free(&memo->v[i].p);
		free(memo->v[i].site_dir);
	}
	free(memo->v);
	free(memo);
}

/* plot_render's chart; deferred (plot_prepare): left for plot_draw to draw. */
static int plot_make(struct plot_memo *memo, const struct directive *d,
                     const struct judged_opt *jo, const char *path,
                     const struct bundle_view *v, const struct exp_result *r,
                     const char *site_dir, int deferred,
                     const struct plot_overlay *ov, struct plot *out)
{
	memset(out, 0, sizeof *out);
	if (!ov && plot_memo_take(memo, d, v, site_dir, out))
		return 0;
	struct chart c = {0};
	struct buf gp = BUF_INIT, csv = BUF_INIT;
	int rc = -1;
	c.d = d;
	c.jo = jo;
	c.ov = ov;
	c.path = path;
	c.xf = dir_opt(d, "x");
	c.yf = dir_opt(d, "y");
	c.sf = dir_opt(d, "series");
	c.xlabel = dir_opt(d, "xlabel");
	c.ylabel = dir_opt(d, "ylabel");
	c.xunit = dir_opt(d, "x-unit");
	c.yunit = dir_opt(d, "y-unit");
	c.logx = dir_opt(d, "logx") ? atoi(dir_opt(d, "logx")) : 0;
	c.logy = dir_opt(d, "logy") ? atoi(dir_opt(d, "logy")) : 0;
	if (chart_yscale(&c, out) != 0 || chart_select(&c, v, r, out) != 0 ||
	    chart_limits(&c, out) != 0 ||
	    chart_titles(&c, out) != 0)
		goto out;
	c.as_points = c.bars && c.logy;
	chart_ranges(&c);
	out->coincide = chart_coincide(&c);
	if (chart_styles(&c, out) != 0)
		goto out;
	chart_layout(&c, WIDE);
	chart_layout(&c, NARROW);
	out->width = chart_width[WIDE];
	out->height = c.height[WIDE];
	out->narrow_width = chart_width[NARROW];
	out->narrow_height = c.height[NARROW];
	out->alt = chart_alt(&c, out->coincide);
	chart_hover_make(&c, out);
	chart_csv(&c, &csv);
	chart_script(&c, v->dir, &gp);
	rc = chart_draw(&c, site_dir, &gp, &csv, deferred, out);
out:
	chart_free(&c);
	buf_free(&gp);
	buf_free(&csv);
	return rc;
}

int plot_render(struct plot_memo *memo, const struct directive *d,
                const struct judged_opt *jo, const char *path,
                const struct bundle_view *v, const char *site_dir,
                struct plot *out)
{
	return plot_make(memo, d, jo, path, v, NULL, site_dir, 0, NULL, out);
}

int plot_render_overlay(const struct directive *d, const struct judged_opt *jo,
                        const char *path, const struct bundle_view *v,
                        const struct exp_result *r, const char *site_dir,
                        const struct plot_overlay *ov, struct plot *out)
{
	return plot_make(NULL, d, jo, path, v, r, site_dir, 0, ov, out);
}

char *plot_prepare(struct plot_memo *memo, const struct directive *d,
                   const struct judged_opt *jo, const char *path,
                   const struct bundle_view *v, const char *site_dir)
{
	struct plot p;
	char *name = NULL;
	diag_quiet(1);
	int rc = plot_make(NULL, d, jo, path, v, NULL, site_dir, 1, NULL, &p);
	diag_quiet(0);
	if (rc == 0 && p.pending)
		name = xasprintf("%s.gp", d->id);
	/* A chart that failed is made again where its page reports it. */
	if (rc == 0 && p.svg) {
		*ARRAY_PUSH(memo->v, memo->n) =
			(struct memo){d, v, xstrdup(site_dir), p};
	} else {
		plot_free(&p);
	}
	return name;
}
