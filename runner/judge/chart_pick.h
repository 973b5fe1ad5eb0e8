/*
 * chart_pick.h - the points a {chart} draws, picked from its records
 * before anything is drawn (chart_pick.c): its series and categories,
 * the records marked wrong and left out, its labels, and for a chart
 * that overlays machines ("machines: all"), the records of each machine
 * named, with the spread of each point's runs and whether it lies beyond
 * noise against the base.
 *
 * A chart whose data or options are wrong gets its problem here: no
 * results yet, a field its records lack, a label, highlight: or y-scale:
 * that names nothing drawn, more series or points than a reader can tell
 * apart, nothing left by its where:. The judge reports it, once
 * (dircheck.c); render/ draws a chart from its pick, or shows the
 * problem, and reports nothing.
 */
#ifndef LB_CHART_PICK_H
#define LB_CHART_PICK_H

#include <stddef.h>

#include "base/record.h"
#include "book/chapter.h"
#include "judge/judge.h"

/* What a reader can tell apart in one chart; beyond, the chart is an
 * error at its directive. */
#define CHART_MAX_SERIES 64
#define CHART_MAX_POINTS 20000
/* The largest value a chart draws, x or y. */
#define CHART_MAX_VALUE 1e200

struct point {
	double x, y, lo, hi;
	int has_err;
	double runs, reps; /* the record's "runs" and "reps", or 0 */
	double run_lo, run_hi; /* the spread of the runs' medians (overlays) */
	int has_run;
	int mark; /* judged beyond noise against the base (overlays) */
};

/* A series as picked; its title and style are render/'s, zero here. */
struct series {
	char *key;   /* the series field's value */
	char *title; /* the legend's words */
	struct point *pts;
	size_t n;
	int err_bars;
	int run_bars; /* some point has a spread of its runs */
	const char *color, *dash;
	int marker;
	int highlight; /* named by highlight: */
	int grey;      /* drawn in grey: highlight: names others */
	size_t group;  /* the first series this one coincides with, or itself */
};

/* A label: line, "value | words". */
struct label {
	char *value, *words;
	int line, used;
};

/* What an overlay adds to one record it draws: the spread of its runs in
 * the unit of y (NAN where it has none), and whether it was judged beyond
 * noise against the base. */
struct plot_extra {
	double run_lo, run_hi;
	int mark;
};

struct chart_pick {
	const struct directive *src; /* the chart's directive */
	/* The directive as drawn: the chart's own, or for an overlay a copy
	 * less its where: (applied to each machine), its series field
	 * naming the machines, and each limit: at its value on each machine
	 * drawn; jo: its options as judged, one per option of d. */
	struct directive d;
	struct judged_opt *jo;
	const char *xf, *yf, *sf;
	double yscale; /* y-scale:, what every y and limit is multiplied by */
	int logx, logy; /* the bases, or 0 */
	int bars;      /* x is a category */
	int mixed_x;   /* x holds text in some records, numbers in others:
	                  categories, and the page says so */
	char **cats;   /* category values, in record order */
	size_t ncats;
	struct series *ser;
	size_t nser;
	struct label *labels;
	size_t nlabels;
	size_t npoints;
	size_t nwrong;   /* records marked "correct": false, left out */
	size_t nunlogged; /* records left out: at or below 0 on a log axis */
	size_t nhuge;    /* records whose x or y (times y-scale:) is beyond
	                    CHART_MAX_VALUE: an error */
	size_t nringed;  /* points drawn judged beyond noise (overlays) */
	/* An overlay's: each machine drawn (its card in brackets) and each
	 * whose records lack the data, as lists of names; the first points
	 * beyond noise in words; whether another machine than the base is
	 * drawn, and whether some point has its runs' spread. */
	int overlay;
	const char *base;  /* the base's name */
	char *mark_title;  /* "beyond noise against BASE" */
	char *drawn, *missing, *marked;
	size_t nmarked;  /* points beyond noise, those in marked first */
	int others, runs;
	/* The records an overlay draws, and what it adds to each. */
	struct exp_result all;
	struct plot_extra *extra;
	/* The partial records' message when the records stop before a
	 * malformed line, or NULL (borrowed from the bundle). */
	const char *partial;
	/* The problem, or NULL: why, as reported after "file:line: ";
	 * shown, as its page shows it; warn: a warning (no results yet);
	 * quiet: reported already, where its option was judged. */
	char *why, *shown;
	int line, warn, quiet;
	char **owned;
	size_t nowned;
	int own_opts; /* d.opts and jo are the pick's */
};

/* How many points beyond noise an overlay's words list; the Machines
 * page lists them all. */
#define CHART_MARKS_LISTED 8

/*
 * Pick the points of chart d, directive di of chapter c (path), on ms
 * (judged: ms->jb set): the records of its data on the base, or with
 * machines: and more than one machine, those of each machine it names.
 * 0, or -1 with pk->why set. pk is freed with chart_pick_free either way.
 * Reports nothing.
 */
struct machine_set;
int chart_pick(struct machine_set *ms, size_t c, size_t di,
               const struct directive *d, const char *path,
               struct chart_pick *pk);
void chart_pick_free(struct chart_pick *pk);

/*
 * chart_overlay.c: set pk up as the overlay of the machines of ms that
 * chart d (directive di of chapter c) names (spec): pk->d and pk->jo as
 * drawn, pk->all the records, pk->extra what the overlay adds to each,
 * and its words. 1, or 0 when it draws the base alone (none named, or
 * its where: does not parse on one).
 */
int chart_overlay(struct chart_pick *pk, struct machine_set *ms, size_t c,
                  size_t di, const struct directive *d, const char *spec);

#endif
