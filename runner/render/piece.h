/*
 * piece.h - the pieces of a page (piece.c): an inline value or a block
 * made once, kept in the page's store (frags.h), and taken back in a
 * later build with what it added to the page's counters.
 */
#ifndef LB_PIECE_H
#define LB_PIECE_H

#include <stddef.h>

#include "base/buf.h"
#include "render/frags.h"
#include "render/render.h"

/* Append a kept piece, html of len bytes, to out, and the counters fc it
 * added to c's. */
void piece_take(struct page_ctx *c, const char *html, size_t len,
                const struct frag_counts *fc, struct buf *out);
/* Make a piece with make(c, arg, out), appending it to out; when key is
 * not NULL and it was made without a problem (no error, failed claim,
 * partial value or report), keep it under key. */
void piece_make(struct page_ctx *c, const char *key,
                void (*make)(struct page_ctx *c, const void *arg,
                             struct buf *out),
                const void *arg, struct buf *out);

#endif
