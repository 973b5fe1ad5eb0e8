/*
 * plot_words.h - a chart in words (plot_words.c): its text alternative,
 * the note on series that coincide, and the numbers and values those
 * sentences, the axes' ticks and the limit lines are written with.
 */
#ifndef LB_PLOT_WORDS_H
#define LB_PLOT_WORDS_H

#include "base/buf.h"
#include "render/chart.h"

/* Append x as a chart writes a number: whole numbers whole, others to
 * three figures. */
void chart_num_put(struct buf *b, double x);
/* Append v with its unit, as plot_value_text says it. */
void chart_value_put(struct buf *b, double v, const char *unit);
/*
 * A value of a chart axis in words: with unit "bytes", binary prefixes
 * ("4 MiB"); with another unit, the number and the unit ("3352 GB/s");
 * without, the number. Caller frees.
 */
char *plot_value_text(double v, const char *unit);
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

/* An overlay's note under its chart (out->note, before what is there):
 * the machines drawn and those lacking the data, what its bars mean, and
 * the points judged beyond noise against the base, also counted in
 * out->alt. */
void chart_overlay_words(const struct chart_pick *pk, struct plot *out);

#endif
