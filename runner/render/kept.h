/*
 * kept.h - what the site keeps in the one cache (base/store.h) of what it
 * made, besides pieces (piece.h): the facts of its files as written, and
 * chapters' outlines. What is read back is checked as if it were made: an
 * outline that does not fit its chapter, or an id a heading could not
 * have, is none.
 */
#ifndef LB_KEPT_H
#define LB_KEPT_H

#include "base/store.h"
#include "book/chapter.h"
#include "render/render.h"

/* What says a file is the one a build wrote: "SIZE MTIME_NS INODE" of
 * dir/file, or "" when it is not a regular file there. */
void kept_facts(const char *dir, const char *file, char out[80]);
/* Is dir/file the file made under key (its facts kept there)? */
int kept_file(struct store *st, const char *dir, const char *file,
              const char *key);
/* Keep the facts of dir/file, as made under key. */
void kept_file_put(struct store *st, const char *dir, const char *file,
                   const char *key);

/* The outline of ch kept under key, into ol, when it fits the chapter.
 * 0, or -1 (ol untouched). */
int kept_outline(struct store *st, const char *key, const struct chapter *ch,
                 struct outline *ol);
/* Keep ol, ch's outline, under key. */
void kept_outline_put(struct store *st, const char *key,
                      const struct chapter *ch, const struct outline *ol);

/*
 * The files of the site this build made (paths relative to dir, one a
 * line, in made), kept for the next build; the files the last build made
 * that this one did not (a chapter renamed or deleted, a chart removed)
 * are removed. Only what a build listed is ever removed: a file of the
 * user's beside the site's is left alone.
 */
void kept_files_prune(struct store *st, const char *dir, const char *made,
                      size_t len);

/* Remove the caches an earlier labbook kept in the site folder. */
void kept_legacy_remove(const char *site);

#endif
