/*
 * chart_svg.h - what labbook writes over gnuplot's drawings (chart_svg.c).
 *
 * gnuplot's SVG calls itself "Gnuplot" and its plots "gnuplot_plot_N";
 * labbook gives the drawing the chart's title and each plot the words of
 * its legend (or of its limit line). The page lays a transparent layer
 * over each drawing, at the plot area gnuplot reports: every point (or
 * bar) answers a hover with its series, x, y and unit, its spread and the
 * runs and repetitions behind it, in an SVG <title>, which browsers show
 * as a tooltip and screen readers read, without JavaScript. Each point
 * takes focus, by a tap or the keyboard, and templates/page.js shows the
 * focused point's words beside it. The same values, as a table, are
 * folded under the chart.
 *
 * A chart's drawing is finished when both SVGs are titled and its plot
 * area is kept in fig/ID.box; gnuplot leaves the area in fig/ID.area.
 */
#ifndef LB_CHART_SVG_H
#define LB_CHART_SVG_H

#include "base/buf.h"
#include "render/chart.h"

/* The titles, the hover layer's points and the table of values of chart
 * c, into out (its svg_title, layer_titles, hover and values; plot_free
 * frees them). */
void chart_hover_make(const struct chart *c, struct plot *out);
/*
 * Finish chart id's drawings in site_dir/fig, which gnuplot has just drawn:
 * title both SVGs from p, and keep the plot area gnuplot wrote (ID.area)
 * as ID.box, into p->box. 0, or -1 when a file is missing or unreadable
 * (the drawing then counts as not drawn).
 */
int chart_svg_finish(const char *site_dir, const char *id, struct plot *p);
/* Read chart id's kept plot area into p->box; 0 or -1. */
int chart_box_read(const char *site_dir, const char *id, struct plot *p);
/* The points of p as a table (its values, chart_hover_make's), folded
 * under label (plain text) in <details id="values-ID">; nothing when p has
 * no points. */
void chart_values_html(const struct plot *p, const char *id,
                       const char *label, struct buf *out);
/* The hover layer of p, for its wide and its narrow drawing, as HTML to
 * lay over its <picture>; nothing when p has no plot area or no points. */
void chart_hover_html(const struct plot *p, struct buf *out);

#endif
