/*
 * xref.h - what a reference "{{ref KIND:LABEL}}" names, and how it reads
 * (xref.c). The book's numbering is the pages': a chart is Figure C.N,
 * its number counting the charts of chapter C that are drawn or tried
 * (not those whose directive is wrong); a table is Table C.N, counting
 * the chapter's Markdown tables and {table} blocks alike; a labelled
 * claim is Claim C.N, counting the labelled claims; an exercise is
 * Exercise C.N.
 *
 *   fig:ID      a chart             "Figure 2.1"
 *   tab:ID      a {table} ID        "Table 3.2"
 *   sec:ID      a heading, by id    "“Little's law”", or, in another
 *               chapter, "“Little's law” in Chapter 2"; the chapter's
 *               own first, then the one other chapter that has it;
 *               sec:NAME#ID names the chapter
 *   claim:L     {{check L: ...}}    "Claim 2.3"
 *   ex:L        ```{exercise} L     "Exercise 5.2"
 *   ch:NAME     a chapter           "Chapter 4"
 *
 * Each reads as a link to its target, on the chapter pages and in the
 * one-page book (whose ids site_book.c rewrites).
 */
#ifndef LB_XREF_H
#define LB_XREF_H

#include <stddef.h>

#include "base/buf.h"
#include "book/book.h"
#include "render/render.h"

struct xref;

/* Every target of bk, its sections' ids and titles from ol (one outline
 * per chapter; both borrowed, and must outlive the result). */
struct xref *xref_new(const struct book *bk, const struct outline *ol);
/* NULL-safe. */
void xref_free(struct xref *x);

/*
 * Append reference text ("fig:ilp-sm"), as written in chapter from, as it
 * reads: a link when html, else plain text. 0, or -1 with *err (the
 * caller frees it and reports it): a malformed, unknown or ambiguous
 * reference, or one whose target is named twice.
 */
int xref_write(const struct xref *x, size_t from, const char *text, int html,
               struct buf *out, char **err);

/*
 * The number of claim k (an index of values) of chapter i: 0 when it has
 * no label; -1 with *err when another claim before it in the book has the
 * same label. xref_exercise: the same for exercise k, whose number is
 * k + 1.
 */
int xref_claim(const struct xref *x, size_t i, size_t k, char **err);
int xref_exercise(const struct xref *x, size_t i, size_t k, char **err);

/* What chapter i's page shows of the book's numbering: each of its
 * references as it reads, and its claims' and exercises' numbers. */
void xref_digest(const struct xref *x, size_t i, char out[33]);

#endif
