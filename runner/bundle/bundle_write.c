/*
 * bundle_write.c - writing the bundle (results.h): machine.json, an
 * experiment's files committed as a whole (each to a temporary name, then
 * all renamed, meta.json last, the old set kept on any failure) and its
 * failures; only once bundle_run_begin let this build write.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/exec.h"
#include "bundle/merge.h"
#include "bundle/results.h"
#include "base/util.h"

char *json_print(const cJSON *v)
{
	char *s = cJSON_Print(v);
	if (!s) {
		fputs("labbook: out of memory\n", stderr);
		abort();
	}
	return s;
}

static char *json_text(const cJSON *v, size_t *len)
{
	char *s = json_print(v);
	struct buf b = BUF_INIT;
	buf_puts(&b, s);
	buf_putc(&b, '\n');
	free(s);
	*len = b.len;
	return buf_detach(&b);
}

static int write_json(const char *path, const cJSON *v)
{
	size_t len;
	char *text = json_text(v, &len);
	int rc = file_write_atomic(path, text, len);
	free(text);
	return rc;
}

void bundle_run_begin(struct bundle *b)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	struct tm tm;
	gmtime_r(&t.tv_sec, &tm);
	char when[32];
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	free(b->build);
	b->build = xasprintf("%s.%06ldZ", when, t.tv_nsec / 1000);
}

/* A file of this build's was written: its id is now the bundle's newest. */
static void bundle_mark_written(struct bundle *b)
{
	free(b->last_build);
	b->last_build = xstrdup(b->build);
	b->last_build_read = 1;
}

/* May this build write b? A rendering never does; asking is a bug. */
static int bundle_writable(const struct bundle *b, const char *what)
{
	if (b->build)
		return 1;
	diag("internal error: %s in %s by a build that runs nothing; the bundle "
	     "is left as it was", what, b->dir);
	return 0;
}

int bundle_set_machine(struct bundle *b, cJSON *m)
{
	if (!bundle_writable(b, "machine.json written") || mkdir_p(b->dir) != 0) {
		if (b->machine != m)
			cJSON_Delete(m);
		return -1;
	}
	if (b->machine != m) {
		cJSON_Delete(b->machine);
		b->machine = m;
	}
	b->machine_bad = 0;
	char *path = bundle_machine_path(b);
	int rc = write_json(path, m);
	free(path);
	return rc;
}

static int merge_facts(struct bundle *b, struct exp_result *r)
{
	int n = 0;
	size_t k = 0;
	while (k < r->nrows && !cJSON_GetObjectItemCaseSensitive(r->rows[k], "fact"))
		k++;
	if (k == r->nrows)
		return 0;
	/*
	 * Workers on several GPUs commit into one bundle at once, each from
	 * its own copy of machine.json: the facts are merged into the file as
	 * it is now, under a lock on the bundle's folder, so one worker's
	 * facts never overwrite another's.
	 */
	int dfd = open(b->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		while (flock(dfd, LOCK_EX) != 0 && errno == EINTR)
			;
	char *path = bundle_machine_path(b);
	char *text = file_read(path, NULL);
	cJSON *now = text ? cJSON_Parse(text) : NULL;
	free(text);
	free(path);
	if (cJSON_IsObject(now)) {
		cJSON *had = cJSON_GetObjectItemCaseSensitive(now, "measured");
		if (b->machine && cJSON_IsObject(had)) {
			cJSON_DeleteItemFromObjectCaseSensitive(b->machine, "measured");
			cJSON_AddItemToObject(b->machine, "measured",
			                      cJSON_Duplicate(had, 1));
		}
	}
	cJSON_Delete(now);
	if (!b->machine)
		b->machine = cJSON_CreateObject();
	cJSON *measured = cJSON_GetObjectItemCaseSensitive(b->machine, "measured");
	if (!cJSON_IsObject(measured)) {
		cJSON_DeleteItemFromObjectCaseSensitive(b->machine, "measured");
		measured = cJSON_AddObjectToObject(b->machine, "measured");
	}
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *fact = cJSON_GetObjectItemCaseSensitive(r->rows[i], "fact");
		const cJSON *val = cJSON_GetObjectItemCaseSensitive(r->rows[i], "value");
		if (!cJSON_IsString(fact) || !val)
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(measured, fact->valuestring);
		cJSON_AddItemToObject(measured, fact->valuestring,
		                      cJSON_Duplicate(val, 1));
		n++;
	}
	int rc = n ? bundle_set_machine(b, b->machine) : 0;
	if (dfd >= 0)
		close(dfd); /* and the lock with it */
	return rc;
}

/* One file of a commit: its final path, its temporary one, its data. */
struct staged {
	char *path, *tmp;
	const char *data;
	size_t len;
	int written;
};

static void stage(struct staged *s, size_t *n, char *path, const char *data,
                  size_t len)
{
	struct staged *f = &s[(*n)++];
	f->path = path;
	f->tmp = file_temp_name(path, -1);
	f->data = data;
	f->len = len;
	f->written = 0;
}

