/*
 * judge.c - every value and claim of a book evaluated once on each bundle,
 * and what a build is told of them (judge.h).
 */
#include "judge/judge.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/store.h"
#include "base/util.h"
#include "book/chapter.h"
#include "book/expr.h"
#include "book/expr_tree.h"
#include "book/format.h"
#include "base/ccfacts.h"
#include "bundle/compare.h"

/* The first experiment tree x reads that b has no results of (of its
 * current source), or "machine" when it reads machine.json and b has
 * none; NULL when none. Borrowed from x. */
static const char *judge_missing(const struct expr *x, struct bundle *b)
{
	if (x->kind == EX_MACHINE && !b->machine)
		return "machine";
	if (x->kind == EX_REF) {
		struct exp_result *r = bundle_get(b, x->str);
		if (bundle_outdated(b, x->str) || (!r->nrows && !r->meta))
			return x->str;
	}
	for (size_t i = 0; i < x->nkids; i++) {
		const char *id = judge_missing(x->kids[i], b);
		if (id)
			return id;
	}
	for (size_t i = 0; i < x->nconds; i++) {
		const char *id = judge_missing(x->conds[i].rhs, b);
		if (id)
			return id;
	}
	return NULL;
}

/* v: what needs compute capability cc (-1: one none has). */
static void judge_needs(struct verdict *v, int cc)
{
	char w[48];
	v->kind = VERDICT_NEEDS;
	v->need_cc = cc;
	v->why = cc > 0 ? xasprintf("needs compute capability %s",
	                            cc_need_words(cc, w, sizeof w))
	                : xstrdup("not on this card");
}

/* What one bundle's values are judged with: the records references
 * selected so far, and a digest of each experiment's files, in the
 * bundle and its repeat, and of its state there. */
struct judge_bundle {
	struct bundle *b;
	struct bundle *repeat;
	struct eval_memo memo;
	struct id_digest {
		char *id;
		char digest[33];
	} *ids;
	size_t nids;
};

/* Add to h the digest of experiment id in jbd. */
static void judge_id(struct judge_bundle *jbd, const char *id, struct hasher *h)
{
	size_t i = 0;
	while (i < jbd->nids && strcmp(jbd->ids[i].id, id))
		i++;
	if (i == jbd->nids) {
		struct id_digest *d = ARRAY_PUSH(jbd->ids, jbd->nids);
		struct hasher *g = hasher_new();
		int facts[2] = {bundle_outdated(jbd->b, id), bundle_needs(jbd->b, id)};
		d->id = xstrdup(id);
		hasher_add_str(g, id);
		hasher_add(g, facts, sizeof facts);
		bundle_stamp(jbd->b, id, g);
		if (jbd->repeat)
			bundle_stamp(jbd->repeat, id, g);
		hasher_done(g, d->digest);
	}
	hasher_add_str(h, jbd->ids[i].digest);
}

/* The key of value e's verdict on jbd's bundle: e as written, and the
 * files of everything it reads. */
static void verdict_key(const struct inline_expr *e, struct judge_bundle *jbd,
                        int base, char out[33])
{
	struct hasher *h = hasher_new();
	int facts[5] = {e->check, e->need_cc, base, bundle_cc(jbd->b),
	                jbd->repeat != NULL};
	hasher_add_self(h);
	hasher_add_str(h, "verdict");
	hasher_add_str(h, e->text);
	hasher_add_str(h, e->fmt ? e->fmt : "");
	hasher_add(h, facts, sizeof facts);
	hasher_add_str(h, jbd->repeat ? jbd->repeat->dir : "");
	for (size_t i = 0; i < e->nreads; i++)
		judge_id(jbd, e->reads[i], h);
	hasher_done(h, out);
}

static void json_str(cJSON *o, const char *name, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, name, s);
}

static char *json_take(const cJSON *o, const char *name)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, name));
	return s ? xstrdup(s) : NULL;
}

static double json_num(const cJSON *o, const char *name)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(n) ? n->valuedouble : 0;
}

