/*
 * machines.h - several results bundles side by side: the bundle a site is
 * rendered from (the base) and the bundles it is compared with
 * (labbook build --compare DIR). From them come the Machines page
 * (machines.html: facts per machine, each experiment's median speed
 * against the base, the points beyond noise, and the claims matrix),
 * charts that overlay the machines (a {chart} with "machines: all" or a
 * list of names), and the claims check of every build (--strict).
 *
 * A machine is named by its bundle's folder ("results/h100" is h100).
 * An experiment a bundle lacks is "not measured on" that machine, never
 * an error. With one bundle nothing here changes a page.
 *
 *   machines.c        the set, and each claim on each machine
 *   machines_page.c   the Machines page
 *   machines_chart.c  the charts that overlay machines
 */
#ifndef LB_MACHINES_H
#define LB_MACHINES_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "book/book.h"
#include "base/buf.h"
#include "book/chapter.h"
#include "bundle/compare.h"
#include "render/plot.h"
#include "bundle/results.h"

struct judged_book;
struct bundle_view;

struct machine_set {
	struct bundle **b; /* b[0] is the base, borrowed; the others owned */
	char **names;      /* each machine's short name, owned */
	struct bundle **repeat; /* repeat[m]: the base's repeat that
	                         * labbook compare BASE M would use
	                         * (compare_repeat_open), or NULL; owned */
	size_t n;
	const struct judged_book *jb; /* the verdicts on each (judge.h), set
	                               * once judged */
	struct bundle_view **views;        /* views[m]: what the pages show
	                                    * of b[m] (judge/view.h), owned */
	struct bundle_view **repeat_views; /* of repeat[m], or NULL; owned */
};

/*
 * Put the bundles of dirs (ndirs of them) beside base. In each, the
 * experiments of bk recorded from another version of their source are
 * marked outdated (bundle_mark_outdated): no machine is compared, and no
 * claim judged, on numbers from another version of a kernel. Returns 0,
 * or -1 when a folder has no machine.json (reported); ms is usable either
 * way and freed with machines_free, which frees the views too.
 */
int machines_open(const struct book *bk, struct bundle *base,
                  const char *const *dirs, size_t ndirs,
                  struct machine_set *ms);
void machines_free(struct machine_set *ms);

/* Has bundle b any results of experiment id, of its current source? */
int machines_measured(struct bundle *b, const char *id);

/*
 * Point k of experiment id on machine m judged against the same point of
 * the base, as labbook compare BASE M judges it with its defaults
 * (compare_point_judge). COMPARE_UNMATCHED where either lacks the
 * experiment's current source (machines_measured) or the two were built
 * from other sources.
 */
enum compare_pair machines_judge(struct machine_set *ms, size_t m,
                                 const char *id, size_t k,
                                 struct compare_point *p);

/* What a claim ({{check}}) is on one machine. */
enum claim_state { CLAIM_HOLDS, CLAIM_FAILS, CLAIM_MISSING, CLAIM_UNKNOWN };

/*
 * Does claim i of chapter c hold on machine m, as judged (ms->jb)? When
 * it cannot be evaluated there: CLAIM_MISSING if that machine lacks an
 * experiment it reads, or a compute capability it needs, else
 * CLAIM_UNKNOWN; for those two *why gets the reason (borrowed), else NULL.
 */
enum claim_state machines_claim(const struct machine_set *ms, size_t c,
                                size_t i, size_t m, const char **why);

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
                   struct bundle *base, const char *site_dir,
                   struct plot_memo *memo, struct plot *out);

#endif
