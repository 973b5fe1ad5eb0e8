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
 * A view is plain data: it reads no file after view_make returns, and it
 * borrows nothing from the bundle. view_free(NULL) does nothing.
 */
#ifndef LB_VIEW_H
#define LB_VIEW_H

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
};

/*
 * The view of b for book bk (bundle_mark_outdated and book_mark_needs
 * already applied to b). Caller frees with view_free.
 */
struct bundle_view *view_make(const struct book *bk, struct bundle *b);
void view_free(struct bundle_view *v);

/* The view of id, or NULL when bk names no such id. */
const struct exp_view *view_find(const struct bundle_view *v, const char *id);

#endif
