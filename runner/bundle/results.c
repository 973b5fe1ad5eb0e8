/* results.c - reading the bundle (results.h); bundle_write.c writes it, and
 * state.c says what an experiment's files in it mean. */
#define _GNU_SOURCE
#include "bundle/results.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/ccfacts.h"

/* ---- the index: id -> result, open addressing ------------------------------ */

struct bundle_index {
	size_t cap;   /* a power of two */
	size_t *slot; /* index into exps, plus one; 0 is empty */
};

static void index_put(struct bundle *b, size_t i)
{
	struct bundle_index *ix = b->index;
	if (!ix) {
		ix = b->index = xcalloc(1, sizeof *ix);
	}
	if (2 * (b->nexps) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 64;
		while (2 * b->nexps > cap)
			cap *= 2;
		free(ix->slot);
		ix->slot = xcalloc(cap, sizeof *ix->slot);
		ix->cap = cap;
		for (size_t k = 0; k < b->nexps; k++) {
			if (k == i)
				continue;
			size_t h = str_hash(b->exps[k]->id) & (cap - 1);
			while (ix->slot[h])
				h = (h + 1) & (cap - 1);
			ix->slot[h] = k + 1;
		}
	}
	size_t h = str_hash(b->exps[i]->id) & (ix->cap - 1);
	while (ix->slot[h])
		h = (h + 1) & (ix->cap - 1);
	ix->slot[h] = i + 1;
}

struct exp_result *bundle_index_get(const struct bundle *b, const char *id)
{
	const struct bundle_index *ix = b->index;
	if (!ix)
		return NULL;
	for (size_t h = str_hash(id) & (ix->cap - 1); ix->slot[h];
	     h = (h + 1) & (ix->cap - 1))
		if (!strcmp(b->exps[ix->slot[h] - 1]->id, id))
			return b->exps[ix->slot[h] - 1];
	return NULL;
}

/* ---- names ------------------------------------------------------------------ */

static const char *file_ext[] = {
	[BF_RECORDS] = ".jsonl", [BF_OUTPUT] = ".out", [BF_META] = ".meta.json",
	[BF_ERROR] = ".error.json", [BF_LISTING] = ".sass",
};

char *bundle_path(const struct bundle *b, const char *id, enum bundle_file f)
{
	return xasprintf("%s/%s%s", b->dir, id, file_ext[f]);
}

char *bundle_scratch_dir(const struct bundle *b)
{
	return path_join(b->dir, ".tmp");
}

char *bundle_scratch_new(const struct bundle *b, const char *id)
{
	static long count;
	char *dir = bundle_scratch_dir(b);
	char *base = xasprintf("%s/%s%s", dir, id, file_ext[BF_RECORDS]);
	char *path = NULL;
	if (mkdir_p(dir) != 0)
		goto out;
	for (int tries = 0; tries < 1000 && !path; tries++) {
		path = file_temp_name(base, count++);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			goto out;
		}
		int err = errno;
		free(path);
		path = NULL;
		if (err != EEXIST) {
			diag("cannot write in %s: %s", dir, strerror(err));
			goto out;
		}
	}
	if (!path)
		diag("cannot write in %s: every scratch name is taken", dir);
out:
	free(base);
	free(dir);
	return path;
}

char *bundle_machine_path(const struct bundle *b)
{
	return path_join(b->dir, "machine.json");
}

char *derived_id(const char *id, enum derived d)
{
	static const char *suffix[] = {"_ptxas", "_sass", "_ncu"};
	return xasprintf("%s%s", id, suffix[d]);
}

const char *bundle_source_key(struct bundle *b, const char *id)
{
	static const char *suffix[] = {"_ptxas", "_sass", "_ncu"};
	const struct exp_result *r = bundle_get_meta(b, id);
	const char *k = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(r->meta, "source_key"));
	if (k || r->meta)
		return k;
	size_t n = strlen(id);
	for (size_t d = 0; d < sizeof suffix / sizeof suffix[0]; d++) {
		size_t s = strlen(suffix[d]);
		if (n > s && !strcmp(id + n - s, suffix[d])) {
			char *base = xstrndup(id, n - s);
			k = bundle_source_key(b, base);
			free(base);
			return k;
		}
	}
	return NULL;
}

