/* blocks.c - directives as HTML (blocks.h): experiments and listings
 * made here, tables and charts by table.c and figure.c, each kept as a
 * piece of its page. */
#include "render/blocks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/box.h"
#include "render/excerpt.h"
#include "judge/judge.h"
#include "render/figure.h"
#include "render/gnuplot.h"
#include "base/highlight.h"
#include "render/listing.h"
#include "render/machines.h"
#include "render/keys.h"
#include "render/piece.h"
#include "render/table.h"
#include "base/util.h"

#define MAX_TABLE_ROWS 400

/* " on <GPU>", and which of the bundle's GPUs where several shared the
 * experiments; uuid (may be NULL) is the one an experiment ran on. */
static void gpu_html(struct buf *out, const struct bundle_view *v,
                     const char *uuid)
{
	const cJSON *m = view_machine(v);
	const cJSON *all = m ? cJSON_GetObjectItem(m, "gpu_uuids") : NULL;
	buf_puts(out, " on ");
	buf_puts_html(out, machine_str(v, "gpu"));
	int k = 0, n = cJSON_GetArraySize(all);
	for (int i = 0; uuid && i < n && !k; i++) {
		const char *u = cJSON_GetStringValue(cJSON_GetArrayItem(all, i));
		if (u && !strcmp(u, uuid))
			k = i + 1;
	}
	if (k && n > 1)
		buf_printf(out, " (GPU %d of %d, <code>", k, n);
	else if (uuid)
		buf_puts(out, " (<code>");
	if (uuid) {
		buf_puts_html(out, uuid);
		buf_puts(out, "</code>)");
	}
}

/* ---- experiments ------------------------------------------------------------- */

void state_html(struct buf *out, const struct exp_view *x)
{
	buf_printf(out, "<span class=\"state %s\">%s</span>", x->state_class,
	           x->state_name);
	if (x->where) {
		buf_puts(out, " <span class=\"state-machine\">(");
		buf_puts_html(out, x->where);
		buf_puts(out, ")</span>");
	}
}

static int shows(const struct directive *d, const char *what)
{
	const char *s = dir_opt(d, "show");
	return !s || strstr(s, what);
}

