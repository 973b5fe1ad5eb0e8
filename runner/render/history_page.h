/*
 * history_page.h - the History page (history.html): a bundle over the
 * commits that recorded it (judge/history_site.h). The recordings, each with
 * its machine, what changed and how many points moved; the steps, each
 * point judged beyond noise against the recording before it, with its
 * size, band, commit and what changed (those across a change of machine
 * apart, not as regressions); and per experiment a chart of its points'
 * medians with their spread over the recordings.
 *
 *   history_page.c   the page and its tables
 *   history_chart.c  the charts, drawn here as SVG in the page
 */
#ifndef LB_HISTORY_PAGE_H
#define LB_HISTORY_PAGE_H

#include "base/buf.h"
#include "base/compared.h"
#include "judge/history_site.h"
#include "render/render.h"

/* The content of history.html, from s->o->history: HTML appended to out
 * (book_pages.c writes the page). */
void history_page_html(const struct site_ctx *s, struct buf *out);

/*
 * The chart of experiment id over the recordings, as an SVG element
 * appended to out, and its legend (HTML, a swatch before each name) to
 * legend: each point's median relative to its latest recording,
 * with its spread; where the experiment has many points, the median of
 * them with the band that holds most, and the points that stepped drawn
 * on their own. Recordings after a change of machine are marked. Returns
 * how many points it drew on their own.
 */
size_t history_chart_svg(const struct history_site *hs, const char *id,
                         struct buf *out, struct buf *legend);

#endif
