/* manifest.c - which chapter pages are up to date, from a small file in
 * the site folder (.labbook-pages), so an unchanged page is not made
 * again. */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exec.h"
#include "render/manifest.h"
#include "base/util.h"

#define MANIFEST_FILE ".labbook-pages"
/* What earlier builds kept beside it, removed when it is written. */
#define OLD_SEARCH_FILE ".labbook-search"
/* Bumped when what the manifest holds changes shape. */
#define MANIFEST_VERSION 2

struct entry {
	const char *page;
	const cJSON *e;
};

struct manifest {
	char *path;
	char *site;
	cJSON *old;   /* what the last build wrote: page name -> entry */
	struct entry *index; /* old's entries sorted by page, for lookups */
	size_t nindex;
	cJSON *old_files; /* the last build's records of book-wide files */
	cJSON *pages; /* what this build writes */
	cJSON *files;
};

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->page,
	              ((const struct entry *)b)->page);
}

static cJSON *json_load(const char *path)
{
	char *text = file_read(path, NULL);
	cJSON *v = text ? cJSON_Parse(text) : NULL;
	free(text);
	return v;
}

struct manifest *manifest_load(const char *site_dir)
{
	struct manifest *m = xcalloc(1, sizeof *m);
	m->path = path_join(site_dir, MANIFEST_FILE);
	m->site = xstrdup(site_dir);
	m->pages = cJSON_CreateObject();
	m->files = cJSON_CreateObject();
	cJSON *all = json_load(m->path);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(all, "version");
	cJSON *pages = cJSON_DetachItemFromObjectCaseSensitive(all, "pages");
	cJSON *files = cJSON_DetachItemFromObjectCaseSensitive(all, "files");
	if (cJSON_IsNumber(v) && v->valueint == MANIFEST_VERSION &&
	    cJSON_IsObject(pages) && cJSON_IsObject(files)) {
		m->old = pages;
		m->old_files = files;
	} else {
		cJSON_Delete(pages);
		cJSON_Delete(files);
	}
	cJSON_Delete(all);
	const cJSON *e;
	cJSON_ArrayForEach(e, m->old)
	{
		m->index = xrealloc(m->index, (m->nindex + 1) * sizeof *m->index);
		m->index[m->nindex++] = (struct entry){e->string, e};
	}
	if (m->nindex)
		qsort(m->index, m->nindex, sizeof *m->index, entry_cmp);
	return m;
}

void manifest_free(struct manifest *m)
{
	if (!m)
		return;
	cJSON_Delete(m->old);
	cJSON_Delete(m->old_files);
	cJSON_Delete(m->pages);
	cJSON_Delete(m->files);
	free(m->index);
	free(m->path);
	free(m->site);
	free(m);
}

const cJSON *manifest_get(const struct manifest *m, const char *page,
                          const char *field, const char *key)
{
	struct entry want = {page, NULL}, *hit = NULL;
	if (m->nindex)
		hit = bsearch(&want, m->index, m->nindex, sizeof *m->index, entry_cmp);
	const cJSON *e = hit ? hit->e : NULL;
	const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, field));
	return k && !strcmp(k, key) ? e : NULL;
}

void manifest_put(struct manifest *m, const char *page, cJSON *entry)
{
	cJSON_AddItemToObject(m->pages, page, entry);
}

const cJSON *manifest_file(const struct manifest *m, const char *file)
{
	return cJSON_GetObjectItemCaseSensitive(m->old_files, file);
}

void manifest_file_put(struct manifest *m, const char *file, cJSON *rec)
{
	if (rec)
		cJSON_AddItemToObject(m->files, file, rec);
}

/* Write v to path unless it holds it already. 0 or -1. */
static int json_write(const char *path, const cJSON *v)
{
	char *text = cJSON_PrintUnformatted(v);
	int rc = file_write_if_changed(path, text, strlen(text), NULL);
	free(text);
	return rc;
}

int manifest_write(struct manifest *m)
{
	/* The pages of a build asked to stop are made again by the next. */
	if (exec_stopping())
		return -1;
	cJSON *all = cJSON_CreateObject();
	cJSON_AddNumberToObject(all, "version", MANIFEST_VERSION);
	cJSON_AddItemReferenceToObject(all, "pages", m->pages);
	cJSON_AddItemReferenceToObject(all, "files", m->files);
	int rc = json_write(m->path, all);
	cJSON_Delete(all);
	char *old = path_join(m->site, OLD_SEARCH_FILE);
	unlink(old);
	free(old);
	return rc;
}

struct idset {
	char **v;
	size_t n, cap;
};

static void idset_add(struct idset *s, const char *id, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strncmp(s->v[i], id, len) && !s->v[i][len])
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n++] = xstrndup(id, len);
}

/* Add the experiments an expression reads: each word before a '.'. */
static void refs_expr(const char *text, struct idset *ids)
{
	for (const char *p = text; *p;) {
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		const char *s = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (*p == '.' && (s == text || s[-1] != '.'))
			idset_add(ids, s, (size_t)(p - s));
	}
}

