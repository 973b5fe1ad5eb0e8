/*
 * render.h - what the modules that make pages share (site.h is the entry
 * point): the site being written, the page being made, and the pieces of
 * HTML more than one of them prints.
 *
 *   values.c  inline values, claims and a plan's pieces as HTML or text
 *   blocks.c  directives: experiments, listings, and the shared helpers
 *   table.c   the {table} directive
 *   figure.c  the {chart} directive's figure and its text alternative
 *   page.c    the page frame: template, contents, navigation, writing
 *   search.c  the search index and the search page
 *   book_pages.c  provenance.html, runs.html and machines.html
 *   site.c    chapter pages, the index and the one-page book, assets, and
 *             which pages are up to date
 *
 * A renderer has no side effects but the files it writes, and starts no
 * process but gnuplot (plot.h). Everything that came from an experiment or
 * a records file is HTML-escaped.
 */
#ifndef LB_RENDER_H
#define LB_RENDER_H

#include <cjson/cJSON.h>

#include "book.h"
#include "buf.h"
#include "chapter.h"
#include "results.h"
#include "frags.h"
#include "site.h"

/* A chapter's headings with their values computed. */
struct outline {
	char *title;    /* plain text */
	char **titles;  /* each section's plain title */
	char **ids;     /* each section's id */
	char *lead;     /* the first sentence of its prose, or NULL */
};

struct site_ctx {
	struct book *bk;
	struct bundle *b;
	const struct site_opts *o;
	struct site_stats *st;
	const char *tmpl;
	const char *banner;
	struct outline *outline; /* one per chapter */
	struct onebook *book;    /* the one-page book (site_book.h) */
	struct frags **frags;    /* per chapter: the pieces of a page made */
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
	struct frags *frags;  /* this page's kept pieces, or NULL */
};

/*
 * The pieces of a page (frags.h): a kept piece, html of len bytes with the
 * counters fc it added, is appended to out and its counters to c's; a new
 * one is made by make(c, arg, out) and, when key is not NULL and it was
 * made without a problem (no error, failed claim, partial value or
 * report), kept under key.
 */
void piece_take(struct page_ctx *c, const char *html, size_t len,
                const struct frag_counts *fc, struct buf *out);
void piece_make(struct page_ctx *c, const char *key,
                void (*make)(struct page_ctx *c, const void *arg,
                             struct buf *out),
                const void *arg, struct buf *out);
/* The key of chart, table or block d on c's page (frags.h). */
void block_key(const struct page_ctx *c, const struct directive *d,
               char key[33]);
/* Will block_html take d from the page's kept pieces (for a chart, with
 * its drawings there)? */
int block_kept(const struct page_ctx *c, const struct directive *d);

/* values.c */

/* Append inline value e as HTML: its value, a claim mark, or an error
 * (reported once, counted on c). */
void value_html(struct page_ctx *c, const struct inline_expr *e,
                struct buf *out);
/* Report, once per page, that what it shows of experiment id stands on the
 * records before a malformed line (why, "FILE:LINE: what"); counted as a
 * problem of the page. 1 when reported now. */
int partial_report(struct page_ctx *c, int line, const char *id,
                   const char *why);
/* Append the mark of a value or claim that reads data this bundle lacks
 * (its results predate the experiment's source): what and why as a title. */
void not_measured_html(struct buf *out, const char *what, const char *why);
/* Is the data of a directive (an experiment id, derived ones too) outdated
 * in c's bundle? */
int data_outdated(struct page_ctx *c, const char *data);
/* Where plain-text values come from: the bundle, and the kept pieces of
 * the chapter's page (NULL: none), whose keys read the book. */
struct text_src {
	struct bundle *b;
	const struct book *bk;
	struct frags *frags;
};
/* Append e's value as plain text, or "?" when it has none (not reported:
 * the page reports it where the value stands). */
void value_text(const struct text_src *t, const struct inline_expr *e,
                struct buf *out);
/* Append p as plain text with values computed, spaces collapsed. */
void pieces_text_of(const struct text_src *t, const struct chapter *ch,
                    const struct pieces *p, struct buf *out);
/* Append the chapter's body as HTML: prose, values, directives, headings.
 * *after_title: the length of out just after the title's heading, or 0. */
void body_html(struct page_ctx *c, struct buf *out, size_t *after_title);
/* Compute the outline of ch: titles, ids and lead. */
void outline_make(const struct text_src *t, const struct chapter *ch,
                  struct outline *ol);
void outline_free(struct outline *ol, size_t nsections);

/* blocks.c */

