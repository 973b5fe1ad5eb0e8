/*
 * watch_track.c - what labbook watch watches: the folders of the book and
 * every file an experiment was built from or reads (its inputs: option),
 * on inotify, and which of the events that arrive are changes to the book
 * (a file's bytes, for an experiment's files; never an editor's temporary
 * file).
 */
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "book/book.h"
#include "bundle/results.h"
#include "bundle/state.h"
#include "base/exec.h"
#include "base/util.h"
#include "cli/watch_state.h"

static struct wdir *watch_dir_find(struct watch *w, const char *path)
{
	for (size_t i = 0; i < w->ndirs; i++)
		if (!strcmp(w->dirs[i].path, path))
			return &w->dirs[i];
	return NULL;
}

/* Events in a watched folder, and those of the folder itself. */
#define WATCH_MASK                                                           \
	(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE |  \
	 IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

/* The folder above path ("kernels/a" -> "kernels", "chapters" -> "."), or
 * NULL above the top. */
static char *dir_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strcmp(path, ".") ? xstrdup(".") : NULL;
	if (slash == path)
		return path[1] ? xstrdup("/") : NULL;
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * Watch folder path for want. A folder that is not there is remembered,
 * and the nearest folder above it that is there is watched, so that it is
 * watched again once it is made (a checkout of another branch removes and
 * makes folders).
 */
static void watch_dir_add(struct watch *w, const char *path, int want)
{
	struct wdir *d = watch_dir_find(w, path);
	if (!d) {
		d = ARRAY_PUSH(w->dirs, w->ndirs);
		d->path = xstrdup(path);
		d->wd = -1;
		d->want = 0;
	}
	d->want |= want;
	if (d->wd >= 0)
		return;
	d->wd = inotify_add_watch(w->ifd, path, WATCH_MASK);
	if (d->wd >= 0)
		return;
	char *up = dir_parent(path);
	if (up)
		watch_dir_add(w, up, W_PARENT);
	free(up);
}

static void changes_add(struct changes *c, const char *path);

/* Is a change to a folder watched for want news? The bundle's is only
 * with bundle_too. */
static int want_counts(int want, int bundle_too)
{
	return want & (W_CHAPTERS | W_TEMPLATES | W_INPUTS) ||
	       (bundle_too && want & W_BUNDLE);
}

/*
 * Watch again the folders that are back; each of the book's counts as
 * changed, since what it holds was made while it was not watched.
 */
static void watch_rearm(struct watch *w, int bundle_too)
{
	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; i < w->ndirs; i++) {
			if (w->dirs[i].wd >= 0 || !w->dirs[i].want)
				continue;
			char *path = xstrdup(w->dirs[i].path);
			int want = w->dirs[i].want;
			watch_dir_add(w, path, want);
			if (watch_dir_find(w, path)->wd >= 0) {
				again = 1;
				if (want_counts(want, bundle_too))
					changes_add(&w->pending, path);
			}
			free(path);
		}
	}
}

/* The folder of d is gone, or moved away: it is not watched until it is
 * back. */
static void watch_dir_lost(struct watch *w, struct wdir *d, int moved,
                           int bundle_too)
{
	if (moved)
		inotify_rm_watch(w->ifd, d->wd);
	d->wd = -1;
	if (want_counts(d->want, bundle_too))
		changes_add(&w->pending, d->path);
	watch_rearm(w, bundle_too);
}

void watch_ids_free(struct watch *w)
{
	for (size_t i = 0; i < w->nids; i++)
		free(w->ids[i]);
	free(w->ids);
	w->ids = NULL;
	w->nids = 0;
}

void watch_inputs_free(struct input *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(in[i].path);
		free(in[i].ids);
	}
	free(in);
}

/* A hash of a file's bytes; all zeros when it cannot be read. */
static void content_hash(const char *path, char out[33])
{
	size_t len;
	char *data = file_read(path, &len);
	struct hasher *h = hasher_new();
	if (data)
		hasher_add(h, data, len);
	hasher_done(h, out);
	if (!data)
		memset(out, '0', 32);
	free(data);
}

/* Add a file of experiment id. A file seen before keeps the hash it had
 * then, so a save not yet read off the queue still counts. */
static void watch_input_add(struct watch *w, const char *path, const char *id,
                            const struct input *old, size_t nold)
{
	for (size_t i = 0; i < w->ninputs; i++)
		if (!strcmp(w->inputs[i].path, path)) {
			char *ids = xasprintf("%s, %s", w->inputs[i].ids, id);
			free(w->inputs[i].ids);
			w->inputs[i].ids = ids;
			return;
		}
	struct input *in = ARRAY_PUSH(w->inputs, w->ninputs);
	in->path = xstrdup(path);
	in->ids = xstrdup(id);
	size_t k = 0;
	while (k < nold && strcmp(old[k].path, path))
		k++;
	if (k < nold)
		memcpy(in->hash, old[k].hash, sizeof in->hash);
	else
		content_hash(path, in->hash);
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	watch_dir_add(w, slash ? dir : ".", W_INPUTS);
	free(dir);
}

