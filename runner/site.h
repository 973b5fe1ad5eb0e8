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

#include "book.h"
#include "machines.h"
#include "results.h"

struct site_opts {
	const char *dir;       /* the site folder */
	const char *templates; /* the templates folder */
	const char *title;     /* the book's title */
	int gpu;               /* this machine could measure (a GPU is present) */
	struct machine_set *machines; /* the bundle and those compared; NULL
	                                 or one: a single-machine book */
	int live;              /* pages reload after a build (labbook watch) */
	int strict;            /* a claim that does not hold is an error */
};

struct site_stats {
	int errors;       /* problems shown on pages (already reported) */
	int claims;
	int claims_failed;
	int pages_written;
	int charts_drawn;
};

/* Write the site. Returns 0, or -1 when a file could not be written. */
int site_render(struct book *bk, struct bundle *b, const struct site_opts *o,
                struct site_stats *st);

#endif
