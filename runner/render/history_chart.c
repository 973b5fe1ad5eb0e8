/*
 * history_chart.c - the History page's chart of one experiment over the
 * recordings (history_page.h), drawn as SVG in the page: it needs no
 * tool, and it sits on the white card the book's charts sit on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/history_page.h"
#include "base/util.h"

#define NONE ((size_t)-1)
/* An experiment with at most this many timed points has each drawn. */
#define EACH_MAX 8
/* Of a larger one, at most this many points that stepped are drawn. */
#define STEPPED_MAX 6
#define W 760.0
#define H 300.0
#define ML 58.0
#define MR 30.0
#define MT 22.0
#define MB 40.0

static const char *palette[] = {"#0b5cad", "#b3261e", "#176c31", "#a34d00",
                                "#8f2a86", "#00838f", "#6d4c41", "#455a64"};

struct chart {
	const struct history_site *hs;
	size_t *xs;   /* the present entries, oldest first */
	size_t nx;
	double lo, hi; /* the y range, percent */
};

static double px(const struct chart *c, size_t x)
{
	return c->nx < 2 ? ML + (W - ML - MR) / 2
	                 : ML + (W - ML - MR) * (double)x / (double)(c->nx - 1);
}

static double py(const struct chart *c, double v)
{
	return MT + (H - MT - MB) * (c->hi - v) / (c->hi - c->lo);
}

/* A series' median at entry e relative to its latest, in percent. */
static double rel(const struct history_series *s, size_t e, double ref,
                  const double *v)
{
	(void)s;
	return isnan(v[e]) ? NAN : (v[e] / ref - 1) * 100;
}

static double series_ref(const struct history_series *s, const struct chart *c)
{
	for (size_t x = c->nx; x-- > 0;)
		if (!isnan(s->ms[c->xs[x]]))
			return s->ms[c->xs[x]];
	return NAN;
}

/* The q-quantile of v[0..n) (sorted), interpolated. */
static double quantile(const double *v, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t i = (size_t)at;
	return i + 1 < n ? v[i] + (v[i + 1] - v[i]) * (at - (double)i) : v[n - 1];
}

static void widen(struct chart *c, double v)
{
	if (isnan(v))
		return;
	if (v < c->lo)
		c->lo = v;
	if (v > c->hi)
		c->hi = v;
}

/* A step of 1, 2 or 5 times a power of ten that cuts span into about n. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void axes(const struct chart *c, struct buf *out)
{
	double step = nice_step(c->hi - c->lo, 5);
	buf_puts(out, "<g font-size=\"11\" fill=\"#5c6166\">");
	for (double v = ceil(c->lo / step) * step; v <= c->hi + step * 1e-9;
	     v += step) {
		double y = py(c, v);
		buf_printf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
		           "stroke=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor="
		           "\"end\">%+.*f%%</text>", ML, W - MR, y, y,
		           fabs(v) < step * 1e-6 ? "#9aa0a6" : "#e2e2dc", ML - 6,
		           y + 4, step < 1 ? (step < 0.1 ? 2 : 1) : 0,
		           fabs(v) < step * 1e-6 ? 0.0 : v);
	}
	double gap = c->nx > 1 ? (W - ML - MR) / (double)(c->nx - 1) : W;
	size_t every = gap >= 56 ? 1 : (size_t)ceil(56 / gap);
	for (size_t x = 0; x < c->nx; x++) {
		if (x % every && x != c->nx - 1)
			continue;
		buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		           px(c, x), H - MB + 16);
		buf_puts_html(out, c->hs->h->e[c->xs[x]].abbrev);
		buf_puts(out, "</text>");
	}
	buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
	           "recordings, oldest first (commit)</text>", ML + (W - ML - MR) / 2,
	           H - 6);
	buf_printf(out, "<text x=\"12\" y=\"%.1f\" text-anchor=\"middle\" "
	           "transform=\"rotate(-90 12 %.1f)\">time against the latest</text>",
	           MT + (H - MT - MB) / 2, MT + (H - MT - MB) / 2);
	buf_puts(out, "</g>\n");
}

/* A dashed line before each recording made on another machine. */
static int machine_marks(const struct chart *c, struct buf *out)
{
	const struct history_site *hs = c->hs;
	int any = 0;
	/* Words over a mark only where they fit beside the next. */
	int words = c->nx < 2 || (W - ML - MR) / (double)(c->nx - 1) >= 64;
	for (size_t x = 1; x < c->nx; x++) {
		size_t e = c->xs[x];
		if (!hs->j.machine[e] || hs->j.prev[e] == NONE)
			continue;
		char **mc = history_site_change(hs, hs->j.prev[e], e);
		int card = mc && !strncmp(mc[0], "card", 4);
		any = 1;
		double xm = (px(c, x - 1) + px(c, x)) / 2;
		buf_printf(out, "<g><title>");
		for (size_t i = 0; mc && mc[i]; i++) {
			buf_puts(out, i ? "; " : "");
			buf_puts_html(out, mc[i]);
		}
		buf_printf(out, "</title><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		           "y2=\"%.1f\" stroke=\"#a34d00\" stroke-opacity=\".6\" stroke-dasharray=\"4 3\"/>",
		           xm, xm, MT, H - MB);
		if (words)
			buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			           "fill=\"#a34d00\" text-anchor=\"middle\">%s</text>", xm,
			           MT - 6, card ? "new card" : "new driver");
		buf_puts(out, "</g>\n");
		for (size_t i = 0; mc && mc[i]; i++)
			free(mc[i]);
		free(mc);
	}
	return any;
}