/*
 * What to watch now: the folders, and the files each experiment was built
 * from. Read again after every build, which may have added chapters,
 * experiments or includes.
 */
void watch_plan(struct watch *w)
{
	struct input *old = w->inputs;
	size_t nold = w->ninputs;
	watch_ids_free(w);
	for (size_t i = 0; i < w->ndirs; i++)
		w->dirs[i].want = 0;
	w->inputs = NULL;
	w->ninputs = 0;
	watch_dir_add(w, w->chapters, W_CHAPTERS);
	watch_dir_add(w, w->templates, W_TEMPLATES);
	watch_dir_add(w, w->results, W_BUNDLE);
	struct book bk;
	/* The build reports the chapters' problems; this reading stays quiet. */
	diag_quiet(1);
	int rc = book_load(w->chapters, &bk);
	diag_quiet(0);
	if (rc != 0) {
		watch_inputs_free(old, nold);
		return;
	}
	struct bundle *b = bundle_open(w->results);
	for (size_t i = 0; i < bk.nexps; i++) {
		const struct exper *e = &bk.exps[i];
		struct result_meta m;
		results_meta_load(b, e->id, NULL, &m);
		*ARRAY_PUSH(w->ids, w->nids) = xstrdup(e->id);
		/* A run: command is no file; its files are its inputs:. */
		if (!e->run)
			watch_input_add(w, e->source, e->id, old, nold);
		for (char **f = m.inputs; *f; f++)
			watch_input_add(w, *f, e->id, old, nold);
		/* The files its program reads, as its inputs: option names them. */
		char **data = e->data ? argv_split(e->data, NULL) : NULL;
		for (char **f = data; f && *f; f++)
			watch_input_add(w, *f, e->id, old, nold);
		argv_free(data);
		results_meta_free(&m);
	}
	watch_inputs_free(old, nold);
	bundle_free(b);
	book_free(&bk);
}

int watch_name_ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n >= k && !strcmp(name + n - k, suffix);
}

/* A file an editor or labbook writes on the way to the real one. */
static int name_temporary(const char *name)
{
	return name[0] == '.' || watch_name_ends(name, "~") ||
	       strstr(name, ".tmp.") || watch_name_ends(name, ".swp") ||
	       watch_name_ends(name, ".swx") || !strcmp(name, "4913");
}

static void changes_add(struct changes *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->paths[i], path))
			return;
	*ARRAY_PUSH(c->paths, c->n) = xstrdup(path);
}

int watch_changes_any(const struct changes *c)
{
	return c->n || c->overflow;
}

void watch_changes_free(struct changes *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->paths[i]);
	free(c->paths);
	memset(c, 0, sizeof *c);
}

/* Note what one event changed, if it is something the book is made of. */
static void watch_event(struct watch *w, const struct inotify_event *ev,
                        int bundle_too)
{
	if (ev->mask & IN_Q_OVERFLOW) {
		w->pending.overflow = 1;
		return;
	}
	struct wdir *d = NULL;
	for (size_t i = 0; i < w->ndirs && !d; i++)
		if (w->dirs[i].wd == ev->wd)
			d = &w->dirs[i];
	if (!d)
		return;
	if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
		watch_dir_lost(w, d, (ev->mask & IN_MOVE_SELF) != 0, bundle_too);
		return;
	}
	if (ev->mask & IN_ISDIR && ev->mask & (IN_CREATE | IN_MOVED_TO) &&
	    d->want & W_PARENT) {
		watch_rearm(w, bundle_too);
		return;
	}
	if (ev->mask & IN_CREATE || !ev->len || name_temporary(ev->name) ||
	    !(d->want & ~W_PARENT))
		return;
	char *path = strcmp(d->path, ".") ? path_join(d->path, ev->name)
	                                  : xstrdup(ev->name);
	int take = (d->want & W_CHAPTERS && watch_name_ends(ev->name, ".md")) ||
	           d->want & W_TEMPLATES || (bundle_too && d->want & W_BUNDLE);
	/* An experiment's file counts when its bytes changed: saving it
	 * unchanged would only find the experiment up to date. */
	for (size_t i = 0; i < w->ninputs && !take && d->want & W_INPUTS; i++) {
		if (strcmp(w->inputs[i].path, path))
			continue;
		char hash[33];
		content_hash(path, hash);
		take = strcmp(hash, w->inputs[i].hash) != 0;
		memcpy(w->inputs[i].hash, hash, sizeof hash);
	}
	if (take)
		changes_add(&w->pending, path);
	free(path);
}

/* Read the events waiting on the inotify descriptor (it is non-blocking). */
void watch_read(struct watch *w, int bundle_too)
{
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	for (;;) {
		ssize_t n = read(w->ifd, buf, sizeof buf);
		if (n <= 0)
			return;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			watch_event(w, ev, bundle_too);
			p += sizeof *ev + ev->len;
		}
	}
}
