/*
 * body.h - a chapter's body as HTML (body.c).
 */
#ifndef LB_BODY_H
#define LB_BODY_H

#include <stddef.h>

#include "base/buf.h"
#include "render/render.h"

/* Append the chapter's body as HTML: prose, values, directives, headings.
 * *after_title: the length of out just after the title's heading, or 0. */
void body_html(struct page_ctx *c, struct buf *out, size_t *after_title);

#endif
