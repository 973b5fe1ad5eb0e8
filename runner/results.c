#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"

struct bundle *bundle_open(const char *dir)
{
	struct bundle *b = xcalloc(1, sizeof *b);
	b->dir = xstrdup(dir);
	char *path = path_join(dir, "machine.json");
	char *text = file_read(path, NULL);
	if (text) {
		b->machine = cJSON_Parse(text);
		if (!b->machine || !cJSON_IsObject(b->machine)) {
			diag_at(path, 0, "not a JSON object; delete it to re-measure");
			cJSON_Delete(b->machine);
			b->machine = NULL;
		}
	}
	free(text);
	free(path);
	return b;
}

static void exp_result_clear(struct exp_result *r)
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
	r->meta = r->failure = NULL;
}

void bundle_free(struct bundle *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nexps; i++) {
		exp_result_clear(b->exps[i]);
		free(b->exps[i]->id);
		free(b->exps[i]);
	}
	free(b->exps);
	cJSON_Delete(b->machine);
	free(b->dir);
	free(b);
}

static char *exp_path(const struct bundle *b, const char *id, const char *ext)
{
	return xasprintf("%s/%s%s", b->dir, id, ext);
}

static cJSON *read_json(const char *path)
{
	char *text = file_read(path, NULL);
	if (!text)
		return NULL;
	cJSON *v = cJSON_Parse(text);
	if (!v)
		warn_at(path, 0, "not valid JSON; ignored");
	free(text);
	return v;
}

static int row_check(const cJSON *row, char **why)
{
	if (!cJSON_IsObject(row)) {
		*why = xstrdup("a record must be a JSON object");
		return -1;
	}
	const cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (cJSON_IsArray(f) || cJSON_IsObject(f)) {
			*why = xasprintf("field '%s' is %s; records hold numbers, "
			                 "strings, booleans and null", f->string,
			                 cJSON_IsArray(f) ? "an array" : "an object");
			return -1;
		}
		if (cJSON_IsNumber(f) && !isfinite(f->valuedouble)) {
			*why = xasprintf("field '%s' is not a finite number", f->string);
			return -1;
		}
	}
	return 0;
}

int records_parse(const char *text, cJSON ***rows, size_t *nrows, char **err)
{
	int line = 0;
	*err = NULL;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *l = xstrndup(p, n);
		p += n + (nl ? 1 : 0);
		line++;
		if (!*str_trim(l)) {
			free(l);
			continue;
		}
		const char *end = NULL;
		cJSON *row = cJSON_ParseWithOpts(l, &end, 1);
		char *why = NULL;
		if (!row)
			why = xasprintf("malformed JSON near '%.20s'",
			                end && *end ? end : l);
		else
			row_check(row, &why);
		free(l);
		if (why) {
			cJSON_Delete(row);
			*err = xasprintf("line %d: %s", line, why);
			free(why);
			return -1;
		}
		*ARRAY_PUSH(*rows, *nrows) = row;
	}
	return 0;
}

static void exp_result_load(struct bundle *b, struct exp_result *r)
{
	const char *id = r->id;

	char *path = exp_path(b, id, ".jsonl");
	char *text = file_read(path, NULL);
	if (text) {
		char *err;
		if (records_parse(text, &r->rows, &r->nrows, &err) != 0) {
			r->error = xasprintf("%s:%s", path, err);
			diag("%s", r->error);
			free(err);
		}
	}
	free(text);
	free(path);

	path = exp_path(b, id, ".out");
	r->out = file_read(path, &r->out_len);
	free(path);
	path = exp_path(b, id, ".meta.json");
	r->meta = read_json(path);
	free(path);
	path = exp_path(b, id, ".error.json");
	r->failure = read_json(path);
	free(path);
}

struct exp_result *bundle_get(struct bundle *b, const char *id)
{
	for (size_t i = 0; i < b->nexps; i++)
		if (!strcmp(b->exps[i]->id, id))
			return b->exps[i];
	struct exp_result *r = xcalloc(1, sizeof *r);
	*ARRAY_PUSH(b->exps, b->nexps) = r;
	r->id = xstrdup(id);
	exp_result_load(b, r);
	return r;
}

void bundle_reload(struct bundle *b)
{
	for (size_t i = 0; i < b->nexps; i++) {
		exp_result_clear(b->exps[i]);
		exp_result_load(b, b->exps[i]);
	}
	char *path = path_join(b->dir, "machine.json");
	cJSON *m = read_json(path);
	free(path);
	if (m) {
		cJSON_Delete(b->machine);
		b->machine = m;
	}
}

char *json_print(const cJSON *v)
{
	char *s = cJSON_Print(v);
	if (!s) {
		fputs("labbook: out of memory\n", stderr);
		abort();
	}
	return s;
}

static int write_json(const char *path, const cJSON *v)
{
	char *s = json_print(v);
	struct buf b = BUF_INIT;
	buf_puts(&b, s);
	buf_putc(&b, '\n');
	free(s);
	int rc = file_write_atomic(path, b.data, b.len);
	buf_free(&b);
	return rc;
}

int bundle_set_machine(struct bundle *b, cJSON *m)
{
	if (mkdir_p(b->dir) != 0) {
		cJSON_Delete(m);
		return -1;
	}
	if (b->machine != m) {
		cJSON_Delete(b->machine);
		b->machine = m;
	}
	char *path = path_join(b->dir, "machine.json");
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
	return n ? bundle_set_machine(b, b->machine) : 0;
}