/* One point's line, its spread as bars, each recording with its title. */
static void series_draw(const struct chart *c, const struct history_series *s,
                        const char *colour, struct buf *out)
{
	double ref = series_ref(s, c);
	struct buf line = BUF_INIT;
	buf_printf(out, "<g stroke=\"%s\" fill=\"%s\">", colour, colour);
	for (size_t x = 0; x <= c->nx; x++) {
		double v = x < c->nx ? rel(s, c->xs[x], ref, s->ms) : NAN;
		if (isnan(v)) {
			if (line.len > 1)
				buf_printf(out, "<polyline fill=\"none\" stroke-width=\"1.6\" "
				           "points=\"%s\"/>", line.data);
			buf_reset(&line);
			continue;
		}
		buf_printf(&line, "%s%.1f,%.1f", line.len ? " " : "", px(c, x), py(c, v));
	}
	for (size_t x = 0; x < c->nx; x++) {
		size_t e = c->xs[x];
		double v = rel(s, e, ref, s->ms);
		if (isnan(v))
			continue;
		double l = rel(s, e, ref, s->lo), h = rel(s, e, ref, s->hi);
		if (h - l > 0)
			buf_printf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\""
			           " stroke-width=\"1\"/>", px(c, x), px(c, x), py(c, l),
			           py(c, h));
		buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>",
		           px(c, x), py(c, v));
		buf_puts_html(out, s->point);
		buf_printf(out, " at %s: %.4g ms (%.4g\u2013%.4g), %+.2f%% against "
		           "the latest</title></circle>", c->hs->h->e[e].abbrev,
		           s->ms[e], s->lo[e], s->hi[e], v);
	}
	buf_puts(out, "</g>\n");
	buf_free(&line);
}

/* The largest step of series q that was not a change of machine, or 0. */
static double own_step(const struct history_site *hs, size_t q)
{
	double m = 0;
	for (size_t s = 0; s < hs->j.nsteps; s++)
		if (hs->j.steps[s].series == q && !hs->j.steps[s].machine &&
		    fabs(hs->j.steps[s].p.diff) > m)
			m = fabs(hs->j.steps[s].p.diff);
	return m;
}

struct pick {
	size_t q;
	double step;
};

static int cmp_pick(const void *a, const void *b)
{
	double x = ((const struct pick *)a)->step, y = ((const struct pick *)b)->step;
	return (x < y) - (x > y);
}

/* The median of many points and the band from their 10th to 90th
 * percentile, per recording. */
static void band_draw(const struct chart *c, const size_t *qs, size_t nq,
                      double *med, double *p10, double *p90, struct buf *out)
{
	struct buf up = BUF_INIT, down = BUF_INIT, mid = BUF_INIT;
	for (size_t x = 0; x < c->nx; x++) {
		if (isnan(med[x]))
			continue;
		buf_printf(&up, "%.1f,%.1f ", px(c, x), py(c, p90[x]));
		buf_printf(&mid, "%.1f,%.1f ", px(c, x), py(c, med[x]));
	}
	for (size_t x = c->nx; x-- > 0;)
		if (!isnan(med[x]))
			buf_printf(&down, "%.1f,%.1f ", px(c, x), py(c, p10[x]));
	if (up.len)
		buf_printf(out, "<polygon points=\"%s%s\" fill=\"#0b5cad\" "
		           "fill-opacity=\".14\" stroke=\"none\"/><polyline points=\"%s\""
		           " fill=\"none\" stroke=\"#0b5cad\" stroke-width=\"2\"/>\n",
		           up.data, down.data ? down.data : "", mid.data);
	for (size_t x = 0; x < c->nx; x++)
		if (!isnan(med[x]))
			buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill="
			           "\"#0b5cad\"><title>%s: the median of %zu points %+.2f%% "
			           "against their latest; most (10th to 90th percentile) "
			           "%+.2f%% to %+.2f%%</title></circle>\n", px(c, x),
			           py(c, med[x]), c->hs->h->e[c->xs[x]].abbrev, nq,
			           med[x], p10[x], p90[x]);
	(void)qs;
	buf_free(&up);
	buf_free(&down);
	buf_free(&mid);
}

