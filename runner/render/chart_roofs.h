/*
 * chart_roofs.h - a chart's limit lines (its roofs): their values and
 * words, and where the words go (chart_roofs.c): beside the right end of each line, above or below it,
 * where they cover neither the data (lines, markers, bars, their error
 * bars and rings) nor another roof's words or line; a roof whose words fit
 * nowhere beside it is named in that drawing's key instead.
 */
#ifndef LB_CHART_ROOFS_H
#define LB_CHART_ROOFS_H

#include <stddef.h>

#include "base/buf.h"
#include "render/chart.h"

/* Each limit: of c's directive, as the judge valued it on this bundle
 * (c->jo), times c->yscale, with its words and value (struct limit); a
 * limit of a unit this card lacks is left out and said in out->note. */
void chart_limits(struct chart *c, struct plot *out);
/* Decide each limit's place in drawing w (struct limit's at[w]), from the
 * points and ranges of c. Returns how many are keyed there. */
size_t chart_roofs_place(struct chart *c, int w);
/* How many of the keyed roofs' words take two lines of drawing w's key,
 * being wider than it. */
size_t chart_roofs_wrapped(const struct chart *c, int w);
/* The gnuplot variables labbook_roofN, the title of limit N (from 1) in
 * drawing w: for a keyed one its words, on two lines where they are wider
 * than the key (chart_roofs_wrapped); for one beside its line, none. */
void chart_roofs_titles(struct buf *gp, const struct chart *c, int w,
                        void (*put)(struct buf *, const char *));
/* The gnuplot labels of drawing w (WIDE, NARROW) for the limits placed
 * beside their lines; text is written by put (gnuplot's string quoting). */
void chart_roofs_labels(struct buf *gp, const struct chart *c, int w,
                        void (*put)(struct buf *, const char *));

#endif
