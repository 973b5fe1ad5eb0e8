/*
 * plot_words.c - a chart in words, said from the points it draws: its text
 * alternative, the note on series that coincide, and the numbers, values
 * and lists those sentences (and the chart's labels) are written with.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "render/plot_words.h"
#include "base/util.h"

/* ---- words ------------------------------------------------------------------ */

void chart_num_put(struct buf *b, double x)
{
	if (x == floor(x) && fabs(x) < 1e15)
		buf_printf(b, "%.0f", x);
	else if (fabs(x) >= 1e15)
		buf_printf(b, "%.4g", x); /* as the book writes a number */
	else if (fabs(x) >= 100)
		buf_printf(b, "%.0f", x);
	else if (fabs(x) >= 10)
		buf_printf(b, "%.1f", x);
	else
		buf_printf(b, "%.3g", x);
}

void chart_value_put(struct buf *b, double v, const char *unit)
{
	if (unit && !strcmp(unit, "bytes")) {
		static const char *const pre[] = {"B", "KiB", "MiB", "GiB", "TiB",
		                                  "PiB"};
		size_t k = 0;
		while (fabs(v) >= 1024 && k + 1 < sizeof pre / sizeof pre[0]) {
			v /= 1024;
			k++;
		}
		chart_num_put(b, v);
		buf_printf(b, " %s", pre[k]);
		return;
	}
	chart_num_put(b, v);
	if (unit)
		buf_printf(b, " %s", unit);
}

char *plot_value_text(double v, const char *unit)
{
	struct buf b = BUF_INIT;
	chart_value_put(&b, v, unit);
	return buf_detach(&b);
}

/* "A, B and C" into b. */
static void list_put(struct buf *b, char **items, size_t n)
{
	/* Items with commas of their own are kept apart by semicolons. */
	int semi = 0;
	for (size_t i = 0; i < n; i++)
		semi |= strchr(items[i], ',') != NULL;
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_puts(b, i + 1 == n ? (semi && n > 2 ? "; and " : " and ")
			                       : semi ? "; " : ", ");
		buf_puts(b, items[i]);
	}
}

/* series-label: "ILP %s" with text where %s is. */
char *chart_series_format(const char *fmt, const char *text)
{
	const char *at = strstr(fmt, "%s");
	return xasprintf("%.*s%s%s", (int)(at - fmt), fmt, text, at + 2);
}

/* ---- what the chart says ------------------------------------------------------ */

/*
 * Series that lie on each other: at every x both draw, the points' spreads
 * (or, without one, a sliver of the axis) overlap. Plain text, or NULL.
 */
char *chart_coincide(struct chart *c)
{
	for (size_t s = 0; s < c->nser; s++)
		c->ser[s].group = s;
	if (c->bars || c->nser < 2)
		return NULL;
	size_t *group = xmalloc(c->nser * sizeof *group);
	for (size_t s = 0; s < c->nser; s++)
		group[s] = s;
	double span = chart_axis_t(c->yhi, c->logy) - chart_axis_t(c->ylo, c->logy);
	double tol = 0.006 * span;
	for (size_t a = 0; a < c->nser; a++)
		for (size_t b = a + 1; b < c->nser; b++) {
			const struct series *sa = &c->ser[a], *sb = &c->ser[b];
			size_t shared = 0, apart = 0;
			for (size_t i = 0, j = 0; i < sa->n && j < sb->n;) {
				const struct point *p = &sa->pts[i], *q = &sb->pts[j];
				if (p->x < q->x) {
					i++;
				} else if (q->x < p->x) {
					j++;
				} else {
					double plo = fmin(p->lo, p->y), phi = fmax(p->hi, p->y);
					double qlo = fmin(q->lo, q->y), qhi = fmax(q->hi, q->y);
					if (c->logy && (plo <= 0 || qlo <= 0))
						apart++;
					else if (chart_axis_t(plo, c->logy) - tol >
					             chart_axis_t(qhi, c->logy) ||
					         chart_axis_t(qlo, c->logy) - tol >
					             chart_axis_t(phi, c->logy))
						apart++;
					shared++;
					i++;
					j++;
				}
			}
			if (shared >= 2 && !apart && 2 * shared >= sa->n &&
			    2 * shared >= sb->n) {
				size_t ga = group[a], gb = group[b];
				for (size_t s = 0; s < c->nser; s++)
					if (group[s] == gb)
						group[s] = ga;
			}
		}
	struct buf out = BUF_INIT;
	const char *fmt = dir_opt(c->d, "series-label");
	for (size_t g = 0; g < c->nser; g++) {
		char **names = NULL;
		size_t n = 0, plain = 1;
		for (size_t s = 0; s < c->nser; s++)
			if (group[s] == g) {
				*ARRAY_PUSH(names, n) = c->ser[s].key;
				for (size_t i = 0; i < c->nlabels; i++)
					plain &= strcmp(c->labels[i].value, c->ser[s].key) != 0;
			}
		if (n >= 2) {
			struct buf l = BUF_INIT;
			if (!(plain && fmt))
				for (size_t i = 0, k = 0; i < c->nser; i++)
					if (group[i] == g)
						names[k++] = c->ser[i].title;
			list_put(&l, names, n);
			/* Bare values ("4 and 8") are named by the series field. */
			char *t = plain && fmt ? chart_series_format(fmt, l.data)
			          : !c->nlabels && !fmt ? xasprintf("%s %s", c->sf, l.data)
			                                : buf_detach(&l);
			buf_printf(&out, "%s%s coincide.", out.len ? " " : "", t);
			free(t);
			buf_free(&l);
		}
		free(names);
	}
	for (size_t s = 0; s < c->nser; s++)
		c->ser[s].group = group[s];
	free(group);
	return out.len ? buf_detach(&out) : NULL;
}