static void records_table(struct buf *out, const struct exp_result *r,
                          const char *label)
{
	/* Columns: the union of fields, in order of first appearance. */
	const char **cols = NULL;
	size_t ncols = 0;
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *f;
		cJSON_ArrayForEach(f, r->rows[i])
		{
			size_t k = 0;
			while (k < ncols && strcmp(cols[k], f->string))
				k++;
			if (k == ncols)
				*ARRAY_PUSH(cols, ncols) = f->string;
		}
	}
	/* A column of numbers only is right-aligned, in tabular figures. */
	char *num = xcalloc(ncols ? ncols : 1, 1);
	for (size_t k = 0; k < ncols; k++) {
		num[k] = 1;
		for (size_t i = 0; i < r->nrows && num[k]; i++) {
			const cJSON *f = cJSON_GetObjectItemCaseSensitive(r->rows[i], cols[k]);
			num[k] = !f || cJSON_IsNumber(f);
		}
	}
	table_wrap_open(out, label, r->id);
	buf_puts(out, "<table class=\"records\"><thead><tr>");
	for (size_t k = 0; k < ncols; k++) {
		buf_puts(out, num[k] ? "<th scope=\"col\" class=\"num\">"
		                     : "<th scope=\"col\">");
		buf_puts_html(out, cols[k]);
		buf_puts(out, "</th>");
	}
	buf_puts(out, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < r->nrows && i < MAX_TABLE_ROWS; i++) {
		buf_puts(out, row_wrong(r->rows[i]) ? "<tr class=\"wrong\">" : "<tr>");
		for (size_t k = 0; k < ncols; k++) {
			buf_puts(out, num[k] ? "<td class=\"num\">" : "<td>");
			cell_html(out, cJSON_GetObjectItemCaseSensitive(r->rows[i], cols[k]),
			          NULL);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
	if (r->nrows > MAX_TABLE_ROWS)
		buf_printf(out, "<p class=\"note\">The first %d of %zu records; all "
		           "are in the records file.</p>\n", MAX_TABLE_ROWS, r->nrows);
	free(num);
	free(cols);
}

/* A program's output, open; on paper its first lines when it is long. */
static void output_html(struct buf *out, const char *s, size_t len)
{
	int lines = 0;
	size_t head = len;
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n' && i + 1 < len && ++lines == EXCERPT_OUTPUT_HEAD)
			head = i + 1;
	lines += len > 0;
	if (lines <= EXCERPT_OUTPUT_WHOLE)
		head = len;
	buf_puts(out, "<details class=\"output\" open><summary>Output</summary>"
	              "<pre class=\"output\" tabindex=\"0\">");
	text_html(out, s, head);
	if (head < len) {
		buf_puts(out, "<span class=\"more\">");
		text_html(out, s + head, len - head);
		buf_puts(out, "</span>");
	}
	buf_puts(out, "</pre>");
	if (head < len)
		excerpt_output_note(out, EXCERPT_OUTPUT_HEAD, lines);
	buf_puts(out, "</details>\n");
}

static void render_experiment(struct page_ctx *c, const struct directive *d,
                              struct buf *out)
{
	const struct exper *e = book_find(c->s->bk, d->id);
	const struct exp_result *r = view_records(c->s->v, d->id);
	const struct exp_view *x = view_find(c->s->v, d->id);
	const struct result_meta *m = &x->meta;
	buf_printf(out, "<section class=\"experiment\" id=\"exp-%s\" "
	           "aria-label=\"experiment %s\">\n", d->id, d->id);
	buf_printf(out, "<div class=\"exp-head\"><span class=\"exp-id\">"
	           "experiment <strong>%s</strong></span>", d->id);
	/* One item of the head, which spreads its items apart. */
	if (m->state != RESULT_NONE) {
		buf_puts(out, " <span>");
		state_html(out, x);
		buf_puts(out, "</span>");
	}
	buf_puts(out, "</div>\n");
	int need = data_needs(c, d->id, "experiment", out);
	if (need) {
		/* Its source and command stay: what it would run. */
	} else if (m->failed) {
		char *msg = xasprintf("(%s, %s:%d).%s", m->why ? m->why : "failed",
		                      c->ch->path, d->line,
		                      r->meta ? " The results below are from the last "
		                                "good run." : "");
		error_box(out, "This experiment failed", msg, m->failed_output);
		free(msg);
		c->errors++;
	} else if (e && e->why) {
		buf_puts(out, "<p class=\"note stale\">Note: ");
		buf_puts_html(out, e->why);
		buf_puts(out, ".</p>\n");
	}
	if (r->error && !need) {
		error_box(out, "Its records file is malformed:", r->error, NULL);
		partial_count(c, d->id);
	}
	for (size_t k = 0; shows(d, "source") && e && e->source_ok &&
	                   k < (e->sources ? e->nsources : 1); k++) {
		const char *path = e->sources ? e->sources[k] : e->source;
		size_t len;
		char *src = file_read(path, &len);
		if (src) {
			int lines = 1;
			for (size_t i = 0; i < len; i++)
				lines += src[i] == '\n' && i + 1 < len;
			buf_printf(out, "<details class=\"source\"%s><summary>Source: "
			           "<code>", lines <= 40 ? " open" : "");
			buf_puts_html(out, path);
			buf_printf(out, "</code> (%d lines)</summary>\n<p class=\"files\">"
			           "<a href=\"src/", lines);
			buf_puts_html(out, path);
			buf_puts(out, "\">The source file</a>, to download or read "
			              "whole.</p>\n<pre class=\"code\" tabindex=\"0\">"
			              "<code>");
			highlight_c(out, src, len);
			buf_puts(out, "</code></pre></details>\n");
			if (lines > 40)
				excerpt_source_html(out, path);
			free(src);
		}
	}
	/* The commands of the recorded run; before any, those this build
	 * would run. */
	const char *compile = *m->compile_cmd ? m->compile_cmd
	                    : e && e->compile_cmd ? e->compile_cmd : "";
	const char *run = *m->run_cmd ? m->run_cmd : e && e->run_cmd ? e->run_cmd : "";
	if (shows(d, "command") && (e || *compile || *run)) {
		buf_puts(out, "<div class=\"command\"><p><span class=\"prompt\">$</span> "
		              "<code>");
		buf_puts_html(out, compile);
		buf_puts(out, "</code></p><p><span class=\"prompt\">$</span> <code>");
		buf_puts_html(out, run);
		buf_puts(out, "</code></p></div>\n");
	}
	if (need) {
		buf_puts(out, "</section>\n");
		return;
	}
	if (shows(d, "output") && r->out) {
		output_html(out, r->out, r->out_len);
	}
	const struct exp_result *res = view_ptxas(c->s->v, d->id);
	if (res->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Registers, "
		           "shared memory and spills per kernel (ptxas, %zu kernels)"
		           "</summary>\n<p class=\"files\"><a href=\"data/%s.jsonl\">"
		           "The ptxas report as JSON lines</a></p>\n", res->nrows,
		           res->id);
		records_table(out, res, "ptxas report of");
		buf_puts(out, "</details>\n");
	}
	if (r->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Records (%zu)"
		           "</summary>\n<p class=\"files\"><a href=\"data/%s.jsonl\">"
		           "All %zu records as JSON lines</a></p>\n", r->nrows, d->id,
		           r->nrows);
		records_table(out, r, "records of");
		buf_puts(out, "</details>\n");
	}
	if (r->meta) {
		const char *date = m->date ? m->date : machine_str(c->s->v, "date");
		buf_puts(out, "<p class=\"provenance\">Ran ");
		if (date)
			buf_puts_html(out, date);
		if (m->gpu_count > 1 && machine_str(c->s->v, "gpu") && e && e->cuda) {
			buf_printf(out, " on %d × ", m->gpu_count);
			buf_puts_html(out, machine_str(c->s->v, "gpu"));
			buf_puts(out, " at once");
		} else if (machine_str(c->s->v, "gpu") && e && e->cuda) {
			gpu_html(out, c->s->v, m->gpu_uuid);
		} else if (m->gpu_count > 1) {
			buf_printf(out, " with %d GPUs visible", m->gpu_count);
		}
		buf_printf(out, " in %.1f s", m->seconds);
		if (m->runs > 1)
			buf_printf(out, " (%d runs)", m->runs);
		buf_puts(out, " · ");
		state_html(out, x);
		buf_puts(out, " · bundle <a href=\"provenance.html\">");
		buf_puts_html(out, c->s->v->dir);
		buf_puts(out, "</a></p>\n");
	} else if (!m->failed) {
		buf_puts(out, "<p class=\"note not-measured\">Not measured on this "
		              "machine: run <code>make site</code> on a machine with "
		              "a GPU.</p>\n");
	}
	buf_puts(out, "</section>\n");
}

