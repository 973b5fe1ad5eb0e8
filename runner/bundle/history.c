/* history.c - a bundle's recordings read from git (history.h): the commits
 * that changed it, its files at each (git ls-tree), their contents read
 * once per blob (git show), and the working tree where it differs. */
#define _GNU_SOURCE
#include "bundle/history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/exec.h"
#include "base/util.h"

/* A git command may take this long before it counts as hung. */
#define GIT_TIMEOUT 120.0
/* What one git command may print: a log of many commits, a batch of blobs. */
#define GIT_CAP (256u << 20)
/* Blobs read by one git show, at most: the text it prints stays small. */
#define BLOB_BATCH_BYTES (32u << 20)
#define BLOB_BATCH_COUNT 400

/* A blob of some recording: its id, size, and text once read. */
struct blob {
	char id[41];
	size_t size;
	char *text;
};

struct history_store {
	struct blob *b; /* sorted by id once every tree is listed */
	size_t n;
};

/* The files of one recording: names in the bundle, and their blob ids. */
struct history_files {
	char **names;
	char **blobs;
	size_t n;
};

/* "git -C top ARGS..." as a NULL-terminated array; free it alone. */
static char **git_argv(const char *top, const char *const *args)
{
	char **argv = NULL;
	size_t n = 0;
	*ARRAY_PUSH(argv, n) = "git";
	*ARRAY_PUSH(argv, n) = "-C";
	*ARRAY_PUSH(argv, n) = (char *)top;
	for (size_t i = 0; args[i]; i++)
		*ARRAY_PUSH(argv, n) = (char *)args[i];
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

/*
 * Run git in top with args; its output in *out (*len bytes), or -1
 * (reported, with what git said) when it could not run or failed. Only
 * git's exit status says whether it failed: its words, on stderr, come
 * with the output, so a command whose output is parsed writes none.
 */
static int git_run(const char *top, const char *const *args, char **out,
                   size_t *len)
{
	char **argv = git_argv(top, args);
	struct run_result r;
	int rc = -1;
	*out = NULL;
	if (exec_run(argv, NULL, GIT_TIMEOUT, GIT_CAP, &r) != 0) {
		diag("cannot run git: %s", strerror(errno));
	} else if (r.exit_code == 0 && !r.dropped) {
		*out = r.out;
		*len = r.out_len;
		rc = 0;
	} else {
		char *cmd = argv_join(argv);
		diag("%s failed%s: %.400s", cmd, r.dropped ? " (its output too long)"
		     : r.timed_out ? " (timed out)" : "", r.out ? r.out : "");
		free(cmd);
		free(r.out);
	}
	free(argv);
	return rc;
}

/* The same, quietly: the output, or NULL when git failed. */
static char *git_try(const char *top, const char *const *args)
{
	char **argv = git_argv(top, args);
	char *out = exec_capture(argv, GIT_TIMEOUT);
	free(argv);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_blob(const void *a, const void *b)
{
	return strcmp(((const struct blob *)a)->id, ((const struct blob *)b)->id);
}

static struct blob *store_find(struct history_store *s, const char *id)
{
	struct blob key;
	snprintf(key.id, sizeof key.id, "%s", id);
	return bsearch(&key, s->b, s->n, sizeof *s->b, cmp_blob);
}

/*
 * Where git should look for dir, and the part of dir below it: dir
 * itself when it is a folder, else the folder that holds it (a bundle the
 * working tree no longer has). Both owned by the caller.
 */
static void git_where(const char *dir, char **at, char **rest)
{
	char *d = xstrdup(dir);
	size_t len = strlen(d);
	while (len > 1 && d[len - 1] == '/')
		d[--len] = '\0';
	struct stat st;
	char *slash = strrchr(d, '/');
	if ((stat(d, &st) == 0 && S_ISDIR(st.st_mode)) || (slash && slash == d)) {
		*at = d;
		*rest = xstrdup("");
		return;
	}
	*rest = xstrdup(slash ? slash + 1 : d);
	*at = slash ? xstrndup(d, (size_t)(slash - d)) : xstrdup(".");
	free(d);
}

/* Note git's own files that a commit or a checkout changes, so that a
 * stamped build (cli/stamp.h) made with a history is made again. */
static void git_note_inputs(const char *gitdir)
{
	static const char *files[] = {"HEAD", "index", "packed-refs", "logs/HEAD"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *p = path_join(gitdir, files[i]);
		input_note(p);
		free(p);
	}
	char *head = path_join(gitdir, "HEAD");
	char *text = file_read(head, NULL);
	if (text && !strncmp(text, "ref: ", 5)) {
		char *ref = str_first_line(text + 5);
		char *p = path_join(gitdir, ref);
		input_note(p);
		free(p);
		free(ref);
	}
	free(text);
	free(head);
}

/*
 * Find the repository that holds h->dir: h->top and h->path set, or
 * neither, and h->note says why.
 */
static void history_locate(struct history *h)
{
	char *at, *rest;
	git_where(h->dir, &at, &rest);
	const char *args[] = {"rev-parse", "--show-toplevel", "--show-prefix",
	                      "--absolute-git-dir", NULL};
	char *out = git_try(at, args);
	char *lines[3] = {NULL, NULL, NULL};
	for (size_t i = 0, k = 0; out && out[i] && k < 3; k++) {
		size_t e = strcspn(out + i, "\n");
		lines[k] = xstrndup(out + i, e);
		i += e + (out[i + e] == '\n');
	}
	if (!lines[0] || !lines[2]) {
		h->note = xasprintf("%s is in no git repository, so it has no history: "
		                    "the one recording is the folder as it is", h->dir);
	} else {
		h->top = xstrdup(lines[0]);
		size_t p = strlen(lines[1]);
		while (p && lines[1][p - 1] == '/')
			lines[1][--p] = '\0';
		h->path = *lines[1] && *rest ? xasprintf("%s/%s", lines[1], rest)
		          : xstrdup(*lines[1] ? lines[1] : rest);
		/* Never a pattern ('b*' is no other folder); the root is ".". */
		h->spec = *h->path ? xasprintf(":(literal)%s", h->path) : xstrdup(".");
		git_note_inputs(lines[2]);
	}
	for (int k = 0; k < 3; k++)
		free(lines[k]);
	free(out);
	free(at);
	free(rest);
}

/* Is name a file of the bundle that history reads? */
static int file_wanted(const char *name)
{
	size_t n = strlen(name);
	if (strchr(name, '/') || name[0] == '.')
		return 0;
	return !strcmp(name, "machine.json") ||
	       (n > 6 && !strcmp(name + n - 6, ".jsonl")) ||
	       (n > 10 && !strcmp(name + n - 10, ".meta.json"));
}

/*
 * The files of the bundle at commit e->commit (git ls-tree), each blob
 * added to the store. 0, or -1 (reported).
 */
static int entry_list(struct history *h, struct history_entry *e)
{
	/* ls-tree reads no pattern; the repository's root is ".". */
	char *tree = *h->path ? xasprintf("%s/", h->path) : xstrdup(".");
	const char *args[] = {"ls-tree", "-r", "-l", "-z", "--full-tree",
	                      e->commit, "--", tree, NULL};
	char *out = NULL;
	size_t len = 0;
	int rc = git_run(h->top, args, &out, &len);
	free(tree);
	if (rc != 0)
		return -1;
	e->files = xcalloc(1, sizeof *e->files);
	size_t plen = strlen(h->path);
	for (size_t i = 0; i < len;) {
		const char *line = out + i;
		size_t l = strnlen(line, len - i);
		i += l + 1;
		/* "MODE TYPE ID SIZE\tPATH" */
		char mode[16], type[16], id[64];
		unsigned long long size;
		const char *tab = memchr(line, '\t', l);
		if (!tab || sscanf(line, "%15s %15s %63s %llu", mode, type, id,
		                   &size) != 4 || strcmp(type, "blob") ||
		    strlen(id) != 40)
			continue;
		const char *path = tab + 1;
		const char *name = plen ? path + plen + 1 : path;
		if ((plen && (strncmp(path, h->path, plen) || path[plen] != '/')) ||
		    !file_wanted(name))
			continue;
		struct history_files *f = e->files;
		f->names = xrealloc(f->names, (f->n + 1) * sizeof *f->names);
		f->blobs = xrealloc(f->blobs, (f->n + 1) * sizeof *f->blobs);
		f->names[f->n] = xstrdup(name);
		f->blobs[f->n] = xstrdup(id);
		f->n++;
		struct blob *b = ARRAY_PUSH(h->store->b, h->store->n);
		memset(b, 0, sizeof *b);
		memcpy(b->id, id, 41);
		b->size = (size_t)size;
	}
	free(out);
	e->absent = e->files->n == 0;
	return 0;
}

/* Read every blob of the store, in batches of git show (a blob's
 * contents, printed one after another, as its size says). 0 or -1. */
static int store_read(struct history *h)
{
	struct history_store *s = h->store;
	if (s->n)
		qsort(s->b, s->n, sizeof *s->b, cmp_blob);
	size_t u = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!u || strcmp(s->b[u - 1].id, s->b[i].id))
			s->b[u++] = s->b[i];
	s->n = u;
	for (size_t i = 0; i < s->n;) {
		const char **args = NULL;
		size_t na = 0, bytes = 0, j = i;
		*ARRAY_PUSH(args, na) = "show";
		*ARRAY_PUSH(args, na) = "--no-textconv";
		for (; j < s->n && j - i < BLOB_BATCH_COUNT &&
		       (j == i || bytes + s->b[j].size <= BLOB_BATCH_BYTES); j++) {
			bytes += s->b[j].size;
			*ARRAY_PUSH(args, na) = s->b[j].id;
		}
		*ARRAY_PUSH(args, na) = NULL;
		char *out = NULL;
		size_t len = 0;
		int rc = git_run(h->top, args, &out, &len);
		free(args);
		if (rc != 0)
			return -1;
		if (len != bytes) {
			diag("git show printed %zu bytes for %zu blobs of %zu bytes in "
			     "%s; cannot tell them apart", len, j - i, bytes, h->dir);
			free(out);
			return -1;
		}
		for (size_t k = i, at = 0; k < j; at += s->b[k].size, k++)
			s->b[k].text = xstrndup(out + at, s->b[k].size);
		free(out);
		i = j;
	}
	return 0;
}

/* The text of a blob read, or NULL. */
static const char *blob_text(struct history *h, const char *id, size_t *len)
{
	struct blob *b = store_find(h->store, id);
	if (len)
		*len = b ? b->size : 0;
	return b ? b->text : NULL;
}

static char *json_str(const cJSON *o, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o,
	                                                                    key));
	return s && *s ? xstrdup(s) : NULL;
}

