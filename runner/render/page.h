/*
 * page.h - the frame of every page (page.c): the template filled, the
 * contents, the links to the neighbouring chapters and the banner, and
 * writing a page only when it changed.
 */
#ifndef LB_PAGE_H
#define LB_PAGE_H

#include <stddef.h>

#include "base/buf.h"
#include "book/chapter.h"
#include "render/render.h"

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

/* The sections (level 2) of chapter i as a nested list, each link to
 * #PREFIXid. */
void sections_html(const struct site_ctx *s, size_t i, const char *prefix,
                   struct buf *out);
/* The contents: every chapter (or, in a long book, those near cur) and
 * the sections of cur (NULL on the book-wide pages). */
void toc_html(const struct site_ctx *s, const struct chapter *cur,
              struct buf *out);
/* The short contents of a page: its sections and a link to all chapters. */
void toc_fold_html(const struct site_ctx *s, const struct chapter *cur,
                   struct buf *out);
/* A link to a neighbouring chapter, or "" when ch is NULL. Caller frees. */
char *nav_link(const struct site_ctx *s, const struct chapter *ch,
               const char *rel, const char *label);
/* The banner of every page: the machine that measured b's bundle, and
 * the others compared with it. */
void banner_html(const struct bundle_view *b, const struct site_opts *o,
                 struct buf *out);

/* Fill the template with pg and write it if it changed. 0 or -1; -1
 * without a word once the build was asked to stop (exec_stopping). */
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
/* The outline of a chapter (by pointer), or NULL. */
const struct outline *outline_of(const struct site_ctx *s,
                                 const struct chapter *ch);

#endif
