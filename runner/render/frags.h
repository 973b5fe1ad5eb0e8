/*
 * frags.h - the pieces of a chapter page kept between builds: the HTML of
 * each inline value and each directive block, under a key of everything it
 * read (its text, the bundle files and build state of the experiments it
 * names, the chapter's place in the book, labbook itself). A page made
 * again because its prose changed takes them back, and so reads no records,
 * draws no chart and lists no SASS.
 *
 * Only a piece made without a problem is kept (nothing reported, nothing
 * marked on the page): a problem is made, and said, again. The store of a
 * page is a file of the site folder, .labbook-frags/NAME.json, holding the
 * pieces its last making used.
 */
#ifndef LB_FRAGS_H
#define LB_FRAGS_H

#include <stddef.h>

struct frags;

/* What a piece added to its page's counters besides its HTML. */
struct frag_counts {
	int figures, tables, claims;
};

/* The store of page NAME in site (missing or unreadable: empty). */
struct frags *frags_open(const char *site, const char *name);
/* The HTML kept under key (its length in *len) and what it counted, or
 * NULL. The piece stays in the store. */
const char *frags_get(struct frags *f, const char *key, size_t *len,
                      struct frag_counts *counts);
/* Keep len bytes of html under key, with what it counted. */
void frags_put(struct frags *f, const char *key, const char *html, size_t len,
               const struct frag_counts *counts);
/* Write the pieces taken or kept since frags_open, if they changed, and
 * free f (NULL: nothing). 0 or -1 (reported). */
int frags_close(struct frags *f);
/* Remove the stores of pages other than names' (n of them) from site. */
void frags_prune(const char *site, char *const *names, size_t n);

#endif
