/*
 * view.h - what the pages show of a bundle's experiments, gathered from
 * the bundle before render/ starts (view.c), so that render prints data
 * it is handed: for every experiment the book names and every id its
 * values and directives read, the state of its results in the words
 * every page uses, its meta.json and error.json with this build's own
 * failure, what it needs of the card, whether it is outdated, how many
 * records it has, and a digest of its files and state for the keys of
 * what is made from it (render/keys.h).
 *
 * The rest of what a page shows of the bundle, its records, captured
 * output, SASS listings and machine.json, render/ takes from here too
 * (view_records and those after it): read from the bundle the first time
 * a page asks, so that a build whose pages are all kept reads none. A view
 * borrows its bundle, which outlives it. view_free(NULL) does nothing.
 */
#ifndef LB_VIEW_H
#define LB_VIEW_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/record.h"
#include "book/book.h"

struct bundle;

/* One experiment (or derived id, or "machine" for machine.json). */
struct exp_view {
	char *id;
	struct result_meta meta; /* its results' state and meta, failed too
	                            when this build could not build it */
	int has_meta;            /* it has a meta.json: good results */
	const char *state_name;  /* "measured in this build" (static) */
	const char *state_class; /* "this-build" (static) */
	char *where;             /* RESULT_ELSEWHERE: the machine they were
	                            recorded on, as the page says it; else NULL */
	int needs;               /* the compute capability it needs and the
	                            card lacks, or 0 */
	int outdated;            /* its results are of another source */
	size_t count;            /* how many records it has */
	char digest[33];         /* its files as they are now and its state */
};

struct bundle_view {
	char *dir;               /* the bundle's folder, as named */
	int cc;                  /* its card's compute capability, or 0 */
	struct exp_view *exps;   /* sorted by id */
	size_t nexps;
	struct bundle *b;        /* borrowed: what the functions below read */
};

/*
 * The view of b for book bk (bundle_mark_outdated and book_mark_needs
 * already applied to b). Caller frees with view_free.
 */
struct bundle_view *view_make(const struct book *bk, struct bundle *b);
void view_free(struct bundle_view *v);

/* The view of id, or NULL when bk names no such id. */
const struct exp_view *view_find(const struct bundle_view *v, const char *id);

/*
 * The records, captured output and records file's error of experiment id
 * (a derived id too) in v's bundle, read on first ask. Never NULL; borrowed
 * from the bundle.
 */
const struct exp_result *view_records(const struct bundle_view *v,
                                      const char *id);
/* The records of experiment id's ptxas report; their id is the report's
 * ("ilp_ptxas"). Never NULL; borrowed. */
const struct exp_result *view_ptxas(const struct bundle_view *v,
                                    const char *id);

/* The id of experiment id's ptxas report, "ilp_ptxas". Caller frees. */
char *view_ptxas_id(const char *id);
/* The paths of experiment id's records file and of machine.json in v's
 * bundle, which a site offers as they are. Caller frees. */
char *view_records_path(const struct bundle_view *v, const char *id);
char *view_machine_path(const struct bundle_view *v);

/* machine.json, or NULL when there is none. Borrowed. */
const cJSON *view_machine(const struct bundle_view *v);
/* A string field of machine.json, or of its "measured" object, or NULL
 * (borrowed). */
const char *view_machine_str(const struct bundle_view *v, const char *key);

/*
 * The SASS of kernel (its short demangled name, "fma_chains<8>") in the
 * listing of experiment exp: its lines after its "Function :" header, up
 * to the next kernel's or the listing's end. Caller frees. NULL with *err
 * (caller frees) when exp has no listing or no such kernel.
 */
char *view_sass(const struct bundle_view *v, const char *exp,
                const char *kernel, char **err);
/* view_sass on bundle b, for the judge, which checks the listings
 * before there is a view. */
char *view_sass_read(struct bundle *b, const char *exp, const char *kernel,
                     char **err);

/* What to say of a field that experiment r's records lack, as prose says
 * it: "its fields: n, gbps", or "did you mean 'gbps'? Its fields: n, gbps"
 * when one is a slip away. Caller frees. */
char *field_others(const struct exp_result *r, const char *field);
/* Has some record of r the field? */
int field_known(const struct exp_result *r, const char *field);
/* The first field a condition of where reads that r's records lack, as
 * "experiment 'ID' has no field 'F'; its fields: ..." (field_others), or
 * NULL: none. Caller frees. */
struct filter;
char *filter_field_missing(const struct exp_result *r, const char *id,
                           const struct filter *where);

#endif
