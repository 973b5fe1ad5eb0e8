/*
 * machine_set.h - several results bundles side by side: the bundle a site
 * is rendered from (the base) and the bundles it is compared with
 * (labbook build --compare DIR), each point of a compared bundle judged
 * against the base as labbook compare judges it, and each claim on each
 * machine. The pages made of them are render/machines.h's.
 *
 * A machine is named by its bundle's folder ("results/h100" is h100).
 * An experiment a bundle lacks is "not measured on" that machine, never
 * an error.
 */
#ifndef LB_MACHINE_SET_H
#define LB_MACHINE_SET_H

#include <stddef.h>

#include "base/compared.h"
#include "book/book.h"

struct bundle;
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
/* What the pages show of each bundle of ms and of its repeats (views and
 * repeat_views, view_make), once the bundles are judged. */
void machines_views(const struct book *bk, struct machine_set *ms);

/* Has machine m any results of experiment id, of its current source? */
int machines_measured(const struct machine_set *ms, size_t m, const char *id);

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

/*
 * The speed of machine m against the base on experiment id: over the
 * points both measured (matched as labbook compare matches them: same
 * position, same parameters; none under MACHINES_RATIO_MIN_MS, nor bound
 * by the host), the ratios of median times base / m. *n gets their count;
 * the caller frees the sorted array.
 */
double *machines_speed_ratios(const struct machine_set *ms, size_t m,
                              const char *id, size_t *n);
/* Points shorter than this are left out of the speed ratios, as in
 * labbook compare: their timings are mostly launch overhead. */
#define MACHINES_RATIO_MIN_MS 0.05

/* The parameters of the base's record k of experiment id, as
 * "name=value ..." (record_params). Caller frees. */
char *machines_point(const struct machine_set *ms, const char *id, size_t k);

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

/* The machines a chart's machines: option (spec: "all", or names
 * separated by commas) asks for: their indices into ms, in the order
 * named and each once, into idx (room for ms->n); their count. The names
 * that are none of them are appended to unknown, ", " between. */
struct buf;
size_t machines_pick(const struct machine_set *ms, const char *spec,
                     size_t *idx, struct buf *unknown);

#endif