/* Keep verdict v under key. */
static void verdict_put(struct store *store, const char *key,
                        const struct verdict *v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "kind", v->kind);
	json_str(o, "text", v->text);
	json_str(o, "why", v->why);
	cJSON_AddNumberToObject(o, "need_cc", v->need_cc);
	json_str(o, "partial", v->partial_id);
	cJSON_AddNumberToObject(o, "teeth", v->teeth);
	cJSON_AddNumberToObject(o, "factor", v->factor);
	cJSON_AddNumberToObject(o, "margin", isinf(v->margin) ? -1 : v->margin);
	cJSON_AddNumberToObject(o, "fragile", v->fragile);
	cJSON_AddNumberToObject(o, "static", v->is_static);
	json_str(o, "flip", v->flip);
	store_put_json(store, key, o);
}

/* The verdict kept under key into v: 1, or 0 when there is none. */
static int verdict_get(struct store *store, const char *key, struct bundle *b,
                       struct verdict *v)
{
	size_t len;
	const char *kept = store_get(store, key, &len);
	cJSON *o = kept ? cJSON_ParseWithLength(kept, len) : NULL;
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return 0;
	}
	v->kind = (enum verdict_kind)json_num(o, "kind");
	v->text = json_take(o, "text");
	v->why = json_take(o, "why");
	v->need_cc = (int)json_num(o, "need_cc");
	const char *pid = cJSON_GetStringValue(cJSON_GetObjectItem(o, "partial"));
	if (pid) {
		struct exp_result *r = bundle_get(b, pid);
		v->partial = r->error;
		v->partial_id = r->id;
	}
	v->teeth = (enum teeth_kind)json_num(o, "teeth");
	v->factor = json_num(o, "factor");
	v->margin = json_num(o, "margin");
	if (v->margin < 0)
		v->margin = INFINITY;
	v->fragile = (int)json_num(o, "fragile");
	v->is_static = (int)json_num(o, "static");
	v->flip = json_take(o, "flip");
	cJSON_Delete(o);
	return v->kind <= VERDICT_REF;
}

/* Value e on jbd's bundle (the base when base) into *v. */
static void judge_eval(const struct chapter *ch, const struct inline_expr *e,
                       struct judge_bundle *jbd, int base,
                       struct judged_book *jb, struct verdict *v)
{
	struct bundle *b = jbd->b;
	struct eval_facts f = {0};
	f.memo = &jbd->memo;
	char *err = NULL;
	if (!e->tree || e->need_cc < 0) {
		/* Reported where the chapter was read: the page shows the same
		 * error, never a value or a claim's mark. */
		v->kind = VERDICT_ERROR;
		v->why = xstrdup(e->parse_err ? e->parse_err
		                 : e->need_cc < 0 ? "'requires' names no compute "
		                                    "capability"
		                                  : "empty '{{ }}'");
		return;
	}
	if (e->need_cc > 0 && !cc_meets(bundle_cc(b), e->need_cc)) {
		judge_needs(v, e->need_cc);
		return;
	}
	jb->evaluated++;
	int rc = expr_eval_tree(e->tree, b, &v->v, &err, &f);
	if (rc != 0 && f.need_cc) {
		judge_needs(v, f.need_cc);
		free(err);
		return;
	}
	if (rc == 0 && e->check &&
	    (value_scalar(&v->v, &err) != 0 || v->v.type == VAL_STR)) {
		if (!err)
			err = xstrdup("a claim must be true or false");
		rc = -1;
	}
	v->partial = f.partial;
	v->partial_id = f.partial_id;
	/* Another machine is judged only on results of the current sources. */
	const char *gone = base ? NULL : judge_missing(e->tree, b);
	if (gone && rc == 0) {
		value_free(&v->v);
		v->kind = VERDICT_MISSING;
		v->why = xasprintf("%s is not measured on this machine", gone);
		free(err);
		return;
	}
	if (rc != 0) {
		value_free(&v->v);
		const char *id = gone;
		v->kind = f.outdated ? VERDICT_OUTDATED
		          : id       ? VERDICT_MISSING
		                     : VERDICT_ERROR;
		v->why = id ? xasprintf("%s is not measured on this machine", id)
		            : err;
		if (id)
			free(err);
		if (base && v->kind == VERDICT_ERROR)
			diag_at(ch->path, e->line, "{{ %s }}: %s",
			            e->text, v->why);
		return;
	}
	if (!e->check) {
		struct buf t = BUF_INIT;
		if (value_format(&v->v, e->fmt, 0, &t, &err) != 0) {
			buf_free(&t);
			value_free(&v->v);
			v->kind = VERDICT_ERROR;
			v->why = err;
			if (base)
				diag_at(ch->path, e->line, "{{ %s }}: %s",
				            e->text, v->why);
			return;
		}
		v->kind = VERDICT_VALUE;
		v->text = buf_detach(&t);
		return;
	}
	v->kind = v->v.num != 0 ? VERDICT_HOLDS : VERDICT_FAILS;
	judge_teeth(e->tree, v->kind == VERDICT_HOLDS, b, jbd->repeat, v,
	            &jb->perturbed);
}

