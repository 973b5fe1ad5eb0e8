/*
 * compared.h - the plain data of bundles judged against each other: one
 * point of a bundle judged against the same point of another, as labbook
 * compare judges it (bundle/compare.h), and a bundle's recordings over
 * its commits with the steps between them (bundle/history.h). Types only,
 * and the words for a verdict: bundle/ makes them, judge/ hands them on,
 * render/ prints them.
 */
#ifndef LB_COMPARED_H
#define LB_COMPARED_H

#include <stddef.h>

struct bundle;
struct history_files;
struct history_store;

/* How many times its noise a point must move to be judged different. */
#define COMPARE_NOISE_TIMES 3.0

struct compare_opts {
	double max_diff;  /* percent; >= 0: the flat test, points above it
	                   * fail and the noise is not looked at; < 0: noise */
	double min_diff;  /* percent; never flag a difference this small */
	double max_noise; /* percent; noisier points are listed apart */
	double min_ms;    /* points faster than this are shown but not judged */
	int all;          /* print every point, not only the notable ones */
	struct bundle *repeat; /* a repeat of A on its machine, or NULL;
	                        * borrowed (bundle/results.h) */
	const char *json;      /* write the verdicts as JSON here ("-": stdout,
	                        * and the table goes to stderr), or NULL */
};

enum compare_verdict {
	COMPARE_WITHIN, /* within noise */
	COMPARE_SLOWER, /* B is slower beyond noise */
	COMPARE_FASTER, /* B is faster beyond noise */
	COMPARE_NOISY,  /* noisier than max_noise: not judged */
};

/* labbook compare's defaults: the noise test, --min-diff 1%, --max-noise
 * 10%, --min-ms 0.05, no repeat. */
#define COMPARE_OPTS_INIT {-1, 1.0, 10.0, 0.05, 0, NULL, NULL}

/* "within noise", "slower", "faster", "too noisy". */
const char *compare_verdict_name(enum compare_verdict v);

/* One point of B judged against the same point of A. */
struct compare_point {
	double a_ms, b_ms; /* the median times */
	double diff;       /* (b_ms - a_ms) / a_ms */
	double noise;      /* relative: the largest of A's, B's and the
	                    * repeat's; -1 under the flat test */
	double repeat;     /* |A - A's repeat| / A, or 0 */
	double band;       /* the relative difference it was judged against */
	enum compare_verdict verdict;
};

/* What became of a pair of records. */
enum compare_pair {
	COMPARE_JUDGED,    /* a verdict */
	COMPARE_UNTIMED,   /* no median time in one or both */
	COMPARE_UNMATCHED, /* other parameters */
	COMPARE_SHORT,     /* under min_ms in one or both: not judged */
	COMPARE_HOST,      /* host-bound in one or both: not judged */
	COMPARE_THROTTLED, /* under a lowered clock in one or both: not judged */
};

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
	char *spec;    /* path as git log reads it: literally, "." at the root */
	char *top;     /* the repository's top folder, or NULL */
	struct history_entry *e; /* oldest first */
	size_t n;
	char *note;    /* why there is no history from git, or NULL */
	struct history_store *store; /* private: the blobs read */
};

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

#endif
