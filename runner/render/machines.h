/*
 * machines.h - the pages of several results bundles side by side (the
 * set, judge/machine_set.h): the Machines page (machines.html: facts per
 * machine, each experiment's median speed against the base, the points
 * beyond noise, and the claims matrix), made by machines_page.c. The
 * charts that overlay machines (a {chart} with "machines: all" or a list
 * of names) are picked by judge/chart_pick.c and drawn by plot.c.
 */
#ifndef LB_MACHINES_H
#define LB_MACHINES_H

#include <stddef.h>

#include "base/buf.h"
#include "book/book.h"
#include "book/chapter.h"
#include "judge/machine_set.h"

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

#endif