const char *machine_str(const struct bundle *b, const char *key);
/* Did a GPU measure b (machine.json names one, not "none")? */
int machine_has_gpu(const struct bundle *b);
/* Bytes from a program as HTML: escaped, invalid UTF-8 and control
 * characters (but tab and newline) shown as U+FFFD. */
void text_html(struct buf *out, const char *s, size_t len);
void error_box(struct buf *out, const char *title, const char *msg,
               const char *text);
/* A records cell: a number with fmt (NULL: the book's default), a string,
 * yes or no, or a list. */
void cell_html(struct buf *out, const cJSON *c, const char *fmt);
int row_wrong(const cJSON *row);
/* A box that scrolls a wide table on a narrow screen, from the keyboard too. */
void table_wrap_open(struct buf *out, const char *label, const char *id);
/* A number as the book writes it (value_format's default), as plain text. */
void num_text(struct buf *out, double x);
/* A field of a record as plain text; a number as the book writes one. */
void field_text(struct buf *out, const cJSON *f);
/* Append directive d as HTML. */
void block_html(struct page_ctx *c, const struct directive *d,
                struct buf *out);
/*
 * The state of experiment id as the bundle records it (results_meta_load;
 * the caller frees m with results_meta_free), failed too when this build
 * found it could not be built (e, the book's, may be NULL).
 */
void exp_meta_read(struct bundle *b, const struct exper *e, const char *id,
                   struct result_meta *m);
/* The state of an experiment's results in b, in the words every page uses
 * (result_state_name), naming the machine where they were recorded on
 * another. */
void state_html(struct buf *out, const struct bundle *b, enum result_state s);

/* table.c */
void table_html(struct page_ctx *c, const struct directive *d,
                struct buf *out);

/* figure.c */
void figure_html(struct page_ctx *c, const struct directive *d,
                 struct buf *out);

/* page.c */

/* What a page template is filled with; every field but file is HTML. */
struct page {
	const char *file;    /* under the site folder */
	const char *title;   /* plain text; "" for the book's own title */
	const char *toc;
	const char *toc_fold; /* the short contents for narrow screens */
	const char *content;
	const char *prev, *next; /* links to the neighbouring pages, or "" */
	const char *scripts;     /* script elements, or "" */
};

/* The contents: every chapter (or, in a long book, those near cur) and
 * the sections of cur (NULL on the book-wide pages). */
/* The sections (level 2) of chapter i as a nested list, each link to
 * #PREFIXid. */
void sections_html(const struct site_ctx *s, size_t i, const char *prefix,
                   struct buf *out);
void toc_html(const struct site_ctx *s, const struct chapter *cur,
              struct buf *out);
/* The short contents of a page: its sections and a link to all chapters. */
void toc_fold_html(const struct site_ctx *s, const struct chapter *cur,
                   struct buf *out);
/* A link to a neighbouring chapter, or "" when ch is NULL. Caller frees. */
char *nav_link(const struct site_ctx *s, const struct chapter *ch,
               const char *rel, const char *label);
void banner_html(const struct bundle *b, const struct site_opts *o,
                 struct buf *out);
/* book_pages.c: provenance.html, machines.html (where bundles are
 * compared) and runs.html. 0 or -1. */
int provenance_page(const struct site_ctx *s);
int machines_html_page(const struct site_ctx *s);
int runs_page(const struct site_ctx *s);

/* Fill the template with pg and write it if it changed. 0 or -1. */
int page_write(const struct site_ctx *s, const struct page *pg);
/* page_write for a page of the whole book, not of a chapter: content under
 * the book's contents; next: its "next" link ("" for none); tail: HTML
 * before </body>. 0 or -1. */
int page_write_book(const struct site_ctx *s, const char *file,
                    const char *title, const char *content, const char *next,
                    const char *tail);
/* Write pg (its content unused) whose content content(fd, arg) writes in
 * place, for a page too large to hold: always written, atomically.
 * content returns 0, or -1 with errno set. 0 or -1 (reported). */
int page_write_stream(const struct site_ctx *s, const struct page *pg,
                      int (*content)(int fd, void *arg), void *arg);
/* The outline of a chapter (by pointer). */
const struct outline *outline_of(const struct site_ctx *s,
                                 const struct chapter *ch);

/* search.c */

struct slices;
/* Chapter i's entries of the search index: JSON objects joined by commas,
 * one per section (caller frees). */
char *search_entries(const struct site_ctx *s, size_t i);
/* Write search-index.js: chapter i's entries from entries[i], or, where
 * that is NULL, from the last index's slice (sl). 0 or -1 (reported). */
int search_index_write(const struct site_ctx *s, struct slices *sl,
                       char *const *entries);
int search_page(const struct site_ctx *s);

#endif
