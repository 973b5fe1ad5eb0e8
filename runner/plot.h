/*
 * plot.h - charts: a {chart} directive and its records become a CSV file,
 * a self-contained gnuplot script (its data inline, so a reader can redraw
 * it) and an SVG drawn by gnuplot, all under <site>/fig/. A chart is
 * redrawn only when its script changed.
 */
#ifndef LB_PLOT_H
#define LB_PLOT_H

#include <stddef.h>

#include "chapter.h"
#include "results.h"

struct plot {
	char *svg; /* paths relative to the site folder */
	char *csv;
	char *gp;
	size_t npoints;
	size_t nwrong;  /* records marked "correct": false, left out */
	int drawn;      /* the SVG exists */
	int redrawn;    /* gnuplot ran in this build */
	int pending;    /* plot_prepare: written, to be drawn by plot_draw */
	char *error;    /* why there is no chart (a chapter error, or no data) */
	char *note;     /* a caveat shown under the chart, or NULL */
};

/* Is gnuplot on PATH? (asked once) */
int plot_available(void);

/*
 * Draw chart d of chapter path from bundle b into site_dir/fig. Returns 0,
 * or -1 with out->error set (and reported) when the directive or its data
 * is wrong. A missing gnuplot is not an error: out->note says so.
 */
int plot_render(const struct directive *d, const char *path, struct bundle *b,
                const char *site_dir, struct plot *out);
void plot_free(struct plot *p);

/*
 * Charts drawn together: plot_prepare writes chart d's CSV and script as
 * plot_render does, and returns the script's name under site_dir/fig when
 * its SVG must be drawn (caller frees), else NULL; it reports nothing.
 * plot_draw then draws the named scripts with one gnuplot process: 0, or
 * -1 when any failed. plot_render afterwards finds each drawn chart up to
 * date, and draws and reports one that is not.
 */
char *plot_prepare(const struct directive *d, const char *path,
                   struct bundle *b, const char *site_dir);
int plot_draw(const char *site_dir, char *const *names, size_t n);

#endif