/* The machine facts and experiment ids of e, from machine (may be NULL)
 * and its records files' names. */
static void entry_facts(struct history_entry *e, const cJSON *machine)
{
	e->gpu = json_str(machine, "gpu");
	e->card = json_str(machine, "uuid");
	e->driver = json_str(machine, "driver");
	e->toolkit = json_str(machine, "nvcc");
	/* A book of CPU experiments: its card is the host's processor. */
	if (!e->gpu)
		e->gpu = json_str(machine, "cpu");
	if (!e->card && e->gpu) {
		char *host = json_str(machine, "host");
		e->card = xasprintf("%s%s%s", e->gpu, host ? " on " : "",
		                    host ? host : "");
		free(host);
	}
	if (!e->date)
		e->date = json_str(machine, "date");
}

static void entry_ids_from_files(struct history_entry *e)
{
	for (size_t i = 0; e->files && i < e->files->n; i++) {
		const char *name = e->files->names[i];
		size_t n = strlen(name);
		if (n > 6 && !strcmp(name + n - 6, ".jsonl"))
			*ARRAY_PUSH(e->ids, e->nids) = xstrndup(name, n - 6);
	}
	if (e->nids)
		qsort(e->ids, e->nids, sizeof *e->ids, cmp_str);
}

/* Are the records files of a and b the same blobs? */
static int same_records(const struct history_files *a,
                        const struct history_files *b)
{
	size_t na = 0, nb = 0;
	for (int side = 0; side < 2; side++) {
		const struct history_files *x = side ? b : a, *y = side ? a : b;
		for (size_t i = 0; i < x->n; i++) {
			size_t len = strlen(x->names[i]);
			if (len < 6 || strcmp(x->names[i] + len - 6, ".jsonl"))
				continue;
			*(side ? &nb : &na) += 1;
			size_t k = 0;
			while (k < y->n && strcmp(y->names[k], x->names[i]))
				k++;
			if (k == y->n || strcmp(y->blobs[k], x->blobs[i]))
				return 0;
		}
	}
	return na == nb && na > 0;
}

