/*
 * site_book.h - the whole book on one page (book.html): a title page with
 * a contents list, then every chapter in order, for reading straight
 * through and for printing (make pdf).
 *
 * The site hands over each chapter's content as it rendered it for the
 * chapter's own page. Ids and links are made to work on one page: inside
 * the tags of chapter NAME,
 *
 *   id="x", for="x", aria-*="x"   ->  "NAME:x"
 *   href="#x"                     ->  href="#NAME:x"
 *   href="OTHER.html#x"           ->  href="#OTHER:x"   (OTHER a chapter)
 *   href="OTHER.html"             ->  href="#OTHER"     (its section)
 *
 * Other links (provenance.html, data/, src/, fig/) stay as they are: the
 * one page lies in the site folder beside the chapter pages. Figures keep
 * the numbers their chapters give them ("Figure 3.2").
 *
 * Each chapter's part of the page is kept in the one cache (base/store.h)
 * under a key made from its page's, so a build that makes only the pages
 * whose inputs changed still puts every chapter on the one page.
 */
#ifndef LB_SITE_BOOK_H
#define LB_SITE_BOOK_H

#include <stddef.h>

#include "book/book.h"

struct buf;
struct site_ctx;

struct onebook;

/* The one-page book of the site being written (borrowed: it must outlive
 * ob): its chapters, their outlines, the book's title, the site folder and
 * the store; page_key: the key of each chapter's page (keys.h). */
struct onebook *onebook_new(const struct site_ctx *s, char (*page_key)[33]);
/* NULL-safe. */
void onebook_free(struct onebook *ob);

/* The content of chapter i (HTML, as on its own page) goes in as
 * chapter i of the book, and is kept in the store for later builds. */
void onebook_add(struct onebook *ob, size_t i, const char *html);

/* Is chapter i's part there, added or kept, for a build that does not
 * make its page? */
int onebook_has_part(const struct onebook *ob, size_t i);

/*
 * Write the page's content (HTML) to fd: the title page, the contents list
 * and every chapter, in order: those added, and the others from the
 * store. pdf_link: the
 * site has book.pdf beside it. 0, or -1 with errno set.
 */
int onebook_write(const struct onebook *ob, int fd, int pdf_link);

/* The navigation list of the page (HTML), its links inside the page:
 * chapters and their sections. Caller frees. */
char *onebook_toc(const struct onebook *ob);

/* Rewrite the ids and links of one chapter's HTML as above, appending the
 * result to out (a pure function, for tests). */
void onebook_rewrite(const struct book *bk, const char *name, const char *html,
                     struct buf *out);

#endif
