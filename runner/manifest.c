/* manifest.c - which chapter pages are up to date, from a small file in
 * the site folder (.labbook-pages), so an unchanged page is not made
 * again. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "manifest.h"
#include "util.h"

#define MANIFEST_FILE ".labbook-pages"
/* Bumped when what the manifest holds changes shape. */
#define MANIFEST_VERSION 1

struct manifest {
	char *path;
	cJSON *old;   /* what the last build wrote: page name -> entry */
	cJSON *pages; /* what this build writes */
};

struct manifest *manifest_load(const char *site_dir)
{
	struct manifest *m = xcalloc(1, sizeof *m);
	m->path = path_join(site_dir, MANIFEST_FILE);
	m->pages = cJSON_CreateObject();
	char *text = file_read(m->path, NULL);
	cJSON *all = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(all, "version");
	cJSON *pages = cJSON_DetachItemFromObjectCaseSensitive(all, "pages");
	if (cJSON_IsNumber(v) && v->valueint == MANIFEST_VERSION &&
	    cJSON_IsObject(pages))
		m->old = pages;
	else
		cJSON_Delete(pages);
	cJSON_Delete(all);
	return m;
}

void manifest_free(struct manifest *m)
{
	if (!m)
		return;
	cJSON_Delete(m->old);
	cJSON_Delete(m->pages);
	free(m->path);
	free(m);
}

const cJSON *manifest_get(const struct manifest *m, const char *page,
                          const char *field, const char *key)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(m->old, page);
	const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, field));
	return k && !strcmp(k, key) ? e : NULL;
}

void manifest_put(struct manifest *m, const char *page, cJSON *entry)
{
	cJSON_DeleteItemFromObjectCaseSensitive(m->pages, page);
	cJSON_AddItemToObject(m->pages, page, entry);
}

int manifest_write(struct manifest *m)
{
	cJSON *all = cJSON_CreateObject();
	cJSON_AddNumberToObject(all, "version", MANIFEST_VERSION);
	cJSON_AddItemReferenceToObject(all, "pages", m->pages);
	char *text = cJSON_PrintUnformatted(all);
	cJSON_Delete(all);
	size_t oldlen;
	char *old = file_read(m->path, &oldlen);
	int rc = 0;
	if (!old || oldlen != strlen(text) || memcmp(old, text, oldlen))
		rc = file_write_atomic(m->path, text, strlen(text));
	free(old);
	free(text);
	return rc;
}

/* Add the experiments an expression reads: each word before a '.'. */
static void refs_expr(const char *text, const struct bundle *b,
                      struct hasher *h)
{
	for (const char *p = text; *p;) {
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		const char *s = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p == '.' && (s == text || s[-1] != '.')) {
			char *id = xstrndup(s, (size_t)(p - s));
			bundle_stamp(b, id, h);
			free(id);
		}
	}
}

static void exper_state(const struct book *bk, const char *id, struct hasher *h)
{
	const struct exper *e = book_find(bk, id);
	if (!e)
		return;
	int facts[3] = {(int)e->state, e->source_ok, e->cuda};
	hasher_add(h, facts, sizeof facts);
	hasher_add_str(h, e->why ? e->why : "");
	hasher_add_str(h, e->compile_cmd ? e->compile_cmd : "");
	hasher_add_str(h, e->run_cmd ? e->run_cmd : "");
	if (e->source_ok) {
		struct stat st;
		long long t = stat(e->source, &st) == 0 ? (long long)st.st_mtim.tv_sec
		                                         * 1000000000LL + st.st_mtim.tv_nsec
		                                       : -1;
		hasher_add(h, &t, sizeof t);
	}
}

/* The running labbook: a new build of it may write pages differently. */
static void self_stamp(struct hasher *h)
{
	static long long facts[3];
	static int done;
	if (!done) {
		struct stat st;
		if (stat("/proc/self/exe", &st) == 0) {
			facts[0] = (long long)st.st_size;
			facts[1] = (long long)st.st_mtim.tv_sec;
			facts[2] = (long long)st.st_mtim.tv_nsec;
		}
		done = 1;
	}
	hasher_add(h, facts, sizeof facts);
}

void manifest_chapter_key(const struct chapter *ch, const struct book *bk,
                          const struct bundle *b, const char *common,
                          char out[33])
{
	struct hasher *h = hasher_new();
	self_stamp(h);
	hasher_add_str(h, common);
	hasher_add_str(h, ch->path);
	hasher_add_str(h, ch->hash);
	bundle_stamp(b, "machine", h);
	for (size_t i = 0; i < ch->nvalues; i++)
		refs_expr(ch->values[i].text, b, h);
	for (size_t i = 0; i < ch->ndirs; i++) {
		const struct directive *d = &ch->dirs[i];
		const char *ids[] = {d->kind == DIR_EXPERIMENT ? d->id : NULL,
		                     dir_opt(d, "data"), dir_opt(d, "experiment")};
		for (size_t k = 0; k < 3; k++) {
			if (!ids[k])
				continue;
			bundle_stamp(b, ids[k], h);
			exper_state(bk, ids[k], h);
		}
		for (size_t k = 0; k < d->nopts; k++)
			if (!strcmp(d->opts[k].key, "where") ||
			    !strcmp(d->opts[k].key, "limit"))
				refs_expr(d->opts[k].value, b, h);
	}
	hasher_done(h, out);
}
