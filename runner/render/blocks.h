/*
 * blocks.h - a chapter's directives as HTML (blocks.c): experiments and
 * listings made here, tables (table.h) and charts (figure.h) made by their
 * own files, each taken from the page's kept pieces when it can be.
 */
#ifndef LB_BLOCKS_H
#define LB_BLOCKS_H

#include "base/buf.h"
#include "book/book.h"
#include "book/chapter.h"
#include "judge/view.h"
#include "render/render.h"

/* Append directive d as HTML. */
void block_html(struct page_ctx *c, const struct directive *d,
                struct buf *out);
/* The key of chart, table or block d on c's page (frags.h). */
void block_key(const struct page_ctx *c, const struct directive *d,
               char key[33]);
/* Will block_html take d from the page's kept pieces (for a chart, with
 * its drawings there)? */
int block_kept(const struct page_ctx *c, const struct directive *d);
/* The state of an experiment's results, in the words every page uses
 * (its view's), naming the machine where they were recorded on another. */
void state_html(struct buf *out, const struct exp_view *x);

#endif
