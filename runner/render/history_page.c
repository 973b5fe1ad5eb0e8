/*
 * history_page.c - the History page (history.html): the recordings of a
 * bundle over its commits, the steps between them, and a chart per
 * experiment (history_page.h).
 */
#include "render/history_page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "render/box.h"

#define NONE ((size_t)-1)
/* A long list of steps shows this many rows; labbook history has all. */
#define STEPS_MAX_ROWS 200

static void percent_put(struct buf *out, double x, int sign)
{
	buf_printf(out, sign ? "%+.2f%%" : "%.2f%%", x * 100);
}

static void items_put(struct buf *out, char *const *items)
{
	for (size_t i = 0; items && items[i]; i++) {
		buf_puts(out, i ? "; " : "");
		buf_puts_html(out, items[i]);
	}
}

/* The experiment id, linked to its place in the book where it has one. */
static void exp_link(const struct site_ctx *s, const char *id, struct buf *out)
{
	const struct exper *e = book_find(s->bk, id);
	if (e && e->ch) {
		buf_printf(out, "<a href=\"%s.html#exp-", e->ch->href);
		buf_puts_html(out, id);
		buf_puts(out, "\">");
	}
	buf_puts_html(out, id);
	buf_puts(out, e && e->ch ? "</a>" : "");
}

static void machine_put(const struct history_entry *e, struct buf *out)
{
	buf_puts_html(out, e->gpu ? e->gpu : "unknown");
	if (e->card && !strncmp(e->card, "GPU-", 4))
		buf_printf(out, " <code>%.12s</code>", e->card);
	if (e->driver) {
		buf_puts(out, ", driver ");
		buf_puts_html(out, e->driver);
	}
	if (e->toolkit) {
		const char *sp = strrchr(e->toolkit, ' ');
		buf_puts(out, ", nvcc ");
		buf_puts_html(out, sp ? sp + 1 : e->toolkit);
	}
}

/* A commit message's first line, cut at a word near max characters (the
 * whole in its title). */
static void subject_put(const char *subject, size_t max, struct buf *out)
{
	size_t n = strlen(subject);
	if (n <= max) {
		buf_puts_html(out, subject);
		return;
	}
	size_t cut = max;
	while (cut > max / 2 && subject[cut] != ' ')
		cut--;
	buf_puts(out, "<span title=\"");
	buf_puts_html(out, subject);
	buf_puts(out, "\">");
	buf_put_html(out, subject, cut);
	buf_puts(out, " \u2026</span>");
}

/* What a recording moved against the one before, as a cell. */
static void moved_put(const struct history_site *hs, size_t i, struct buf *out)
{
	const struct history_judged *j = &hs->j;
	const struct history_entry *e = &hs->h->e[i];
	size_t p = j->prev[i];
	if (e->absent || p == NONE || e->same_records) {
		buf_puts(out, "\u2014");
		return;
	}
	if (!j->slower[i] && !j->faster[i]) {
		buf_printf(out, "none of %zu", j->judged[i]);
		return;
	}
	if (!j->machine[i])
		buf_printf(out, "<a href=\"#steps-%s\">", e->abbrev);
	buf_printf(out, "%zu slower, %zu faster", j->slower[i], j->faster[i]);
	buf_puts(out, j->machine[i] ? "" : "</a>");
	buf_printf(out, "<br>of %zu", j->judged[i]);
	if (j->machine[i])
		buf_puts(out, "<br><span class=\"muted\">a new machine</span>");
}