size_t history_chart_svg(const struct history_site *hs, const char *id,
                         struct buf *out, struct buf *legend)
{
	struct chart c = {hs, NULL, 0, 0, 0};
	for (size_t i = 0; i < hs->h->n; i++)
		if (!hs->h->e[i].absent)
			*ARRAY_PUSH(c.xs, c.nx) = i;
	size_t *qs = NULL, nq = 0;
	for (size_t q = 0; q < hs->j.nseries; q++)
		if (!strcmp(hs->j.series[q].id, id))
			*ARRAY_PUSH(qs, nq) = q;
	int each = nq <= EACH_MAX;
	double *med = xcalloc(c.nx + 1, sizeof *med);
	double *p10 = xcalloc(c.nx + 1, sizeof *p10);
	double *p90 = xcalloc(c.nx + 1, sizeof *p90);
	double *vals = xcalloc(nq + 1, sizeof *vals);
	struct pick *picks = xcalloc(nq + 1, sizeof *picks);
	size_t npicks = 0;
	for (size_t i = 0; i < nq; i++) {
		double st = each ? 1 : own_step(hs, qs[i]);
		if (st > 0)
			picks[npicks++] = (struct pick){qs[i], st};
	}
	if (!each) {
		qsort(picks, npicks, sizeof *picks, cmp_pick);
		if (npicks > STEPPED_MAX)
			npicks = STEPPED_MAX;
		for (size_t x = 0; x < c.nx; x++) {
			size_t nv = 0;
			for (size_t i = 0; i < nq; i++) {
				const struct history_series *s = &hs->j.series[qs[i]];
				double v = rel(s, c.xs[x], series_ref(s, &c), s->ms);
				if (!isnan(v))
					vals[nv++] = v;
			}
			med[x] = p10[x] = p90[x] = NAN;
			if (!nv)
				continue;
			qsort(vals, nv, sizeof *vals, cmp_double);
			med[x] = quantile(vals, nv, 0.5);
			p10[x] = quantile(vals, nv, 0.1);
			p90[x] = quantile(vals, nv, 0.9);
			widen(&c, p10[x]);
			widen(&c, p90[x]);
		}
	}
	for (size_t i = 0; i < npicks; i++) {
		const struct history_series *s = &hs->j.series[picks[i].q];
		double ref = series_ref(s, &c);
		for (size_t x = 0; x < c.nx; x++) {
			widen(&c, rel(s, c.xs[x], ref, s->lo));
			widen(&c, rel(s, c.xs[x], ref, s->hi));
		}
	}
	double span = c.hi - c.lo;
	if (span < 2) {
		c.lo -= (2 - span) / 2;
		c.hi += (2 - span) / 2;
		span = 2;
	}
	c.lo -= span * 0.06;
	c.hi += span * 0.06;
	buf_printf(out, "<svg class=\"history-chart\" viewBox=\"0 0 %.0f %.0f\" "
	           "role=\"img\" aria-label=\"", W, H);
	buf_puts_html(out, id);
	buf_printf(out, ": %s over %zu recordings\" font-family=\"system-ui, "
	           "sans-serif\">\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>",
	           each ? "each point's median time" : "the median of its points' times",
	           c.nx, W, H);
	axes(&c, out);
	int marks = machine_marks(&c, out);
	if (!each)
		band_draw(&c, qs, nq, med, p10, p90, out);
	for (size_t i = 0; i < npicks; i++)
		series_draw(&c, &hs->j.series[picks[i].q],
		            palette[i % (sizeof palette / sizeof *palette)], out);
	buf_puts(out, "</svg>");
	if (!each)
		buf_printf(legend, "<span class=\"swatch band\"></span>the median of "
		           "its %zu points, and the band that holds 8 in 10 of them ",
		           nq);
	for (size_t i = 0; i < npicks; i++) {
		buf_printf(legend, "<span class=\"swatch\" style=\"background: %s\">"
		           "</span><code>", palette[i % (sizeof palette / sizeof *palette)]);
		buf_puts_html(legend, *hs->j.series[picks[i].q].point
		                          ? hs->j.series[picks[i].q].point
		                          : "(no parameters)");
		buf_puts(legend, "</code> ");
	}
	if (marks)
		buf_puts(legend, "<span class=\"swatch machine\"></span>a new card or "
		                 "driver");
	free(c.xs);
	free(qs);
	free(med);
	free(p10);
	free(p90);
	free(vals);
	size_t drawn = npicks;
	free(picks);
	return drawn;
}
