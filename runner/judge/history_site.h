/*
 * history_site.h - a bundle's history for the History page (labbook build
 * --history DIR): its recordings read from git and each judged against
 * the one before, as labbook history does (bundle/history.h), handed to
 * render/history_page.h as the plain data of base/compared.h.
 */
#ifndef LB_HISTORY_SITE_H
#define LB_HISTORY_SITE_H

#include <stddef.h>

#include "base/compared.h"

/* A history read and judged (history_read, history_judge) for the site. */
struct history_site {
	struct history *h;
	struct history_judged j;
	double min_diff; /* the --min-diff it was judged under, percent */
};

/*
 * The history of bundle dir, read and judged with compare's defaults.
 * NULL (reported) when it cannot be read. Free with history_site_free;
 * NULL does nothing.
 */
struct history_site *history_site_open(const char *dir);
void history_site_free(struct history_site *hs);

/* "card", "driver": is entry t a change of machine from entry f? Names
 * what changed (caller frees, NULL-terminated; NULL when nothing did:
 * history_machine_change). */
char **history_site_change(const struct history_site *hs, size_t f, size_t t);

#endif
