/*
 * gnuplot.h - a chart's files and their drawing (gnuplot.c): the layout of
 * its two drawings, its CSV, the self-contained gnuplot script, and
 * gnuplot run on it, alone or on many scripts at once.
 */
#ifndef LB_GNUPLOT_H
#define LB_GNUPLOT_H

#include <stddef.h>

#include "base/buf.h"
#include "render/chart.h"

/* Is gnuplot on PATH? (asked once) */
int plot_available(void);
/* Key, rotated category names and height of drawing w (WIDE, NARROW). */
void chart_layout(struct chart *c, int w);
/* The CSV of the points: one row per point. */
void chart_csv(const struct chart *c, struct buf *csv);
/* The gnuplot script that draws both SVGs, data inline. */
void chart_script(const struct chart *c, const char *bundle_dir,
                  struct buf *gp);
/*
 * Write the CSV and the script under site_dir/fig, setting out's paths.
 * Deferred (plot_prepare), leave the drawing to plot_draw when the script
 * changed (out->pending); else run gnuplot when it changed (out->drawn,
 * out->redrawn, out->note without gnuplot). 0, or -1 with out->error and
 * out->problem, what the build must report.
 */
int chart_draw(const struct chart *c, const char *site_dir,
               const struct buf *gp, const struct buf *csv, int deferred,
               struct plot *out);
/* Draw the scripts names (n of them, under site_dir/fig) with one gnuplot
 * process, each from gnuplot's defaults. 0, or -1 when any failed. */
int plot_draw(const char *site_dir, char *const *names, size_t n);
/* Are both drawings of chart id (fig/ID.svg and fig/ID-narrow.svg) in
 * site_dir, finished (chart_svg.h: fig/ID.box)? */
int plot_drawn(const char *site_dir, const char *id);

#endif
