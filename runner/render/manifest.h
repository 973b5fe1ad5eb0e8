/*
 * manifest.h - which pages of the site are up to date.
 *
 * The site folder holds a small JSON file that maps each chapter page to
 * the keys of its inputs when it was written, and what the book-wide pages
 * need from it (its outline and claim counts), and the records of the
 * book-wide files made of the pages' slices (slices.h). A page whose keys
 * match is not made again.
 */
#ifndef LB_MANIFEST_H
#define LB_MANIFEST_H

#include <cjson/cJSON.h>

#include "book/book.h"
#include "book/chapter.h"
#include "bundle/results.h"

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
 * The record of a book-wide file (book.html, search-index.js; slices.h):
 * the last build's (borrowed; NULL when there is none), and this build's
 * (the manifest takes rec; NULL puts nothing).
 */
const cJSON *manifest_file(const struct manifest *m, const char *file);
void manifest_file_put(struct manifest *m, const char *file, cJSON *rec);
/* Write this build's entries, if they changed. 0 or -1 (reported); -1
 * without a word once the build was asked to stop. */
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