static void entries_table(const struct history_site *hs, struct buf *out)
{
	const struct history *h = hs->h;
	const struct history_judged *j = &hs->j;
	table_wrap_open(out, "recordings", "recordings-table");
	buf_puts(out, "<table class=\"records history\"><thead><tr>"
	              "<th scope=\"col\">commit</th><th scope=\"col\">the "
	              "recording, and what changed</th><th scope=\"col\" class="
	              "\"num\">points moved</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < h->n; i++) {
		const struct history_entry *e = &h->e[i];
		size_t p = j->prev[i];
		buf_printf(out, "<tr id=\"rec-%s\"><th scope=\"row\" class=\"commit\">"
		           "<code>", e->abbrev);
		buf_puts_html(out, e->abbrev);
		buf_puts(out, "</code><br>");
		buf_put_html(out, e->date ? e->date : "", e->date ? 10 : 0);
		buf_puts(out, "</th><td class=\"point\">");
		if (e->commit)
			subject_put(e->subject, 160, out);
		else
			buf_puts(out, "<em>The working tree, not committed</em>");
		buf_puts(out, "<br><span class=\"history-what\">");
		if (e->absent)
			buf_puts(out, "the bundle was removed");
		else if (p == NONE)
			machine_put(e, out);
		else if (e->same_records)
			buf_printf(out, "the records of <code>%s</code>; only <code>"
			           "meta.json</code> or <code>machine.json</code> changed",
			           h->e[p].abbrev);
		else if (j->changed[i] && j->changed[i][0])
			items_put(out, j->changed[i]);
		else
			buf_puts(out, "nothing the recordings name changed");
		buf_puts(out, "</span></td><td class=\"num\">");
		moved_put(hs, i, out);
		buf_puts(out, "</td></tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
}

static void steps_head(struct buf *out, const char *label, int machine)
{
	table_wrap_open(out, label, NULL);
	buf_printf(out, "<table class=\"records history-steps%s\">", machine ?
	           " across" : "");
	buf_puts(out, "<thead><tr><th scope=\"col\">commit</th><th scope=\"col\">"
	              "experiment and point</th><th scope=\"col\">verdict, its "
	              "band</th><th scope=\"col\" class=\"num\">median ms</th>"
	              "<th scope=\"col\">what changed</th></tr></thead><tbody>\n");
}

/* Are two steps of one experiment in one commit, of one kind? */
static int same_group(const struct history_step *a, const struct history_step *b)
{
	return a->to == b->to && a->machine == b->machine && !strcmp(a->id, b->id);
}

/* One row per step of the kind asked (across a change of machine, or
 * not), at most STEPS_MAX_ROWS; returns how many there are. */
static size_t steps_rows(const struct site_ctx *s, int machine, struct buf *out)
{
	const struct history_site *hs = s->o->history;
	const struct history *h = hs->h;
	size_t n = 0, last = NONE;
	for (size_t k = 0; k < hs->j.nsteps; k++) {
		const struct history_step *st = &hs->j.steps[k];
		if (st->machine != machine || n++ >= STEPS_MAX_ROWS)
			continue;
		const char *v = compare_verdict_name(st->p.verdict);
		const char *at = h->e[st->to].abbrev;
		buf_puts(out, "<tr");
		if (st->to != last && !machine)
			buf_printf(out, " id=\"steps-%s\"", at);
		last = st->to;
		buf_printf(out, "><th scope=\"row\" class=\"commit\"><a href=\"#rec-%s\">"
		           "<code>%s</code></a></th><td class=\"point\">", at, at);
		exp_link(s, st->id, out);
		buf_puts(out, "<br><code>");
		buf_puts_html(out, *st->point ? st->point : "(no parameters)");
		buf_printf(out, "</code></td><td><span class=\"verdict %s\"><span "
		           "aria-hidden=\"true\">%s</span> %s</span><br>", v,
		           st->p.verdict == COMPARE_SLOWER ? "\u25b2" : "\u25bc", v);
		percent_put(out, st->p.diff, 1);
		buf_puts(out, " \u00b1");
		percent_put(out, st->p.band, 0);
		buf_printf(out, "</td><td class=\"num\">%.4g \u2192 %.4g</td>",
		           st->p.a_ms, st->p.b_ms);
		/* What changed is the experiment's: one cell for each run of its
		 * points in one commit. */
		if (k && same_group(&hs->j.steps[k - 1], st) && n > 1) {
			buf_puts(out, "</tr>\n");
			continue;
		}
		size_t span = 1;
		while (k + span < hs->j.nsteps && n + span <= STEPS_MAX_ROWS &&
		       same_group(&hs->j.steps[k + span], st))
			span++;
		if (span > 1)
			buf_printf(out, "<td class=\"changed\" rowspan=\"%zu\">", span);
		else
			buf_puts(out, "<td class=\"changed\">");
		if (st->changed && st->changed[0])
			items_put(out, st->changed);
		else
			buf_puts(out, "<em>nothing the recordings name</em>");
		buf_puts(out, "</td></tr>\n");
	}
	return n;
}

static void steps_section(const struct site_ctx *s, struct buf *out)
{
	const struct history_site *hs = s->o->history;
	const struct history_judged *j = &hs->j;
	size_t own = 0, across = 0, slower = 0, faster = 0;
	for (size_t k = 0; k < j->nsteps; k++) {
		if (j->steps[k].machine) {
			across++;
			continue;
		}
		own++;
		slower += j->steps[k].p.verdict == COMPARE_SLOWER;
		faster += j->steps[k].p.verdict == COMPARE_FASTER;
	}
	buf_puts(out, "<h2 id=\"steps\">Steps</h2>\n<p>");
	if (own)
		buf_printf(out, "Each point whose median time moved beyond its noise "
		           "from one recording to the next on the same machine: %zu "
		           "step%s, %zu slower and %zu faster. ", own, plural(own),
		           slower, faster);
	else
		buf_puts(out, "No point moved beyond its noise from one recording "
		              "to the next on the same machine. ");
	buf_printf(out, "A point moves beyond its noise when its difference is "
	           "over its band, max(%g \u00d7 its noise, %g%%), its noise the "
	           "larger quartile range or run spread of the two recordings. "
	           "What changed is read from the two recordings' <code>meta.json"
	           "</code> and <code>machine.json</code>.</p>\n",
	           COMPARE_NOISE_TIMES, hs->min_diff);
	if (own) {
		struct buf rows = BUF_INIT;
		size_t n = steps_rows(s, 0, &rows);
		steps_head(out, "steps", 0);
		buf_puts(out, rows.data);
		buf_puts(out, "</tbody></table></div>\n");
		if (n > STEPS_MAX_ROWS)
			buf_printf(out, "<p>The first %d of %zu; <code>labbook history"
			           "</code> lists them all.</p>\n", STEPS_MAX_ROWS, n);
		buf_free(&rows);
	}
	if (!across)
		return;
	buf_printf(out, "<details class=\"history-machine\"><summary>%zu point%s "
	           "moved beyond noise across a change of machine (a new card or "
	           "driver): not regressions</summary>\n", across, plural(across));
	struct buf rows = BUF_INIT;
	size_t n = steps_rows(s, 1, &rows);
	steps_head(out, "points across a change of machine", 1);
	buf_puts(out, rows.data);
	buf_puts(out, "</tbody></table></div>\n");
	if (n > STEPS_MAX_ROWS)
		buf_printf(out, "<p>The first %d of %zu; <code>labbook history --all"
		           "</code> lists them all.</p>\n", STEPS_MAX_ROWS, n);
	buf_puts(out, "</details>\n");
	buf_free(&rows);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Per experiment with a timed point: its chart and what it shows. */
static void charts_section(const struct site_ctx *s, struct buf *out)
{
	const struct history_site *hs = s->o->history;
	char **ids = NULL;
	size_t n = 0;
	for (size_t q = 0; q < hs->j.nseries; q++) {
		size_t i = 0;
		while (i < n && strcmp(ids[i], hs->j.series[q].id))
			i++;
		if (i == n)
			*ARRAY_PUSH(ids, n) = hs->j.series[q].id;
	}
	if (n)
		qsort(ids, n, sizeof *ids, cmp_str);
	buf_puts(out, "<h2 id=\"experiments\">Each experiment</h2>\n<p>Each "
	              "point's median time against its latest recording, so that "
	              "points of any size share a scale; bars span its quartiles "
	              "(else its runs). An experiment of many points shows the "
	              "median of them, the band that holds 8 in 10, and on their "
	              "own the points that stepped the most on one machine. A "
	              "dashed line marks a new card or driver. Hover a point for "
	              "its time.</p>\n");
	struct buf legend = BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		size_t points = 0, steps = 0;
		for (size_t q = 0; q < hs->j.nseries; q++)
			points += !strcmp(hs->j.series[q].id, ids[i]);
		for (size_t k = 0; k < hs->j.nsteps; k++)
			steps += !hs->j.steps[k].machine && !strcmp(hs->j.steps[k].id,
			                                            ids[i]);
		buf_puts(out, "<figure class=\"chart history-fig\" id=\"h-");
		buf_puts_html(out, ids[i]);
		/* On a phone the drawing scrolls, so its box takes focus. */
		buf_puts(out, "\"><div class=\"chart-full\" tabindex=\"0\" role="
		              "\"region\" aria-label=\"chart of ");
		buf_puts_html(out, ids[i]);
		buf_puts(out, "\">");
		buf_reset(&legend);
		history_chart_svg(hs, ids[i], out, &legend);
		buf_puts(out, "</div><figcaption><strong>");
		exp_link(s, ids[i], out);
		buf_printf(out, "</strong>: %zu timed point%s, %zu step%s on one "
		           "machine.<span class=\"history-legend\">%s</span>"
		           "</figcaption></figure>\n", points, plural(points), steps,
		           plural(steps), legend.data ? legend.data : "");
	}
	buf_free(&legend);
	free(ids);
}

void history_page_html(const struct site_ctx *s, struct buf *c)
{
	const struct history_site *hs = s->o->history;
	const struct history *h = hs->h;
	const struct history_judged *j = &hs->j;
	size_t present = 0, first = NONE, last = NONE;
	for (size_t i = 0; i < h->n; i++)
		if (!h->e[i].absent) {
			present++;
			first = first == NONE ? i : first;
			last = i;
		}
	buf_puts(c, "<h1 id=\"history\">History of <code>");
	buf_puts_html(c, h->dir);
	buf_puts(c, "</code></h1>\n<p class=\"lead\">");
	if (h->path) {
		buf_printf(c, "The bundle as each of the %zu commit%s that changed "
		           "it left it (<code>git log -- ", present, plural(present));
		buf_puts_html(c, h->path);
		buf_puts(c, "</code>)");
	} else {
		buf_printf(c, "The bundle as it is");
	}
	if (first != last && h->e[first].date && h->e[last].date) {
		buf_puts(c, ", from ");
		buf_put_html(c, h->e[first].date, 10);
		buf_puts(c, " to ");
		buf_put_html(c, h->e[last].date, 10);
	}
	buf_printf(c, ". Each recording is judged against the one before it, "
	           "point by point, as <code>labbook compare</code> judges two "
	           "bundles. A new card or driver is a change of machine: what "
	           "moved with it is counted apart, not as a regression.</p>\n");
	if (h->note) {
		buf_puts(c, "<p>");
		buf_puts_html(c, h->note);
		buf_puts(c, ".</p>\n");
	}
	if (j->check_from != NONE) {
		buf_printf(c, "<p>The latest recording, <code>%s</code>, against "
		           "<code>%s</code>, the one before it on its card and driver "
		           "(<code>labbook history --check</code>): %zu point%s judged, "
		           "<strong>%zu slower</strong> beyond noise", h->e[j->check_to].abbrev,
		           h->e[j->check_from].abbrev, j->check_judged,
		           plural(j->check_judged), j->check_slower);
		if (j->check_worst) {
			buf_puts(c, ", the most <code>");
			buf_puts_html(c, j->check_worst);
			buf_puts(c, "</code>");
		}
		buf_puts(c, ".</p>\n");
	}
	buf_puts(c, "<h2 id=\"recordings\">Recordings</h2>\n<p>Oldest first. "
	             "Each recording's points judged against the recording before "
	             "it, and what changed between the two: the experiments' "
	             "sources, <code>lab.h</code>, flags and arguments, the "
	             "toolkit, the driver, the card.</p>\n");
	entries_table(hs, c);
	steps_section(s, c);
	charts_section(s, c);
}
