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

#include "bundle/compare.h"
#include "bundle/results.h"

/* One recording: the bundle as a commit left it, or the working tree. */
struct history_entry {
	char *commit;  /* the full hash; NULL for the working tree */
	char *abbrev;  /* the short hash, or "worktree" */
	char *date;    /* the commit's date (ISO 8601), or the recording's */
	char *subject; /* the commit message's first line, or "" */
	int absent;    /* the commit removed the bundle: nothing to read */
	int same_records; /* its records files are those of the recording
	                   * before it (the commit changed only meta.json or
	                   * machine.json) */
	/* From its machine.json (NULL where it names none): */
	char *gpu, *card, *driver, *toolkit;
	char **ids;    /* the experiments with records, sorted, owned */
	size_t nids;
	struct history_files *files; /* private: its files' blobs */
};

struct history {
	char *dir;     /* the bundle as named */
	char *path;    /* its path in the repository, or NULL: no git */
	char *top;     /* the repository's top folder, or NULL */
	struct history_entry *e; /* oldest first */
	size_t n;
	char *note;    /* why there is no history from git, or NULL */
	struct history_store *store; /* private: the blobs read */
};

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

/* One timed point over the recordings. */
struct history_series {
	char *id;      /* experiment */
	size_t k;      /* its record's position */
	char *point;   /* record_params */
	double *ms;    /* per entry: the median time, or NAN */
	double *lo, *hi; /* per entry: its spread (quartiles, else runs) */
	int steps;     /* how many steps it took */
};

/* A point judged beyond noise between two recordings. */
struct history_step {
	size_t from, to;  /* the entries */
	char *id;
	size_t k;
	char *point;
	struct compare_point p;
	size_t series;    /* its series in history_judged, or (size_t)-1 */
	int machine;      /* the card or the driver changed: not a regression */
	char **changed;   /* what changed for this experiment between the
	                   * two (NULL-terminated; empty: nothing recorded) */
};

struct history_judged {
	struct history_series *series; /* in the order first recorded */
	size_t nseries;
	struct history_step *steps;    /* by entry, then experiment, record */
	size_t nsteps;
	/* Per entry (index 0 unused): against the present entry before it. */
	size_t *prev;       /* that entry, or (size_t)-1 */
	size_t *judged;     /* points judged */
	size_t *slower, *faster;
	int *machine;       /* a change of machine */
	char ***changed;    /* what changed for the bundle as a whole */
	/* The check: the latest recording against the one before it on the
	 * same card and driver. */
	size_t check_to, check_from; /* (size_t)-1: none to check */
	size_t check_judged, check_slower;
	char *check_worst; /* "ID POINT +D%" of its largest slowdown, or NULL */
};

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
