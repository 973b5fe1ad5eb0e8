/*
 * render.h - the types the files that make pages share: the options and
 * counters of a site build, the site being written, the page being made,
 * and a chapter's outline. It declares no function: each file's own
 * header (site.h, page.h, body.h, blocks.h, table.h, figure.h, values.h,
 * xref.h, piece.h, box.h, book_pages.h, search.h) declares what that file does.
 *
 * From the top: site.c writes the site; book_pages.c and search.c write
 * the book-wide pages; body.c makes a chapter's body; blocks.c its
 * directives, through table.c and figure.c; values.c its inline values;
 * page.c the frame of every page; piece.c keeps a page's pieces; box.c
 * prints what all of them show. A file calls only files below it.
 *
 * A renderer has no side effects but the files it writes, and starts no
 * process but gnuplot (gnuplot.h). It reports nothing: the judge has
 * reported what is wrong with the book and its data, and what writing
 * the site finds (gnuplot's failure, a reference to nothing) goes back to
 * the command in struct site_stats. It reads no bundle: what it shows of
 * one it takes from judge/ (the bundle's view, judge/view.h; the bundles
 * compared, judge/machine_set.h; a bundle's history,
 * judge/history_site.h). Everything that came from an experiment or a
 * records file is HTML-escaped.
 */
#ifndef LB_RENDER_H
#define LB_RENDER_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/buf.h"
#include "book/book.h"
#include "book/chapter.h"

struct history_site; /* judge/history_site.h */
struct excerpt_src;  /* excerpt.h */
struct machine_set; /* judge/machine_set.h */
struct onebook;     /* site_book.h */
struct plot_memo;   /* plot.h */
struct bundle_view; /* judge/view.h */
struct store;       /* base/store.h */
struct xref;        /* xref.h */

struct site_opts {
	const char *dir;       /* the site folder */
	const char *templates; /* the templates folder */
	const char *title;     /* the book's title */
	int gpu;               /* this machine could measure (a GPU is present) */
	struct machine_set *machines; /* the bundle and those compared; NULL
	                                 or one: a single-machine book */
	int live;              /* pages reload after a build (labbook watch) */
	int strict;            /* a claim that does not hold is an error */
	const char *const *links; /* "URL|TEXT": more links on the index
	                             page, checked by the command line */
	size_t nlinks;
	struct store *store;   /* the one cache, in the site (SITE_CACHE_FILE):
	                          opened and closed by the caller */
	const struct history_site *history; /* a bundle's history for the
	                          History page, or NULL: none */
	const char *lead;      /* the line under the title on the index and
	                          the one-page book, or NULL: SITE_LEAD */
};

/* The lead of a book that gives none (--lead). */
#define SITE_LEAD "Every number in this book was measured by the " \
	"experiments it describes, and every claim it makes is checked " \
	"against those numbers when the book is built."

struct site_stats {
	int errors;       /* problems shown on pages (already reported) */
	int claims;
	int claims_failed;
	int pages_written;
	int charts_drawn;
	/* What went wrong while the site was written, for the command to
	 * report (box.h's site_problem): a reference that names nothing,
	 * gnuplot's failure, a file it could not read. The caller frees
	 * each's file and msg, and the array. */
	struct site_problem {
		char *file; /* or NULL: the site's own */
		int line;
		char *msg;
	} *problems;
	size_t nproblems;
};

/* A chapter's headings with their values computed. */
struct outline {
	char *title;    /* plain text */
	char **titles;  /* each section's plain title */
	char **ids;     /* each section's id */
	char *lead;     /* the first sentence of its prose, or NULL */
};

struct site_ctx {
	struct book *bk;
	const struct bundle_view *v; /* what the pages show of the bundle
	                                (judge/view.h) */
	const struct site_opts *o;
	struct site_stats *st;
	const char *tmpl;
	const char *banner;
	struct outline *outline; /* one per chapter */
	struct onebook *book;    /* the one-page book (site_book.h) */
	struct store *store;     /* the one cache (base/store.h) */
	struct xref *xref;       /* what references name (xref.h) */
	struct plot_memo *memo;  /* the charts drawn together, for their
	                            pages to take (plot.h) */
};

struct page_ctx {
	struct site_ctx *s;
	struct chapter *ch;
	size_t index;   /* of the chapter in the book */
	int figures;    /* figures so far on this page */
	int tables;     /* tables so far on this page */
	int claims, claims_failed, errors;
	const char **partial; /* experiments read with malformed records */
	size_t npartial;
	struct store *store;  /* where its pieces are kept, or NULL */
	struct excerpt_src *sources; /* the sources its excerpts read, each
	                                read and parsed once (excerpt.h) */
	size_t nsources;
};

#endif
