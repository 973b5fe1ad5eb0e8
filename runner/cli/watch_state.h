/*
 * watch_state.h - the state of labbook watch, private to watch.c (the
 * build loop and the line each build prints), watch_track.c (what is
 * watched, and what changed) and watch_live.c (what makes open pages
 * reload).
 */
#ifndef LB_WATCH_STATE_H
#define LB_WATCH_STATE_H

#include <stddef.h>

/* W_PARENT: the folder above one that is not there (yet), watched to
 * learn when it is made again. */
enum want {
	W_CHAPTERS = 1,
	W_TEMPLATES = 2,
	W_BUNDLE = 4,
	W_INPUTS = 8,
	W_PARENT = 16
};

struct wdir {
	int wd; /* -1 while the folder is not there */
	char *path;
	int want; /* enum want, or'ed */
};

/* A file an experiment is built from, which experiments ("a, b"), and
 * what it held when last seen. */
struct input {
	char *path;
	char *ids;
	char hash[33];
};

/* What changed: paths as the book names them ("kernels/a/a.c"). */
struct changes {
	char **paths;
	size_t n;
	int overflow; /* the kernel dropped events: something changed */
};

struct watch {
	const char *chapters, *results, *site, *templates;
	int no_run;
	char *self;  /* this program, to run builds with */
	char **argv; /* a build's command line */
	int ifd, sfd;
	struct wdir *dirs;
	size_t ndirs;
	struct input *inputs;
	size_t ninputs;
	char **ids; /* the book's experiments */
	size_t nids;
	struct changes pending; /* since the last build began */
};

/* ---- watch_track.c ---- */
/*
 * What to watch now: the folders, and the files each experiment was built
 * from (w->inputs, w->ids), read again from the book and the bundle.
 */
void watch_plan(struct watch *w);
/* Read the events waiting on w->ifd (non-blocking) into w->pending; a
 * change in the bundle counts only with bundle_too. */
void watch_read(struct watch *w, int bundle_too);
/* Did anything change? */
int watch_changes_any(const struct changes *c);
/* Free what c holds and empty it. */
void watch_changes_free(struct changes *c);
/* Free the n inputs of in, and in. */
void watch_inputs_free(struct input *in, size_t n);
/* Free w's list of the book's experiments and empty it. */
void watch_ids_free(struct watch *w);
/* Does name end with suffix? */
int watch_name_ends(const char *name, const char *suffix);

/* ---- watch_live.c ---- */
/* Write a new stamp (live-stamp.js) into w->site: live pages reload. */
void watch_stamp(const struct watch *w);

#endif
