/* history_site.c - a bundle's history for the History page
 * (history_site.h). */
#include "judge/history_site.h"

#include <stdlib.h>

#include "base/util.h"
#include "bundle/history.h"

struct history_site *history_site_open(const char *dir)
{
	struct compare_opts o = COMPARE_OPTS_INIT;
	struct history_site *hs = xcalloc(1, sizeof *hs);
	if (history_read(dir, &hs->h) != 0 || history_judge(hs->h, &o, &hs->j) != 0) {
		history_free(hs->h);
		free(hs);
		return NULL;
	}
	hs->min_diff = o.min_diff;
	return hs;
}

void history_site_free(struct history_site *hs)
{
	if (!hs)
		return;
	history_judged_free(&hs->j, hs->h->n);
	history_free(hs->h);
	free(hs);
}

char **history_site_change(const struct history_site *hs, size_t f, size_t t)
{
	return history_machine_change(hs->h, f, t);
}