int bundle_record_line(const struct bundle *b, const char *id, size_t k)
{
	char *path = bundle_path(b, id, BF_RECORDS), *why = NULL;
	size_t len = 0;
	char *text = file_read_regular(path, RESULTS_RECORDS_CAP, &len, &why);
	int line = text ? records_line_of(text, len, k) : 0;
	free(text);
	free(why);
	free(path);
	return line;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bundle_list(const struct bundle *b, char ***ids, size_t *n)
{
	*ids = NULL;
	*n = 0;
	input_note(b->dir);
	DIR *dp = opendir(b->dir);
	if (!dp) {
		diag_at(b->dir, 0, "cannot read the bundle: %s", strerror(errno));
		return -1;
	}
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] != '.' && len > 6 &&
		    !strcmp(de->d_name + len - 6, file_ext[BF_RECORDS]))
			*ARRAY_PUSH(*ids, *n) = xstrndup(de->d_name, len - 6);
	}
	closedir(dp);
	if (*n)
		qsort(*ids, *n, sizeof **ids, cmp_str);
	*ARRAY_PUSH(*ids, *n) = NULL;
	(*n)--;
	return 0;
}

char *bundle_listing_read(const struct bundle *b, const char *id)
{
	char *path = bundle_path(b, id, BF_LISTING);
	char *why = NULL;
	char *text = file_read_regular(path, 64u << 20, NULL, &why);
	free(why);
	free(path);
	return text;
}

/* ---- reading ---------------------------------------------------------------- */

struct bundle *bundle_open(const char *dir)
{
	struct bundle *b = xcalloc(1, sizeof *b);
	b->dir = xstrdup(dir);
	char *path = bundle_machine_path(b);
	char *text = file_read(path, NULL);
	if (text) {
		b->machine = cJSON_Parse(text);
		if (!b->machine || !cJSON_IsObject(b->machine)) {
			diag_at(path, 0, "not a JSON object; delete it to re-measure");
			cJSON_Delete(b->machine);
			b->machine = NULL;
			b->machine_bad = 1;
		}
	}
	free(text);
	free(path);
	return b;
}

void bundle_result_clear(struct exp_result *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		cJSON_Delete(r->rows[i]);
	free(r->rows);
	free(r->error);
	free(r->out);
	cJSON_Delete(r->meta);
	cJSON_Delete(r->failure);
	r->rows = NULL;
	r->nrows = 0;
	r->error = r->out = NULL;
	r->out_len = 0;
	r->meta = r->failure = NULL;
	r->have_data = 0;
}

void bundle_free(struct bundle *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nexps; i++) {
		bundle_result_clear(b->exps[i]);
		free(b->exps[i]->id);
		free(b->exps[i]);
	}
	free(b->exps);
	if (b->index)
		free(b->index->slot);
	free(b->index);
	for (size_t i = 0; i < b->noutdated; i++)
		free(b->outdated[i]);
	free(b->outdated);
	for (size_t i = 0; i < b->nneeds; i++)
		free(b->needs[i]);
	free(b->needs);
	free(b->needs_cc);
	cJSON_Delete(b->machine);
	free(b->build);
	free(b->last_build);
	free(b->dir);
	free(b);
}

static cJSON *read_json(const char *path)
{
	char *why = NULL;
	char *text = file_read_regular(path, RESULTS_RECORDS_CAP, NULL, &why);
	if (!text) {
		if (errno != ENOENT && why && !strstr(why, "No such file"))
			warn_at(path, 0, "%s; ignored", why);
		free(why);
		return NULL;
	}
	cJSON *v = cJSON_Parse(text);
	if (!v || !cJSON_IsObject(v)) {
		warn_at(path, 0, "not a JSON object; ignored");
		cJSON_Delete(v);
		v = NULL;
	}
	free(text);
	return v;
}

/* The records and captured output of r. */
static void exp_data_load(struct bundle *b, struct exp_result *r)
{
	const char *id = r->id;
	char *why = NULL;
	size_t len = 0;

	r->have_data = 1;
	char *path = bundle_path(b, id, BF_RECORDS);
	char *text = file_read_regular(path, RESULTS_RECORDS_CAP, &len, &why);
	if (text) {
		char *err;
		if (records_parse_n(text, len, &r->rows, &r->nrows, &err) != 0) {
			r->error = xasprintf("%s:%s", path, err);
			free(err);
		}
	} else if (why && file_exists(path)) {
		r->error = xasprintf("%s: %s", path, why);
	}
	free(why);
	free(text);
	free(path);

	path = bundle_path(b, id, BF_OUTPUT);
	why = NULL;
	r->out = file_read_regular(path, 4 * (size_t)RESULTS_OUTPUT_CAP, &r->out_len,
	                           &why);
	free(why);
	free(path);
}