/* Write data to path whole, or remove what was written. 0, or -1 with
 * errno set (the caller reports). */
static int write_whole(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	size_t w = len ? fwrite(data, 1, len, f) : 0;
	int err = w != len || fflush(f) != 0 ? errno : 0;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (err) {
		unlink(path);
		errno = err;
		return -1;
	}
	return 0;
}

int bundle_commit(struct bundle *b, const char *id, const struct result_files *f,
                  cJSON *meta)
{
	int rc = -1;
	struct staged s[8];
	size_t n = 0, meta_len = 0;
	if (b->build) {
		cJSON_DeleteItemFromObjectCaseSensitive(meta, "build");
		cJSON_AddStringToObject(meta, "build", b->build);
	}
	char *meta_text = json_text(meta, &meta_len);
	char *reason = NULL;
	char *p_err = bundle_path(b, id, BF_ERROR);

	if (!bundle_writable(b, "results saved") || mkdir_p(b->dir) != 0)
		goto out;
	if (f->records)
		stage(s, &n, bundle_path(b, id, BF_RECORDS), f->records,
		      strlen(f->records));
	if (f->out)
		stage(s, &n, bundle_path(b, id, BF_OUTPUT), f->out, f->out_len);
	for (int d = 0; d < 3; d++)
		if (f->derived[d]) {
			char *did = derived_id(id, (enum derived)d);
			stage(s, &n, bundle_path(b, did, BF_RECORDS), f->derived[d],
			      strlen(f->derived[d]));
			free(did);
		}
	if (f->listing)
		stage(s, &n, bundle_path(b, id, BF_LISTING), f->listing,
		      strlen(f->listing));
	/* meta.json last: it names a complete result. */
	stage(s, &n, bundle_path(b, id, BF_META), meta_text, meta_len);

	for (size_t i = 0; i < n && !reason; i++) {
		if (write_whole(s[i].tmp, s[i].data, s[i].len) != 0)
			reason = xasprintf("cannot write %s: %s", s[i].path,
			                   strerror(errno));
		else
			s[i].written = 1;
	}
	for (size_t i = 0; i < n && !reason; i++) {
		if (rename(s[i].tmp, s[i].path) != 0)
			reason = xasprintf("cannot write %s: %s", s[i].path,
			                   strerror(errno));
		else
			s[i].written = 0;
	}
	if (reason) {
		/* Every write comes before the first rename, so a failed write
		 * leaves the old set whole. */
		for (size_t i = 0; i < n; i++)
			if (s[i].written)
				unlink(s[i].tmp);
		diag("%s; the results of experiment '%s' were not saved, and its "
		     "earlier results are kept", reason, id);
		cJSON *info = cJSON_CreateObject();
		char date[32];
		now_iso(date);
		cJSON_AddStringToObject(info, "stage", "save");
		cJSON_AddStringToObject(info, "why", reason);
		cJSON_AddStringToObject(info, "date", date);
		bundle_fail(b, id, info);
		goto out;
	}
	if (unlink(p_err) != 0 && errno != ENOENT)
		diag("cannot remove %s: %s", p_err, strerror(errno));
	bundle_mark_written(b);
	struct exp_result *r = bundle_get(b, id);
	bundle_result_clear(r);
	r->have_data = 1;
	char *err = NULL;
	if (f->records)
		records_parse(f->records, &r->rows, &r->nrows, &err);
	free(err);
	if (f->out) {
		r->out = xstrndup(f->out, f->out_len);
		r->out_len = f->out_len;
	}
	r->meta = meta;
	meta = NULL;
	for (int d = 0; d < 3; d++)
		if (f->derived[d]) {
			char *did = derived_id(id, (enum derived)d);
			struct exp_result *dr = bundle_index_get(b, did);
			if (dr) {
				bundle_result_clear(dr);
				dr->have_data = 1;
				records_parse(f->derived[d], &dr->rows, &dr->nrows, &err);
				free(err);
				err = NULL;
			}
			free(did);
		}
	rc = merge_facts(b, r);
out:
	for (size_t i = 0; i < n; i++) {
		free(s[i].path);
		free(s[i].tmp);
	}
	free(reason);
	free(meta_text);
	free(p_err);
	cJSON_Delete(meta);
	return rc;
}

int bundle_fail(struct bundle *b, const char *id, cJSON *info)
{
	int rc = -1;
	char *path = bundle_path(b, id, BF_ERROR);
	struct exp_result *r = bundle_get(b, id);
	if (!b->build) {
		rc = 0;
	} else {
		cJSON_DeleteItemFromObjectCaseSensitive(info, "build");
		cJSON_AddStringToObject(info, "build", b->build);
		if (mkdir_p(b->dir) == 0 && write_json(path, info) == 0) {
			bundle_mark_written(b);
			rc = 0;
		}
	}
	cJSON_Delete(r->failure);
	r->failure = info;
	free(path);
	return rc;
}