/* The commits that changed the bundle, oldest first, appended to h->e.
 * 0 or -1. */
static int history_commits(struct history *h)
{
	const char *args[] = {"log", "-z", "--reverse", "--no-show-signature",
	                      "--format=%H%x1f%h%x1f%cI%x1f%s", "--", h->spec,
	                      NULL};
	char *out = NULL;
	size_t len = 0;
	if (git_run(h->top, args, &out, &len) != 0)
		return -1;
	for (size_t i = 0; i < len;) {
		char *rec = out + i;
		size_t l = strnlen(rec, len - i);
		i += l + 1;
		char *f[4] = {NULL};
		char *p = rec;
		for (int k = 0; k < 4 && p; k++) {
			f[k] = p;
			p = strchr(p, '\x1f');
			if (p)
				*p++ = '\0';
		}
		while (f[0] && (*f[0] == '\n'))
			f[0]++;
		if (!f[3] || strlen(f[0]) != 40)
			continue;
		struct history_entry *e = ARRAY_PUSH(h->e, h->n);
		memset(e, 0, sizeof *e);
		e->commit = xstrdup(f[0]);
		e->abbrev = xstrdup(f[1]);
		e->date = xstrdup(f[2]);
		e->subject = xstrdup(f[3]);
	}
	free(out);
	return 0;
}

