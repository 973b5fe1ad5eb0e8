/*
 * view.c - what the pages show of a bundle's experiments (view.h), read
 * from the bundle once, before render.
 */
#include "judge/view.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/inputs.h"
#include "base/util.h"
#include "book/expr_value.h"
#include "bundle/ptxas.h"
#include "bundle/results.h"
#include "bundle/state.h"

/* The ids the pages read: the book's experiments, what each value and
 * directive names or reads, and "machine". */
struct idlist {
	char **v;
	size_t n;
};

static void ids_add(struct idlist *l, const char *id)
{
	if (id)
		*ARRAY_PUSH(l->v, l->n) = xstrdup(id);
}

static void ids_directive(struct idlist *l, const struct directive *d)
{
	ids_add(l, d->kind == DIR_EXPERIMENT ? d->id : NULL);
	ids_add(l, dir_opt(d, "data"));
	ids_add(l, dir_opt(d, "experiment"));
	for (size_t k = 0; k < d->nopts; k++)
		if (!strcmp(d->opts[k].key, "where") ||
		    !strcmp(d->opts[k].key, "limit"))
			for (size_t i = 0; i < d->opts[k].nreads; i++)
				ids_add(l, d->opts[k].reads[i]);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What the bundle does not say of an experiment: this build's check of
 * it, and the state its results are shown in, which other experiments'
 * files and this machine decide. Whether this build ran it is not
 * shown. */
static void exper_state(const struct exper *e, enum result_state st,
                        struct hasher *h)
{
	int facts[4] = {e->state == ST_FAILED, (int)st, e->source_ok, e->cuda};
	hasher_add(h, facts, sizeof facts);
	hasher_add_str(h, e->why ? e->why : "");
	hasher_add_str(h, e->compile_cmd ? e->compile_cmd : "");
	hasher_add_str(h, e->run_cmd ? e->run_cmd : "");
	for (size_t k = 0; e->source_ok && k < (e->sources ? e->nsources : 1);
	     k++) {
		const char *src = e->sources ? e->sources[k] : e->source;
		struct stat st;
		input_note(src);
		long long t = stat(src, &st) == 0 ? (long long)st.st_mtim.tv_sec
		                                    * 1000000000LL + st.st_mtim.tv_nsec
		                                  : -1;
		hasher_add(h, &t, sizeof t);
	}
}

static void exp_view_make(const struct book *bk, struct bundle *b,
                          const char *id, struct exp_view *x)
{
	const struct exper *e = book_find(bk, id);
	memset(x, 0, sizeof *x);
	x->id = xstrdup(id);
	results_meta_load(b, id, e && e->source_ok ? e->source_key : NULL,
	                  &x->meta);
	/* This build's own words, where it failed it. */
	if (e && e->state == ST_FAILED) {
		x->meta.failed = 1;
		if (e->why || !x->meta.why) {
			free(x->meta.why);
			x->meta.why = xstrdup(e->why ? e->why : "failed");
		}
	}
	x->has_meta = bundle_get_meta(b, id)->meta != NULL;
	x->state_name = result_state_name(x->meta.state);
	x->state_class = result_state_class(x->meta.state);
	if (x->meta.state == RESULT_ELSEWHERE)
		x->where = result_state_machine(b, x->meta.host);
	x->needs = bundle_needs(b, id);
	x->outdated = bundle_outdated(b, id);
	x->count = bundle_records_count(b, id);
	struct hasher *h = hasher_new();
	hasher_add_str(h, id);
	bundle_stamp(b, id, h);
	if (e)
		exper_state(e, x->meta.state, h);
	hasher_done(h, x->digest);
}

struct bundle_view *view_make(const struct book *bk, struct bundle *b)
{
	struct idlist l = {0};
	ids_add(&l, "machine");
	for (size_t i = 0; i < bk->nexps; i++)
		ids_add(&l, bk->exps[i].id);
	for (size_t c = 0; c < bk->nchs; c++) {
		const struct chapter *ch = bk->chs[c];
		for (size_t i = 0; i < ch->nvalues; i++)
			for (size_t k = 0; k < ch->values[i].nreads; k++)
				ids_add(&l, ch->values[i].reads[k]);
		for (size_t i = 0; i < ch->ndirs; i++)
			ids_directive(&l, &ch->dirs[i]);
	}
	if (l.n)
		qsort(l.v, l.n, sizeof *l.v, cmp_str);
	struct bundle_view *v = xcalloc(1, sizeof *v);
	v->dir = xstrdup(b->dir);
	v->b = b;
	v->cc = bundle_cc(b);
	v->exps = xcalloc(l.n ? l.n : 1, sizeof *v->exps);
	for (size_t i = 0; i < l.n; i++) {
		if (!v->nexps || strcmp(v->exps[v->nexps - 1].id, l.v[i]))
			exp_view_make(bk, b, l.v[i], &v->exps[v->nexps++]);
		free(l.v[i]);
	}
	free(l.v);
	return v;
}

void view_free(struct bundle_view *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->nexps; i++) {
		free(v->exps[i].id);
		free(v->exps[i].where);
		results_meta_free(&v->exps[i].meta);
	}
	free(v->exps);
	free(v->dir);
	free(v);
}