/* Value e on jbd's bundle into *v: kept in store (NULL: none) under the
 * key of what it reads, or judged and kept. A problem of the base's is
 * reported either way. */
static void judge_value(const struct chapter *ch, const struct inline_expr *e,
                        struct judge_bundle *jbd, int base,
                        struct store *store, struct judged_book *jb,
                        struct verdict *v)
{
	char key[33];
	memset(v, 0, sizeof *v);
	if (e->ref) {
		v->kind = VERDICT_REF;
		return;
	}
	if (e->tree && store) {
		verdict_key(e, jbd, base, key);
		if (verdict_get(store, key, jbd->b, v)) {
			jb->kept++;
			if (base && v->kind == VERDICT_ERROR)
				diag_at(ch->path, e->line, "{{ %s }}: %s", e->text, v->why);
			return;
		}
		free(v->text);
		free(v->why);
		free(v->flip);
		memset(v, 0, sizeof *v);
	}
	judge_eval(ch, e, jbd, base, jb, v);
	if (e->tree && store)
		verdict_put(store, key, v);
}

/* Option o (with a tree) of directive d of chapter ch on b into *jo;
 * a problem is reported when base and d's data is measured on b. */
static void judge_opt(const struct chapter *ch, const struct directive *d,
                      const struct dir_opt *o, struct bundle *b, int base,
                      struct judged_book *jb, struct judged_opt *jo)
{
	struct eval_facts f = {0};
	struct value v = {0};
	char *err = NULL;
	jb->evaluated++;
	if (!strcmp(o->key, "where")) {
		jo->ok = conds_eval(o->tree, b, &jo->where, &err) == 0;
	} else {
		int rc = expr_eval_tree(o->tree, b, &v, &err, &f);
		if (rc != 0 && f.need_cc)
			jo->need_cc = f.need_cc;
		else if (rc == 0 && (rc = value_scalar(&v, &err)) == 0 &&
		         v.type != VAL_NUM) {
			rc = -1;
			err = xstrdup("not a number");
		}
		jo->ok = rc == 0;
		jo->num = v.num;
		jo->outdated = f.outdated;
		value_free(&v);
	}
	if (jo->ok)
		return;
	jo->why = err ? err : xstrdup("no value");
	const char *data = dir_opt(d, "data");
	struct exp_result *r = data ? bundle_get(b, data) : NULL;
	if (!base || jo->need_cc || !r || !r->nrows || bundle_outdated(b, data))
		return;
	if (d->kind == DIR_CHART)
		diag_at(ch->path, o->line, "chart '%s': %s: %s", d->id, o->key,
		        jo->why);
	else
		diag_at(ch->path, o->line, "table: %s: %s", o->key, jo->why);
}

/* The options of ch's directives on each bundle into jc. */
static void judge_dirs(const struct chapter *ch, struct bundle *const *bs,
                       size_t nb, struct judged_book *jb,
                       struct judged_chapter *jc)
{
	jc->dir_first = xcalloc(ch->ndirs + 1, sizeof *jc->dir_first);
	for (size_t di = 0; di < ch->ndirs; di++) {
		jc->dir_first[di] = jc->nopts;
		jc->nopts += ch->dirs[di].nopts;
	}
	jc->opts = xcalloc(nb * jc->nopts + 1, sizeof *jc->opts);
	for (size_t m = 0; m < nb; m++)
		for (size_t di = 0; di < ch->ndirs; di++) {
			const struct directive *d = &ch->dirs[di];
			if (d->error)
				continue;
			for (size_t i = 0; i < d->nopts; i++)
				jb->parsed += m == 0 && d->opts[i].tree;
			for (size_t i = 0; i < d->nopts; i++)
				if (d->opts[i].tree)
					judge_opt(ch, d, &d->opts[i], bs[m], m == 0, jb,
					          &jc->opts[m * jc->nopts + jc->dir_first[di] + i]);
		}
}

