/*
 * chapter_cache.c - the plans of chapters that have not changed, kept in
 * the site folder (.labbook-plans), so that a build parses again only the
 * chapters that changed, and the others when their pages must be made
 * (chapter.h).
 *
 * A plan is kept when its chapter parsed without a problem; it is taken
 * back when the chapter's bytes, its path and labbook's own binary are the
 * same. It holds what the book and the build read of a chapter without
 * its prose: title, sections (level, line, id), directives and values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "book/chapter.h"
#include "base/util.h"

#define CACHE_VERSION 1

struct chapter_cache {
	char *path;
	char self[33];
	cJSON *old; /* path -> plan, as read */
	cJSON *now; /* path -> plan, for this build */
};

static void self_key(char out[33])
{
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_done(h, out);
}

struct chapter_cache *chapter_cache_open(const char *path)
{
	struct chapter_cache *c = xcalloc(1, sizeof *c);
	c->path = xstrdup(path);
	self_key(c->self);
	c->now = cJSON_CreateObject();
	char *text = file_read(path, NULL);
	cJSON *all = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(all, "version");
	const char *self = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(all, "self"));
	if (cJSON_IsNumber(v) && v->valueint == CACHE_VERSION && self &&
	    !strcmp(self, c->self))
		c->old = cJSON_DetachItemFromObjectCaseSensitive(all, "chapters");
	cJSON_Delete(all);
	return c;
}

int chapter_cache_close(struct chapter_cache *c)
{
	if (!c)
		return 0;
	cJSON *all = cJSON_CreateObject();
	cJSON_AddNumberToObject(all, "version", CACHE_VERSION);
	cJSON_AddStringToObject(all, "self", c->self);
	cJSON_AddItemToObject(all, "chapters", c->now);
	char *text = cJSON_PrintUnformatted(all);
	int rc = file_write_if_changed(c->path, text, strlen(text), NULL);
	free(text);
	cJSON_Delete(all);
	cJSON_Delete(c->old);
	free(c->path);
	free(c);
	return rc;
}

/* ---- a plan as JSON ------------------------------------------------------ */

static cJSON *str_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static char *dup_or_null(const cJSON *v)
{
	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static cJSON *plan_json(const struct chapter *ch)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "hash", ch->hash);
	cJSON_AddStringToObject(p, "title", ch->title ? ch->title : "");
	cJSON_AddNumberToObject(p, "title_section", ch->title_section);
	cJSON *secs = cJSON_AddArrayToObject(p, "sections");
	for (size_t i = 0; i < ch->nsections; i++) {
		cJSON *s = cJSON_CreateArray();
		cJSON_AddItemToArray(s, cJSON_CreateNumber(ch->sections[i].level));
		cJSON_AddItemToArray(s, cJSON_CreateNumber(ch->sections[i].line));
		cJSON_AddItemToArray(s, str_or_null(ch->sections[i].id));
		cJSON_AddItemToArray(secs, s);
	}
	cJSON *dirs = cJSON_AddArrayToObject(p, "dirs");
	for (size_t i = 0; i < ch->ndirs; i++) {
		const struct directive *d = &ch->dirs[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "kind", d->kind);
		cJSON_AddItemToObject(o, "id", str_or_null(d->id));
		cJSON_AddNumberToObject(o, "line", d->line);
		cJSON_AddItemToObject(o, "error", str_or_null(d->error));
		cJSON *opts = cJSON_AddArrayToObject(o, "opts");
		for (size_t k = 0; k < d->nopts; k++) {
			cJSON *kv = cJSON_CreateArray();
			cJSON_AddItemToArray(kv, cJSON_CreateString(d->opts[k].key));
			cJSON_AddItemToArray(kv, cJSON_CreateString(d->opts[k].value));
			cJSON_AddItemToArray(kv, cJSON_CreateNumber(d->opts[k].line));
			cJSON_AddItemToArray(opts, kv);
		}
		cJSON_AddItemToArray(dirs, o);
	}
	cJSON *vals = cJSON_AddArrayToObject(p, "values");
	for (size_t i = 0; i < ch->nvalues; i++) {
		const struct inline_expr *e = &ch->values[i];
		cJSON *v = cJSON_CreateArray();
		cJSON_AddItemToArray(v, cJSON_CreateString(e->text));
		cJSON_AddItemToArray(v, str_or_null(e->fmt));
		cJSON_AddItemToArray(v, cJSON_CreateNumber(e->check));
		cJSON_AddItemToArray(v, cJSON_CreateNumber(e->line));
		cJSON_AddItemToArray(vals, v);
	}
	return p;
}