/* What the chart shows, in words, from the points it draws. */
char *chart_alt(const struct chart *c, const char *coincide)
{
	struct buf a = BUF_INIT;
	const char *yl = c->ylabel ? c->ylabel : c->yf;
	const char *xl = c->xlabel ? c->xlabel : c->xf;
	const struct series *top = NULL;
	const struct point *tp = NULL;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++)
			if (!tp || c->ser[s].pts[i].y > tp->y) {
				top = &c->ser[s];
				tp = &c->ser[s].pts[i];
			}
	const char *kind = c->as_points ? "Point" : c->bars ? "Bar" : "Line";
	if (c->bars && !c->sf) {
		buf_printf(&a, "%s chart of %s for each %s", kind, yl, xl);
		if (c->logy)
			buf_puts(&a, " (log scale)");
		buf_puts(&a, ": ");
		const struct series *s = &c->ser[0];
		for (size_t i = 0; i < s->n && i < 16; i++) {
			buf_printf(&a, "%s%s ", i ? ", " : "",
			           chart_cat_title(c, (size_t)s->pts[i].x));
			chart_value_put(&a, s->pts[i].y, c->yunit);
		}
		buf_puts(&a, s->n > 16 ? ", and more." : ".");
	} else {
		buf_printf(&a, "%s chart of %s against %s", kind, yl, xl);
		if (c->logx || c->logy)
			buf_printf(&a, " (log scale on %s)", c->logx ? (c->logy ? "both "
			           "axes" : "x") : "y");
		/* Bare values ("4") need the field's name to say what they are. */
		int bare = c->sf && !dir_opt(c->d, "series-label") && !c->nlabels;
		if (c->sf) {
			buf_printf(&a, ", one %s for each ", c->bars ? "bar" : "line");
			if (bare)
				buf_printf(&a, "%s: ", c->sf);
			else
				buf_puts(&a, "of ");
			char **t = NULL;
			size_t n = 0;
			for (size_t s = 0; s < c->nser && s < 12; s++)
				*ARRAY_PUSH(t, n) = c->ser[s].title;
			list_put(&a, t, n);
			free(t);
			if (c->nser > 12)
				buf_printf(&a, " and %zu more", c->nser - 12);
		}
		buf_puts(&a, ". The highest point is ");
		chart_value_put(&a, tp->y, c->yunit);
		buf_printf(&a, ", at %s ", xl);
		if (c->bars)
			buf_puts(&a, chart_cat_title(c, (size_t)tp->x));
		else
			chart_value_put(&a, tp->x, c->xunit);
		if (bare)
			buf_printf(&a, " (%s %s)", c->sf, top->title);
		else if (c->sf)
			buf_printf(&a, " (%s)", top->title);
		buf_puts(&a, ".");
		if (coincide)
			buf_printf(&a, " %s", coincide);
	}
	for (size_t i = 0; i < c->nlim; i++)
		buf_printf(&a, " A reference line marks %s.", c->lim[i].text);
	return buf_detach(&a);
}

void chart_overlay_words(const struct chart_pick *pk, struct plot *out)
{
	struct buf note = BUF_INIT;
	buf_printf(&note, "Machines overlaid: %s.", *pk->drawn ? pk->drawn
	                                                        : "none");
	if (*pk->missing)
		buf_printf(&note, " The data of this chart was not measured on %s.",
		           pk->missing);
	if (pk->runs)
		buf_puts(&note, " Thick bars span the medians of each point's runs; "
		                "whiskers, where drawn, its slowest and fastest "
		                "repetition.");
	if (!pk->nmarked && pk->others) {
		buf_printf(&note, " No point drawn differs from %s beyond its "
		           "noise.", pk->base);
	} else if (pk->nmarked) {
		buf_printf(&note, " Ringed: %zu point%s slower or faster than on %s "
		           "beyond %s noise, by more than %s band (the Machines page "
		           "lists them all): %s", pk->nmarked, plural(pk->nmarked),
		           pk->base, pk->nmarked == 1 ? "its" : "their",
		           pk->nmarked == 1 ? "its" : "their", pk->marked);
		if (pk->nmarked > CHART_MARKS_LISTED)
			buf_printf(&note, "; and %zu more",
			           pk->nmarked - CHART_MARKS_LISTED);
		buf_putc(&note, '.');
		if (out->alt) {
			char *alt = xasprintf("%s Ringed: %zu point%s judged beyond "
			                      "noise against %s, listed below the "
			                      "chart.", out->alt, pk->nmarked,
			                      plural(pk->nmarked), pk->base);
			free(out->alt);
			out->alt = alt;
		}
	}
	if (out->note)
		buf_printf(&note, " %s", out->note);
	free(out->note);
	out->note = buf_detach(&note);
}
