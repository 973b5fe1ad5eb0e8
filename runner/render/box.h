/*
 * box.h - the pieces of HTML that blocks, tables, figures and the book's
 * pages all print (box.c), and what a page says of the data it shows.
 * Text from a program or a records file is escaped here.
 */
#ifndef LB_BOX_H
#define LB_BOX_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/record.h"
#include "render/render.h"

/* The string key of the machine.json of v's bundle, or NULL (borrowed;
 * view_machine_str). */
const char *machine_str(const struct bundle_view *v, const char *key);
/* Did a GPU measure v's bundle (machine.json names one, not "none")? */
int machine_has_gpu(const struct bundle_view *v);
/* A box that says what went wrong: title, then msg (or NULL), then a
 * program's text (or NULL) as text_html shows it. */
/* The line under a chapter's title on its claims: that all n hold on the
 * card (the machine, without a GPU) these numbers come from, or how many do
 * not, and how many of them (weak) the judge finds within their noise or
 * unable to fail, in words that fit one claim as well as many. */
void claims_summary_html(struct buf *out, int n, int failed, int weak,
                         int gpu);
void error_box(struct buf *out, const char *title, const char *msg,
               const char *text);
/* Bytes from a program as HTML: escaped, invalid UTF-8 and control
 * characters (but tab and newline) shown as U+FFFD. */
void text_html(struct buf *out, const char *s, size_t len);
/* A records cell: a number with fmt (NULL: the book's default), a string
 * (a long C++ name shortened, whole on hover), yes or no, or a list. */
void cell_html(struct buf *out, const cJSON *c, const char *fmt);
/* Is row marked "correct": false? */
int row_wrong(const cJSON *row);
/* Open a box that scrolls a wide table on a narrow screen, from the
 * keyboard too, named label and id (or NULL); the caller closes its div. */
void table_wrap_open(struct buf *out, const char *label, const char *id);
/* A number as the book writes it (value_format's default), as plain text. */
void num_text(struct buf *out, double x);
/* A field of a record as plain text; a number as the book writes one. */
void field_text(struct buf *out, const cJSON *f);
/* When experiment data requires a compute capability this card lacks
 * (its view's needs, judge/view.h), append a note that the WHAT
 * ("chart") needs it and return 1; else append nothing and return 0. */
int data_needs(struct page_ctx *c, const char *data, const char *what,
               struct buf *out);

/* Is the data of a directive (an experiment id, derived ones too) outdated
 * in c's bundle? */
int data_outdated(struct page_ctx *c, const char *data);
/* Count, once per page, that what it shows of experiment id stands on
 * the records before a malformed line, as a problem of the page (the
 * judge reports it: judge/dircheck.c). */
void partial_count(struct page_ctx *c, const char *id);
/* Hand the command a problem found while the site was written (a
 * reference that names nothing, gnuplot's failure, a file it could not
 * read), at file:line (NULL, 0: none), for it to report: st->problems. */
void site_problem(struct site_stats *st, const char *file, int line,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
