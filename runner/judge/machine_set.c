/*
 * machine_set.c - the set of machines (the bundles a site is rendered
 * from and compared with, each named by its folder), their points judged
 * against the base, and their claims: whether each {{check}} of the book
 * holds on each machine (machine_set.h).
 */
#include "judge/machine_set.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/expr_value.h"
#include "bundle/compare.h"
#include "bundle/results.h"
#include "judge/judge.h"
#include "judge/view.h"

/* ---- the set ------------------------------------------------------------------ */

/* "results/h100/" -> "h100". Caller frees. */
static char *machine_name(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	size_t s = n;
	while (s > 0 && dir[s - 1] != '/')
		s--;
	return xstrndup(dir + s, n - s);
}

int machines_open(const struct book *bk, struct bundle *base,
                  const char *const *dirs, size_t ndirs,
                  struct machine_set *ms)
{
	int rc = 0;
	ms->b = xcalloc(ndirs + 1, sizeof *ms->b);
	ms->names = xcalloc(ndirs + 1, sizeof *ms->names);
	ms->repeat = xcalloc(ndirs + 1, sizeof *ms->repeat);
	ms->b[0] = base;
	ms->names[0] = machine_name(base->dir);
	for (size_t k = 0; k < bk->nexps; k++)
		bundle_mark_outdated(base, bk->exps[k].id, bk->exps[k].source_key);
	ms->n = 1;
	for (size_t i = 0; i < ndirs; i++) {
		struct bundle *b = bundle_open(dirs[i]);
		for (size_t k = 0; k < bk->nexps; k++)
			bundle_mark_outdated(b, bk->exps[k].id, bk->exps[k].source_key);
		book_mark_needs(bk, b);
		if (!b->machine) {
			diag("--compare %s: not a results bundle (no machine.json)",
			     dirs[i]);
			rc = -1;
		}
		char *name = machine_name(dirs[i]);
		for (size_t k = 0; k < ms->n; k++)
			if (!strcmp(ms->names[k], name)) {
				/* Two folders of one name: the whole path tells them apart. */
				free(name);
				name = xstrdup(dirs[i]);
				break;
			}
		/* Unnamed, it cannot fail. */
		compare_repeat_open(base->dir, dirs[i], NULL, &ms->repeat[ms->n]);
		ms->b[ms->n] = b;
		ms->names[ms->n++] = name;
	}
	return rc;
}

void machines_free(struct machine_set *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->n; i++) {
		if (i)
			bundle_free(ms->b[i]);
		bundle_free(ms->repeat[i]);
		free(ms->names[i]);
		if (ms->views)
			view_free(ms->views[i]);
		if (ms->repeat_views)
			view_free(ms->repeat_views[i]);
	}
	free(ms->views);
	free(ms->repeat_views);
	free(ms->b);
	free(ms->names);
	free(ms->repeat);
	memset(ms, 0, sizeof *ms);
}

void machines_views(const struct book *bk, struct machine_set *ms)
{
	ms->views = xcalloc(ms->n, sizeof *ms->views);
	ms->repeat_views = xcalloc(ms->n, sizeof *ms->repeat_views);
	for (size_t m = 0; m < ms->n; m++) {
		ms->views[m] = view_make(bk, ms->b[m]);
		if (ms->repeat[m])
			ms->repeat_views[m] = view_make(bk, ms->repeat[m]);
	}
}

/* Has bundle b any results of experiment id? */
static int bundle_measured(struct bundle *b, const char *id)
{
	if (bundle_outdated(b, id))
		return 0;
	struct exp_result *r = bundle_get(b, id);
	return r->nrows || r->meta;
}

int machines_measured(const struct machine_set *ms, size_t m, const char *id)
{
	return bundle_measured(ms->b[m], id);
}

enum compare_pair machines_judge(struct machine_set *ms, size_t m,
                                 const char *id, size_t k,
                                 struct compare_point *p)
{
	struct compare_opts o = COMPARE_OPTS_INIT;
	memset(p, 0, sizeof *p);
	if (!bundle_measured(ms->b[0], id) || !bundle_measured(ms->b[m], id) ||
	    !compare_same_source(ms->b[0], ms->b[m], id))
		return COMPARE_UNMATCHED;
	o.repeat = ms->repeat[m];
	return compare_point_judge(ms->b[0], ms->b[m], id, k, &o, p);
}

double *machines_speed_ratios(const struct machine_set *ms, size_t m,
                              const char *id, size_t *n)
{
	struct exp_result *ra = bundle_get(ms->b[0], id);
	struct exp_result *rb = bundle_get(ms->b[m], id);
	double *v = NULL;
	*n = 0;
	size_t rows = ra->nrows < rb->nrows ? ra->nrows : rb->nrows;
	for (size_t k = 0; k < rows; k++) {
		const cJSON *x = ra->rows[k], *y = rb->rows[k];
		double tx, ty;
		if (!row_number(x, RECORD_MEDIAN, &tx) ||
		    !row_number(y, RECORD_MEDIAN, &ty) ||
		    tx < MACHINES_RATIO_MIN_MS || ty < MACHINES_RATIO_MIN_MS ||
		    cJSON_IsTrue(cJSON_GetObjectItem(x, RECORD_HOST_BOUND)) ||
		    cJSON_IsTrue(cJSON_GetObjectItem(y, RECORD_HOST_BOUND)) ||
		    !record_same_point(x, y))
			continue;
		*ARRAY_PUSH(v, *n) = tx / ty;
	}
	if (*n)
		qsort(v, *n, sizeof *v, cmp_double);
	return v;
}

char *machines_point(const struct machine_set *ms, const char *id, size_t k)
{
	return record_params(bundle_get(ms->b[0], id)->rows[k]);
}

/* ---- claims ------------------------------------------------------------------- */

enum claim_state machines_claim(const struct machine_set *ms, size_t c,
                                size_t i, size_t m, const char **why)
{
	const struct verdict *v = judge_get(ms->jb, c, i, m);
	*why = NULL;
	switch (v->kind) {
	case VERDICT_HOLDS: return CLAIM_HOLDS;
	case VERDICT_FAILS: return CLAIM_FAILS;
	case VERDICT_NEEDS:
	case VERDICT_OUTDATED:
	case VERDICT_MISSING:
		*why = v->why;
		return CLAIM_MISSING;
	default:
		*why = v->why ? v->why : "a claim must be true or false";
		return CLAIM_UNKNOWN;
	}
}

size_t machines_pick(const struct machine_set *ms, const char *spec,
                     size_t *idx, struct buf *unknown)
{
	size_t n = 0;
	if (!strcmp(spec, "all")) {
		for (size_t m = 0; m < ms->n; m++)
			idx[n++] = m;
		return n;
	}
	char *list = xstrdup(spec), *save = NULL;
	for (char *w = strtok_r(list, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		size_t m = 0;
		while (m < ms->n && strcmp(ms->names[m], w))
			m++;
		if (m == ms->n) {
			buf_printf(unknown, "%s%s", unknown->len ? ", " : "", w);
			continue;
		}
		size_t k = 0;
		while (k < n && idx[k] != m)
			k++;
		if (k == n)
			idx[n++] = m;
	}
	free(list);
	return n;
}
