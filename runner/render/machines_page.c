/*
 * machines_page.c - the Machines page (machines.html): the facts of each
 * machine, each experiment's speed against the base, and the claims matrix.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "book/format.h"
#include "judge/judge.h"
#include "judge/view.h"
#include "render/machines.h"
#include "base/util.h"

static void table_open(struct buf *out, const char *label)
{
	buf_puts(out, "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" "
	              "aria-label=\"");
	buf_puts_html(out, label);
	buf_puts(out, "\">");
}

/* A fold: what it holds is one click away; summary is HTML. */
static void fold_open(struct buf *out, const char *id, const char *summary)
{
	buf_puts(out, "<details class=\"fold\"");
	if (id)
		buf_printf(out, " id=\"%s\"", id);
	buf_printf(out, "><summary>%s</summary>\n", summary);
}

/* The header row: a first column, then one per machine. */
static void head_row(struct buf *out, struct machine_set *ms, const char *first)
{
	buf_puts(out, "<thead><tr><th scope=\"col\">");
	buf_puts_html(out, first);
	buf_puts(out, "</th>");
	for (size_t m = 0; m < ms->n; m++) {
		buf_puts(out, "<th scope=\"col\">");
		buf_puts_html(out, ms->names[m]);
		buf_puts(out, m ? "" : " (base)");
		buf_puts(out, "</th>");
	}
	buf_puts(out, "</tr></thead><tbody>\n");
}

static int claims_holding(const struct book *bk, const struct machine_set *ms,
                          size_t m, int *total, int *missing, int *fragile)
{
	int holds = 0;
	*total = *missing = *fragile = 0;
	for (size_t i = 0; i < bk->nchs; i++)
		for (size_t k = 0; k < bk->chs[i]->nvalues; k++) {
			const struct inline_expr *e = &bk->chs[i]->values[k];
			const char *why;
			if (!e->check)
				continue;
			(*total)++;
			enum claim_state st = machines_claim(ms, i, k, m, &why);
			holds += st == CLAIM_HOLDS;
			*missing += st == CLAIM_MISSING;
			*fragile += judge_get(ms->jb, i, k, m)->fragile;
		}
	return holds;
}

static void facts_table(const struct book *bk, struct machine_set *ms,
                        struct buf *out)
{
	table_open(out, "facts per machine");
	buf_puts(out, "<table class=\"records machines\">");
	head_row(out, ms, "fact");
	struct buf row = BUF_INIT;
	for (size_t i = 0; i < ms->jb->nfacts; i++) {
		int any = 0;
		buf_reset(&row);
		buf_puts(&row, "<tr><th scope=\"row\">");
		buf_puts_html(&row, judge_fact_label(i));
		buf_puts(&row, "</th>");
		for (size_t m = 0; m < ms->n; m++) {
			const char *text = ms->jb->facts[m * ms->jb->nfacts + i];
			buf_puts(&row, "<td>");
			buf_puts_html(&row, text ? text : "—");
			any |= text != NULL;
			buf_puts(&row, "</td>");
		}
		if (any)
			buf_printf(out, "%s</tr>\n", row.data);
	}
	buf_free(&row);
	int *fragile = xcalloc(ms->n, sizeof *fragile);
	buf_puts(out, "<tr><th scope=\"row\">claims that hold</th>");
	for (size_t m = 0; m < ms->n; m++) {
		int total, missing;
		int holds = claims_holding(bk, ms, m, &total, &missing, &fragile[m]);
		buf_printf(out, "<td>%d of %d", holds, total);
		if (missing)
			buf_printf(out, " (%d not measured or not for this card)",
			           missing);
		buf_puts(out, "</td>");
	}
	buf_puts(out, "</tr>\n<tr><th scope=\"row\">claims within 3 noise bands "
	              "of flipping</th>");
	for (size_t m = 0; m < ms->n; m++)
		buf_printf(out, "<td>%d</td>", fragile[m]);
	free(fragile);
	buf_puts(out, "</tr>\n</tbody></table></div>\n");
}