const struct judged_opt *judge_opts(const struct judged_book *jb, size_t c,
                                    size_t di, size_t m)
{
	const struct judged_chapter *jc = &jb->chs[c];
	return &jc->opts[m * jc->nopts + jc->dir_first[di]];
}

/* jb->digest: the hash of every verdict as a page shows it. */
static void judge_digest(struct judged_book *jb)
{
	struct hasher *h = hasher_new();
	for (size_t c = 0; c < jb->nchs; c++) {
		const struct judged_chapter *jc = &jb->chs[c];
		for (size_t k = 0; k < jb->nbundles * jc->nvalues; k++) {
			const struct verdict *v = &jc->v[k];
			int facts[5] = {(int)v->kind, (int)v->teeth, v->fragile,
			                v->is_static, v->need_cc};
			double nums[2] = {v->factor, isinf(v->margin) ? -1 : v->margin};
			hasher_add(h, facts, sizeof facts);
			hasher_add(h, nums, sizeof nums);
			hasher_add_str(h, v->text ? v->text : "");
			hasher_add_str(h, v->why ? v->why : "");
			hasher_add_str(h, v->flip ? v->flip : "");
		}
	}
	hasher_done(h, jb->digest);
}

void judge_book(const struct book *bk, struct bundle *const *bs,
                struct bundle *const *repeats, size_t nb, struct store *store,
                struct judged_book *jb)
{
	memset(jb, 0, sizeof *jb);
	jb->nchs = bk->nchs;
	jb->nbundles = nb;
	jb->chs = xcalloc(bk->nchs ? bk->nchs : 1, sizeof *jb->chs);
	struct judge_bundle *jbd = xcalloc(nb, sizeof *jbd);
	for (size_t m = 0; m < nb; m++) {
		jbd[m].b = bs[m];
		jbd[m].repeat = repeats ? repeats[m] : NULL;
	}
	if (nb > 1)
		judge_facts(jb, bs, nb);
	for (size_t c = 0; c < bk->nchs; c++) {
		const struct chapter *ch = bk->chs[c];
		struct judged_chapter *jc = &jb->chs[c];
		jc->nvalues = ch->nvalues;
		jc->v = xcalloc(nb * ch->nvalues + 1, sizeof *jc->v);
		for (size_t i = 0; i < ch->nvalues; i++)
			jb->parsed += ch->values[i].tree != NULL;
		judge_dirs(ch, bs, nb, jb, jc);
		for (size_t m = 0; m < nb; m++)
			for (size_t i = 0; i < ch->nvalues; i++)
				judge_value(ch, &ch->values[i], &jbd[m], m == 0, store,
				            jb, &jc->v[m * ch->nvalues + i]);
	}
	judge_digest(jb);
	for (size_t m = 0; m < nb; m++) {
		eval_memo_free(&jbd[m].memo);
		for (size_t i = 0; i < jbd[m].nids; i++)
			free(jbd[m].ids[i].id);
		free(jbd[m].ids);
	}
	free(jbd);
}

void judge_with_repeats(const struct book *bk, struct bundle *const *bs,
                        size_t nb, struct store *store, struct judged_book *jb)
{
	struct bundle **rep = xcalloc(nb ? nb : 1, sizeof *rep);
	for (size_t m = 0; m < nb; m++)
		if (compare_repeat_open(bs[m]->dir, "", NULL, &rep[m]) != 0)
			rep[m] = NULL;
	judge_book(bk, bs, rep, nb, store, jb);
	for (size_t m = 0; m < nb; m++)
		bundle_free(rep[m]);
	free(rep);
}

const struct verdict *judge_get(const struct judged_book *jb, size_t c,
                                size_t i, size_t m)
{
	const struct judged_chapter *jc = &jb->chs[c];
	return &jc->v[m * jc->nvalues + i];
}

