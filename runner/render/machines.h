/*
 * machines.h - the pages of several results bundles side by side (the
 * set, judge/machine_set.h): the Machines page (machines.html: facts per
 * machine, each experiment's median speed against the base, the points
 * beyond noise, and the claims matrix) and the charts that overlay the
 * machines (a {chart} with "machines: all" or a list of names).
 *
 *   machines_page.c   the Machines page
 *   machines_chart.c  the charts that overlay machines
 */
#ifndef LB_MACHINES_H
#define LB_MACHINES_H

#include <stddef.h>

#include "base/buf.h"
#include "book/book.h"
#include "book/chapter.h"
#include "judge/machine_set.h"
#include "render/plot.h"

struct bundle_view;

/*
 * The content of machines.html (HTML, appended to out): one column per
 * machine with its facts; per experiment, the median over matching
 * points of (time on the base / time on the machine) and the spread of
 * those ratios, with the count of points slower, faster beyond noise and
 * within noise (machines_judge); per compared machine, the points judged
 * slower or faster, with their difference, band and noise; and the claims
 * matrix, each claim linked to CHAPTER.html#claim-N, where N is its index
 * among the chapter's inline expressions.
 */
void machines_page_html(const struct book *bk, struct machine_set *ms,
                        struct buf *out);

/*
 * Draw chart d, directive di of chapter c, as plot_render does, with its
 * options as judged on each machine (ms->jb), from the base alone unless
 * ms holds several machines and d asks for them ("machines: all", or names): then
 * the records of each named machine are drawn together, each series
 * labelled by its own value and the machine's name, each point with the
 * spread of its runs, and the points of other machines that
 * machines_judge finds slower or faster than the base ringed; out->note
 * names the machines (and those the chart's data was not measured on) and
 * the ringed points, and out->alt counts them. A chart of the base alone
 * is taken from memo where plot_prepare made it (plot.h). Returns what
 * plot_render returns.
 */
int machines_chart(const struct directive *d, size_t c, size_t di,
                   const char *path, struct machine_set *ms,
                   const struct bundle_view *base, const char *site_dir,
                   struct plot_memo *memo, struct plot *out);

#endif
