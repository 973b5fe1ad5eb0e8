/*
 * history.h - a bundle over time, read from git. git is the store: the
 * bundle as it stood at each commit that changed it (git log -- DIR) is
 * read with git ls-tree and git show, and, where it has changes not yet
 * committed, as it stands in the working tree. No copy is kept.
 *
 * Each recording is judged against the recording before it, point by
 * point, by compare_point_judge, as labbook compare judges two bundles;
 * a point it finds slower or faster beyond noise is a step. Unlike
 * compare, history judges an experiment across a change of its source:
 * that change is what a step is then named by. A change of card or of
 * driver between two recordings is a change of machine, and its steps
 * are never regressions.
 *
 *   history.c        reading git: the recordings and their bundles
 *   history_steps.c  the steps, each point's series, what changed, the check
 *
 * Errors: 0 or -1, reported once (util.h). Every *_free accepts NULL.
 */
#ifndef LB_HISTORY_H
#define LB_HISTORY_H

#include <stddef.h>

#include "base/compared.h"
#include "bundle/compare.h"
#include "bundle/results.h"

/*
 * Read the history of bundle dir: each commit that changed it, oldest
 * first, and the working tree last when it has changes not committed.
 * Where dir is in no git repository, or in one with no commit of it, the
 * working tree is the one entry and h->note says why. 0 with *out (free
 * with history_free), or -1 (reported): git failed, or no entry has a
 * records file.
 */
int history_read(const char *dir, struct history **out);
void history_free(struct history *h);

/*
 * The bundle of entry i, read into memory from the blobs (its dir reads
 * "COMMIT:PATH", as git names the tree; nothing on disk), or opened from
 * the working tree. NULL when the entry is absent. Caller frees.
 */
struct bundle *history_bundle(struct history *h, size_t i);

/* ---- judged (history_steps.c) --------------------------------------------- */

/*
 * Judge every recording of h against the one before it under o (o->repeat
 * unused), and the latest recording (the latest entry, or the first of the
 * entries at the end whose records are the same) against the one before
 * it on its card and driver. 0, or -1 (reported, and j freed) when no
 * recording could be read.
 */
int history_judge(struct history *h, const struct compare_opts *o,
                  struct history_judged *out);
void history_judged_free(struct history_judged *j, size_t nentries);

/* "card", "driver": is entry t a change of machine from entry f? Names
 * what changed (owned, NULL-terminated; NULL when nothing did). */
char **history_machine_change(const struct history *h, size_t f, size_t t);

#endif