/* The last good run's meta and the last failure of r. */
static void exp_meta_load(struct bundle *b, struct exp_result *r)
{
	char *path = bundle_path(b, r->id, BF_META);
	r->meta = read_json(path);
	free(path);
	path = bundle_path(b, r->id, BF_ERROR);
	r->failure = read_json(path);
	free(path);
}

struct exp_result *bundle_get_meta(struct bundle *b, const char *id)
{
	struct exp_result *r = bundle_index_get(b, id);
	if (r)
		return r;
	r = xcalloc(1, sizeof *r);
	*ARRAY_PUSH(b->exps, b->nexps) = r;
	r->id = xstrdup(id);
	index_put(b, b->nexps - 1);
	exp_meta_load(b, r);
	return r;
}

struct exp_result *bundle_get(struct bundle *b, const char *id)
{
	struct exp_result *r = bundle_get_meta(b, id);
	if (!r->have_data)
		exp_data_load(b, r);
	return r;
}

size_t bundle_records_count(struct bundle *b, const char *id)
{
	struct exp_result *r = bundle_get_meta(b, id);
	if (r->have_data)
		return r->nrows;
	char *path = bundle_path(b, id, BF_RECORDS), *why = NULL;
	size_t len = 0, n = 0;
	char *text = file_read_regular(path, RESULTS_RECORDS_CAP, &len, &why);
	for (const char *p = text, *end = text + len; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		while (p < stop && isspace((unsigned char)*p))
			p++;
		n += p < stop;
		p = stop + 1;
	}
	free(text);
	free(why);
	free(path);
	return n;
}

void bundle_reload(struct bundle *b)
{
	free(b->last_build);
	b->last_build = NULL;
	b->last_build_read = 0;
	for (size_t i = 0; i < b->nexps; i++) {
		struct exp_result *r = b->exps[i];
		int data = r->have_data;
		bundle_result_clear(r);
		exp_meta_load(b, r);
		if (data)
			exp_data_load(b, r);
	}
	char *path = bundle_machine_path(b);
	cJSON *m = read_json(path);
	free(path);
	if (m) {
		cJSON_Delete(b->machine);
		b->machine = m;
	}
}

/* The "build" of a meta.json or error.json, or NULL. */
static const char *build_of(const cJSON *o)
{
	return cJSON_GetStringValue(o ? cJSON_GetObjectItemCaseSensitive(o, "build")
	                              : NULL);
}

/* The newest build id that any meta.json or error.json of b records: the
 * last build that ran experiments into it. Ids are times of one width,
 * so the greatest string is the newest. */
const char *bundle_last_build(struct bundle *b)
{
	if (b->last_build_read)
		return b->last_build;
	b->last_build_read = 1;
	input_note(b->dir);
	DIR *dp = opendir(b->dir);
	struct dirent *de;
	char **ids = NULL;
	size_t n = 0;
	while (dp && (de = readdir(dp))) {
		size_t len = strlen(de->d_name);
		for (int f = BF_META; f <= BF_ERROR; f++) {
			size_t ext = strlen(file_ext[f]);
			if (de->d_name[0] != '.' && len > ext &&
			    !strcmp(de->d_name + len - ext, file_ext[f]))
				*ARRAY_PUSH(ids, n) = xstrndup(de->d_name, len - ext);
		}
	}
	if (dp)
		closedir(dp);
	const char *last = NULL;
	for (size_t i = 0; i < n; i++) {
		struct exp_result *r = bundle_get_meta(b, ids[i]);
		const char *k[2] = {build_of(r->meta), build_of(r->failure)};
		for (int j = 0; j < 2; j++)
			if (k[j] && (!last || strcmp(k[j], last) > 0))
				last = k[j];
		free(ids[i]);
	}
	free(ids);
	b->last_build = last ? xstrdup(last) : NULL;
	return b->last_build;
}

/* ---- writing ------------------------------------------------------------------ */

const cJSON *machine_field(const struct bundle *b, const char *name)
{
	if (!b->machine)
		return NULL;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(b->machine, name);
	if (v && !cJSON_IsObject(v))
		return v;
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(b->machine, "measured");
	return m ? cJSON_GetObjectItemCaseSensitive(m, name) : NULL;
}

