/*
 * piece.h - the pieces of a page (piece.c): an inline value or a block
 * made once, kept in the one cache (base/store.h) under its key
 * (keys.h), and taken back in a later build with what it added to the
 * page's counters.
 *
 * A piece is kept only when it was made without a problem: none of
 * those it counts on its page (an error, a failed claim, a partial
 * value). A problem is made, and said, again.
 */
#ifndef LB_PIECE_H
#define LB_PIECE_H

#include <stddef.h>

#include "base/buf.h"
#include "base/store.h"
#include "render/render.h"

/* What a piece added to its page's counters besides its HTML. */
struct piece_counts {
	int figures, tables, claims;
};

/*
 * The piece kept in st under key: its HTML (len bytes; borrowed from st)
 * and what it counted, or NULL. A kept piece is checked as if it were
 * made: counts out of range make it no piece.
 */
const char *piece_get(struct store *st, const char *key, size_t *len,
                      struct piece_counts *counts);
/* Keep len bytes of html under key in st, with what it counted. */
void piece_put(struct store *st, const char *key, const char *html,
               size_t len, const struct piece_counts *counts);

/* Append a kept piece, html of len bytes, to out, and the counters fc it
 * added to c's: 0; or -1, taking nothing, when a counter would pass what
 * a page can count (a cache that says otherwise is not believed: the
 * piece is made again). */
int piece_take(struct page_ctx *c, const char *html, size_t len,
               const struct piece_counts *fc, struct buf *out);
/* Make a piece with make(c, arg, out), appending it to out; when key is
 * not NULL and it was made without a problem, keep it under key in c's
 * store. */
void piece_make(struct page_ctx *c, const char *key,
                void (*make)(struct page_ctx *c, const void *arg,
                             struct buf *out),
                const void *arg, struct buf *out);

#endif
