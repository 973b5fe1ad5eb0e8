/*
 * figure.h - a {chart} directive as a figure (figure.c).
 */
#ifndef LB_FIGURE_H
#define LB_FIGURE_H

#include "base/buf.h"
#include "book/chapter.h"
#include "render/render.h"

/* Append chart d of c's page as a numbered figure: the drawings plot.h
 * makes, their text alternative and the caption, or an error box
 * (reported, counted on c). */
void figure_html(struct page_ctx *c, const struct directive *d,
                 struct buf *out);

#endif
