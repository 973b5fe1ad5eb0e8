/* frags.c - the pieces of a chapter page kept between builds (frags.h). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "render/frags.h"
#include "base/util.h"

#define FRAGS_DIR ".labbook-frags"

struct frags {
	char *path;
	cJSON *old; /* key -> [html, figures, tables, claims], as read */
	cJSON *now; /* the pieces this making used */
	int changed;
};

struct frags *frags_open(const char *site, const char *name)
{
	struct frags *f = xcalloc(1, sizeof *f);
	f->path = xasprintf("%s/%s/%s.json", site, FRAGS_DIR, name);
	char *text = file_read(f->path, NULL);
	f->old = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!cJSON_IsObject(f->old)) {
		cJSON_Delete(f->old);
		f->old = cJSON_CreateObject();
	}
	f->now = cJSON_CreateObject();
	return f;
}

static int count_at(const cJSON *a, int i)
{
	const cJSON *v = cJSON_GetArrayItem(a, i);
	return cJSON_IsNumber(v) ? v->valueint : 0;
}

const char *frags_get(struct frags *f, const char *key, size_t *len,
                      struct frag_counts *counts)
{
	cJSON *e = cJSON_GetObjectItemCaseSensitive(f->now, key);
	if (!e) {
		e = cJSON_DetachItemFromObjectCaseSensitive(f->old, key);
		if (!e)
			return NULL;
		cJSON_AddItemToObject(f->now, key, e);
	}
	const cJSON *html = cJSON_GetArrayItem(e, 0);
	if (!cJSON_IsString(html))
		return NULL;
	*counts = (struct frag_counts){count_at(e, 1), count_at(e, 2),
	                               count_at(e, 3)};
	*len = strlen(html->valuestring);
	return html->valuestring;
}

void frags_put(struct frags *f, const char *key, const char *html, size_t len,
               const struct frag_counts *counts)
{
	if (cJSON_GetObjectItemCaseSensitive(f->now, key))
		return;
	cJSON *e = cJSON_CreateArray();
	char *text = xstrndup(html, len);
	cJSON_AddItemToArray(e, cJSON_CreateString(text));
	free(text);
	cJSON_AddItemToArray(e, cJSON_CreateNumber(counts->figures));
	cJSON_AddItemToArray(e, cJSON_CreateNumber(counts->tables));
	cJSON_AddItemToArray(e, cJSON_CreateNumber(counts->claims));
	cJSON_AddItemToObject(f->now, key, e);
	f->changed = 1;
}

int frags_close(struct frags *f)
{
	if (!f)
		return 0;
	int rc = 0;
	/* Pieces the page no longer has are dropped with the old store. */
	if (f->changed || cJSON_GetArraySize(f->old) > 0) {
		char *text = cJSON_PrintUnformatted(f->now);
		rc = file_write_if_changed(f->path, text, strlen(text), NULL);
		free(text);
	}
	cJSON_Delete(f->old);
	cJSON_Delete(f->now);
	free(f->path);
	free(f);
	return rc;
}

void frags_prune(const char *site, char *const *names, size_t n)
{
	char *dir = path_join(site, FRAGS_DIR);
	dir_prune(dir, ".json", names, n);
	free(dir);
}