static int num_at(const cJSON *a, int i)
{
	const cJSON *v = cJSON_GetArrayItem(a, i);
	return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* The plan p into ch (new, nothing parsed). 0, or -1 when p is not one. */
static int plan_read(struct chapter *ch, const cJSON *p)
{
	const cJSON *secs = cJSON_GetObjectItemCaseSensitive(p, "sections");
	const cJSON *dirs = cJSON_GetObjectItemCaseSensitive(p, "dirs");
	const cJSON *vals = cJSON_GetObjectItemCaseSensitive(p, "values");
	const cJSON *title = cJSON_GetObjectItemCaseSensitive(p, "title");
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(p, "title_section");
	if (!cJSON_IsArray(secs) || !cJSON_IsArray(dirs) || !cJSON_IsArray(vals) ||
	    !cJSON_IsString(title) || !cJSON_IsNumber(ts))
		return -1;
	ch->title = xstrdup(title->valuestring);
	ch->title_section = ts->valueint;
	const cJSON *x;
	cJSON_ArrayForEach(x, secs)
	{
		struct section *s = ARRAY_PUSH(ch->sections, ch->nsections);
		memset(s, 0, sizeof *s);
		s->level = num_at(x, 0);
		s->line = num_at(x, 1);
		s->id = dup_or_null(cJSON_GetArrayItem(x, 2));
	}
	cJSON_ArrayForEach(x, dirs)
	{
		struct directive *d = ARRAY_PUSH(ch->dirs, ch->ndirs);
		memset(d, 0, sizeof *d);
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(x, "kind");
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(x, "line");
		d->kind = cJSON_IsNumber(k) ? (enum dir_kind)k->valueint : DIR_CHART;
		d->line = cJSON_IsNumber(l) ? l->valueint : 0;
		d->id = dup_or_null(cJSON_GetObjectItemCaseSensitive(x, "id"));
		d->error = dup_or_null(cJSON_GetObjectItemCaseSensitive(x, "error"));
		const cJSON *o;
		cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(x, "opts"))
		{
			const cJSON *key = cJSON_GetArrayItem(o, 0);
			const cJSON *value = cJSON_GetArrayItem(o, 1);
			if (!cJSON_IsString(key) || !cJSON_IsString(value))
				return -1;
			struct dir_opt *opt = ARRAY_PUSH(d->opts, d->nopts);
			opt->key = xstrdup(key->valuestring);
			opt->value = xstrdup(value->valuestring);
			opt->line = num_at(o, 2);
		}
	}
	cJSON_ArrayForEach(x, vals)
	{
		const cJSON *text = cJSON_GetArrayItem(x, 0);
		if (!cJSON_IsString(text))
			return -1;
		struct inline_expr *e = ARRAY_PUSH(ch->values, ch->nvalues);
		e->text = xstrdup(text->valuestring);
		e->fmt = dup_or_null(cJSON_GetArrayItem(x, 1));
		e->check = num_at(x, 2);
		e->line = num_at(x, 3);
	}
	return 0;
}

struct chapter *chapter_load_cached(const char *path, struct chapter_cache *c)
{
	if (!c)
		return chapter_load(path);
	size_t len;
	char *src = file_read(path, &len);
	if (!src)
		return chapter_load(path);
	char hash[33];
	struct hasher *h = hasher_new();
	hasher_add(h, src, len);
	hasher_done(h, hash);
	cJSON *p = cJSON_DetachItemFromObjectCaseSensitive(c->old, path);
	const char *was = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(p, "hash"));
	if (was && !strcmp(was, hash)) {
		struct chapter *ch = chapter_unparsed(path, src, len);
		memcpy(ch->hash, hash, sizeof hash);
		if (plan_read(ch, p) == 0) {
			cJSON_AddItemToObject(c->now, path, p);
			return ch;
		}
		chapter_free(ch);
		src = file_read(path, &len);
		if (!src) {
			cJSON_Delete(p);
			return chapter_load(path);
		}
	}
	cJSON_Delete(p);
	int reported = diag_count() + warn_count();
	struct chapter *ch = chapter_parse_text(path, src, len);
	free(src);
	/* Only a plan that said nothing is kept: problems are said again. */
	if (!ch->error && diag_count() + warn_count() == reported)
		cJSON_AddItemToObject(c->now, path, plan_json(ch));
	return ch;
}

void chapter_parse_rest(struct chapter *ch)
{
	if (!ch || !ch->src)
		return;
	struct chapter *full = chapter_parse_text(ch->path, ch->src, ch->src_len);
	free(ch->src);
	ch->src = NULL;
	ch->body = full->body;
	ch->lead = full->lead;
	memset(&full->body, 0, sizeof full->body);
	memset(&full->lead, 0, sizeof full->lead);
	/* The same bytes give the same sections: their prose moves over. */
	for (size_t i = 0; i < ch->nsections && i < full->nsections; i++) {
		struct section *a = &ch->sections[i], *b = &full->sections[i];
		struct pieces t;
		t = a->html; a->html = b->html; b->html = t;
		t = a->title; a->title = b->title; b->title = t;
		t = a->words; a->words = b->words; b->words = t;
	}
	chapter_free(full);
}
