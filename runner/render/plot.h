/*
 * plot.h - charts: a {chart} directive and its records become a CSV file,
 * a self-contained gnuplot script (its data inline, so a reader can redraw
 * it) and two SVGs drawn by gnuplot from that one script, all under
 * <site>/fig/: ID.svg for wide screens and ID-narrow.svg, drawn narrower
 * with the same text size, for phones. A chart is redrawn only when its
 * script changed.
 *
 * The points are the judge's pick (judge/chart_pick.h), and everything
 * said about the chart comes from them: the SVGs, the alt text, the
 * caption's note on series that coincide, and an overlay's note on the
 * machines it draws. Its where: and limits are the judge's too.
 *
 * Styles: series take colours from Okabe and Ito's colour-blind-safe
 * palette, with a marker each and dashes once the colours run out, so no
 * two lines of a chart (limit lines included) share both colour and dash.
 * Limit lines are black or dark grey, each with its own dash, and each is
 * labelled at its right end with its text and value. With highlight:, the
 * series it names keep their colours and the others are drawn in grey.
 *
 * plot.c puts a chart together: chart.c holds what all its parts read,
 * plot_words.c says it in words, gnuplot.c writes and draws its files.
 */
#ifndef LB_PLOT_H
#define LB_PLOT_H

#include "base/record.h"
#include "book/chapter.h"

struct bundle_view; /* judge/view.h */
#include "render/chart.h"

/*
 * Draw the chart pk picked (judge/chart_pick.h), of chapter path, from
 * the records of v's bundle, into site_dir/fig, and describe it
 * (out->alt, out->coincide; struct plot is in chart.h) from the same
 * points, or take it from memo (NULL: none) where plot_prepare made it.
 * Returns 0, or -1 with out->error set: pk's problem (the judge reported
 * it), or gnuplot's failure (out->problem: the caller has it reported).
 * A missing gnuplot is not an error: out->note says so. The caller frees
 * out with plot_free.
 */
struct plot_memo;
int plot_render(struct plot_memo *memo, const struct chart_pick *pk,
                const char *path, const struct bundle_view *v,
                const char *site_dir, struct plot *out);
/* Free what out holds; NULL does nothing. */
void plot_free(struct plot *p);

/*
 * Charts drawn together: plot_prepare writes chart d's CSV and script as
 * plot_render does, and returns the script's name under site_dir/fig when
 * its SVGs must be drawn (caller frees), else NULL; it reports nothing.
 * plot_draw (gnuplot.h) then draws the named scripts with one gnuplot
 * process. plot_prepare keeps each chart it made in memo (the site's,
 * made with plot_memo_new), and plot_render takes it from there (same
 * directive, bundle and folder) rather than making it again, and draws and
 * reports one that is not drawn. plot_memo_free frees the memo and what
 * was not taken; NULL does nothing.
 */
char *plot_prepare(struct plot_memo *memo, const struct chart_pick *pk,
                   const char *path, const struct bundle_view *v,
                   const char *site_dir);
struct plot_memo *plot_memo_new(void);
void plot_memo_free(struct plot_memo *memo);

#endif
