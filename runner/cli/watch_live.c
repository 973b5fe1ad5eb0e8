/*
 * watch_live.c - the stamp that the pages of a live build check (live.h
 * has the script that checks it): labbook watch writes it anew after a
 * build that changed the site.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render/live.h"
#include "base/util.h"
#include "cli/watch.h"
#include "cli/watch_state.h"

/* The stamp that live pages check: a new one makes them reload. */
void watch_stamp(const struct watch *w)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char *path = path_join(w->site, LIVE_STAMP_FILE);
	char *js = xasprintf("labbook_live(\"%lld.%09ld\");\n", (long long)ts.tv_sec,
	                     ts.tv_nsec);
	file_write_atomic(path, js, strlen(js));
	free(js);
	free(path);
}
