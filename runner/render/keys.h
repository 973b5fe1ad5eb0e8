/*
 * keys.h - the key of each thing a build makes: the hash of everything it
 * is made from, under which the one cache (base/store.h) keeps it. This
 * file is the one place that says what a made thing depends on, so the
 * one place that decides what is stale.
 *
 * Every key covers labbook itself (its binary) and, for each experiment a
 * thing reads, its digest in the bundle's view (judge/view.h): the
 * bundle's files of it (their sizes, times and inodes) and what this
 * build found of it (its state, command lines and source).
 */
#ifndef LB_KEYS_H
#define LB_KEYS_H

#include "book/book.h"
#include "book/chapter.h"
#include "judge/view.h"

/*
 * What chapter ch reads, apart from the rest of the book: its text,
 * common (the template, options and anything else every page shares), and
 * every experiment its values and directives name, in v and, when a chart
 * of ch overlays machines ("machines:"), in each of others (nothers of
 * them: the bundles compared and the repeats they are judged with).
 */
void keys_chapter(const struct chapter *ch, const struct bundle_view *v,
                  const struct bundle_view *const *others, size_t nothers,
                  const char *common, char out[33]);

/*
 * A piece of a page: inline value e, or directive d's block, each over its
 * own text, facts (what the page around it shows: the chapter, its
 * counters, the site's options) and the experiments it reads.
 */
void keys_value(const struct inline_expr *e, const struct bundle_view *v,
                const char *facts, char out[33]);
void keys_block(const struct directive *d, const struct bundle_view *v,
                const char *facts, char out[33]);

/* The key of another thing made from what key covers ("book", "search"). */
void keys_derive(const char *key, const char *what, char out[33]);

#endif
