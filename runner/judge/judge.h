/*
 * judge.h - the judging stage: every inline value and claim of a book
 * evaluated once on each bundle (the one rendered and each compared), each
 * claim with its margin against the noise of the points it reads and its
 * teeth, the smallest change of those points that would flip it. What it
 * hands on is data: render/ prints verdicts and evaluates nothing.
 *
 *   judge.c   the verdicts, and what a build is told of them
 *   teeth.c   a claim's data perturbed: its teeth and its margin
 *
 * A claim L op R reads measured fields (a column of an experiment's
 * records). Its teeth are found by scaling what it reads, each experiment's
 * fields together and then each record's alone, by factors from 1.01 to 8
 * up and down, and evaluating it again: the smallest factor that flips it;
 * a truth value it selects records by (correct=true) is turned over.
 * A claim no such change flips, or that reads no measured field, cannot
 * fail. One that only a change of 2x or more flips is loose. Its margin is
 * that change in units of the noise of the record changed (none for a
 * count, a field that is a whole number in every record; otherwise the noise
 * labbook compare judges the record with: its quartiles, its runs' spread,
 * a repeat bundle's difference; at least a third of compare's 1% floor): a
 * claim with a margin under JUDGE_FRAGILE on any bundle is fragile.
 * Records of compiler output (experiments named *_ptxas and *_sass) are
 * perturbed the same way, but a claim that reads only them is a static
 * check, not a claim about the card, and has no noise.
 */
#ifndef LB_JUDGE_H
#define LB_JUDGE_H

#include <stddef.h>

#include "book/book.h"
#include "book/expr_value.h"
#include "bundle/results.h"

/* A claim is fragile when the noise bands between it and flipping are
 * fewer than this (compare's COMPARE_NOISE_TIMES). */
#define JUDGE_FRAGILE 3.0
/* The factor at and beyond which a claim's teeth are loose. */
#define JUDGE_LOOSE 2.0

enum verdict_kind {
	VERDICT_VALUE,    /* a value: v */
	VERDICT_HOLDS,    /* a claim that holds */
	VERDICT_FAILS,    /* a claim that does not */
	VERDICT_ERROR,    /* why: a mistake in the text, or data that makes
	                     it meaningless (reported once, for the base) */
	VERDICT_OUTDATED, /* it reads results of another version of an
	                     experiment's source: why */
	VERDICT_MISSING,  /* the bundle lacks an experiment it reads: why */
	VERDICT_NEEDS,    /* it needs compute capability need_cc (-1: one no
	                     capability has) that the card lacks */
	VERDICT_REF,      /* a reference ({{ref}}): printed by render */
};

/* What a claim's data must do to flip it. */
enum teeth_kind {
	TEETH_NONE,   /* not a claim, or not judged */
	TEETH_BITES,  /* a change under JUDGE_LOOSE flips it */
	TEETH_LOOSE,  /* only a change of JUDGE_LOOSE or more */
	TEETH_CANNOT, /* nothing flips it: it cannot fail */
};

struct verdict {
	enum verdict_kind kind;
	struct value v; /* VERDICT_VALUE: the value, one number, string or
	                   truth value */
	char *text;     /* VERDICT_VALUE: v as its format prints it, plain */
	char *why;      /* ERROR, OUTDATED, MISSING: the message */
	int need_cc;    /* NEEDS */
	const char *partial, *partial_id; /* it stands on the records before
	                     a malformed line of partial_id (the bundle's) */
	/* Claims that hold or fail: */
	enum teeth_kind teeth;
	double factor;  /* the smallest factor (> 1, up or down) that flips
	                   it; 0 when none does */
	double margin;  /* noise bands from flipping; INFINITY when what
	                   flips it has no noise (compiler output, a count, a
	                   truth value) */
	char *flip;     /* what flips it, "reduce.ms[n=1024] x1.04", or NULL */
	int fragile;    /* margin < JUDGE_FRAGILE */
	int is_static;  /* reads only compiler output */
};

/* A directive's option that is an expression (a where:, a limit:) on
 * one bundle. */
struct judged_opt {
	int ok;              /* evaluated: where, or num */
	struct filter where; /* where: the conditions, their values computed */
	double num;          /* limit: the value */
	int need_cc;         /* not ok: it reads what this card lacks (90 for
	                        9.0; -1: no card has it): not drawn */
	int outdated;        /* it read results of another version of an
	                        experiment's source */
	char *why;           /* not ok: why (reported on the base, where its
	                        directive's data is measured) */
};

struct judged_chapter {
	struct verdict *v; /* nbundles x nvalues: v[b * nvalues + i] */
	size_t nvalues;
	struct judged_opt *opts; /* nbundles x nopts: every option of every
	                            directive, in order; those that are no
	                            expression stay zero */
	size_t *dir_first;       /* each directive's first option there */
	size_t nopts;
	struct dir_check {   /* nbundles x ndirs: directive di's on bundle m
	                        (dircheck.c; checked on the base only) */
		char *why;   /* the problem of its data, as its page shows it,
		                or NULL: none */
		int line;    /* the line it concerns */
		int quiet;   /* why is not reported: the data are of another
		                source (a page says so), or an option's
		                problem was reported when it was judged */
		int warn;    /* why is a warning (a chart with no results yet) */
		char *partial; /* the records it shows stop before a malformed
		                  line: "FILE:LINE: what", or NULL */
	} *checks;
	char **ex_why;           /* nexercises: why exercise k's label cannot
	                            be used (it is another's), or NULL */
	size_t nexercises;
	size_t ndirs;
};

