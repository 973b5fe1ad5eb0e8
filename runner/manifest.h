/*
 * manifest.h - which pages of the site are up to date.
 *
 * The site folder holds a small JSON file that maps each chapter page to
 * the keys of its inputs when it was written, and what the book-wide pages
 * need from it (its outline and claim counts); a second file keeps its
 * search entries. A page whose keys match is not made again.
 */
#ifndef LB_MANIFEST_H
#define LB_MANIFEST_H

#include <cjson/cJSON.h>

#include "book.h"
#include "chapter.h"
#include "results.h"

struct manifest;

/* Read the manifest of site_dir (missing or unreadable: empty). Never NULL. */
struct manifest *manifest_load(const char *site_dir);
void manifest_free(struct manifest *m);

/* The last build's entry for page when its field equals key, or NULL. */
const cJSON *manifest_get(const struct manifest *m, const char *page,
                          const char *field, const char *key);
/* This build's entry for page (the manifest takes entry). */
void manifest_put(struct manifest *m, const char *page, cJSON *entry);
/*
 * The search entries of page, kept apart (they are most of the bytes) and
 * read only when the search index is made again: the last build's (the
 * caller takes them; NULL when there are none), and this build's (the
 * manifest takes entries).
 */
cJSON *manifest_search_take(struct manifest *m, const char *page);
void manifest_search_put(struct manifest *m, const char *page, cJSON *entries);
/* Write this build's entries, if they changed. 0 or -1 (reported). */
int manifest_write(struct manifest *m);

/*
 * The key of what chapter ch reads, apart from the rest of the book: its
 * text, common (the template, options and anything else every page
 * shares), labbook itself, and the bundle files and build state of every
 * experiment its values and directives name.
 */
void manifest_chapter_key(const struct chapter *ch, const struct book *bk,
                          const struct bundle *b, const char *common,
                          char out[33]);

/*
 * The keys of the pieces of a page (frags.h): of inline value e, and of
 * directive d, each over its own text, facts (what the page around it
 * shows: the chapter, its counters, the site's options), labbook itself,
 * and the bundle files and build state of every experiment it reads.
 */
void manifest_value_key(const struct inline_expr *e, const struct book *bk,
                        const struct bundle *b, const char *facts,
                        char out[33]);
void manifest_block_key(const struct directive *d, const struct book *bk,
                        const struct bundle *b, const char *facts,
                        char out[33]);
/* Forget the digests of experiments made so far (a build's end). */
void manifest_digests_clear(void);

#endif
