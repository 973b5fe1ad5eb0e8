/* history_steps.c - a bundle's recordings judged one against the one
 * before (history.h): the steps, each point's series, what changed
 * between two recordings, and the check of the latest. */
#define _GNU_SOURCE
#include "bundle/history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

#define NONE ((size_t)-1)

static double num(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* Is s1 other than s2, where either may be NULL? */
static int differ(const char *s1, const char *s2)
{
	return (s1 || s2) && (!s1 || !s2 || strcmp(s1, s2));
}

/* ---- the series: one per timed point, found by its experiment and
 * parameters (and how many records before it had the same) ----------------- */

struct series_index {
	size_t cap;
	size_t *slot; /* series index plus one; 0 is empty */
	char **keys;  /* per series */
};

static size_t series_find(struct history_judged *j, struct series_index *ix,
                          const char *key, size_t nentries, const char *id,
                          size_t k, const char *point)
{
	if (2 * (j->nseries + 1) > ix->cap) {
		size_t cap = ix->cap ? 2 * ix->cap : 256;
		free(ix->slot);
		ix->slot = xcalloc(cap, sizeof *ix->slot);
		ix->cap = cap;
		for (size_t s = 0; s < j->nseries; s++) {
			size_t h = str_hash(ix->keys[s]) & (cap - 1);
			while (ix->slot[h])
				h = (h + 1) & (cap - 1);
			ix->slot[h] = s + 1;
		}
	}
	size_t h = str_hash(key) & (ix->cap - 1);
	for (; ix->slot[h]; h = (h + 1) & (ix->cap - 1))
		if (!strcmp(ix->keys[ix->slot[h] - 1], key))
			return ix->slot[h] - 1;
	struct history_series *s = ARRAY_PUSH(j->series, j->nseries);
	ix->keys = xrealloc(ix->keys, j->nseries * sizeof *ix->keys);
	ix->keys[j->nseries - 1] = xstrdup(key);
	ix->slot[h] = j->nseries;
	memset(s, 0, sizeof *s);
	s->id = xstrdup(id);
	s->k = k;
	s->point = xstrdup(point);
	s->ms = xmalloc(nentries * sizeof *s->ms);
	s->lo = xmalloc(nentries * sizeof *s->lo);
	s->hi = xmalloc(nentries * sizeof *s->hi);
	for (size_t i = 0; i < nentries; i++)
		s->ms[i] = s->lo[i] = s->hi[i] = NAN;
	return j->nseries - 1;
}

/* The spread of a record around its median, as compare_record_noise
 * takes it: the quartiles, else the runs. */
static void record_spread(const cJSON *row, double m, double *lo, double *hi)
{
	*lo = num(row, "q1_ms");
	*hi = num(row, "q3_ms");
	if (isnan(*lo) || isnan(*hi)) {
		*lo = num(row, "run_min_ms");
		*hi = num(row, "run_max_ms");
	}
	if (isnan(*lo) || isnan(*hi))
		*lo = *hi = m;
}

struct ranked {
	const char *point;
	size_t k;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	int c = strcmp(a->point, b->point);
	return c ? c : (a->k > b->k) - (a->k < b->k);
}

/*
 * Add the timed points of bundle b (entry i) to the series. Returns, per
 * experiment of e and record, the series it went to (NONE: untimed); free
 * with map_free.
 */
static size_t **series_add(struct history_judged *j, struct series_index *ix,
                           const struct history_entry *e, struct bundle *b,
                           size_t i, size_t nentries)
{
	struct buf key = BUF_INIT;
	size_t **map = xcalloc(e->nids + 1, sizeof *map);
	for (size_t d = 0; d < e->nids; d++) {
		struct exp_result *r = bundle_get(b, e->ids[d]);
		map[d] = xmalloc((r->nrows + 1) * sizeof **map);
		char **params = xcalloc(r->nrows + 1, sizeof *params);
		struct ranked *rk = xcalloc(r->nrows + 1, sizeof *rk);
		for (size_t k = 0; k < r->nrows; k++) {
			params[k] = record_params(r->rows[k]);
			rk[k].point = params[k];
			rk[k].k = k;
		}
		/* The same parameters twice in one experiment: told apart by
		 * how many came before. */
		if (r->nrows)
			qsort(rk, r->nrows, sizeof *rk, cmp_ranked);
		size_t *nth = xcalloc(r->nrows + 1, sizeof *nth);
		for (size_t q = 1; q < r->nrows; q++)
			if (!strcmp(rk[q].point, rk[q - 1].point))
				nth[rk[q].k] = nth[rk[q - 1].k] + 1;
		for (size_t k = 0; k < r->nrows; k++) {
			map[d][k] = NONE;
			double m = num(r->rows[k], RECORD_MEDIAN);
			if (!(m > 0))
				continue;
			buf_reset(&key);
			buf_printf(&key, "%s\x1f%s\x1f%zu", e->ids[d], params[k], nth[k]);
			size_t s = series_find(j, ix, key.data, nentries, e->ids[d], k,
			                       params[k]);
			map[d][k] = s;
			j->series[s].ms[i] = m;
			record_spread(r->rows[k], m, &j->series[s].lo[i],
			              &j->series[s].hi[i]);
		}
		for (size_t k = 0; k < r->nrows; k++)
			free(params[k]);
		free(params);
		free(rk);
		free(nth);
	}
	buf_free(&key);
	return map;
}

static void map_free(size_t **map)
{
	for (size_t d = 0; map && map[d]; d++)
		free(map[d]);
	free(map);
}

/* ---- what changed --------------------------------------------------------- */

static void add_item(char ***items, size_t *n, char *item)
{
	*ARRAY_PUSH(*items, *n) = item;
}

static char **items_end(char **items, size_t n)
{
	*ARRAY_PUSH(items, n) = NULL;
	return items;
}

/* The words that tell a toolkit apart: "V13.0.88" of nvcc's long line. */
static const char *toolkit_short(const char *t)
{
	const char *sp = t ? strrchr(t, ' ') : NULL;
	return sp ? sp + 1 : t ? t : "none";
}

/* A card's name and the start of its id: "NVIDIA H100 (GPU-79f06671)". */
static char *card_label(const struct history_entry *e)
{
	if (!e->card)
		return xstrdup(e->gpu ? e->gpu : "unknown");
	if (e->gpu && !strncmp(e->card, "GPU-", 4))
		return xasprintf("%s (%.12s)", e->gpu, e->card);
	return xstrdup(e->card);
}

char **history_machine_change(const struct history *h, size_t f, size_t t)
{
	const struct history_entry *a = &h->e[f], *b = &h->e[t];
	char **items = NULL;
	size_t n = 0;
	if (differ(a->card, b->card) && a->gpu && b->gpu && !strcmp(a->gpu, b->gpu) &&
	    a->card && b->card && !strncmp(a->card, "GPU-", 4) &&
	    !strncmp(b->card, "GPU-", 4)) {
		add_item(&items, &n, xasprintf("card %.12s \u2192 %.12s, both %s",
		                               a->card, b->card, a->gpu));
	} else if (differ(a->card, b->card)) {
		char *ca = card_label(a), *cb = card_label(b);
		add_item(&items, &n, xasprintf("card %s \u2192 %s", ca, cb));
		free(ca);
		free(cb);
	}
	if (differ(a->driver, b->driver))
		add_item(&items, &n, xasprintf("driver %s \u2192 %s",
		                               a->driver ? a->driver : "none",
		                               b->driver ? b->driver : "none"));
	return n ? items_end(items, n) : NULL;
}

/* The files of an experiment's key (meta key_parts.files), or NULL. */
static const cJSON *key_files(const cJSON *meta)
{
	const cJSON *kp = cJSON_GetObjectItemCaseSensitive(meta, "key_parts");
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(kp, "files");
	return cJSON_IsObject(f) ? f : NULL;
}

static const char *key_part(const cJSON *meta, const char *name)
{
	const cJSON *kp = cJSON_GetObjectItemCaseSensitive(meta, "key_parts");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(kp, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int is_lab_h(const char *path)
{
	const char *slash = strrchr(path, '/');
	return !strcmp(slash ? slash + 1 : path, "lab.h");
}

/* The files of fa and fb whose hashes differ, lab.h apart. */
static void files_changed(const cJSON *fa, const cJSON *fb, struct buf *src,
                          int *lab)
{
	const cJSON *x;
	for (int side = 0; side < 2; side++) {
		const cJSON *from = side ? fb : fa, *to = side ? fa : fb;
		cJSON_ArrayForEach(x, from)
		{
			const cJSON *y = cJSON_GetObjectItemCaseSensitive(to, x->string);
			if (side && y)
				continue; /* seen from the other side */
			if (y && cJSON_IsString(x) && cJSON_IsString(y) &&
			    !strcmp(x->valuestring, y->valuestring))
				continue;
			if (is_lab_h(x->string)) {
				*lab = 1;
				continue;
			}
			buf_printf(src, "%s%s", src->len ? ", " : "", x->string);
		}
	}
}

/*
 * What changed for experiment id between bundles a and b (entries f, t):
 * its sources, lab.h, flags, arguments, environment, runs, and the
 * toolkit, driver and card. A NULL-terminated list, owned.
 */
static char **exp_changed(const struct history *h, size_t f, size_t t,
                          struct bundle *a, struct bundle *b, const char *id)
{
	const cJSON *ma = bundle_get_meta(a, id)->meta;
	const cJSON *mb = bundle_get_meta(b, id)->meta;
	char **items = NULL;
	size_t n = 0;
	const cJSON *fa = key_files(ma), *fb = key_files(mb);
	if (fa && fb) {
		struct buf src = BUF_INIT;
		int lab = 0;
		files_changed(fa, fb, &src, &lab);
		if (src.len)
			add_item(&items, &n, xasprintf("source %s", src.data));
		if (lab)
			add_item(&items, &n, xstrdup("lab.h"));
		buf_free(&src);
	} else if (differ(bundle_source_key(a, id), bundle_source_key(b, id))) {
		add_item(&items, &n, xstrdup("its sources or lab.h (the recording "
		                             "names no files)"));
	}
	const char *ga = key_part(ma, "flags"), *gb = key_part(mb, "flags");
	if (ga && gb ? strcmp(ga, gb) != 0
	             : differ(cJSON_GetStringValue(cJSON_GetObjectItem(ma, "compile")),
	                      cJSON_GetStringValue(cJSON_GetObjectItem(mb, "compile"))))
		add_item(&items, &n, ga && gb ? xasprintf("flags '%s' \u2192 '%s'", ga, gb)
		                              : xstrdup("its compile command"));
	ga = key_part(ma, "args");
	gb = key_part(mb, "args");
	if (ga && gb ? strcmp(ga, gb) != 0
	             : differ(cJSON_GetStringValue(cJSON_GetObjectItem(ma, "command")),
	                      cJSON_GetStringValue(cJSON_GetObjectItem(mb, "command"))))
		add_item(&items, &n, xstrdup("arguments"));
	if (differ(key_part(ma, "env"), key_part(mb, "env")))
		add_item(&items, &n, xstrdup("environment"));
	double ra = num(ma, "runs"), rb = num(mb, "runs");
	if (!isnan(ra) && !isnan(rb) && ra != rb)
		add_item(&items, &n, xasprintf("runs %.0f \u2192 %.0f", ra, rb));
	const struct history_entry *ea = &h->e[f], *eb = &h->e[t];
	if (differ(ea->toolkit, eb->toolkit))
		add_item(&items, &n, xasprintf("toolkit %s \u2192 %s",
		                               toolkit_short(ea->toolkit),
		                               toolkit_short(eb->toolkit)));
	char **mc = history_machine_change(h, f, t);
	for (size_t i = 0; mc && mc[i]; i++)
		add_item(&items, &n, mc[i]);
	free(mc);
	return items_end(items, n);
}

static void items_free(char **items)
{
	for (size_t i = 0; items && items[i]; i++)
		free(items[i]);
	free(items);
}

/* ---- judging two recordings --------------------------------------------- */

/* Is experiment id in e (its ids are sorted)? */
static int entry_has(const struct history_entry *e, const char *id)
{
	size_t lo = 0, hi = e->nids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(e->ids[mid], id);
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * Judge entry t (bundle b) against entry f (bundle a): every point of an
 * experiment both hold, as compare_point_judge judges it. Steps are added
 * to j when map (b's series, from series_add) is given; the counts go to *judged and *slower, *faster (NULL:
 * not counted). The largest slowdown's name in *worst when not NULL.
 */
static void judge_pair(struct history *h, size_t f, size_t t, struct bundle *a,
                       struct bundle *b, const struct compare_opts *o,
                       struct history_judged *j, size_t **map, size_t *judged,
                       size_t *slower, size_t *faster, char **worst)
{
	const struct history_entry *eb = &h->e[t];
	char **mc = history_machine_change(h, f, t);
	int machine = mc != NULL;
	items_free(mc);
	double worst_d = 0;
	for (size_t d = 0; d < eb->nids; d++) {
		const char *id = eb->ids[d];
		if (!entry_has(&h->e[f], id))
			continue;
		struct exp_result *ra = bundle_get(a, id), *rb = bundle_get(b, id);
		size_t n = ra->nrows < rb->nrows ? ra->nrows : rb->nrows;
		char **changed = NULL;
		for (size_t k = 0; k < n; k++) {
			/* compare refuses a bundle with such a median; here one
			 * recording's bad record is only a point not judged. */
			if (!(num(ra->rows[k], RECORD_MEDIAN) > 0) ||
			    !(num(rb->rows[k], RECORD_MEDIAN) > 0))
				continue;
			struct compare_point p;
			if (compare_point_judge(a, b, id, k, o, &p) != COMPARE_JUDGED ||
			    p.verdict == COMPARE_NOISY)
				continue;
			(*judged)++;
			if (p.verdict == COMPARE_WITHIN)
				continue;
			if (slower && p.verdict == COMPARE_SLOWER)
				(*slower)++;
			if (faster && p.verdict == COMPARE_FASTER)
				(*faster)++;
			if (worst && p.verdict == COMPARE_SLOWER && p.diff > worst_d) {
				worst_d = p.diff;
				char *pt = record_params(rb->rows[k]);
				free(*worst);
				*worst = xasprintf("%s %s %+.2f%%", id, pt, p.diff * 100);
				free(pt);
			}
			if (!map)
				continue;
			if (!changed)
				changed = exp_changed(h, f, t, a, b, id);
			struct history_step *s = ARRAY_PUSH(j->steps, j->nsteps);
			s->from = f;
			s->to = t;
			s->id = xstrdup(id);
			s->k = k;
			s->point = record_params(rb->rows[k]);
			s->p = p;
			s->machine = machine;
			s->series = map[d][k];
			if (s->series != NONE)
				j->series[s->series].steps++;
			/* Each step owns its list: a copy of the experiment's. */
			size_t m = 0;
			while (changed[m])
				m++;
			s->changed = xcalloc(m + 1, sizeof *s->changed);
			for (size_t q = 0; q < m; q++)
				s->changed[q] = xstrdup(changed[q]);
		}
		items_free(changed);
	}
}

/* Is id derived from an experiment of e (its _ptxas, _sass or _ncu)? */
static int derived(const struct history_entry *e, const char *id)
{
	static const char *suffix[] = {"_ptxas", "_sass", "_ncu"};
	size_t n = strlen(id);
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
		size_t k = strlen(suffix[i]);
		if (n > k && !strcmp(id + n - k, suffix[i])) {
			char *base = xstrndup(id, n - k);
			int yes = entry_has(e, base);
			free(base);
			return yes;
		}
	}
	return 0;
}

/* What changed for the bundle between entries f and t: the machine, the
 * toolkit, and which experiments' sources, lab.h, flags or arguments. */
static char **bundle_changed(struct history *h, size_t f, size_t t,
                             struct bundle *a, struct bundle *b)
{
	char **items = NULL;
	size_t n = 0;
	static const char *what[] = {"source", "lab.h", "flags", "arguments"};
	struct buf ids[4] = {BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT};
	size_t count[4] = {0};
	const struct history_entry *eb = &h->e[t];
	for (size_t d = 0; d < eb->nids; d++) {
		const char *id = eb->ids[d];
		if (!entry_has(&h->e[f], id) || !bundle_get_meta(b, id)->meta)
			continue;
		char **c = exp_changed(h, f, t, a, b, id);
		for (size_t i = 0; c[i]; i++)
			for (int w = 0; w < 4; w++)
				if (!strncmp(c[i], what[w], strlen(what[w])) ||
				    (w == 0 && !strncmp(c[i], "its sources", 11)) ||
				    (w == 2 && !strncmp(c[i], "its compile", 11))) {
					buf_printf(&ids[w], "%s%s", ids[w].len ? ", " : "", id);
					count[w]++;
				}
		items_free(c);
	}
	struct buf added = BUF_INIT, gone = BUF_INIT;
	for (size_t d = 0; d < eb->nids; d++)
		if (!entry_has(&h->e[f], eb->ids[d]) && !derived(eb, eb->ids[d]))
			buf_printf(&added, "%s%s", added.len ? ", " : "", eb->ids[d]);
	for (size_t d = 0; d < h->e[f].nids; d++)
		if (!entry_has(eb, h->e[f].ids[d]) && !derived(&h->e[f], h->e[f].ids[d]))
			buf_printf(&gone, "%s%s", gone.len ? ", " : "", h->e[f].ids[d]);
	if (added.len)
		add_item(&items, &n, xasprintf("new experiments: %s", added.data));
	if (gone.len)
		add_item(&items, &n, xasprintf("no longer recorded: %s", gone.data));
	buf_free(&added);
	buf_free(&gone);
	static const char *label[] = {"sources of", "lab.h, read by",
	                              "flags of", "arguments of"};
	for (int w = 0; w < 4; w++) {
		if (count[w])
			add_item(&items, &n, xasprintf("%s %s", label[w], ids[w].data));
		buf_free(&ids[w]);
	}
	if (differ(h->e[f].toolkit, eb->toolkit))
		add_item(&items, &n, xasprintf("toolkit %s \u2192 %s",
		                               toolkit_short(h->e[f].toolkit),
		                               toolkit_short(eb->toolkit)));
	char **mc = history_machine_change(h, f, t);
	for (size_t i = 0; mc && mc[i]; i++)
		add_item(&items, &n, mc[i]);
	free(mc);
	return items_end(items, n);
}

/* The latest recording (the latest entry, or the first of those at the
 * end whose records are the same), and the one before it on its card and
 * driver: the pair history --check judges. */
static void check_pair(const struct history *h, size_t *from, size_t *to)
{
	*from = *to = NONE;
	for (size_t i = h->n; i-- > 0;) {
		if (h->e[i].absent || !h->e[i].nids)
			continue;
		*to = i;
		if (!h->e[i].same_records)
			break;
	}
	for (size_t i = *to; *to != NONE && i-- > 0;)
		if (!h->e[i].absent && h->e[i].nids &&
		    !differ(h->e[i].card, h->e[*to].card) &&
		    !differ(h->e[i].driver, h->e[*to].driver)) {
			*from = i;
			break;
		}
}

int history_judge(struct history *h, const struct compare_opts *o,
                  struct history_judged *j)
{
	size_t n = h->n;
	memset(j, 0, sizeof *j);
	j->prev = xmalloc(n * sizeof *j->prev);
	j->judged = xcalloc(n, sizeof *j->judged);
	j->slower = xcalloc(n, sizeof *j->slower);
	j->faster = xcalloc(n, sizeof *j->faster);
	j->machine = xcalloc(n, sizeof *j->machine);
	j->changed = xcalloc(n, sizeof *j->changed);
	struct series_index ix = {0};
	struct bundle *prev = NULL;
	size_t pi = NONE, read = 0;
	for (size_t i = 0; i < n && !exec_stopping(); i++) {
		j->prev[i] = pi;
		struct bundle *b = history_bundle(h, i);
		if (!b)
			continue;
		read++;
		size_t **map = series_add(j, &ix, &h->e[i], b, i, n);
		if (prev) {
			char **mc = history_machine_change(h, pi, i);
			j->machine[i] = mc != NULL;
			items_free(mc);
			judge_pair(h, pi, i, prev, b, o, j, map, &j->judged[i],
			           &j->slower[i], &j->faster[i], NULL);
			j->changed[i] = bundle_changed(h, pi, i, prev, b);
		}
		map_free(map);
		bundle_free(prev);
		prev = b;
		pi = i;
	}
	bundle_free(prev);
	for (size_t s = 0; s < j->nseries; s++)
		free(ix.keys[s]);
	free(ix.keys);
	free(ix.slot);
	check_pair(h, &j->check_from, &j->check_to);
	if (j->check_from != NONE) {
		struct bundle *a = history_bundle(h, j->check_from);
		struct bundle *b = history_bundle(h, j->check_to);
		judge_pair(h, j->check_from, j->check_to, a, b, o, j, NULL,
		           &j->check_judged, &j->check_slower, NULL, &j->check_worst);
		bundle_free(a);
		bundle_free(b);
	}
	if (!read) {
		diag_at(h->dir, 0, "no recording of this bundle could be read");
		history_judged_free(j, n);
		return -1;
	}
	return 0;
}

void history_judged_free(struct history_judged *j, size_t nentries)
{
	for (size_t s = 0; s < j->nseries; s++) {
		free(j->series[s].id);
		free(j->series[s].point);
		free(j->series[s].ms);
		free(j->series[s].lo);
		free(j->series[s].hi);
	}
	free(j->series);
	for (size_t s = 0; s < j->nsteps; s++) {
		free(j->steps[s].id);
		free(j->steps[s].point);
		items_free(j->steps[s].changed);
	}
	free(j->steps);
	for (size_t i = 0; j->changed && i < nentries; i++)
		items_free(j->changed[i]);
	free(j->changed);
	free(j->prev);
	free(j->judged);
	free(j->slower);
	free(j->faster);
	free(j->machine);
	free(j->check_worst);
	memset(j, 0, sizeof *j);
}
