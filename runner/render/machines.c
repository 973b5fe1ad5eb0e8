/*
 * machines.c - the set of machines (the bundles a site is rendered from
 * and compared with, each named by its folder) and their claims: whether
 * each {{check}} of the book holds on each machine, and the check of every
 * build. The Machines page is machines_page.c's, the overlaid charts
 * machines_chart.c's.
 */
#include "render/machines.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "book/expr.h"
#include "base/util.h"
#include "bundle/ccfacts.h"

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
	}
	free(ms->b);
	free(ms->names);
	free(ms->repeat);
	memset(ms, 0, sizeof *ms);
}

/* Has bundle b any results of experiment id? */
int machines_measured(struct bundle *b, const char *id)
{
	if (bundle_outdated(b, id))
		return 0;
	struct exp_result *r = bundle_get(b, id);
	return r->nrows || r->meta;
}

enum compare_pair machines_judge(struct machine_set *ms, size_t m,
                                 const char *id, size_t k,
                                 struct compare_point *p)
{
	struct compare_opts o = COMPARE_OPTS_INIT;
	memset(p, 0, sizeof *p);
	if (!machines_measured(ms->b[0], id) || !machines_measured(ms->b[m], id) ||
	    !compare_same_source(ms->b[0], ms->b[m], id))
		return COMPARE_UNMATCHED;
	o.repeat = ms->repeat[m];
	return compare_point_judge(ms->b[0], ms->b[m], id, k, &o, p);
}

/* ---- claims ------------------------------------------------------------------- */

/*
 * The first experiment that text names ("ilp" in "max(ilp.gflops)") and b
 * lacks, or "machine" when b has no machine.json; NULL when none. Caller
 * frees.
 */
static char *claim_missing(const char *text, struct bundle *b)
{
	const char *p = text;
	while (*p) {
		if (*p == '"' || *p == '\'') {
			const char *q = strchr(p + 1, *p);
			p = q ? q + 1 : p + strlen(p);
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (*p != '.')
				continue;
			char *id = xstrndup(s, (size_t)(p - s));
			if (strcmp(id, "machine") ? !machines_measured(b, id)
			                          : !b->machine)
				return id;
			free(id);
		} else if (isdigit((unsigned char)*p)) {
			while (isalnum((unsigned char)*p) || *p == '.')
				p++;
		} else {
			p++;
		}
	}
	return NULL;
}

/* Does claim e hold on b? *why gets a message for the other states. */
enum claim_state machines_claim_eval(const struct inline_expr *e,
                                     struct bundle *b, char **why)
{
	struct value v;
	char *err = NULL;
	enum claim_state st = CLAIM_UNKNOWN;
	struct eval_facts f;
	/* A claim about cards this one is not. */
	if (e->need_cc > 0 && !cc_meets(bundle_cc(b), e->need_cc)) {
		char w[48];
		*why = xasprintf("needs compute capability %s",
		                 cc_need_words(e->need_cc, w, sizeof w));
		return CLAIM_MISSING;
	}
	int rc = expr_eval_at(e->text, b, &v, &err, &f);
	if (rc != 0 && f.need_cc) {
		*why = err;
		return CLAIM_MISSING;
	}
	value_free(&v);
	/* An experiment it reads is not there, or is of another source. */
	if ((*why = claim_missing(e->text, b))) {
		free(err);
		return CLAIM_MISSING;
	}
	free(err);
	err = NULL;
	if (expr_eval(e->text, b, &v, &err) == 0 && value_scalar(&v, &err) == 0 &&
	    v.type != VAL_STR)
		st = v.num != 0 ? CLAIM_HOLDS : CLAIM_FAILS;
	value_free(&v);
	if (st == CLAIM_UNKNOWN)
		*why = err ? err : xstrdup("a claim must be true or false");
	if (*why != err)
		free(err);
	return st;
}

int machines_claims_check(const struct book *bk, struct machine_set *ms,
                          int strict)
{
	int nfail = 0;
	struct buf on = BUF_INIT;
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		for (size_t k = 0; k < ch->nvalues; k++) {
			const struct inline_expr *e = &ch->values[k];
			if (!e->check)
				continue;
			buf_reset(&on);
			for (size_t m = 0; m < ms->n; m++) {
				char *why = NULL;
				if (machines_claim_eval(e, ms->b[m], &why) == CLAIM_FAILS)
					buf_printf(&on, "%s%s", on.len ? ", " : "",
					           ms->b[m]->dir);
				free(why);
			}
			if (!on.len)
				continue;
			nfail++;
			if (strict)
				diag_at(ch->path, e->line, "claim does not hold on %s: %s",
				        on.data, e->text);
			else
				warn_at(ch->path, e->line, "claim does not hold on %s: %s",
				        on.data, e->text);
		}
	}
	buf_free(&on);
	return nfail;
}
