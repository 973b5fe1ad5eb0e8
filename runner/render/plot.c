/*
 * plot.c - the judge's pick of a {chart} (judge/chart_pick.h) made into a
 * chart (plot.h): its limit lines, titles, styles and the ranges it is
 * drawn over. plot_render puts a chart together from these, plot_words.c's
 * words and gnuplot.c's drawing, and keeps the charts plot_prepare made
 * for it.
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
	free(p->problem);
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

/* The legend's words for each series: its label:, else series-label:
 * with its value, else its value (the judge checked both). */
static void chart_titles(struct chart *c)
{
	const char *fmt = dir_opt(c->d, "series-label");
	for (size_t s = 0; s < c->nser; s++) {
		const struct label *l = chart_label_find(c, c->ser[s].key);
		c->ser[s].title = l ? xstrdup(l->words)
		                  : fmt ? chart_series_format(fmt, c->ser[s].key)
		                        : xstrdup(c->sf ? c->ser[s].key
		                                        : c->ylabel ? c->ylabel : c->yf);
	}
}

/* ---- styles -------------------------------------------------------------------- */

/* Each series' colour, dash and marker, and each limit's (highlight:
 * greys the series it does not name, as the judge marked them). */
static void chart_styles(struct chart *c)
{
	int hl = dir_opt(c->d, "highlight") != NULL;
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
		/* plot_draw has drawn it since (counted here, as drawn in this
		 * build), or failed to: then it is made again, and drawn alone,
		 * so that gnuplot's words are shown. */
		out->redrawn = 0;
		if (out->pending) {
			out->pending = 0;
			out->drawn = out->redrawn =
				chart_svg_finish(site_dir, d->id, out) == 0;
		}
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

/* The points pk picked, copied into c, whose styles and titles are
 * render's own. */
static void chart_take(struct chart *c, const struct chart_pick *pk)
{
	c->cats = xcalloc(pk->ncats + 1, sizeof *c->cats);
	for (size_t k = 0; k < pk->ncats; k++)
		c->cats[k] = xstrdup(pk->cats[k]);
	c->ncats = pk->ncats;
	c->ser = xcalloc(pk->nser + 1, sizeof *c->ser);
	for (size_t s = 0; s < pk->nser; s++) {
		struct series *sr = &c->ser[s];
		*sr = pk->ser[s];
		sr->key = xstrdup(pk->ser[s].key);
		sr->title = NULL;
		sr->pts = xcalloc(sr->n + 1, sizeof *sr->pts);
		memcpy(sr->pts, pk->ser[s].pts, sr->n * sizeof *sr->pts);
	}
	c->nser = pk->nser;
	c->labels = xcalloc(pk->nlabels + 1, sizeof *c->labels);
	for (size_t i = 0; i < pk->nlabels; i++) {
		c->labels[i] = pk->labels[i];
		c->labels[i].value = xstrdup(pk->labels[i].value);
		c->labels[i].words = xstrdup(pk->labels[i].words);
	}
	c->nlabels = pk->nlabels;
}

/* plot_render's chart; deferred (plot_prepare): left for plot_draw to
 * draw. */
static int plot_make(struct plot_memo *memo, const struct chart_pick *pk,
                     const char *path, const struct bundle_view *v,
                     const char *site_dir, int deferred, struct plot *out)
{
	memset(out, 0, sizeof *out);
	if (pk->why) {
		out->error = xstrdup(pk->shown);
		return -1;
	}
	if (plot_memo_take(memo, pk->src, v, site_dir, out))
		return 0;
	struct chart c = {0};
	struct buf gp = BUF_INIT, csv = BUF_INIT;
	const struct directive *d = &pk->d;
	c.d = d;
	c.jo = pk->jo;
	c.mark_title = pk->overlay ? pk->mark_title : NULL;
	c.nmarked = pk->nringed;
	c.path = path;
	c.xf = pk->xf;
	c.yf = pk->yf;
	c.sf = pk->sf;
	c.xlabel = dir_opt(d, "xlabel");
	c.ylabel = dir_opt(d, "ylabel");
	c.xunit = dir_opt(d, "x-unit");
	c.yunit = dir_opt(d, "y-unit");
	c.logx = pk->logx;
	c.logy = dir_opt(d, "logy") ? atoi(dir_opt(d, "logy")) : 0;
	c.yscale = pk->yscale;
	c.bars = pk->bars;
	out->npoints = pk->npoints;
	out->nwrong = pk->nwrong;
	chart_take(&c, pk);
	struct buf note = BUF_INIT;
	if (pk->mixed_x)
		buf_printf(&note, "%s holds text in some records and numbers in "
		           "others, so each of its values is drawn as a category, in "
		           "the order the records give them. ", pk->xf);
	if (pk->nunlogged)
		buf_printf(&note, "%zu record%s at or below 0 %s left out: a log "
		           "axis has no place for %s. ", pk->nunlogged,
		           pk->nunlogged > 1 ? "s" : "",
		           pk->nunlogged > 1 ? "are" : "is",
		           pk->nunlogged > 1 ? "them" : "it");
	if (note.len) {
		note.data[--note.len] = '\0';
		out->note = buf_detach(&note);
	}
	buf_free(&note);
	chart_limits(&c, out);
	chart_titles(&c);
	c.as_points = c.bars && c.logy;
	chart_ranges(&c);
	out->coincide = chart_coincide(&c);
	chart_styles(&c);
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
	int rc = chart_draw(&c, site_dir, &gp, &csv, deferred, out);
	if (pk->overlay)
		chart_overlay_words(pk, out);
	chart_free(&c);
	buf_free(&gp);
	buf_free(&csv);
	return rc;
}

int plot_render(struct plot_memo *memo, const struct chart_pick *pk,
                const char *path, const struct bundle_view *v,
                const char *site_dir, struct plot *out)
{
	return plot_make(memo, pk, path, v, site_dir, 0, out);
}

char *plot_prepare(struct plot_memo *memo, const struct chart_pick *pk,
                   const char *path, const struct bundle_view *v,
                   const char *site_dir)
{
	struct plot p;
	char *name = NULL;
	int rc = plot_make(NULL, pk, path, v, site_dir, 1, &p);
	if (rc == 0 && p.pending)
		name = xasprintf("%s.gp", pk->d.id);
	/* A chart that failed is made again where its page shows it. */
	if (rc == 0 && p.svg) {
		*ARRAY_PUSH(memo->v, memo->n) =
			(struct memo){pk->src, v, xstrdup(site_dir), p};
	} else {
		plot_free(&p);
	}
	return name;
}
