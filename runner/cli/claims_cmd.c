/* claims_cmd.c - the command line of labbook claims (claims_cmd.h). */
#include "cli/claims_cmd.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/book.h"
#include "book/chapter.h"
#include "bundle/results.h"
#include "cli/root.h"
#include "cli/usage.h"
#include "judge/judge.h"
#include "judge/machine_set.h"

enum { OPT_CHAPTERS = 256, OPT_RESULTS, OPT_COMPARE, OPT_JSON, OPT_STRICT };

static const struct option claims_options[] = {
	{"chapters", required_argument, NULL, OPT_CHAPTERS},
	{"results", required_argument, NULL, OPT_RESULTS},
	{"compare", required_argument, NULL, OPT_COMPARE},
	{"json", required_argument, NULL, OPT_JSON},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static const char *verdict_word(const struct verdict *v)
{
	switch (v->kind) {
	case VERDICT_HOLDS: return "holds";
	case VERDICT_FAILS: return "fails";
	case VERDICT_NEEDS: return "not-for-card";
	case VERDICT_OUTDATED:
	case VERDICT_MISSING: return "not-measured";
	default: return "error";
	}
}

static const char *teeth_word(enum teeth_kind t)
{
	return t == TEETH_BITES ? "bites" : t == TEETH_LOOSE ? "loose"
	       : t == TEETH_CANNOT ? "cannot-fail" : "-";
}

/* Is v a judged claim (it holds or fails)? */
static int judged(const struct verdict *v)
{
	return v->kind == VERDICT_HOLDS || v->kind == VERDICT_FAILS;
}

/* The weakest teeth of claim i of chapter c over the bundles, and the
 * verdict that has them. */
static const struct verdict *weakest(const struct judged_book *jb, size_t c,
                                     size_t i)
{
	const struct verdict *w = NULL;
	for (size_t m = 0; m < jb->nbundles; m++) {
		const struct verdict *v = judge_get(jb, c, i, m);
		if (judged(v) && (!w || v->teeth > w->teeth ||
		                  (v->teeth == w->teeth && v->factor && w->factor &&
		                   v->factor > w->factor)))
			w = v;
	}
	return w;
}

/* One claim's line: where, then per bundle its verdict and margin, then
 * its teeth and what flips it, then the claim. */
static void claim_line(const struct judged_book *jb, const struct chapter *ch,
                       size_t c, size_t i, struct buf *out)
{
	const struct inline_expr *e = &ch->values[i];
	struct buf where = BUF_INIT;
	buf_printf(&where, "%s:%d", ch->path, e->line);
	buf_printf(out, "%-28s", where.data);
	for (size_t m = 0; m < jb->nbundles; m++) {
		const struct verdict *v = judge_get(jb, c, i, m);
		buf_printf(out, " %-6s", verdict_word(v));
		if (!judged(v) || isinf(v->margin))
			buf_printf(out, " %9s", judged(v) ? "exact" : "-");
		else
			buf_printf(out, " %5.1f%s", v->margin,
			           v->fragile ? " (!)" : "    ");
	}
	const struct verdict *w = weakest(jb, c, i);
	buf_printf(out, "  %-11s", w ? teeth_word(w->teeth) : "-");
	buf_puts(out, "  ");
	buf_puts_term(out, e->text);
	if (w && w->flip) {
		buf_puts(out, "\n      flips when ");
		buf_puts_term(out, w->flip);
	}
	buf_putc(out, '\n');
	buf_free(&where);
}

static cJSON *claim_json(const struct judged_book *jb, struct bundle **bs,
                         const struct chapter *ch, size_t c, size_t i)
{
	const struct inline_expr *e = &ch->values[i];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", ch->path);
	cJSON_AddNumberToObject(o, "line", e->line);
	cJSON_AddStringToObject(o, "claim", e->text);
	if (e->label)
		cJSON_AddStringToObject(o, "label", e->label);
	const struct verdict *w = weakest(jb, c, i);
	cJSON_AddBoolToObject(o, "static", w && w->is_static);
	cJSON_AddStringToObject(o, "teeth", w ? teeth_word(w->teeth) : "none");
	cJSON *per = cJSON_AddArrayToObject(o, "bundles");
	for (size_t m = 0; m < jb->nbundles; m++) {
		const struct verdict *v = judge_get(jb, c, i, m);
		cJSON *b = cJSON_CreateObject();
		cJSON_AddStringToObject(b, "bundle", bs[m]->dir);
		cJSON_AddStringToObject(b, "verdict", verdict_word(v));
		if (judged(v)) {
			if (isinf(v->margin))
				cJSON_AddNullToObject(b, "margin");
			else
				cJSON_AddNumberToObject(b, "margin", v->margin);
			cJSON_AddBoolToObject(b, "fragile", v->fragile);
			cJSON_AddStringToObject(b, "teeth", teeth_word(v->teeth));
			if (v->factor)
				cJSON_AddNumberToObject(b, "factor", v->factor);
			else
				cJSON_AddNullToObject(b, "factor");
			if (v->flip)
				cJSON_AddStringToObject(b, "flips_when", v->flip);
		} else if (v->why) {
			cJSON_AddStringToObject(b, "why", v->why);
		}
		cJSON_AddItemToArray(per, b);
	}
	return o;
}

/* Print every claim of bk (hardware claims, then static checks) and the
 * counts; 1 when some claim is not sound on some bundle, else 0. */
static int claims_print(const struct book *bk, const struct judged_book *jb,
                        struct bundle **bs, const char *json)
{
	struct buf out = BUF_INIT;
	size_t n[2] = {0, 0}, fails = 0, fragile = 0, loose = 0, cannot = 0;
	cJSON *doc = json ? cJSON_CreateArray() : NULL;
	for (int st = 0; st < 2; st++) {
		for (size_t c = 0; c < bk->nchs; c++)
			for (size_t i = 0; i < bk->chs[c]->nvalues; i++) {
				if (!bk->chs[c]->values[i].check)
					continue;
				const struct verdict *w = weakest(jb, c, i);
				if ((w && w->is_static) != st)
					continue;
				if (!n[st]++)
					buf_puts(&out, st ? "\nstatic checks (compiler output):\n"
					                  : "");
				claim_line(jb, bk->chs[c], c, i, &out);
				if (doc)
					cJSON_AddItemToArray(doc, claim_json(jb, bs, bk->chs[c],
					                                     c, i));
				int f = 0, fr = 0;
				for (size_t m = 0; m < jb->nbundles; m++) {
					f |= judge_get(jb, c, i, m)->kind == VERDICT_FAILS;
					fr |= judge_get(jb, c, i, m)->fragile;
				}
				fails += f;
				fragile += fr;
				loose += w && w->teeth == TEETH_LOOSE;
				cannot += w && w->teeth == TEETH_CANNOT;
			}
	}
	buf_printf(&out, "\n%zu claims and %zu static checks: %zu do not hold, "
	           "%zu fragile (fewer than %.0f noise bands from flipping), %zu "
	           "loose (only a change of %.0fx flips them), %zu cannot fail\n",
	           n[0], n[1], fails, fragile, JUDGE_FRAGILE, loose, JUDGE_LOOSE,
	           cannot);
	fputs(out.data ? out.data : "", json && !strcmp(json, "-") ? stderr : stdout);
	buf_free(&out);
	int rc = fails || fragile || cannot;
	if (doc && json_write_out(doc, json, "--json") != 0)
		rc = -1;
	cJSON_Delete(doc);
	return rc;
}

int claims_main(int argc, char **argv)
{
	const char *chapters = "chapters", *results = "results/local";
	const char *root = NULL, *json = NULL;
	const char **compare = NULL;
	size_t ncompare = 0;
	int c, chapters_given = 0, strict = 0, rc = 2;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":C:h", claims_options, NULL)) != -1) {
		switch (c) {
		case 'C': root = optarg; break;
		case OPT_CHAPTERS: chapters = optarg; chapters_given = 1; break;
		case OPT_RESULTS: results = optarg; break;
		case OPT_COMPARE: *ARRAY_PUSH(compare, ncompare) = optarg; break;
		case OPT_JSON: json = optarg; break;
		case OPT_STRICT: strict = 1; break;
		case 'h':
			fputs(usage_claims, stdout);
			rc = 0;
			goto out;
		default:
			usage_fail_getopt("claims ", c, argv);
			goto out;
		}
	}
	if (optind < argc) {
		usage_fail("claims ", "claims takes no arguments, only options; "
		           "found '%s'", argv[optind]);
		goto out;
	}
	rc = 1;
	if (root_enter(root, chapters, chapters_given) != 0)
		goto out;
	struct book bk;
	if (book_load(chapters, &bk) != 0)
		goto out;
	struct bundle *b = bundle_open(results);
	if (!b->machine)
		diag("%s holds no results bundle (no machine.json); name one: "
		     "labbook claims --results results/h200", results);
	book_mark_needs(&bk, b);
	struct machine_set ms;
	machines_open(&bk, b, compare, ncompare, &ms);
	struct judged_book jb;
	judge_with_repeats(&bk, ms.b, ms.n, NULL, &jb);
	int unsound = b->machine ? claims_print(&bk, &jb, ms.b, json) : 0;
	rc = diag_count() || unsound < 0 || (strict && unsound) ? 1 : 0;
	judge_free(&jb);
	machines_free(&ms);
	book_free(&bk);
	bundle_free(b);
out:
	free(compare);
	return rc;
}