struct judged_book {
	struct judged_chapter *chs; /* one per chapter of the book */
	size_t nchs;
	size_t nbundles;
	/* For --stats: expressions parsed (at load); values judged, once per
	 * bundle, either evaluated or kept from an earlier build (kept); and
	 * evaluations with their data perturbed. */
	size_t parsed, evaluated, kept, perturbed;
	/* The Machines page's facts on each bundle, as text, or NULL where
	 * a bundle has none: facts[m * nfacts + i] (facts.c). */
	char **facts;
	size_t nfacts;
	/* A hash of every verdict: what a page shows of them changes only
	 * when it does. */
	char digest[33];
};

/*
 * Judge every value and claim of bk on each of bs[0..nb) (bs[0] the
 * base, the one rendered), with repeats[i] (or NULL) the repeat bundle
 * bs[i]'s noise is judged with; perturbations are undone before it
 * returns. Each verdict is kept in store (NULL: none), under the hash of
 * the value as written and of the files of each experiment it reads, in
 * its bundle and the repeat, and taken from there by a later build. Errors in the base's values are
 * reported here, once. jb is freed with judge_free; it borrows from bk
 * and bs.
 */
struct store;
void judge_book(const struct book *bk, struct bundle *const *bs,
                struct bundle *const *repeats, size_t nb, struct store *store,
                struct judged_book *jb);
/* judge_book with each bundle's own repeat (compare_repeat_open: DIR
 * beside DIR-repeat), opened and closed here. */
void judge_with_repeats(const struct book *bk, struct bundle *const *bs,
                        size_t nb, struct store *store, struct judged_book *jb);
void judge_free(struct judged_book *jb);

/* The options of directive di of chapter c on bundle m, one per option
 * of the directive (d->opts[i] is [i]). */
const struct judged_opt *judge_opts(const struct judged_book *jb, size_t c,
                                    size_t di, size_t m);

/* How many claims of chapter ch (c in the book) the judge doubts on
 * bundle m: within their noise, or unable to fail. */
int judge_doubted(const struct judged_book *jb, const struct chapter *ch,
                  size_t c, size_t m);

/* The verdict on value i of chapter c on bundle m. */
const struct verdict *judge_get(const struct judged_book *jb, size_t c,
                                size_t i, size_t m);

/*
 * Tell the build what the verdicts say, once per claim, at its line:
 * a claim that does not hold on some bundle, one that
 * cannot fail, and one that is fragile on some bundle (each bundle named
 * by its folder): warnings, or with strict errors. Returns the number of claims that do not hold.
 */
int judge_report(const struct judged_book *jb, const struct book *bk,
                 struct bundle *const *bs, int strict);

/*
 * dircheck.c: check the data of every directive of bk on the base,
 * ms->b[0], into jb (judged by judge_book): a {sass} listing that the
 * bundle lacks; a table's columns, its fields and its rows; the machines
 * a chart overlays, which must be among those of ms; and each exercise's
 * label, which must be the first of its name in the book. Each problem is
 * reported here, once, at its line, and kept for the page to show
 * (judge_dir, judge_exercise). What a directive's check found is kept in
 * store (NULL: none) under the hash of the directive as written and of
 * the files and state of the experiments it reads, and taken from there
 * by a later build, which reads no records for it.
 */
struct machine_set;
void judge_dirs_check(struct judged_book *jb, const struct book *bk,
                      struct machine_set *ms, struct store *store);
/* The check of directive di of chapter c on bundle m: its why is NULL
 * when its data have no problem. Borrowed from jb. */
const struct dir_check *judge_dir(const struct judged_book *jb, size_t c,
                                  size_t di, size_t m);

/* Why exercise k of chapter c cannot use its label, or NULL. Borrowed. */
const char *judge_exercise(const struct judged_book *jb, size_t c, size_t k);

/* A table's column: "field "label" %fmt". */
struct table_col {
	char *field;
	char *label; /* the header; NULL: the field's name */
	char *fmt;
	int num;     /* every shown cell is a number (set by render/) */
};
/* The columns option of a table, split at commas outside quotes, into
 * *cols (*ncols of them; the caller frees each's strings and the array):
 * NULL, or what is wrong with it (caller frees). */
char *table_columns_parse(const char *spec, struct table_col **cols,
                          size_t *ncols);

/* facts.c: the Machines page's facts on each of bs[0..nb) into jb, and
 * the label of fact i. */
void judge_facts(struct judged_book *jb, struct bundle *const *bs, size_t nb);
const char *judge_fact_label(size_t i);

/* teeth.c: judge claim x, which gives holds (1 or 0) on b, with repeat
 * (or NULL) for noise, into *v; counts its evaluations in *evals. */
struct expr;
void judge_teeth(const struct expr *x, int holds, struct bundle *b,
                 struct bundle *repeat, struct verdict *v, size_t *evals);

#endif
