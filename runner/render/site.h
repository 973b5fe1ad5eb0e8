/*
 * site.h - the static site: one page per chapter, an index, a machine page
 * and a run log, from the chapters' HTML (chapter.h), the bundle's results
 * and the charts (plot.h), through templates/page.html.
 *
 * Everything that came from an experiment or a records file is
 * HTML-escaped. A page is rewritten only when its content changed.
 */
#ifndef LB_SITE_H
#define LB_SITE_H

#include "book/book.h"
#include "bundle/results.h"
#include "render/render.h"

/* Write the site (struct site_opts and site_stats are in render.h).
 * Returns 0, or -1 when a file could not be written. */
int site_render(struct book *bk, struct bundle *b, const struct site_opts *o,
                struct site_stats *st);

#endif