int bundle_commit(struct bundle *b, const char *id, const char *records_text,
                  const char *out, size_t out_len, cJSON *meta)
{
	int rc = -1;
	char *p_rec = exp_path(b, id, ".jsonl");
	char *p_out = exp_path(b, id, ".out");
	char *p_meta = exp_path(b, id, ".meta.json");
	char *p_err = exp_path(b, id, ".error.json");
	if (mkdir_p(b->dir) != 0)
		goto out;
	/* Records and text first, meta last: meta names a complete result. */
	if (file_write_atomic(p_rec, records_text, strlen(records_text)) != 0 ||
	    file_write_atomic(p_out, out, out_len) != 0 ||
	    write_json(p_meta, meta) != 0)
		goto out;
	if (unlink(p_err) != 0 && errno != ENOENT)
		diag("cannot remove %s: %s", p_err, strerror(errno));
	struct exp_result *r = bundle_get(b, id);
	exp_result_clear(r);
	char *err = NULL;
	records_parse(records_text, &r->rows, &r->nrows, &err);
	free(err);
	r->out = xstrndup(out, out_len);
	r->out_len = out_len;
	r->meta = meta;
	meta = NULL;
	rc = merge_facts(b, r);
out:
	cJSON_Delete(meta);
	free(p_rec);
	free(p_out);
	free(p_meta);
	free(p_err);
	return rc;
}

int bundle_put_records(struct bundle *b, const char *name, const char *text)
{
	char *path = exp_path(b, name, ".jsonl");
	int rc = mkdir_p(b->dir) == 0 ? file_write_atomic(path, text, strlen(text))
	                              : -1;
	free(path);
	/* Replace what was read before; pointers to it stay valid. */
	for (size_t i = 0; i < b->nexps; i++)
		if (!strcmp(b->exps[i]->id, name)) {
			struct exp_result *r = b->exps[i];
			exp_result_clear(r);
			char *err = NULL;
			records_parse(text, &r->rows, &r->nrows, &err);
			free(err);
		}
	return rc;
}

int bundle_fail(struct bundle *b, const char *id, cJSON *info)
{
	int rc = -1;
	char *path = exp_path(b, id, ".error.json");
	struct exp_result *r = bundle_get(b, id);
	if (mkdir_p(b->dir) == 0 && write_json(path, info) == 0)
		rc = 0;
	cJSON_Delete(r->failure);
	r->failure = info;
	free(path);
	return rc;
}

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

/* A rate with bounds (F, F_lo, F_hi) is measured. */
static int is_rate(const cJSON *row, const char *name)
{
	char *lo = xasprintf("%s_lo", name);
	int rate = cJSON_GetObjectItemCaseSensitive(row, lo) != NULL;
	free(lo);
	return rate;
}

int record_is_measurement(const char *k)
{
	static const char *names[] = {"median_ms", "min_ms", "max_ms", "q1_ms",
	                              "q3_ms", "mean_ms", "spread", "reps",
	                              "clock_mhz", "throttled", "batch", "ms",
	                              "correct", "runs", "run_min_ms", "run_max_ms",
	                              "run_spread", "host_bound", NULL};
	for (const char **n = names; *n; n++)
		if (!strcmp(k, *n))
			return 1;
	size_t len = strlen(k);
	return len > 3 && (!strcmp(k + len - 3, "_lo") || !strcmp(k + len - 3, "_hi"));
}

static int whole(const cJSON *f)
{
	return cJSON_IsNumber(f) && f->valuedouble == floor(f->valuedouble) &&
	       fabs(f->valuedouble) < 1e15;
}

char *record_params(const cJSON *row)
{
	struct buf b = BUF_INIT;
	const cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (record_is_measurement(f->string) || is_rate(row, f->string))
			continue;
		if (cJSON_IsString(f))
			buf_printf(&b, "%s%s=%s", b.len ? " " : "", f->string, f->valuestring);
		else if (whole(f))
			buf_printf(&b, "%s%s=%.0f", b.len ? " " : "", f->string, f->valuedouble);
	}
	return buf_detach(&b);
}

int record_same_point(const cJSON *a, const cJSON *b)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, a)
	{
		if (record_is_measurement(f->string) || is_rate(a, f->string))
			continue;
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(b, f->string);
		if (cJSON_IsString(f) &&
		    (!cJSON_IsString(g) || strcmp(f->valuestring, g->valuestring)))
			return 0;
		/* A measured value can be whole in one run and not in the
		 * next: only two whole numbers that differ tell points apart. */
		if (whole(f) && whole(g) && f->valuedouble != g->valuedouble)
			return 0;
	}
	return 1;
}

void bundle_stamp(const struct bundle *b, const char *id, struct hasher *h)
{
	static const char *const files[] = {
		".json", ".jsonl", ".out", ".meta.json", ".error.json", ".sass",
		"_ptxas.jsonl", "_sass.jsonl", "_ncu.jsonl",
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char *path = xasprintf("%s/%s%s", b->dir, id, files[i]);
		struct stat st;
		long long facts[3] = {-1, -1, -1};
		if (stat(path, &st) == 0) {
			facts[0] = (long long)st.st_size;
			facts[1] = (long long)st.st_mtim.tv_sec;
			facts[2] = (long long)st.st_mtim.tv_nsec;
		}
		hasher_add_str(h, path);
		hasher_add(h, facts, sizeof facts);
		free(path);
	}
}