static void render_sass(struct page_ctx *c, const struct directive *d,
                        struct buf *out)
{
	char *err = NULL;
	const char *caption = dir_opt(d, "caption");
	buf_puts(out, "<figure class=\"listing\">\n");
	if (data_needs(c, dir_opt(d, "experiment"), "listing", out)) {
		buf_puts(out, "</figure>\n");
		return;
	}
	if (listing_sass(out, c->s->v, dir_opt(d, "experiment"), dir_opt(d, "kernel"),
	                 dir_opt(d, "mark"), &err) != 0 &&
	    data_outdated(c, dir_opt(d, "experiment"))) {
		buf_puts(out, "<p class=\"note not-measured\">This listing was not "
		         "recorded on this machine: ");
		buf_puts_html(out, c->s->v->dir);
		buf_puts(out, " holds no build of the experiment's current source.</p>\n");
		free(err);
	} else {
		/* The judge found and reported what the listing lacks. */
		const struct dir_check *k = judge_dir(c->s->o->machines->jb,
		                                      c->index,
		                                      (size_t)(d - c->ch->dirs), 0);
		free(err);
		if (k->why) {
			char *msg = xasprintf("%s:%d: %s", c->ch->path, k->line, k->why);
			error_box(out, "This listing could not be shown:", msg, NULL);
			free(msg);
			c->errors++;
		}
	}
	if (caption) {
		buf_puts(out, "<figcaption>");
		buf_puts_html(out, caption);
		buf_puts(out, "</figcaption>\n");
	}
	buf_puts(out, "</figure>\n");
}

void block_key(const struct page_ctx *c, const struct directive *d,
               char key[33])
{
	/* A figure shows its number, a table its label's; no piece shows the
	 * other's. */
	size_t n = c->s->o->machines ? c->s->o->machines->n : 1;
	char *facts = xasprintf("%s %zu %d %zu %s %s %d", c->ch->name, c->index,
	                        d->kind == DIR_CHART   ? c->figures
	                        : d->kind == DIR_TABLE ? c->tables : -1,
	                        n, c->s->v->dir, c->ch->path, c->s->v->cc);
	keys_block(d, c->s->v, facts, key);
	free(facts);
}

static void block_make(struct page_ctx *c, const void *arg, struct buf *out);

/* May d's block be kept? Charts of several machines read other bundles:
 * they are made each time. */
static int block_keepable(const struct page_ctx *c, const struct directive *d)
{
	return c->store && !d->error &&
	       (d->kind != DIR_CHART || !c->s->o->machines ||
	        c->s->o->machines->n <= 1);
}

/* d's piece kept under key, when there is one that can be used (a chart's
 * drawings are there too), else NULL. */
static const char *block_piece(const struct page_ctx *c,
                               const struct directive *d, const char *key,
                               size_t *len, struct piece_counts *fc)
{
	const char *html = piece_get(c->store, key, len, fc);
	return html && (d->kind != DIR_CHART || plot_drawn(c->s->o->dir, d->id))
	           ? html
	           : NULL;
}

int block_kept(const struct page_ctx *c, const struct directive *d)
{
	char key[33];
	struct piece_counts fc;
	size_t len;
	if (!block_keepable(c, d))
		return 0;
	block_key(c, d, key);
	return block_piece(c, d, key, &len, &fc) != NULL;
}

void block_html(struct page_ctx *c, const struct directive *d,
                struct buf *out)
{
	if (d->error) {
		error_box(out, "This directive is wrong:", d->error, NULL);
		c->errors++;
		return;
	}
	char key[33];
	struct piece_counts fc;
	int keep = block_keepable(c, d);
	if (keep) {
		size_t len;
		block_key(c, d, key);
		const char *html = block_piece(c, d, key, &len, &fc);
		if (html && piece_take(c, html, len, &fc, out) == 0)
			return;
	}
	piece_make(c, keep ? key : NULL, block_make, d, out);
}

static void block_make(struct page_ctx *c, const void *arg, struct buf *out)
{
	const struct directive *d = arg;
	switch (d->kind) {
	case DIR_EXPERIMENT: render_experiment(c, d, out); break;
	case DIR_CHART: figure_html(c, d, out); break;
	case DIR_TABLE: table_html(c, d, out); break;
	case DIR_SASS: render_sass(c, d, out); break;
	}
}