int judge_doubted(const struct judged_book *jb, const struct chapter *ch,
                  size_t c, size_t m)
{
	int n = 0;
	for (size_t k = 0; k < ch->nvalues; k++) {
		const struct verdict *v = judge_get(jb, c, k, m);
		n += ch->values[k].check &&
		     (v->kind == VERDICT_HOLDS || v->kind == VERDICT_FAILS) &&
		     (v->fragile || v->teeth == TEETH_CANNOT);
	}
	return n;
}

void judge_free(struct judged_book *jb)
{
	for (size_t c = 0; c < jb->nchs; c++) {
		struct judged_chapter *jc = &jb->chs[c];
		for (size_t k = 0; k < jb->nbundles * jc->nvalues; k++) {
			value_free(&jc->v[k].v);
			free(jc->v[k].why);
			free(jc->v[k].text);
			free(jc->v[k].flip);
		}
		free(jc->v);
		for (size_t k = 0; k < jb->nbundles * jc->nopts; k++) {
			filter_free(&jc->opts[k].where);
			free(jc->opts[k].why);
		}
		free(jc->opts);
		free(jc->dir_first);
		for (size_t k = 0; jc->checks && k < jb->nbundles * jc->ndirs; k++) {
			free(jc->checks[k].why);
			free(jc->checks[k].partial);
		}
		free(jc->checks);
		for (size_t k = 0; jc->ex_why && k < jc->nexercises; k++)
			free(jc->ex_why[k]);
		free(jc->ex_why);
	}
	free(jb->chs);
	for (size_t k = 0; k < jb->nbundles * jb->nfacts; k++)
		free(jb->facts[k]);
	free(jb->facts);
	memset(jb, 0, sizeof *jb);
}

/* Report at e's line: an error under strict, else a warning. */
static void judge_say(const struct chapter *ch, const struct inline_expr *e,
                      int strict, const char *msg)
{
	if (strict)
		diag_at(ch->path, e->line, "%s", msg);
	else
		warn_at(ch->path, e->line, "%s", msg);
}

int judge_report(const struct judged_book *jb, const struct book *bk,
                 struct bundle *const *bs, int strict)
{
	int nfail = 0;
	struct buf on = BUF_INIT, frag = BUF_INIT, msg = BUF_INIT;
	for (size_t c = 0; c < jb->nchs; c++) {
		const struct chapter *ch = bk->chs[c];
		for (size_t i = 0; i < ch->nvalues; i++) {
			const struct inline_expr *e = &ch->values[i];
			if (!e->check)
				continue;
			buf_reset(&on);
			buf_reset(&frag);
			const struct verdict *cannot = NULL, *weak = NULL;
			for (size_t m = 0; m < jb->nbundles; m++) {
				const struct verdict *v = judge_get(jb, c, i, m);
				if (v->kind == VERDICT_FAILS)
					buf_printf(&on, "%s%s", on.len ? ", " : "", bs[m]->dir);
				if (v->kind != VERDICT_HOLDS && v->kind != VERDICT_FAILS)
					continue;
				if (v->teeth == TEETH_CANNOT && !cannot)
					cannot = v;
				if (v->fragile) {
					buf_printf(&frag, "%s%s", frag.len ? ", " : "",
					           bs[m]->dir);
					if (!weak || v->margin < weak->margin)
						weak = v;
				}
			}
			if (on.len) {
				nfail++;
				buf_reset(&msg);
				buf_printf(&msg, "claim does not hold on %s: %s", on.data,
				           e->text);
				judge_say(ch, e, strict, msg.data);
			}
			if (cannot) {
				buf_reset(&msg);
				buf_printf(&msg, "claim cannot fail: no change of the data "
				           "it reads (each experiment's and each record's "
				           "fields x1/8 to x8) flips it: %s", e->text);
				judge_say(ch, e, strict, msg.data);
			}
			if (weak) {
				buf_reset(&msg);
				buf_printf(&msg, "claim is fragile on %s: %s flips it, "
				           "%.1f noise bands away (fewer than %.0f): %s",
				           frag.data, weak->flip ? weak->flip : "a change",
				           weak->margin, JUDGE_FRAGILE, e->text);
				judge_say(ch, e, strict, msg.data);
			}
		}
	}
	buf_free(&on);
	buf_free(&frag);
	buf_free(&msg);
	return nfail;
}