/* Has the working tree changes of the bundle not committed? */
static int worktree_dirty(struct history *h)
{
	const char *args[] = {"status", "--porcelain", "-z",
	                      "--untracked-files=all", "--", h->spec, NULL};
	char *out = git_try(h->top, args);
	int dirty = out && *out;
	free(out);
	return dirty;
}

/* The working tree as the last entry, when it holds a bundle. */
static void history_add_worktree(struct history *h)
{
	struct bundle *b = bundle_open(h->dir);
	char **ids = NULL;
	size_t n = 0;
	if (file_exists(h->dir) && bundle_list(b, &ids, &n) == 0 && n) {
		struct history_entry *e = ARRAY_PUSH(h->e, h->n);
		memset(e, 0, sizeof *e);
		e->abbrev = xstrdup("worktree");
		e->subject = xstrdup("");
		e->ids = ids;
		e->nids = n;
		ids = NULL;
		entry_facts(e, b->machine);
	}
	argv_free(ids);
	bundle_free(b);
}

int history_read(const char *dir, struct history **out)
{
	struct history *h = xcalloc(1, sizeof *h);
	h->dir = xstrdup(dir);
	h->store = xcalloc(1, sizeof *h->store);
	*out = NULL;
	history_locate(h);
	if (h->path) {
		if (history_commits(h) != 0)
			goto fail;
		for (size_t i = 0; i < h->n; i++)
			if (entry_list(h, &h->e[i]) != 0)
				goto fail;
		if (store_read(h) != 0)
			goto fail;
		for (size_t i = 0; i < h->n; i++) {
			struct history_entry *e = &h->e[i];
			const char *m = NULL;
			for (size_t k = 0; k < e->files->n; k++)
				if (!strcmp(e->files->names[k], "machine.json"))
					m = blob_text(h, e->files->blobs[k], NULL);
			cJSON *machine = m ? cJSON_Parse(m) : NULL;
			entry_facts(e, machine);
			cJSON_Delete(machine);
			entry_ids_from_files(e);
			for (size_t p = i; p-- > 0;)
				if (!h->e[p].absent) {
					e->same_records = !e->absent &&
					                  same_records(h->e[p].files, e->files);
					break;
				}
		}
		if (!h->n)
			h->note = xasprintf("%s has no commit in the history of %s (is it "
			                    "ignored, or not added yet?): the one recording "
			                    "is the folder as it is", h->path, h->top);
	}
	if (!h->path || !h->n || worktree_dirty(h))
		history_add_worktree(h);
	size_t with = 0;
	for (size_t i = 0; i < h->n; i++)
		with += h->e[i].nids > 0;
	if (!with) {
		diag_at(dir, 0, "no records in this bundle%s; no history to show",
		        h->path ? ", now or in any commit" : "");
		goto fail;
	}
	*out = h;
	return 0;
fail:
	history_free(h);
	return -1;
}