static void exper_state(const struct book *bk, const char *id, struct hasher *h)
{
	const struct exper *e = book_find(bk, id);
	if (!e)
		return;
	/* What the bundle does not say: this build's check of it. */
	int facts[3] = {(int)e->state, e->source_ok, e->cuda};
	hasher_add(h, facts, sizeof facts);
	hasher_add_str(h, e->why ? e->why : "");
	hasher_add_str(h, e->compile_cmd ? e->compile_cmd : "");
	hasher_add_str(h, e->run_cmd ? e->run_cmd : "");
	if (e->source_ok) {
		struct stat st;
		input_note(e->source);
		long long t = stat(e->source, &st) == 0 ? (long long)st.st_mtim.tv_sec
		                                         * 1000000000LL + st.st_mtim.tv_nsec
		                                       : -1;
		hasher_add(h, &t, sizeof t);
	}
}

/* The ids a directive names, and those its expressions read. */
static void directive_refs(const struct directive *d, struct idset *ids)
{
	const char *named[] = {d->kind == DIR_EXPERIMENT ? d->id : NULL,
	                       dir_opt(d, "data"), dir_opt(d, "experiment")};
	for (size_t k = 0; k < 3; k++)
		if (named[k])
			idset_add(ids, named[k], strlen(named[k]));
	for (size_t k = 0; k < d->nopts; k++)
		if (!strcmp(d->opts[k].key, "where") ||
		    !strcmp(d->opts[k].key, "limit"))
			refs_expr(d->opts[k].value, ids);
}

/* What experiment id (or "machine") reads in b and this build, as a
 * digest, made once per bundle and id. */
static struct {
	const struct bundle *b;
	char *id;
	char digest[33];
} *digests;
static size_t ndigests;

static void id_digest(const struct book *bk, const struct bundle *b,
                      const char *id, struct hasher *out)
{
	for (size_t i = 0; i < ndigests; i++)
		if (digests[i].b == b && !strcmp(digests[i].id, id)) {
			hasher_add_str(out, digests[i].digest);
			return;
		}
	struct hasher *h = hasher_new();
	hasher_add_str(h, id);
	bundle_stamp(b, id, h);
	exper_state(bk, id, h);
	digests = xrealloc(digests, (ndigests + 1) * sizeof *digests);
	digests[ndigests].b = b;
	digests[ndigests].id = xstrdup(id);
	hasher_done(h, digests[ndigests].digest);
	hasher_add_str(out, digests[ndigests++].digest);
}

void manifest_digests_clear(void)
{
	for (size_t i = 0; i < ndigests; i++)
		free(digests[i].id);
	free(digests);
	digests = NULL;
	ndigests = 0;
}

static void ids_digest(const struct book *bk, const struct bundle *b,
                       struct idset *ids, struct hasher *h)
{
	for (size_t i = 0; i < ids->n; i++) {
		id_digest(bk, b, ids->v[i], h);
		free(ids->v[i]);
	}
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->cap = 0;
}

void manifest_chapter_key(const struct chapter *ch, const struct book *bk,
                          const struct bundle *b, const char *common,
                          char out[33])
{
	struct idset ids = {0};
	idset_add(&ids, "machine", strlen("machine"));
	for (size_t i = 0; i < ch->nvalues; i++)
		refs_expr(ch->values[i].text, &ids);
	for (size_t i = 0; i < ch->ndirs; i++)
		directive_refs(&ch->dirs[i], &ids);
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, common);
	hasher_add_str(h, ch->path);
	hasher_add_str(h, ch->hash);
	ids_digest(bk, b, &ids, h);
	hasher_done(h, out);
}

void manifest_value_key(const struct inline_expr *e, const struct book *bk,
                        const struct bundle *b, const char *facts,
                        char out[33])
{
	struct idset ids = {0};
	idset_add(&ids, "machine", strlen("machine"));
	refs_expr(e->text, &ids);
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, "value");
	hasher_add_str(h, facts);
	hasher_add_str(h, e->text);
	hasher_add_str(h, e->fmt ? e->fmt : "");
	hasher_add(h, &e->check, sizeof e->check);
	ids_digest(bk, b, &ids, h);
	hasher_done(h, out);
}

void manifest_block_key(const struct directive *d, const struct book *bk,
                        const struct bundle *b, const char *facts,
                        char out[33])
{
	struct idset ids = {0};
	idset_add(&ids, "machine", strlen("machine"));
	directive_refs(d, &ids);
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, "block");
	hasher_add_str(h, facts);
	int kind = (int)d->kind;
	hasher_add(h, &kind, sizeof kind);
	hasher_add_str(h, d->id ? d->id : "");
	for (size_t k = 0; k < d->nopts; k++) {
		hasher_add_str(h, d->opts[k].key);
		hasher_add_str(h, d->opts[k].value);
	}
	ids_digest(bk, b, &ids, h);
	hasher_done(h, out);
}
