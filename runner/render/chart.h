/*
 * chart.h - the points of one chart, private to plot.c, which selects and
 * styles them, plot_words.c, which says in words what they show, and
 * gnuplot.c, which writes the chart's files and draws it.
 */
#ifndef LB_CHART_H
#define LB_CHART_H

#include <stddef.h>

#include "base/buf.h"
#include "book/chapter.h"
#include "render/plot.h"

/* The two drawings: wide, and narrow for phones (same text size). */
enum { WIDE, NARROW };
extern const int chart_width[2];
#define CHART_FONT_PX 13

struct point {
	double x, y, lo, hi;
	int has_err;
};

struct series {
	char *key;   /* the series field's value */
	char *title; /* the legend's words */
	struct point *pts;
	size_t n;
	int err_bars;
	const char *color, *dash;
	int marker;
	int highlight; /* named by highlight: */
	int grey;      /* drawn in grey: highlight: names others */
	size_t group;  /* the first series this one coincides with, or itself */
};

struct limit {
	double v;
	char *text; /* "HBM3 theoretical 3352 GB/s" */
	const char *color, *dash;
};

struct label {
	char *value, *words;
	int line, used;
};

struct chart {
	const struct directive *d;
	const char *path, *xf, *yf, *sf;
	const char *xlabel, *ylabel, *xunit, *yunit;
	int logx, logy;  /* the base, or 0 */
	int bars;        /* x is a category */
	int as_points;   /* categories on a log axis: points, never bars */
	char **cats;     /* category values, in record order */
	size_t ncats;
	struct series *ser;
	size_t nser;
	struct limit *lim;
	size_t nlim;
	struct label *labels;
	size_t nlabels;
	double xmin, xmax, ylo, yhi; /* the ranges drawn */
	int key_rows[2], key_cols[2], xextra[2], xrot[2], height[2];
};


/* ---- plot.c ---- */
/* Report msg at path:line once, keep it as out->error; returns -1. */
int chart_fail(struct plot *out, const char *path, int line, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));
/* The words for category k (label:, else its value). */
const char *chart_cat_title(const struct chart *c, size_t k);
/* v on an axis with this log base (0: linear), as drawn. */
double chart_axis_t(double v, int logb);
/* A round step (1, 2, 2.5, 5 x 10^k) that cuts span into at most n parts. */
double chart_nice_step(double span, int n);

/* ---- plot_words.c ---- */
/* A number as the book writes one; with a unit (see plot_value_text). */
void chart_num_put(struct buf *b, double x);
void chart_value_put(struct buf *b, double v, const char *unit);
/* A series-label: format ("ILP %s") with text where its %s is. Caller
 * frees. */
char *chart_series_format(const char *fmt, const char *text);
/*
 * Group the series that lie on each other (each series' group: the first
 * it coincides with, or itself), and say which in plain text ("ILP 4 and
 * 8 coincide."), or NULL when none do. Caller frees. Needs the ranges.
 */
char *chart_coincide(struct chart *c);
/* The chart's text alternative: what it shows, from the points it draws,
 * with coincide (chart_coincide's, or NULL) said in it. Caller frees. */
char *chart_alt(const struct chart *c, const char *coincide);

/* ---- gnuplot.c ---- */
/* Key, rotated category names and height of drawing w (WIDE, NARROW). */
void chart_layout(struct chart *c, int w);
/* The CSV of the points: one row per point. */
void chart_csv(const struct chart *c, struct buf *csv);
/* The gnuplot script that draws both SVGs, data inline. */
void chart_script(const struct chart *c, const char *bundle_dir,
                  struct buf *gp);
/*
 * Write the CSV and the script under site_dir/fig, and run gnuplot when the
 * script changed (setting out's paths, drawn, redrawn, note). 0 or -1.
 */
/* gnuplot.c: plot_prepare's chart for d, when it made one. 1 or 0. */
int plot_memo_take(const struct directive *d, const struct bundle *b,
                   const char *site_dir, struct plot *out);
int chart_draw(const struct chart *c, const char *site_dir,
               const struct buf *gp, const struct buf *csv, struct plot *out);

#endif
