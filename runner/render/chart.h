/*
 * chart.h - one chart as drawn, and what every file that makes a chart
 * reads of it (chart.c). Its points are picked by the judge
 * (judge/chart_pick.h); plot.c styles them and places them on axes,
 * plot_words.c says in words what they show, gnuplot.c writes the chart's
 * files and draws it; each reads the chart through this header, and none
 * of them is called back by a file below it.
 */
#ifndef LB_CHART_H
#define LB_CHART_H

#include <stddef.h>

#include "book/chapter.h"
#include "judge/chart_pick.h"

/* The two drawings: wide, and narrow for phones (same text size). */
enum { WIDE, NARROW };
/* Each drawing's width in CSS pixels, by WIDE and NARROW. */
extern const int chart_width[2];
#define CHART_FONT_PX 13
/* One thing of a drawing that answers a hover (chart_svg.h): a point, or
 * a bar, where it lies as fractions of the plot area (from its left and
 * its bottom), and what it says. */
struct hover {
	double fx, fy; /* the point, or the middle of the bar's top */
	double fw, fb; /* a bar's width and the height of its base; 0: a point */
	size_t series; /* index into struct plot's layer_titles */
	char *title;   /* plain text, lines joined by '\n' */
};

/* A chart made (plot.h): its files, its size, and what is said of it. */
struct plot {
	char *svg; /* paths relative to the site folder */
	char *svg_narrow;
	char *csv;
	char *gp;
	int width, height;               /* of svg, in CSS pixels */
	int narrow_width, narrow_height; /* of svg_narrow */
	size_t npoints;
	size_t nwrong;  /* records marked "correct": false, left out */
	int drawn;      /* both SVGs exist */
	int redrawn;    /* gnuplot ran in this build */
	int pending;    /* plot_prepare: written, to be drawn by plot_draw */
	char *alt;      /* the chart in words, plain text; NULL without points */
	char *coincide; /* "ILP 4 and 8 coincide.", plain text, or NULL */
	char *error;    /* why there is no chart (a chapter error, or no data),
	                   as its page shows it */
	char *problem;  /* gnuplot failed: what the build reports, or NULL */
	char *note;     /* a caveat shown under the chart, or NULL */
	/* What labbook writes over gnuplot's drawing (chart_svg.h). */
	char *svg_title;     /* the chart's title, else its caption, else id */
	char **layer_titles; /* each plot's words, in the order gnuplot draws */
	size_t nlayers;
	size_t nruns;        /* the first layers: the runs' spreads (overlays) */
	size_t nseries;      /* then the series */
	int marks;           /* then one layer of rings, if any; then limits */
	struct hover *hover;
	size_t nhover;
	char *values;     /* every point as rows of a table (HTML), or NULL */
	double *limit_fy; /* each limit's height in the plot area (0 to 1), the
	                     last nlimits layers' */
	size_t nlimits;
	double box[2][4]; /* the plot area of each drawing, in pixels from
	                     the top left: left, right, top, bottom */
	int boxed;        /* box is known */
};

/* Where a limit's words go in a drawing (chart_roofs.h): beside its line,
 * or in the key. */
enum { ROOF_ABOVE, ROOF_BELOW, ROOF_KEY };

struct limit {
	double v;
	char *text; /* "HBM3 theoretical 3352 GB/s" */
	const char *color, *dash;
	int at[2];  /* where its words go, by WIDE and NARROW */
};

struct judged_opt; /* judge.h */

struct chart {
	const struct directive *d;
	const struct judged_opt *jo;   /* d's options judged on its bundle */
	const char *mark_title;        /* an overlay's words for its rings,
	                                  or NULL: no overlay */
	size_t nmarked;                /* points with mark set */
	const char *path, *xf, *yf, *sf;
	const char *xlabel, *ylabel, *xunit, *yunit;
	double yscale;   /* y-scale:, what every y and limit is multiplied by */
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

/* The label: line of c for value (a series' key or a category), or NULL
 * (borrowed from c). */
struct label *chart_label_find(const struct chart *c, const char *value);
/* The words for category k (label:, else its value). */
const char *chart_cat_title(const struct chart *c, size_t k);
/* The series in the order they are drawn, greyed ones first (so those
 * the text discusses lie on top): order[i] is an index into c->ser, and
 * order holds c->nser of them. */
void chart_draw_order(const struct chart *c, size_t *order);
/* v on an axis with this log base (0: linear), as drawn. */
double chart_axis_t(double v, int logb);
/* A round step (1, 2, 2.5, 5 x 10^k) that cuts span into at most n parts. */
double chart_nice_step(double span, int n);

#endif