static int cmp_view(const void *key, const void *x)
{
	return strcmp(key, ((const struct exp_view *)x)->id);
}

const struct exp_view *view_find(const struct bundle_view *v, const char *id)
{
	return v && id ? bsearch(id, v->exps, v->nexps, sizeof *v->exps, cmp_view)
	               : NULL;
}

const struct exp_result *view_records(const struct bundle_view *v,
                                      const char *id)
{
	return bundle_get(v->b, id);
}

const struct exp_result *view_ptxas(const struct bundle_view *v,
                                    const char *id)
{
	char *pid = view_ptxas_id(id);
	const struct exp_result *r = bundle_get(v->b, pid);
	free(pid);
	return r;
}

char *view_ptxas_id(const char *id)
{
	return derived_id(id, DERIVED_PTXAS);
}

char *view_records_path(const struct bundle_view *v, const char *id)
{
	return bundle_path(v->b, id, BF_RECORDS);
}

char *view_machine_path(const struct bundle_view *v)
{
	return bundle_machine_path(v->b);
}

const cJSON *view_machine(const struct bundle_view *v)
{
	return v->b->machine;
}

const char *view_machine_str(const struct bundle_view *v, const char *key)
{
	const cJSON *f = machine_field(v->b, key);
	return cJSON_IsString(f) ? f->valuestring : NULL;
}

char *view_sass(const struct bundle_view *v, const char *exp,
                const char *kernel, char **err)
{
	return view_sass_read(v->b, exp, kernel, err);
}

char *view_sass_read(struct bundle *b, const char *exp, const char *kernel,
                     char **err)
{
	char *text = bundle_listing_read(b, exp);
	if (!text) {
		*err = xasprintf("no SASS recorded for experiment '%s' (it is "
		                 "captured with cuobjdump when the experiment runs)",
		                 exp);
		return NULL;
	}
	struct buf names = BUF_INIT;
	const char *start = NULL, *end = NULL;
	for (const char *p = strstr(text, "Function : "); p;
	     p = strstr(p + 1, "Function : ")) {
		size_t n = strcspn(p + 11, "\n\r");
		char *mangled = xstrndup(p + 11, n);
		/* Listings recorded now carry the demangled name on the next line;
		 * older ones are demangled here, in-process. */
		const char *next_line = p + 11 + n + (p[11 + n] ? 1 : 0);
		next_line += strspn(next_line, " \t");
		char *name;
		if (str_starts(next_line, SASS_DEMANGLED)) {
			char *full = str_first_line(next_line + strlen(SASS_DEMANGLED));
			name = kernel_short_name(full);
			free(full);
		} else {
			name = kernel_name(str_trim(mangled));
		}
		buf_printf(&names, "%s%s", names.len ? ", " : "", name);
		if (!start && !strcmp(name, kernel)) {
			start = p + 11 + n;
			const char *next = strstr(start, "Function : ");
			const char *dots = strstr(start, "\n\t\t..........");
			end = next ? next : start + strlen(start);
			if (dots && dots < end)
				end = dots;
		}
		free(name);
		free(mangled);
	}
	char *sass = NULL;
	if (start)
		sass = xstrndup(start, (size_t)(end - start));
	else
		*err = xasprintf("experiment '%s' has no kernel '%s' in its SASS; "
		                 "it has: %s", exp, kernel,
		                 names.len ? names.data : "none");
	buf_free(&names);
	free(text);
	return sass;
}

int field_known(const struct exp_result *r, const char *field)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (cJSON_GetObjectItemCaseSensitive(r->rows[i], field))
			return 1;
	return 0;
}

char *filter_field_missing(const struct exp_result *r, const char *id,
                           const struct filter *where)
{
	for (size_t c = 0; filter_field(where, c); c++)
		if (!field_known(r, filter_field(where, c))) {
			char *why = field_others(r, filter_field(where, c));
			char *msg = xasprintf("experiment '%s' has no field '%s'; %s",
			                      id, filter_field(where, c), why);
			free(why);
			return msg;
		}
	return NULL;
}

char *field_others(const struct exp_result *r, const char *field)
{
	const char **names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *f;
		cJSON_ArrayForEach(f, r->rows[i]) {
			size_t k = 0;
			while (k < n && strcmp(names[k], f->string))
				k++;
			if (k == n)
				*ARRAY_PUSH(names, n) = f->string;
		}
	}
	struct buf b = BUF_INIT;
	const char *near = str_nearest(field, names, n);
	if (near)
		buf_printf(&b, "did you mean '%s'? Its fields: ", near);
	else
		buf_puts(&b, "its fields: ");
	for (size_t k = 0; k < n; k++)
		buf_printf(&b, "%s%s", k ? ", " : "", names[k]);
	buf_puts(&b, n ? "" : "(none)");
	free(names);
	return buf_detach(&b);
}
