/*
 * table.h - a {table} directive as HTML (table.c).
 */
#ifndef LB_TABLE_H
#define LB_TABLE_H

#include "base/buf.h"
#include "book/chapter.h"
#include "render/render.h"

/* Append table d of c's page: chosen columns of an experiment's records,
 * filtered and sorted, or an error box (reported, counted on c). */
void table_html(struct page_ctx *c, const struct directive *d,
                struct buf *out);

#endif
