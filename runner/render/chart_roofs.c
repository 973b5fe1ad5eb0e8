/*
 * chart_roofs.c - a chart's limit lines (chart_roofs.h): their values and
 * words, and where the words go. Each drawing is seen as gnuplot lays it out: a plot
 * area of known pixels, the labels right-aligned at its right end, the
 * text CHART_FONT_PX high. A label is tried above its line, then below,
 * against every piece of data in its box and every label and line of the
 * other roofs; one that fits in neither place goes to the drawing's key.
 */
#include "render/chart_roofs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "judge/judge.h"
#include "render/plot_words.h"

/* A label's height and its gap from its line, in pixels; a marker's
 * radius (a ring's, round a point beyond noise). */
#define LABEL_H 15.0
#define LABEL_GAP 3.0
#define MARKER_R 5.0
#define RING_R 10.0

/* One drawing's plot area, and the box a label would take, in pixels from
 * the plot area's bottom left. */
struct area {
	const struct chart *c;
	double w, h;
	double x0, x1, y0, y1; /* the box */
};

static double px_x(const struct area *a, double x)
{
	const struct chart *c = a->c;
	double t0 = chart_axis_t(c->xmin, c->logx), t1 = chart_axis_t(c->xmax, c->logx);
	return (chart_axis_t(x, c->logx) - t0) / (t1 - t0) * a->w;
}

static double px_y(const struct area *a, double y)
{
	const struct chart *c = a->c;
	if (c->logy && y <= 0)
		return 0;
	double t0 = chart_axis_t(c->ylo, c->logy), t1 = chart_axis_t(c->yhi, c->logy);
	return (chart_axis_t(y, c->logy) - t0) / (t1 - t0) * a->h;
}

/* Does the segment from (x0, y0) to (x1, y1), widened by r, cross the box?
 * (Liang and Barsky's clipping against the box grown by r.) */
static int seg_hits(const struct area *a, double x0, double y0, double x1,
                    double y1, double r)
{
	double p[4] = {-(x1 - x0), x1 - x0, -(y1 - y0), y1 - y0};
	double q[4] = {x0 - (a->x0 - r), (a->x1 + r) - x0, y0 - (a->y0 - r),
	               (a->y1 + r) - y0};
	double lo = 0, hi = 1;
	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return 0;
			continue;
		}
		double t = q[i] / p[i];
		if (p[i] < 0)
			lo = fmax(lo, t);
		else
			hi = fmin(hi, t);
		if (lo > hi)
			return 0;
	}
	return 1;
}

void chart_limits(struct chart *c, struct plot *out)
{
	const struct directive *d = c->d;
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "limit"))
			continue;
		const struct judged_opt *jo = &c->jo[i];
		if (!jo->ok && !jo->need_cc) /* no chart: judge/chart_pick.c */
			continue;
		char *spec = xstrdup(d->opts[i].value), *bar = strchr(spec, '|');
		*(bar ? bar : spec + strlen(spec)) = '\0';
		const char *label = str_trim(bar ? bar + 1 : spec);
		double v = jo->num * c->yscale;
		/* A unit this card lacks, or a place a log axis lacks: not
		 * drawn, and the note under the chart says why. */
		char *why = !jo->ok ? xstrdup(jo->why)
		            : c->logy && v <= 0
		                ? xasprintf("at %g, it lies where a log axis has no "
		                            "place", v)
		                : NULL;
		if (why) {
			char *note = xasprintf("%s%s%s is not drawn: %s.", out->note ?
			                       out->note : "", out->note ? " " : "",
			                       label, why);
			free(out->note);
			out->note = note;
			free(why);
		} else {
			struct buf t = BUF_INIT;
			buf_puts(&t, label);
			buf_putc(&t, ' ');
			chart_value_put(&t, v, c->yunit);
			struct limit *l = ARRAY_PUSH(c->lim, c->nlim);
			l->v = v;
			l->text = buf_detach(&t);
		}
		free(spec);
	}
}

/* Does any data of the chart lie in the box? */
static int data_hits(const struct area *a)
{
	const struct chart *c = a->c;
	int bars = c->bars && !c->as_points;
	double bw = 0.8 / (double)c->nser;
	for (size_t s = 0; s < c->nser; s++) {
		const struct series *sr = &c->ser[s];
		for (size_t i = 0; i < sr->n; i++) {
			const struct point *p = &sr->pts[i];
			double xv = p->x;
			if (c->bars)
				xv += ((double)s - (c->nser - 1) / 2.0) * bw;
			double x = px_x(a, xv), y = px_y(a, p->y);
			double top = fmax(y, p->has_err ? px_y(a, p->hi) : y);
			double bot = fmin(y, p->has_err ? px_y(a, p->lo) : y);
			if (p->has_run) {
				top = fmax(top, px_y(a, p->run_hi));
				bot = fmin(bot, px_y(a, p->run_lo));
			}
			if (bars) {
				double half = bw / 2 * a->w / (c->xmax - c->xmin);
				if (x + half >= a->x0 && x - half <= a->x1 && top >= a->y0 &&
				    px_y(a, 0) <= a->y1)
					return 1;
			} else if (seg_hits(a, x, bot, x, top, MARKER_R)) {
				return 1;
			}
			if (p->mark && seg_hits(a, x, y, x, y, RING_R))
				return 1;
			if (!c->bars && i + 1 < sr->n && !(c->logy && (p->y <= 0 || p[1].y <= 0)) &&
			    seg_hits(a, x, y, px_x(a, p[1].x), px_y(a, p[1].y), 1.5))
				return 1;
		}
	}
	return 0;
}

