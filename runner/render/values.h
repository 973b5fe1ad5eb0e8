/*
 * values.h - inline values and claims (values.c): as HTML on a page, as
 * plain text for titles, the contents and the search index, and a
 * chapter's outline made from them.
 */
#ifndef LB_VALUES_H
#define LB_VALUES_H

#include "base/buf.h"
#include "book/book.h"
#include "book/chapter.h"
#include "render/render.h"

struct judged_book;

/* Append inline value e as HTML: its value, a claim mark, or an error
 * (reported once, counted on c). */
void value_html(struct page_ctx *c, const struct inline_expr *e,
                struct buf *out);
/* Append the mark of a value or claim that reads data this bundle lacks
 * (its results predate the experiment's source): what and why as a title. */
void not_measured_html(struct buf *out, const char *what, const char *why);
/* What reads data or a unit that needs compute capability cc (90; -1 for
 * one no capability has) and this card lacks: "needs compute capability
 * 9.0". Not an error, and a claim (claim: 1) is not counted: it is
 * marked "check not-applicable". */
void needs_html(struct buf *out, const char *what, int cc, int claim);
/* Where plain-text values come from: the bundle's view, the one cache of
 * pieces (NULL: none), whose keys read the book, and what references
 * name (NULL: not known yet; a reference is then its target as written),
 * seen from chapter ch. */
struct text_src {
	const struct bundle_view *v; /* the bundle's (judge/view.h) */
	const struct judged_book *jb; /* the verdicts (judge.h) */
	const struct book *bk;
	struct store *store;
	const struct xref *xref;
	const struct chapter *ch;
};
/* Append e's value as plain text, or "?" when it has none (not reported:
 * the page reports it where the value stands). */
void value_text(const struct text_src *t, const struct inline_expr *e,
                struct buf *out);
/* Append p as plain text with values computed, spaces collapsed. */
void pieces_text_of(const struct text_src *t, const struct chapter *ch,
                    const struct pieces *p, struct buf *out);
/* Compute the outline of ch: titles, ids and lead. */
void outline_make(const struct text_src *t, const struct chapter *ch,
                  struct outline *ol);
/* Make again the titles of ol that hold a reference, now that t->xref
 * knows what references name (ids stay as they were made). */
void outline_resolve(const struct text_src *t, const struct chapter *ch,
                     struct outline *ol);
/* Free what ol holds (of a chapter of nsections sections). */
void outline_free(struct outline *ol, size_t nsections);

#endif