static void files_free(struct history_files *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->names[i]);
		free(f->blobs[i]);
	}
	free(f->names);
	free(f->blobs);
	free(f);
}

void history_free(struct history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++) {
		struct history_entry *e = &h->e[i];
		free(e->commit);
		free(e->abbrev);
		free(e->date);
		free(e->subject);
		free(e->gpu);
		free(e->card);
		free(e->driver);
		free(e->toolkit);
		for (size_t k = 0; k < e->nids; k++)
			free(e->ids[k]);
		free(e->ids);
		files_free(e->files);
	}
	free(h->e);
	for (size_t i = 0; h->store && i < h->store->n; i++)
		free(h->store->b[i].text);
	if (h->store)
		free(h->store->b);
	free(h->store);
	free(h->dir);
	free(h->path);
	free(h->spec);
	free(h->top);
	free(h->note);
	free(h);
}

/* Put one file of a recording into b, in memory. */
static void bundle_put(struct bundle *b, const char *name, const char *text,
                       size_t len)
{
	size_t n = strlen(name);
	if (!strcmp(name, "machine.json")) {
		cJSON *m = cJSON_Parse(text);
		if (cJSON_IsObject(m)) {
			cJSON_Delete(b->machine);
			b->machine = m;
		} else {
			cJSON_Delete(m);
			b->machine_bad = 1;
		}
	} else if (n > 10 && !strcmp(name + n - 10, ".meta.json")) {
		char *id = xstrndup(name, n - 10);
		struct exp_result *r = bundle_get_meta(b, id);
		cJSON *m = cJSON_Parse(text);
		cJSON_Delete(r->meta);
		r->meta = cJSON_IsObject(m) ? m : NULL;
		if (!r->meta)
			cJSON_Delete(m);
		free(id);
	} else {
		char *id = xstrndup(name, n - 6), *err = NULL;
		struct exp_result *r = bundle_get_meta(b, id);
		r->have_data = 1;
		if (records_parse_n(text, len, &r->rows, &r->nrows, &err) != 0) {
			r->error = xasprintf("%s/%s:%s", b->dir, name, err);
			free(err);
		}
		free(id);
	}
}

struct bundle *history_bundle(struct history *h, size_t i)
{
	struct history_entry *e = &h->e[i];
	if (e->absent)
		return NULL;
	if (!e->commit)
		return bundle_open(h->dir);
	/* Named as git names the tree, so that a message about a record
	 * reads as the place to see it: git show COMMIT:PATH/ID.jsonl. */
	char *name = xasprintf("%s:%s", e->abbrev, h->path);
	struct bundle *b = bundle_open(name);
	free(name);
	for (size_t k = 0; k < e->files->n; k++) {
		size_t len = 0;
		const char *text = blob_text(h, e->files->blobs[k], &len);
		if (text)
			bundle_put(b, e->files->names[k], text, len);
	}
	return b;
}
