/*
 * site.h - the static site: one page per chapter, an index, a machine page
 * and a run log, from the chapters' HTML (chapter.h), the bundle's results
 * and the charts (plot.h), through templates/page.html.
 *
 * Everything that came from an experiment or a records file is
 * HTML-escaped. A page is rewritten only when its content changed.
 *
 * What a build makes is kept in the site's one cache, SITE_CACHE_FILE
 * (base/store.h), under the key of what it was made from (keys.h): each
 * chapter's outline, each piece of a page (piece.h), each chapter's parts
 * of the one-page book and of the search index, and the facts of each
 * page as written. A chapter page whose key is kept, whose file stands as
 * written and whose charts are drawn is not made again; one that showed a
 * problem or a claim that does not hold always is, so it is reported on
 * every build.
 */
#ifndef LB_SITE_H
#define LB_SITE_H

#include "book/book.h"
#include "render/render.h"

#define SITE_CACHE_FILE ".labbook-cache"

/* Write the site of the bundle o->machines->views[0] shows (struct
 * site_opts and site_stats are in render.h). Returns 0, or -1 when a file
 * could not be written. It reports nothing: what it found wrong that the
 * judge did not is in st->problems, for the caller to report. */
int site_render(struct book *bk, const struct site_opts *o,
                struct site_stats *st);

#endif