/* The q-quantile of n sorted values, linearly interpolated. */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;
	return i + 1 < n ? v[i] + (pos - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* At most this many points judged different are listed per machine;
 * labbook compare lists them all. */
#define BEYOND_MAX_ROWS 400

/* "+12.50%" of a relative difference, with a true minus sign. */
static void percent_put(struct buf *out, double rel, int sign)
{
	double pc = rel * 100;
	if (sign && pc < 0)
		buf_printf(out, "−%.2f%%", -pc);
	else
		buf_printf(out, sign ? "%+.2f%%" : "%.2f%%", pc);
}

/*
 * The verdicts on experiment id, machine m against the base, as labbook
 * compare gives them: count[v] per compare_verdict. Each point judged
 * slower or faster is appended to rows as a row of the list, while
 * *nrows (counted either way) is under BEYOND_MAX_ROWS; the first of the
 * experiment's rows gets the id beyond-M-ID.
 */
static void verdicts(struct machine_set *ms, size_t m, const char *id,
                     size_t count[4], struct buf *rows, size_t *nrows)
{
	size_t npoints = view_records(ms->views[0], id)->nrows;
	int first = 1;
	for (size_t k = 0; k < npoints; k++) {
		struct compare_point p;
		if (machines_judge(ms, m, id, k, &p) != COMPARE_JUDGED)
			continue;
		count[p.verdict]++;
		if (p.verdict != COMPARE_SLOWER && p.verdict != COMPARE_FASTER)
			continue;
		if (!rows || (*nrows)++ >= BEYOND_MAX_ROWS)
			continue;
		char *params = machines_point(ms, id, k);
		buf_puts(rows, "<tr");
		if (first)
			buf_printf(rows, " id=\"beyond-%zu-%s\"", m, id);
		first = 0;
		buf_printf(rows, "><th scope=\"row\">%s</th><td class=\"point\">"
		           "<code>", id);
		buf_puts_html(rows, params);
		buf_printf(rows, "</code></td><td><span class=\"verdict %s\">%s</span>"
		           "</td><td class=\"num\">", compare_verdict_name(p.verdict),
		           p.verdict == COMPARE_SLOWER
		               ? "<span aria-hidden=\"true\">▲</span> slower"
		               : "<span aria-hidden=\"true\">▼</span> faster");
		percent_put(rows, p.diff, 1);
		buf_puts(rows, "</td><td class=\"num\">±");
		percent_put(rows, p.band, 0);
		buf_puts(rows, "</td><td class=\"num\">");
		percent_put(rows, p.noise, 0);
		buf_printf(rows, "</td><td class=\"num\">%.4f</td><td class=\"num\">"
		           "%.4f</td></tr>\n", p.a_ms, p.b_ms);
		free(params);
	}
}

/* "2 slower, 0 faster beyond noise, 40 within noise" (and the points too
 * noisy to judge), the slower and faster linked to their list. */
static void verdicts_put(struct buf *out, const size_t count[4], size_t m,
                         const char *id)
{
	size_t diff = count[COMPARE_SLOWER] + count[COMPARE_FASTER];
	buf_puts(out, "<br><span class=\"verdicts\">");
	if (diff)
		buf_printf(out, "<a href=\"#beyond-%zu-%s\">", m, id);
	buf_printf(out, "%zu slower, %zu faster beyond noise", count[COMPARE_SLOWER],
	           count[COMPARE_FASTER]);
	buf_puts(out, diff ? "</a>" : "");
	buf_printf(out, ", %zu within noise", count[COMPARE_WITHIN]);
	if (count[COMPARE_NOISY])
		buf_printf(out, ", %zu too noisy to judge", count[COMPARE_NOISY]);
	buf_puts(out, "</span>");
}

static void speed_table(const struct book *bk, struct machine_set *ms,
                        struct buf *out)
{
	table_open(out, "speed per experiment");
	buf_puts(out, "<table class=\"records machines\">");
	head_row(out, ms, "experiment");
	for (size_t i = 0; i < bk->nexps; i++) {
		const struct exper *e = &bk->exps[i];
		buf_printf(out, "<tr><th scope=\"row\"><a href=\"%s.html#exp-%s\">%s"
		           "</a></th>", e->ch->href, e->id, e->id);
		for (size_t m = 0; m < ms->n; m++) {
			buf_puts(out, "<td>");
			if (!machines_measured(ms, m, e->id)) {
				buf_puts(out, "<em>not measured on ");
				buf_puts_html(out, ms->names[m]);
				buf_puts(out, "</em></td>");
				continue;
			}
			size_t n, count[4] = {0}, nrows = 0;
			double *v = machines_speed_ratios(ms, m, e->id, &n);
			if (!n)
				buf_puts(out, "no matching timed points");
			else if (!m)
				buf_printf(out, "1 (%zu points)", n);
			else
				buf_printf(out, "<strong>%.2f×</strong> (%.2f–%.2f, %zu "
				           "points)", quantile(v, n, 0.5),
				           quantile(v, n, 0.25), quantile(v, n, 0.75), n);
			free(v);
			if (m)
				verdicts(ms, m, e->id, count, NULL, &nrows);
			if (count[0] + count[1] + count[2] + count[3])
				verdicts_put(out, count, m, e->id);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
}

/* Per compared machine, its points judged slower or faster than the
 * base beyond their noise, and the count of each verdict. */
static void beyond_lists(const struct book *bk, struct machine_set *ms,
                         struct buf *out)
{
	struct buf rows = BUF_INIT;
	for (size_t m = 1; m < ms->n; m++) {
		size_t count[4] = {0}, nrows = 0;
		buf_reset(&rows);
		for (size_t i = 0; i < bk->nexps; i++)
			verdicts(ms, m, bk->exps[i].id, count, &rows, &nrows);
		struct buf sum = BUF_INIT;
		buf_puts_html(&sum, ms->names[m]);
		buf_puts(&sum, " against ");
		buf_puts_html(&sum, ms->names[0]);
		buf_printf(&sum, ": %zu point%s slower, %zu faster beyond noise",
		           count[COMPARE_SLOWER], count[COMPARE_SLOWER] == 1 ? "" : "s",
		           count[COMPARE_FASTER]);
		char *id = xasprintf("beyond-%zu", m);
		fold_open(out, id, sum.data);
		free(id);
		buf_free(&sum);
		buf_puts(out, "<p>As <code>labbook compare ");
		buf_puts_html(out, ms->views[0]->dir);
		buf_puts(out, " ");
		buf_puts_html(out, ms->views[m]->dir);
		buf_puts(out, "</code> judges them");
		if (ms->repeat_views[m]) {
			buf_puts(out, ", with the base's repeat <code>");
			buf_puts_html(out, ms->repeat_views[m]->dir);
			buf_puts(out, "</code>");
		}
		buf_printf(out, ": %zu slower, %zu faster beyond noise, %zu within "
		           "noise", count[COMPARE_SLOWER], count[COMPARE_FASTER],
		           count[COMPARE_WITHIN]);
		if (count[COMPARE_NOISY])
			buf_printf(out, "; %zu too noisy to judge", count[COMPARE_NOISY]);
		buf_puts(out, ".</p>\n");
		if (!nrows) {
			buf_puts(out, "<p>No point differs beyond its noise.</p>"
			         "</details>\n");
			continue;
		}
		char *label = xasprintf("points of %s beyond noise", ms->names[m]);
		table_open(out, label);
		free(label);
		buf_puts(out, "<table class=\"records machines beyond\"><thead><tr>"
		              "<th scope=\"col\">experiment</th><th scope=\"col\">"
		              "point</th><th scope=\"col\">verdict</th><th scope="
		              "\"col\" class=\"num\">difference</th><th scope=\"col\" "
		              "class=\"num\">band</th><th scope=\"col\" class=\"num\">"
		              "noise</th><th scope=\"col\" class=\"num\">");
		buf_puts_html(out, ms->names[0]);
		buf_puts(out, " ms</th><th scope=\"col\" class=\"num\">");
		buf_puts_html(out, ms->names[m]);
		buf_puts(out, " ms</th></tr></thead><tbody>\n");
		buf_puts(out, rows.data);
		buf_puts(out, "</tbody></table></div>\n");
		if (nrows > BEYOND_MAX_ROWS)
			buf_printf(out, "<p>The first %d of %zu; <code>labbook compare"
			           "</code> lists them all.</p>\n", BEYOND_MAX_ROWS, nrows);
		buf_puts(out, "</details>\n");
	}
	buf_free(&rows);
}

/* An expression, HTML-escaped, that may break after its brackets, commas
 * and dots: a long one would otherwise widen the matrix past the page. */
static void expr_html(struct buf *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		buf_put_html(out, p, 1);
		if (strchr("([,.", *p) && p[1] && p[1] != ' ')
			buf_puts(out, "<wbr>");
	}
}

/* A judged claim's cell: its verdict and its margin on that machine. */
static void claim_cell(struct buf *out, const struct verdict *v)
{
	int holds = v->kind == VERDICT_HOLDS;
	buf_puts(out, "<td><span class=\"check ");
	buf_puts(out, holds ? "holds" : "fails");
	buf_puts(out, v->fragile ? " fragile" : "");
	buf_puts(out, "\"");
	if (v->flip) {
		buf_puts(out, " title=\"flips when ");
		buf_puts_html(out, v->flip);
		buf_puts(out, "\"");
	}
	buf_puts(out, holds ? ">✓ holds" : ">✗ does not hold");
	if (v->teeth == TEETH_CANNOT)
		buf_puts(out, " (cannot fail)");
	else if (!v->is_static && !isinf(v->margin))
		buf_printf(out, ", %.*f bands", v->margin < 10 ? 1 : 0, v->margin);
	buf_puts(out, "</span></td>");
}

/* One row of the claims matrix: claim k of ch, in states st (why: the
 * reasons, for those that cannot be evaluated). */
static void claim_row(struct buf *out, const struct chapter *ch, size_t c,
                      size_t k, const struct machine_set *ms,
                      const enum claim_state *st, const char *const *why)
{
	const struct inline_expr *e = &ch->values[k];
	/* The page marks, and anchors, a claim it could evaluate on the
	 * base; any other links to the page. */
	buf_printf(out, "<tr><th scope=\"row\"><a href=\"%s.html", ch->href);
	if ((st[0] == CLAIM_HOLDS || st[0] == CLAIM_FAILS) && e->label)
		buf_printf(out, "#claim-%s", e->label);
	else if (st[0] == CLAIM_HOLDS || st[0] == CLAIM_FAILS)
		buf_printf(out, "#claim-%zu", k);
	buf_puts(out, "\">");
	buf_puts_html(out, ch->title);
	buf_printf(out, ", line %d</a> <code>", e->line);
	expr_html(out, e->text);
	buf_puts(out, "</code></th>");
	for (size_t m = 0; m < ms->n; m++) {
		switch (st[m]) {
		case CLAIM_HOLDS:
		case CLAIM_FAILS:
			claim_cell(out, judge_get(ms->jb, c, k, m));
			break;
		case CLAIM_MISSING:
			buf_puts(out, "<td><em>not measured on ");
			buf_puts_html(out, ms->names[m]);
			buf_puts(out, "</em></td>");
			break;
		case CLAIM_UNKNOWN:
			buf_puts(out, "<td title=\"");
			buf_puts_html(out, why[m]);
			buf_puts(out, "\">cannot be evaluated</td>");
			break;
		}
	}
	buf_puts(out, "</tr>\n");
}

/*
 * The claims matrix: a row per claim, a column per machine. With
 * differing, only the claims that do not hold on every machine. Returns
 * the number of rows.
 */
static int claims_matrix(const struct book *bk, struct machine_set *ms,
                         int differing, const char *label, struct buf *out)
{
	struct buf rows = BUF_INIT;
	enum claim_state *st = xcalloc(ms->n, sizeof *st);
	const char **why = xcalloc(ms->n, sizeof *why);
	int n = 0;
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		for (size_t k = 0; k < ch->nvalues; k++) {
			const struct inline_expr *e = &ch->values[k];
			if (!e->check)
				continue;
			int all_hold = 1;
			for (size_t m = 0; m < ms->n; m++) {
				st[m] = machines_claim(ms, i, k, m, &why[m]);
				all_hold &= st[m] == CLAIM_HOLDS &&
				            !judge_get(ms->jb, i, k, m)->fragile;
			}
			if (!differing || !all_hold) {
				claim_row(&rows, ch, i, k, ms, st, why);
				n++;
			}
		}
	}
	if (n) {
		table_open(out, label);
		buf_puts(out, "<table class=\"records machines claims\">");
		head_row(out, ms, "claim");
		buf_puts(out, rows.data);
		buf_puts(out, "</tbody></table></div>\n");
	}
	buf_free(&rows);
	free(st);
	free(why);
	return n;
}

/*
 * The page at a glance: a row per machine (so it fits a phone), named
 * with its GPU, the claims that hold on it, and its timed points against
 * the base.
 */
static void summary_table(const struct book *bk, struct machine_set *ms,
                          struct buf *out)
{
	table_open(out, "the machines at a glance");
	buf_puts(out, "<table class=\"records machines summary\"><thead><tr>"
	              "<th scope=\"col\">machine</th>"
	              "<th scope=\"col\" class=\"num\">claims that hold</th>"
	              "<th scope=\"col\" class=\"num\">slower</th>"
	              "<th scope=\"col\" class=\"num\">faster</th>"
	              "<th scope=\"col\" class=\"num\">within</th>"
	              "</tr></thead><tbody>\n");
	for (size_t m = 0; m < ms->n; m++) {
		int total, missing, fragile;
		int holds = claims_holding(bk, ms, m, &total, &missing, &fragile);
		const char *gpu = NULL;
		for (size_t i = 0; i < ms->jb->nfacts; i++)
			if (!strcmp(judge_fact_label(i), "GPU"))
				gpu = ms->jb->facts[m * ms->jb->nfacts + i];
		buf_puts(out, "<tr><th scope=\"row\">");
		buf_puts_html(out, ms->names[m]);
		buf_puts(out, m ? "" : " (base)");
		if (gpu) {
			buf_puts(out, "<span class=\"gpu\">");
			buf_puts_html(out, gpu);
			buf_puts(out, "</span>");
		}
		buf_printf(out, "</th><td class=\"num\">%d of %d</td>", holds, total);
		size_t count[4] = {0}, nrows = 0;
		for (size_t i = 0; m && i < bk->nexps; i++)
			verdicts(ms, m, bk->exps[i].id, count, NULL, &nrows);
		if (!m)
			buf_puts(out, "<td class=\"num\" colspan=\"3\">the base</td>");
		else
			buf_printf(out, "<td class=\"num\"><a href=\"#beyond-%zu\">%zu</a>"
			           "</td><td class=\"num\"><a href=\"#beyond-%zu\">%zu</a>"
			           "</td><td class=\"num\">%zu</td>", m,
			           count[COMPARE_SLOWER], m, count[COMPARE_FASTER],
			           count[COMPARE_WITHIN]);
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
}

void machines_page_html(const struct book *bk, struct machine_set *ms,
                        struct buf *out)
{
	buf_puts(out, "<h1 id=\"machines\">Machines</h1>\n<p>The book is rendered "
	              "from the bundle <code>");
	buf_puts_html(out, ms->views[0]->dir);
	buf_puts(out, "</code>; this page puts it beside ");
	for (size_t m = 1; m < ms->n; m++) {
		buf_puts(out, m == 1 ? "" : m + 1 == ms->n ? " and " : ", ");
		buf_puts(out, "<code>");
		buf_puts_html(out, ms->views[m]->dir);
		buf_puts(out, "</code>");
	}
	buf_puts(out, ".</p>\n");
	summary_table(bk, ms, out);
	buf_puts(out, "<p>Slower, faster and within: the timed points of each "
	              "machine against the same points of the base, beyond their "
	              "noise or within it. Each part below is folded: open it for "
	              "the facts, the speeds, the points and the claims.</p>\n"
	              "<h2 id=\"facts\">The machines</h2>\n");
	fold_open(out, NULL, "GPU, clocks, memory, peaks reached, driver and "
	          "claims, machine by machine");
	facts_table(bk, ms, out);
	buf_puts(out, "</details>\n");
	buf_printf(out, "<h2 id=\"speed\">Speed, experiment by experiment</h2>\n"
	           "<p>For each experiment, the median over its timed points of "
	           "the time on the base divided by the time on the machine "
	           "(above 1, the machine is faster), then the middle half of "
	           "those ratios (first to third quartile) and how many points "
	           "they come from. Points are matched by position and "
	           "parameters, as <code>labbook compare</code> matches them; "
	           "points under %.2f ms and copies through host memory are left "
	           "out.</p>\n", MACHINES_RATIO_MIN_MS);
	char *sum = xasprintf("The speed of each of %zu experiments", bk->nexps);
	fold_open(out, NULL, sum);
	free(sum);
	speed_table(bk, ms, out);
	buf_puts(out, "</details>\n");
	const struct compare_opts dflt = COMPARE_OPTS_INIT;
	buf_printf(out, "<h2 id=\"beyond\">Points beyond noise</h2>\n<p>Each "
	           "timed point of a machine is judged against the same point of "
	           "the base as <code>labbook compare</code> judges it: the "
	           "machine is slower (faster) there when its median time is "
	           "longer (shorter) than the base's by more than the point's "
	           "band, the larger of %g × its noise and %g%%. The noise is the "
	           "largest, in either bundle, of the quartile range of the "
	           "point's repetitions and the spread of its runs' medians, and "
	           "the base's difference from its repeat where there is one; a "
	           "point noisier than %g%% is too noisy to judge. As above, "
	           "points under %.2f ms and copies through host memory are left "
	           "out. The charts that overlay machines ring these points.</p>\n",
	           COMPARE_NOISE_TIMES, dflt.min_diff, dflt.max_noise, dflt.min_ms);
	beyond_lists(bk, ms, out);
	buf_puts(out, "<h2 id=\"claims\">Claims, machine by machine</h2>\n<p>Every "
	              "claim the book checks, evaluated on each machine's numbers."
	              " Each links to its place in the book, which shows the base."
	              "</p>\n");
	struct buf differ = BUF_INIT;
	int n = claims_matrix(bk, ms, 1, "claims that differ", &differ);
	if (n) {
		sum = xasprintf("%d claim%s that do%s not hold, or hold within 3 "
		                "noise bands, on some machine", n, n == 1 ? "" : "s",
		                n == 1 ? "es" : "");
		fold_open(out, "claims-differ", sum);
		free(sum);
		buf_puts(out, differ.data);
		buf_puts(out, "</details>\n");
	} else {
		buf_puts(out, "<p>Every claim holds on every machine.</p>\n");
	}
	buf_free(&differ);
	fold_open(out, "claims-all", "Every claim on every machine");
	claims_matrix(bk, ms, 0, "claims matrix", out);
	buf_puts(out, "</details>\n");
}