/* The box of limit l's label, above or below its line in a's drawing; 0
 * when it leaves the plot area. */
static int label_box(struct area *a, const struct limit *l, int at)
{
	double y = px_y(a, l->v);
	double len = strlen(l->text) * CHART_FONT_PX * 0.6 + 6;
	a->x1 = 0.99 * a->w;
	a->x0 = a->x1 - len;
	a->y0 = at == ROOF_ABOVE ? y + LABEL_GAP : y - LABEL_GAP - LABEL_H;
	a->y1 = a->y0 + LABEL_H;
	return a->x0 >= 0 && a->y0 >= 0 && a->y1 <= a->h;
}

/* Limits from the highest down; order holds c->nlim indices. */
static void by_height(const struct chart *c, size_t *order)
{
	for (size_t i = 0; i < c->nlim; i++)
		order[i] = i;
	for (size_t i = 1; i < c->nlim; i++)
		for (size_t j = i; j > 0 && c->lim[order[j]].v > c->lim[order[j - 1]].v;
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/*
 * Place the labels of drawing w, those not yet keyed: each where its box
 * meets no data, no label placed before it and no other limit's line.
 * Returns 0, or -1 with the first that fits nowhere keyed.
 */
static int place(struct chart *c, int w, const size_t *order)
{
	struct area a = {c, chart_width[w] - 100, (w == WIDE ? 400 : 330) - 110,
	                 0, 0, 0, 0};
	double (*boxes)[2] = xcalloc(c->nlim + 1, sizeof *boxes);
	size_t nbox = 0;
	int rc = 0;
	for (size_t k = 0; k < c->nlim && rc == 0; k++) {
		struct limit *l = &c->lim[order[k]];
		if (l->at[w] == ROOF_KEY || (c->logy && l->v <= 0))
			continue;
		int fits = 0;
		for (int at = ROOF_ABOVE; at <= ROOF_BELOW && !fits; at++) {
			if (!label_box(&a, l, at) || data_hits(&a))
				continue;
			fits = 1;
			for (size_t b = 0; b < nbox; b++)
				fits &= a.y1 + 2 <= boxes[b][0] || a.y0 - 2 >= boxes[b][1];
			for (size_t m = 0; m < c->nlim; m++) {
				double y = px_y(&a, c->lim[m].v);
				fits &= &c->lim[m] == l || y < a.y0 - 1 || y > a.y1 + 1;
			}
			if (fits) {
				l->at[w] = at;
				boxes[nbox][0] = a.y0;
				boxes[nbox++][1] = a.y1;
			}
		}
		if (!fits) {
			l->at[w] = ROOF_KEY;
			rc = -1;
		}
	}
	free(boxes);
	return rc;
}

size_t chart_roofs_place(struct chart *c, int w)
{
	size_t *order = xmalloc((c->nlim + 1) * sizeof *order), n = 0;
	by_height(c, order);
	for (size_t i = 0; i < c->nlim; i++)
		c->lim[i].at[w] = ROOF_ABOVE;
	/* A label keyed frees room for the others: place them all again. */
	while (place(c, w, order) != 0)
		;
	for (size_t i = 0; i < c->nlim; i++)
		n += c->lim[i].at[w] == ROOF_KEY;
	free(order);
	return n;
}

/* Where the words of l break in drawing w's key: the last space that
 * leaves the first line short enough, or 0 when they fit on one line. */
static size_t roof_break(const struct limit *l, int w)
{
	size_t fit = (size_t)((chart_width[w] - 170) / (CHART_FONT_PX * 0.62));
	size_t len = strlen(l->text), at = 0;
	if (len <= fit)
		return 0;
	for (size_t i = 1; i < len && i <= fit; i++)
		if (l->text[i] == ' ')
			at = i;
	return at;
}

size_t chart_roofs_wrapped(const struct chart *c, int w)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nlim; i++)
		n += c->lim[i].at[w] == ROOF_KEY && roof_break(&c->lim[i], w) != 0;
	return n;
}

void chart_roofs_titles(struct buf *gp, const struct chart *c, int w,
                        void (*put)(struct buf *, const char *))
{
	for (size_t i = 0; i < c->nlim; i++) {
		const struct limit *l = &c->lim[i];
		size_t at = roof_break(l, w);
		buf_printf(gp, "labbook_roof%zu = ", i + 1);
		if (l->at[w] != ROOF_KEY) {
			buf_puts(gp, "''");
		} else if (at) {
			char *first = xstrndup(l->text, at);
			put(gp, first);
			buf_puts(gp, ".\"\\n\".");
			put(gp, l->text + at + 1);
			free(first);
		} else {
			put(gp, l->text);
		}
		buf_putc(gp, '\n');
	}
}

void chart_roofs_labels(struct buf *gp, const struct chart *c, int w,
                        void (*put)(struct buf *, const char *))
{
	buf_puts(gp, "unset label\n");
	for (size_t i = 0, k = 0; i < c->nlim; i++) {
		const struct limit *l = &c->lim[i];
		if (l->at[w] == ROOF_KEY || (c->logy && l->v <= 0))
			continue;
		buf_printf(gp, "set label %zu ", ++k);
		put(gp, l->text);
		buf_printf(gp, " at graph 0.99, first %.10g right front offset 0,%s "
		           "tc rgb '%s'\n", l->v,
		           l->at[w] == ROOF_BELOW ? "-0.75" : "0.75", l->color);
	}
}