int machine_fact(const struct bundle *b, const char *name, double *out,
                 int *need)
{
	int known = cc_fact_known(name), cc = bundle_cc(b);
	if (!known || !cc || (known == 2 && machine_field(b, name)))
		return -1;
	if (cc_fact(cc, name, out, need) >= 0)
		return cc_fact(cc, name, out, need);
	const cJSON *sms = machine_field(b, "sm_count");
	const cJSON *clk = machine_field(b, "sm_clock_mhz");
	if (!cJSON_IsNumber(sms) || !cJSON_IsNumber(clk))
		return -1;
	return cc_peak(cc, name, sms->valuedouble, clk->valuedouble, out, need);
}

/* Add the size and modification time of path (or its absence) to h. */
static void stamp_file(struct hasher *h, char *path)
{
	struct stat st;
	long long facts[3] = {-1, -1, -1};
	input_note(path);
	if (stat(path, &st) == 0) {
		facts[0] = (long long)st.st_size;
		facts[1] = (long long)st.st_mtim.tv_sec;
		facts[2] = (long long)st.st_mtim.tv_nsec;
	}
	hasher_add_str(h, path);
	hasher_add(h, facts, sizeof facts);
	free(path);
}

void bundle_stamp(const struct bundle *b, const char *id, struct hasher *h)
{
	if (!strcmp(id, "machine")) {
		stamp_file(h, bundle_machine_path(b));
		return;
	}
	static const enum bundle_file files[] = {BF_RECORDS, BF_OUTPUT, BF_META,
	                                         BF_ERROR, BF_LISTING};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		stamp_file(h, bundle_path(b, id, files[i]));
	static const enum derived derived[] = {DERIVED_PTXAS, DERIVED_SASS,
	                                       DERIVED_NCU};
	for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++) {
		char *d = derived_id(id, derived[i]);
		stamp_file(h, bundle_path(b, d, BF_RECORDS));
		free(d);
	}
}

void bundle_mark_outdated(struct bundle *b, const char *id,
                          const char *source_key)
{
	char *path = bundle_path(b, id, BF_META);
	cJSON *m = read_json(path);
	free(path);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(m, "source_key");
	int outdated = !m || (source_key && *source_key && cJSON_IsString(k) &&
	                      strcmp(k->valuestring, source_key) != 0) ||
	               cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
	                   m, RECORD_NOT_MEASURED));
	cJSON_Delete(m);
	if (!outdated)
		return;
	static const enum derived derived[] = {DERIVED_PTXAS, DERIVED_SASS,
	                                       DERIVED_NCU};
	*ARRAY_PUSH(b->outdated, b->noutdated) = xstrdup(id);
	for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
		*ARRAY_PUSH(b->outdated, b->noutdated) = derived_id(id, derived[i]);
}

void bundle_mark_needs(struct bundle *b, const char *id, int cc)
{
	if (cc <= 0 || cc_meets(bundle_cc(b), cc))
		return;
	static const enum derived derived[] = {DERIVED_PTXAS, DERIVED_SASS,
	                                       DERIVED_NCU};
	size_t n = b->nneeds;
	*ARRAY_PUSH(b->needs, b->nneeds) = xstrdup(id);
	for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
		*ARRAY_PUSH(b->needs, b->nneeds) = derived_id(id, derived[i]);
	b->needs_cc = xrealloc(b->needs_cc, b->nneeds * sizeof *b->needs_cc);
	for (size_t i = n; i < b->nneeds; i++)
		b->needs_cc[i] = cc;
}

int bundle_needs(const struct bundle *b, const char *id)
{
	for (size_t i = 0; id && i < b->nneeds; i++)
		if (!strcmp(b->needs[i], id))
			return b->needs_cc[i];
	return 0;
}

int bundle_cc(const struct bundle *b)
{
	int cc = 0;
	const cJSON *v = b->machine ? cJSON_GetObjectItemCaseSensitive(b->machine,
	                                                               "cc")
	                            : NULL;
	if (!cJSON_IsString(v) || cc_parse(v->valuestring, &cc) != 0)
		return 0;
	return cc;
}

int bundle_outdated(const struct bundle *b, const char *id)
{
	for (size_t i = 0; id && i < b->noutdated; i++)
		if (!strcmp(b->outdated[i], id))
			return 1;
	return 0;
}
