/*
 * kept.c - what the site keeps in the one cache of what it made, besides
 * pieces (piece.h): the facts of its files as written, and chapters'
 * outlines (kept.h).
 */
#include "render/kept.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/path.h"
#include "base/util.h"

void kept_facts(const char *dir, const char *file, char out[80])
{
	char *path = path_join(dir, file);
	struct stat st;
	out[0] = '\0';
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		snprintf(out, 80, "%lld %lld %llu", (long long)st.st_size,
		         (long long)st.st_mtim.tv_sec * 1000000000LL +
		             st.st_mtim.tv_nsec,
		         (unsigned long long)st.st_ino);
	free(path);
}

int kept_file(struct store *st, const char *dir, const char *file,
              const char *key)
{
	char now[80];
	kept_facts(dir, file, now);
	size_t len;
	const char *was = store_get(st, key, &len);
	return was && *now && len == strlen(now) && !memcmp(was, now, len);
}

void kept_file_put(struct store *st, const char *dir, const char *file,
                   const char *key)
{
	char now[80];
	kept_facts(dir, file, now);
	if (*now)
		store_put(st, key, now, strlen(now));
}

static cJSON *strings_json(char *const *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

/* Could id have been made for a heading (letters, digits, '-', '_')? */
static int id_plain(const char *id)
{
	if (!*id)
		return 0;
	for (; *id; id++)
		if (!(*id == '-' || *id == '_' || (*id >= '0' && *id <= '9') ||
		      (*id >= 'a' && *id <= 'z') || (*id >= 'A' && *id <= 'Z') ||
		      (unsigned char)*id >= 0x80))
			return 0;
	return 1;
}

int kept_outline(struct store *st, const char *key,
                        const struct chapter *ch, struct outline *ol)
{
	size_t len;
	const char *text = store_get(st, key, &len);
	cJSON *e = text ? cJSON_ParseWithLength(text, len) : NULL;
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "titles");
	const cJSON *ids = cJSON_GetObjectItemCaseSensitive(e, "ids");
	const char *title = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "title"));
	const char *lead = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "lead"));
	size_t n = ch->nsections;
	int rc = -1;
	if (!title || cJSON_GetArraySize(t) != (int)n ||
	    cJSON_GetArraySize(ids) != (int)n)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *a = cJSON_GetStringValue(cJSON_GetArrayItem(t, (int)i));
		const char *b = cJSON_GetStringValue(cJSON_GetArrayItem(ids, (int)i));
		if (!a || !b || !id_plain(b))
			goto out;
	}
	ol->titles = xcalloc(n ? n : 1, sizeof *ol->titles);
	ol->ids = xcalloc(n ? n : 1, sizeof *ol->ids);
	for (size_t i = 0; i < n; i++) {
		ol->titles[i] = xstrdup(cJSON_GetStringValue(cJSON_GetArrayItem(t, (int)i)));
		ol->ids[i] = xstrdup(cJSON_GetStringValue(cJSON_GetArrayItem(ids, (int)i)));
	}
	ol->title = xstrdup(title);
	ol->lead = lead ? xstrdup(lead) : NULL;
	rc = 0;
out:
	cJSON_Delete(e);
	return rc;
}

void kept_outline_put(struct store *st, const char *key,
                         const struct chapter *ch, const struct outline *ol)
{
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "title", ol->title);
	cJSON_AddItemToObject(e, "titles", strings_json(ol->titles, ch->nsections));
	cJSON_AddItemToObject(e, "ids", strings_json(ol->ids, ch->nsections));
	if (ol->lead)
		cJSON_AddStringToObject(e, "lead", ol->lead);
	store_put_json(st, key, e);
}

/* The key of the list of a site's files: the same for every build. */
static void files_key(char key[33])
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, "labbook: the files this site's last build made");
	hasher_done(h, key);
}

struct line {
	const char *p;
	size_t len;
};

static int line_cmp(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	int c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The lines of text (n bytes), sorted, for bsearch; *count of them. */
static struct line *lines_sorted(const char *text, size_t n, size_t *count)
{
	struct line *v = NULL;
	size_t k = 0;
	for (const char *p = text, *end = text + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		*ARRAY_PUSH(v, k) = (struct line){p, l};
		p += l + 1;
	}
	if (k)
		qsort(v, k, sizeof *v, line_cmp);
	*count = k;
	return v;
}

/* Is each folder on the way from dir to its file rel a real folder, not
 * a link? A link inside the site (site/data -> ../res) leads out of it:
 * what the site once made is never removed through one. */
static int no_link_between(const char *dir, const char *rel)
{
	int ok = 1;
	for (const char *q = strchr(rel, '/'); ok && q; q = strchr(q + 1, '/')) {
		char *sub = xstrndup(rel, (size_t)(q - rel));
		char *path = path_join(dir, sub);
		struct stat st;
		ok = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		free(path);
		free(sub);
	}
	return ok;
}

void kept_files_prune(struct store *st, const char *dir, const char *made,
                      size_t len)
{
	char key[33];
	files_key(key);
	size_t n, nmade = 0;
	const char *old = store_get(st, key, &n);
	/* The same files as last time, as on most builds: nothing to look up. */
	if (old && n == len && !memcmp(old, made, len))
		old = NULL;
	struct line *sorted = old ? lines_sorted(made, len, &nmade) : NULL;
	for (const char *p = old, *end = old ? old + n : NULL; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct line l = {p, nl ? (size_t)(nl - p) : (size_t)(end - p)};
		char *rel = xstrndup(p, l.len);
		/* A name the site could hold: relative, and never climbing out. */
		if (l.len && !(nmade && bsearch(&l, sorted, nmade, sizeof l, line_cmp)) &&
		    rel[0] != '/' && !strstr(rel, "..") && !strchr(rel, '\\') &&
		    no_link_between(dir, rel)) {
			char *path = path_join(dir, rel);
			unlink(path);
			free(path);
		}
		free(rel);
		p += l.len + 1;
	}
	free(sorted);
	store_put(st, key, made, len);
}

void kept_legacy_remove(const char *site)
{
	static const char *old[] = {".labbook-pages", ".labbook-plans",
	                            ".labbook-search", ".labbook-frags",
	                            ".labbook-book"};
	for (size_t i = 0; i < sizeof old / sizeof old[0]; i++) {
		char *p = path_join(site, old[i]);
		path_remove(p);
		free(p);
	}
}

