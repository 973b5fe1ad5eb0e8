/* keys.c - the key of each thing a build makes (keys.h). */
#include <stdlib.h>
#include <string.h>

#include "render/keys.h"
#include "base/util.h"

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

/* Add the experiments an expression reads (found when it was parsed). */
static void refs_add(char *const *reads, size_t n, struct idset *ids)
{
	for (size_t i = 0; i < n; i++)
		idset_add(ids, reads[i], strlen(reads[i]));
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
			refs_add(d->opts[k].reads, d->opts[k].nreads, ids);
}

/* What experiment id (or "machine") reads in v and this build: its
 * digest, made by the judge (view.h). */
static void id_digest(const struct bundle_view *v, const char *id,
                      struct hasher *h)
{
	const struct exp_view *x = view_find(v, id);
	hasher_add_str(h, x ? x->digest : id);
}

static void ids_digest(const struct bundle_view *v, struct idset *ids,
                       struct hasher *h)
{
	for (size_t i = 0; i < ids->n; i++) {
		id_digest(v, ids->v[i], h);
		free(ids->v[i]);
	}
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->cap = 0;
}

void keys_chapter(const struct chapter *ch, const struct bundle_view *v,
                  const struct bundle_view *const *others, size_t nothers,
                  const char *common, char out[33])
{
	struct idset ids = {0};
	int overlays = 0;
	idset_add(&ids, "machine", strlen("machine"));
	for (size_t i = 0; i < ch->nvalues; i++)
		refs_add(ch->values[i].reads, ch->values[i].nreads, &ids);
	for (size_t i = 0; i < ch->ndirs; i++) {
		directive_refs(&ch->dirs[i], &ids);
		overlays |= ch->dirs[i].kind == DIR_CHART &&
		            dir_opt(&ch->dirs[i], "machines");
	}
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, common);
	hasher_add_str(h, ch->path);
	hasher_add_str(h, ch->hash);
	/* An overlay draws, and judges, the other bundles' records too. */
	for (size_t k = 0; overlays && k < nothers; k++) {
		hasher_add_str(h, others[k]->dir);
		for (size_t i = 0; i < ids.n; i++)
			id_digest(others[k], ids.v[i], h);
	}
	ids_digest(v, &ids, h);
	hasher_done(h, out);
}

void keys_value(const struct inline_expr *e, const struct bundle_view *v,
                const char *facts, char out[33])
{
	struct idset ids = {0};
	idset_add(&ids, "machine", strlen("machine"));
	refs_add(e->reads, e->nreads, &ids);
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, "value");
	hasher_add_str(h, facts);
	hasher_add_str(h, e->text);
	hasher_add_str(h, e->fmt ? e->fmt : "");
	hasher_add(h, &e->check, sizeof e->check);
	hasher_add(h, &e->need_cc, sizeof e->need_cc);
	ids_digest(v, &ids, h);
	hasher_done(h, out);
}

void keys_block(const struct directive *d, const struct bundle_view *v,
                const char *facts, char out[33])
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
	ids_digest(v, &ids, h);
	hasher_done(h, out);
}

void keys_derive(const char *key, const char *what, char out[33])
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, key);
	hasher_add_str(h, what);
	hasher_done(h, out);
}
