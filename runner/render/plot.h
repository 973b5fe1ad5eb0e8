/*
 * plot.h - charts: a {chart} directive and its records become a CSV file,
 * a self-contained gnuplot script (its data inline, so a reader can redraw
 * it) and two SVGs drawn by gnuplot from that one script, all under
 * <site>/fig/: ID.svg for wide screens and ID-narrow.svg, drawn narrower
 * with the same text size, for phones. A chart is redrawn only when its
 * script changed.
 *
 * The points are selected once, and everything said about the chart comes
 * from that selection: the SVGs, the alt text and the caption's note on
 * series that coincide. Each limit expression is evaluated once.
 *
 * Styles: series take colours from Okabe and Ito's colour-blind-safe
 * palette, with a marker each and dashes once the colours run out, so no
 * two lines of a chart (limit lines included) share both colour and dash.
 * Limit lines are black or dark grey, each with its own dash, and each is
 * labelled at its right end with its text and value. With highlight:, the
 * series it names keep their colours and the others are drawn in grey.
 */
#ifndef LB_PLOT_H
#define LB_PLOT_H

#include <stddef.h>

#include "book/chapter.h"
#include "bundle/results.h"

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
	char *error;    /* why there is no chart (a chapter error, or no data) */
	char *note;     /* a caveat shown under the chart, or NULL */
};

/* Is gnuplot on PATH? (asked once) */
int plot_available(void);

/*
 * Draw chart d of chapter path from bundle b into site_dir/fig, and
 * describe it (out->alt, out->coincide) from the same points. Returns 0, or
 * -1 with out->error set (and reported) when the directive or its data is
 * wrong. A missing gnuplot is not an error: out->note says so. The caller
 * frees out with plot_free.
 */
int plot_render(const struct directive *d, const char *path, struct bundle *b,
                const char *site_dir, struct plot *out);
/* Free what out holds; NULL does nothing. */
void plot_free(struct plot *p);

/*
 * Charts drawn together: plot_prepare writes chart d's CSV and script as
 * plot_render does, and returns the script's name under site_dir/fig when
 * its SVGs must be drawn (caller frees), else NULL; it reports nothing.
 * plot_draw then draws the named scripts with one gnuplot process: 0, or
 * -1 when any failed. plot_render afterwards takes each chart plot_prepare
 * made (same directive, bundle and folder) rather than making it again,
 * and draws and reports one that is not drawn. plot_memo_clear frees what
 * was not taken.
 */
char *plot_prepare(const struct directive *d, const char *path,
                   struct bundle *b, const char *site_dir);
int plot_draw(const char *site_dir, char *const *names, size_t n);
void plot_memo_clear(void);
/* Are both drawings of chart id (fig/ID.svg and fig/ID-narrow.svg) in
 * site_dir? */
int plot_drawn(const char *site_dir, const char *id);

/*
 * A value of a chart axis in words: with unit "bytes", binary prefixes
 * ("4 MiB"); with another unit, the number and the unit ("3352 GB/s");
 * without, the number. Caller frees.
 */
char *plot_value_text(double v, const char *unit);

#endif
