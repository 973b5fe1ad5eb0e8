#include "site.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "chapter.h"
#include "expr.h"
#include "highlight.h"
#include "plot.h"
#include "util.h"

#define MAX_TABLE_ROWS 400

struct page_ctx {
	struct book *bk;
	struct bundle *b;
	const struct site_opts *o;
	struct site_stats *st;
	struct chapter *ch;
	int number;   /* chapter number */
	int figures;  /* figures so far on this page */
	int claims, claims_failed, errors;
};

/* ---- small pieces ----------------------------------------------------------- */

static const char *mstr(const struct bundle *b, const char *key)
{
	const cJSON *v = machine_field(b, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void error_box(struct buf *out, const char *title, const char *msg,
                      const char *text)
{
	buf_puts(out, "<div class=\"error-box\" role=\"alert\"><p><strong>");
	buf_puts_html(out, title);
	buf_puts(out, "</strong>");
	if (msg) {
		buf_puts(out, " ");
		buf_puts_html(out, msg);
	}
	buf_puts(out, "</p>");
	if (text && *text) {
		buf_puts(out, "<pre class=\"output\">");
		buf_puts_html(out, text);
		buf_puts(out, "</pre>");
	}
	buf_puts(out, "</div>\n");
}

static void cell_html(struct buf *out, const cJSON *c, const char *fmt)
{
	if (cJSON_IsNumber(c)) {
		struct value v = {VAL_NUM, c->valuedouble, NULL, {0}};
		char *err = NULL;
		if (value_format(&v, fmt, 1, out, &err) != 0) {
			buf_printf(out, "%g", c->valuedouble);
			free(err);
		}
	} else if (cJSON_IsString(c)) {
		buf_puts_html(out, c->valuestring);
	} else if (cJSON_IsBool(c)) {
		buf_puts(out, cJSON_IsTrue(c) ? "yes" : "<strong>no</strong>");
	}
}

static int row_wrong(const cJSON *row)
{
	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"));
}

/* ---- inline values and claims ----------------------------------------------- */

static void render_inline(struct page_ctx *c, const struct inline_expr *e,
                          struct buf *out)
{
	struct value v;
	char *err = NULL;
	int rc = expr_eval(e->text, c->b, &v, &err);
	if (rc == 0 && e->check) {
		c->claims++;
		if (value_scalar(&v, &err) == 0 && v.type != VAL_STR) {
			int holds = v.num != 0;
			c->claims_failed += !holds;
			buf_printf(out, "<span class=\"check %s\" title=\"",
			           holds ? "holds" : "fails");
			buf_puts_html(out, e->text);
			buf_printf(out, "\">%s</span>",
			           holds ? "✓ holds on this card"
			                 : "✗ does not hold on this card");
			value_free(&v);
			return;
		}
		if (!err)
			err = xstrdup("a claim must be true or false");
		rc = -1;
	}
	if (rc == 0 && value_format(&v, e->fmt, 1, out, &err) == 0) {
		value_free(&v);
		return;
	}
	value_free(&v);
	diag_at(c->ch->path, e->line, "{{ %s }}: %s", e->text, err);
	c->errors++;
	buf_puts(out, "<span class=\"inline-error\" title=\"");
	buf_printf(out, "%s:%d: ", c->ch->path, e->line);
	buf_puts_html(out, err);
	buf_puts(out, "\">⚠ ");
	buf_puts_html(out, err);
	buf_puts(out, "</span>");
	free(err);
}

/* ---- experiments ------------------------------------------------------------- */

static const char *state_name(enum exp_state s)
{
	switch (s) {
	case ST_MISSING: return "not measured";
	case ST_RECORDED: return "recorded";
	case ST_CACHED: return "cached";
	case ST_FRESH: return "fresh";
	case ST_FAILED: return "failed";
	}
	return "";
}

static int shows(const struct directive *d, const char *what)
{
	const char *s = dir_opt(d, "show");
	return !s || strstr(s, what);
}

static void records_table(struct buf *out, const struct exp_result *r)
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
	buf_puts(out, "<div class=\"table-wrap\"><table class=\"records\"><thead><tr>");
	for (size_t k = 0; k < ncols; k++) {
		buf_puts(out, "<th scope=\"col\">");
		buf_puts_html(out, cols[k]);
		buf_puts(out, "</th>");
	}
	buf_puts(out, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < r->nrows && i < MAX_TABLE_ROWS; i++) {
		buf_puts(out, row_wrong(r->rows[i]) ? "<tr class=\"wrong\">" : "<tr>");
		for (size_t k = 0; k < ncols; k++) {
			buf_puts(out, "<td>");
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
	free(cols);
}

static void render_experiment(struct page_ctx *c, const struct directive *d,
                              struct buf *out)
{
	struct exper *e = book_find(c->bk, d->id);
	struct exp_result *r = bundle_get(c->b, d->id);
	buf_printf(out, "<section class=\"experiment\" id=\"exp-%s\" "
	           "aria-label=\"experiment %s\">\n", d->id, d->id);
	buf_printf(out, "<div class=\"exp-head\"><span class=\"exp-id\">"
	           "experiment <strong>%s</strong></span> <span class=\"state %s\">"
	           "%s</span></div>\n", d->id,
	           e ? state_name(e->state) : "failed",
	           e ? state_name(e->state) : "failed");
	if (e && e->state == ST_FAILED) {
		const cJSON *f = r->failure;
		const cJSON *o = f ? cJSON_GetObjectItem(f, "output") : NULL;
		char *msg = xasprintf("(%s, %s:%d).%s", e->why ? e->why : "failed",
		                      c->ch->path, d->line,
		                      r->meta ? " The results below are from the last "
		                                "good run." : "");
		error_box(out, "This experiment failed", msg,
		          cJSON_IsString(o) ? o->valuestring : NULL);
		free(msg);
		c->errors++;
	} else if (e && e->why) {
		buf_puts(out, "<p class=\"note stale\">Note: ");
		buf_puts_html(out, e->why);
		buf_puts(out, ".</p>\n");
	}
	if (r->error) {
		error_box(out, "Its records file is malformed:", r->error, NULL);
		c->errors++;
	}
	if (shows(d, "source") && e && e->source_ok) {
		size_t len;
		char *src = file_read(e->source, &len);
		if (src) {
			int lines = 1;
			for (size_t i = 0; i < len; i++)
				lines += src[i] == '\n' && i + 1 < len;
			buf_printf(out, "<details class=\"source\"%s><summary>Source: "
			           "<code>", lines <= 40 ? " open" : "");
			buf_puts_html(out, e->source);
			buf_printf(out, "</code> (%d lines) · <a href=\"src/", lines);
			buf_puts_html(out, e->source);
			buf_puts(out, "\">raw</a></summary>\n<pre class=\"code\"><code>");
			highlight_c(out, src, len);
			buf_puts(out, "</code></pre></details>\n");
			free(src);
		}
	}
	const cJSON *m = r->meta;
	if (shows(d, "command") && e) {
		buf_puts(out, "<div class=\"command\"><span class=\"prompt\">$</span> <code>");
		buf_puts_html(out, e->compile_cmd ? e->compile_cmd : "");
		buf_puts(out, "</code><br><span class=\"prompt\">$</span> <code>");
		buf_puts_html(out, e->run_cmd ? e->run_cmd : "");
		buf_puts(out, "</code></div>\n");
	}
	if (shows(d, "output") && r->out) {
		buf_puts(out, "<details class=\"output\" open><summary>Output</summary>"
		              "<pre class=\"output\">");
		buf_put_html(out, r->out, r->out_len);
		buf_puts(out, "</pre></details>\n");
	}
	char *res_id = xasprintf("%s_ptxas", d->id);
	struct exp_result *res = bundle_get(c->b, res_id);
	if (res->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Registers, "
		           "shared memory and spills per kernel (ptxas, %zu kernels) "
		           "· <a href=\"data/%s.jsonl\">JSON lines</a></summary>\n",
		           res->nrows, res_id);
		records_table(out, res);
		buf_puts(out, "</details>\n");
	}
	free(res_id);
	if (r->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Records (%zu) · "
		           "<a href=\"data/%s.jsonl\">JSON lines</a></summary>\n",
		           r->nrows, d->id);
		records_table(out, r);
		buf_puts(out, "</details>\n");
	}
	if (m) {
		const cJSON *secs = cJSON_GetObjectItem(m, "seconds");
		const char *date = mstr(c->b, "date");
		const cJSON *md = cJSON_GetObjectItem(m, "date");
		if (cJSON_IsString(md))
			date = md->valuestring;
		buf_puts(out, "<p class=\"provenance\">Ran ");
		if (date)
			buf_puts_html(out, date);
		if (mstr(c->b, "gpu") && e && e->cuda) {
			buf_puts(out, " on ");
			buf_puts_html(out, mstr(c->b, "gpu"));
		}
		buf_printf(out, " in %.1f s · %s · bundle <a href=\"provenance.html\">",
		           cJSON_IsNumber(secs) ? secs->valuedouble : 0.0,
		           e ? state_name(e->state) : "");
		buf_puts_html(out, c->b->dir);
		buf_puts(out, "</a></p>\n");
	} else if (!e || e->state != ST_FAILED) {
		buf_puts(out, "<p class=\"note\">Not measured yet: run <code>make "
		              "site</code> on a machine with a GPU.</p>\n");
	}
	buf_puts(out, "</section>\n");
}

/* ---- charts and tables -------------------------------------------------------- */

static void render_chart(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	struct plot p;
	int rc = plot_render(d, c->ch->path, c->b, c->o->dir, &p);
	c->figures++;
	buf_printf(out, "<figure class=\"chart\" id=\"fig-%s\">\n", d->id);
	const char *caption = dir_opt(d, "caption");
	if (rc != 0 || !p.svg) {
		error_box(out, "This chart could not be drawn:", p.error, NULL);
		if (rc != 0)
			c->errors++;
	} else if (p.drawn) {
		buf_printf(out, "<img src=\"%s\" width=\"760\" height=\"470\" "
		           "loading=\"lazy\" alt=\"", p.svg);
		buf_puts_html(out, caption ? caption : d->id);
		buf_puts(out, "\">\n");
		c->st->charts_drawn += p.redrawn;
	}
	if (p.note) {
		buf_puts(out, "<p class=\"note\">");
		buf_puts_html(out, p.note);
		buf_puts(out, "</p>");
	}
	buf_printf(out, "<figcaption><a class=\"fignum\" href=\"#fig-%s\">Figure "
	           "%d.%d.</a> ", d->id, c->number, c->figures);
	if (caption)
		buf_puts_html(out, caption);
	buf_puts(out, " <span class=\"figmeta\">Records of <a href=\"#exp-");
	buf_puts_html(out, dir_opt(d, "data"));
	buf_puts(out, "\">");
	buf_puts_html(out, dir_opt(d, "data"));
	buf_puts(out, "</a>, bundle ");
	buf_puts_html(out, c->b->dir);
	if (mstr(c->b, "gpu")) {
		buf_puts(out, " (");
		buf_puts_html(out, mstr(c->b, "gpu"));
		buf_puts(out, ")");
	}
	buf_puts(out, ".");
	if (p.nwrong)
		buf_printf(out, " <strong>%zu record%s marked wrong left out.</strong>",
		           p.nwrong, p.nwrong > 1 ? "s" : "");
	if (p.csv)
		buf_printf(out, " <a href=\"%s\">CSV</a> · <a href=\"%s\">gnuplot "
		           "script</a>", p.csv, p.gp);
	buf_puts(out, "</span></figcaption>\n</figure>\n");
	plot_free(&p);
}

struct tcol {
	char *field;
	char *fmt;
};

static const char *sort_field;
static int sort_desc;

static int cmp_rows(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
	double u, v;
	int r;
	if (row_number(x, sort_field, &u) && row_number(y, sort_field, &v))
		r = (u > v) - (u < v);
	else {
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(x, sort_field);
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(y, sort_field);
		r = strcmp(cJSON_IsString(s) ? s->valuestring : "",
		           cJSON_IsString(t) ? t->valuestring : "");
	}
	return sort_desc ? -r : r;
}

static void render_table(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	const char *data = dir_opt(d, "data");
	struct exp_result *r = bundle_get(c->b, data);
	struct tcol *cols = NULL;
	size_t ncols = 0;
	const cJSON **rows = NULL;
	size_t nrows = 0;
	struct filter where = {0};
	char *err = NULL, *msg = NULL;

	char *spec = xstrdup(dir_opt(d, "columns")), *save = NULL;
	for (char *w = strtok_r(spec, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *t = str_trim(w);
		char *sp = strchr(t, ' ');
		struct tcol *col = ARRAY_PUSH(cols, ncols);
		col->fmt = sp ? xstrdup(str_trim(sp + 1)) : NULL;
		if (sp)
			*sp = '\0';
		col->field = xstrdup(t);
		if (col->fmt && !format_valid(col->fmt) && !msg)
			msg = xasprintf("table: '%s' is not a format for column '%s'",
			                col->fmt, col->field);
	}
	free(spec);
	const char *wtext = dir_opt(d, "where");
	if (!msg && !r->nrows)
		msg = xasprintf("table: no results for experiment '%s' yet", data);
	if (!msg && wtext && filter_parse(wtext, c->b, &where, &err) != 0)
		msg = xasprintf("table: where: %s", err);
	for (size_t k = 0; !msg && k < ncols; k++) {
		int known = 0;
		for (size_t i = 0; i < r->nrows && !known; i++)
			known = cJSON_GetObjectItemCaseSensitive(r->rows[i], cols[k].field) != NULL;
		if (!known)
			msg = xasprintf("table: experiment '%s' has no field '%s'", data,
			                cols[k].field);
	}
	if (msg) {
		int line = dir_opt_line(d, strstr(msg, "where") ? "where" : "columns");
		diag_at(c->ch->path, line, "%s", msg);
		char *full = xasprintf("%s:%d: %s", c->ch->path, line, msg);
		error_box(out, "This table could not be made:", full, NULL);
		free(full);
		c->errors++;
		goto out;
	}
	for (size_t i = 0; i < r->nrows; i++)
		if (filter_match(&where, r->rows[i]))
			*ARRAY_PUSH(rows, nrows) = r->rows[i];
	const char *sort = dir_opt(d, "sort");
	if (sort) {
		char *s = xstrdup(sort);
		char *sp = strchr(s, ' ');
		sort_desc = sp && strstr(sp, "desc");
		if (sp)
			*sp = '\0';
		sort_field = s;
		qsort(rows, nrows, sizeof *rows, cmp_rows);
		free(s);
	}
	buf_puts(out, "<div class=\"table-wrap\"><table class=\"records\">");
	const char *caption = dir_opt(d, "caption");
	if (caption) {
		buf_puts(out, "<caption>");
		buf_puts_html(out, caption);
		buf_puts(out, "</caption>");
	}
	buf_puts(out, "<thead><tr>");
	for (size_t k = 0; k < ncols; k++) {
		buf_puts(out, "<th scope=\"col\">");
		buf_puts_html(out, cols[k].field);
		buf_puts(out, "</th>");
	}
	buf_puts(out, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < nrows; i++) {
		buf_puts(out, row_wrong(rows[i]) ? "<tr class=\"wrong\">" : "<tr>");
		for (size_t k = 0; k < ncols; k++) {
			buf_puts(out, "<td>");
			cell_html(out, cJSON_GetObjectItemCaseSensitive(rows[i], cols[k].field),
			          cols[k].fmt);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
out:
	for (size_t k = 0; k < ncols; k++) {
		free(cols[k].field);
		free(cols[k].fmt);
	}
	free(cols);
	free(rows);
	free(msg);
	free(err);
	filter_free(&where);
}

static void render_block(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	if (d->error) {
		error_box(out, "This directive is wrong:", d->error, NULL);
		c->errors++;
		return;
	}
	switch (d->kind) {
	case DIR_EXPERIMENT: render_experiment(c, d, out); break;
	case DIR_CHART: render_chart(c, d, out); break;
	case DIR_TABLE: render_table(c, d, out); break;
	}
}

/* Replace the markers of the chapter's HTML with generated content. */
static void expand(struct page_ctx *c, const char *html, struct buf *out)
{
	const char *p = html;
	for (;;) {
		const char *m = strstr(p, MARK_OPEN);
		if (!m) {
			buf_puts(out, p);
			return;
		}
		const char *end = strstr(m, MARK_CLOSE);
		if (!end) {
			buf_puts(out, p);
			return;
		}
		char kind = m[3];
		size_t idx = strtoul(m + 4, NULL, 10);
		if (kind == 'B' && idx < c->ch->ndirs) {
			/* cmark may wrap nothing around an HTML block; drop its newline. */
			buf_put(out, p, (size_t)(m - p));
			render_block(c, &c->ch->dirs[idx], out);
		} else if (kind == 'I' && idx < c->ch->ninl) {
			buf_put(out, p, (size_t)(m - p));
			render_inline(c, &c->ch->inl[idx], out);
		} else {
			buf_put(out, p, (size_t)(end - p));
		}
		p = end + strlen(MARK_CLOSE);
	}
}

/* ---- pages --------------------------------------------------------------------- */

struct tvar {
	const char *name;
	const char *value;
};

static char *template_fill(const char *tmpl, const struct tvar *vars, size_t n)
{
	struct buf out = BUF_INIT;
	const char *p = tmpl;
	for (;;) {
		const char *s = strstr(p, "{{");
		const char *e = s ? strstr(s, "}}") : NULL;
		if (!s || !e) {
			buf_puts(&out, p);
			break;
		}
		buf_put(&out, p, (size_t)(s - p));
		char *name = xstrndup(s + 2, (size_t)(e - s - 2));
		const char *val = NULL;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(vars[i].name, str_trim(name)))
				val = vars[i].value;
		buf_puts(&out, val ? val : "");
		free(name);
		p = e + 2;
	}
	return buf_detach(&out);
}

static int write_if_changed(const char *path, const char *data, int *written)
{
	size_t len = strlen(data), oldlen;
	char *old = file_read(path, &oldlen);
	int same = old && oldlen == len && !memcmp(old, data, len);
	free(old);
	if (same)
		return 0;
	if (mkdir_parents(path) != 0 || file_write_atomic(path, data, len) != 0)
		return -1;
	(*written)++;
	return 0;
}

static void banner(const struct bundle *b, const struct site_opts *o,
                   struct buf *out)
{
	const char *gpu = mstr(b, "gpu"), *date = mstr(b, "date");
	buf_puts(out, "<div class=\"banner\" role=\"note\">");
	if (!b->machine) {
		buf_puts(out, "No results bundle yet: run <code>make site</code> on a "
		              "machine with a GPU to measure this book.");
	} else {
		buf_puts(out, "Results measured on ");
		buf_puts(out, "<strong>");
		buf_puts_html(out, gpu ? gpu : "unknown GPU");
		buf_puts(out, "</strong>");
		if (mstr(b, "driver")) {
			buf_puts(out, ", driver ");
			buf_puts_html(out, mstr(b, "driver"));
		}
		if (mstr(b, "cuda_runtime")) {
			buf_puts(out, ", CUDA ");
			buf_puts_html(out, mstr(b, "cuda_runtime"));
		}
		if (date) {
			buf_puts(out, ", on ");
			buf_put_html(out, date, strcspn(date, "T"));
		}
		buf_puts(out, " · bundle <a href=\"provenance.html\"><code>");
		buf_puts_html(out, b->dir);
		buf_puts(out, "</code></a>");
		if (!o->gpu)
			buf_puts(out, ". This machine has no GPU, so the book shows "
			              "these recorded results; <code>make site</code> on "
			              "a GPU measures your own.");
	}
	buf_puts(out, "</div>");
}

static void toc(const struct book *bk, const struct chapter *cur,
                struct buf *out)
{
	buf_puts(out, "<ol class=\"toc\">\n");
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		buf_printf(out, "<li%s><a href=\"%s.html\"%s><span class=\"num\">%zu"
		           "</span> ", ch == cur ? " class=\"current\"" : "",
		           ch->name, ch == cur ? " aria-current=\"page\"" : "", i + 1);
		buf_puts_html(out, ch->title);
		buf_puts(out, "</a>");
		if (ch == cur) {
			int any = 0;
			for (size_t k = 0; k < ch->nheads; k++) {
				if (ch->heads[k].level != 2)
					continue;
				buf_puts(out, any ? "" : "\n<ol class=\"sections\">");
				any = 1;
				buf_printf(out, "<li><a href=\"#%s\">", ch->heads[k].id);
				buf_puts_html(out, ch->heads[k].text);
				buf_puts(out, "</a></li>");
			}
			if (any)
				buf_puts(out, "</ol>");
		}
		buf_puts(out, "</li>\n");
	}
	buf_puts(out, "</ol>\n");
}

static int page_write(const struct site_opts *o, const char *tmpl,
                      const char *file, const char *title, const char *toc_html,
                      const char *banner_html, const char *content,
                      const char *prev, const char *next, struct site_stats *st)
{
	char *full_title = xasprintf("%s%s%s", title, *title ? " · " : "", o->title);
	struct buf t = BUF_INIT;
	buf_puts_html(&t, full_title);
	struct buf book = BUF_INIT;
	buf_puts_html(&book, o->title);
	struct tvar vars[] = {
		{"title", t.data},       {"book", book.data},
		{"toc", toc_html},       {"banner", banner_html},
		{"content", content},    {"prev", prev},
		{"next", next},
	};
	char *html = template_fill(tmpl, vars, sizeof vars / sizeof vars[0]);
	char *path = path_join(o->dir, file);
	int rc = write_if_changed(path, html, &st->pages_written);
	free(path);
	free(html);
	free(full_title);
	buf_free(&t);
	buf_free(&book);
	return rc;
}

static char *nav_link(const struct chapter *ch, const char *rel, const char *label)
{
	if (!ch)
		return xstrdup("");
	struct buf b = BUF_INIT;
	buf_printf(&b, "<a class=\"%s\" rel=\"%s\" href=\"%s.html\">%s ", rel, rel,
	           ch->name, label);
	buf_puts_html(&b, ch->title);
	buf_puts(&b, "</a>");
	return buf_detach(&b);
}

static int chapter_page(struct page_ctx *c, const char *tmpl,
                        const char *banner_html, size_t i)
{
	struct book *bk = c->bk;
	struct buf body = BUF_INIT, content = BUF_INIT, nav = BUF_INIT;
	if (c->ch->error) {
		error_box(&body, "This chapter could not be read:", c->ch->error, NULL);
		c->errors++;
	} else {
		expand(c, c->ch->html, &body);
	}
	if (c->claims_failed)
		buf_printf(&content, "<p class=\"claims-summary fails\" role=\"alert\">"
		           "%d of the %d claims this chapter makes do not hold on the "
		           "card these numbers come from; they are marked ✗ below.</p>\n",
		           c->claims_failed, c->claims);
	else if (c->claims)
		buf_printf(&content, "<p class=\"claims-summary holds\">All %d claims "
		           "this chapter makes hold on the card these numbers come "
		           "from.</p>\n", c->claims);
	buf_printf(&content, "<div class=\"chapter-number\">Chapter %zu</div>\n", i + 1);
	buf_put(&content, body.data ? body.data : "", body.len);
	toc(bk, c->ch, &nav);
	char *prev = nav_link(i ? bk->chs[i - 1] : NULL, "prev", "←");
	char *next = nav_link(i + 1 < bk->nchs ? bk->chs[i + 1] : NULL, "next", "→");
	char *file = xasprintf("%s.html", c->ch->name);
	int rc = page_write(c->o, tmpl, file, c->ch->title, nav.data, banner_html,
	                    content.data, prev, next, c->st);
	free(file);
	free(prev);
	free(next);
	buf_free(&body);
	buf_free(&content);
	buf_free(&nav);
	return rc;
}

static void machine_table(const cJSON *obj, struct buf *out)
{
	buf_puts(out, "<div class=\"table-wrap\"><table class=\"records machine\">"
	              "<tbody>\n");
	const cJSON *f;
	cJSON_ArrayForEach(f, obj)
	{
		if (cJSON_IsObject(f))
			continue;
		buf_puts(out, "<tr><th scope=\"row\">");
		buf_puts_html(out, f->string);
		buf_puts(out, "</th><td>");
		cell_html(out, f, NULL);
		buf_puts(out, "</td></tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
}

static int machine_page(struct book *bk, struct bundle *b,
                        const struct site_opts *o, const char *tmpl,
                        const char *banner_html, struct site_stats *st)
{
	struct buf c = BUF_INIT, nav = BUF_INIT;
	buf_puts(&c, "<h1 id=\"machine\">The machine behind these numbers</h1>\n");
	if (!b->machine) {
		buf_puts(&c, "<p>This bundle has no <code>machine.json</code> yet.</p>");
	} else {
		buf_puts(&c, "<p>The facts recorded with the results bundle <code>");
		buf_puts_html(&c, b->dir);
		buf_puts(&c, "</code> (<a href=\"data/machine.json\">machine.json</a>)."
		             " Peak figures are derived: FP32 peak is lanes × 2 × "
		             "clock; DRAM bandwidth is memory clock × 2 × bus width."
		             "</p>\n");
		machine_table(b->machine, &c);
		const cJSON *m = cJSON_GetObjectItem(b->machine, "measured");
		if (cJSON_IsObject(m)) {
			buf_puts(&c, "<h2 id=\"measured\">Measured by the book's "
			             "experiments</h2>\n");
			machine_table(m, &c);
		}
	}
	toc(bk, NULL, &nav);
	int rc = page_write(o, tmpl, "provenance.html", "Machine", nav.data,
	                    banner_html, c.data, "", "", st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

static int runs_page(struct book *bk, struct bundle *b,
                     const struct site_opts *o, const char *tmpl,
                     const char *banner_html, struct site_stats *st)
{
	struct buf c = BUF_INIT, nav = BUF_INIT;
	double total = 0;
	buf_puts(&c, "<h1 id=\"runs\">Run log</h1>\n<p>Every experiment of the "
	             "book: when it last ran, how long it took, and whether this "
	             "build ran it (fresh), found it up to date (cached) or took "
	             "it from the recorded bundle.</p>\n<div class=\"table-wrap\">"
	             "<table class=\"records\"><thead><tr><th scope=\"col\">"
	             "experiment</th><th scope=\"col\">chapter</th><th scope=\"col\">"
	             "state</th><th scope=\"col\">seconds</th><th scope=\"col\">"
	             "records</th><th scope=\"col\">ran</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		struct exp_result *r = bundle_get(b, e->id);
		const cJSON *secs = r->meta ? cJSON_GetObjectItem(r->meta, "seconds") : NULL;
		const cJSON *date = r->meta ? cJSON_GetObjectItem(r->meta, "date") : NULL;
		double s = cJSON_IsNumber(secs) ? secs->valuedouble : 0;
		total += s;
		buf_printf(&c, "<tr%s><td><a href=\"%s.html#exp-%s\">%s</a></td><td>",
		           e->state == ST_FAILED ? " class=\"wrong\"" : "", e->ch->name,
		           e->id, e->id);
		buf_puts_html(&c, e->ch->title);
		buf_printf(&c, "</td><td><span class=\"state %s\">%s</span></td>"
		           "<td>%.1f</td><td>%zu</td><td>", state_name(e->state),
		           state_name(e->state), s, r->nrows);
		if (cJSON_IsString(date))
			buf_puts_html(&c, date->valuestring);
		buf_puts(&c, "</td></tr>\n");
	}
	buf_printf(&c, "</tbody></table></div>\n<p>%zu experiments, %.1f s of "
	           "measurement in all.</p>\n", bk->nexps, total);
	toc(bk, NULL, &nav);
	int rc = page_write(o, tmpl, "runs.html", "Run log", nav.data, banner_html,
	                    c.data, "", "", st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

struct chapter_summary {
	int claims, failed, errors;
};

static int index_page(struct book *bk, struct bundle *b,
                      const struct site_opts *o, const char *tmpl,
                      const char *banner_html, struct chapter_summary *sum,
                      struct site_stats *st)
{
	struct buf c = BUF_INIT, nav = BUF_INIT;
	buf_puts(&c, "<h1 id=\"top\">");
	buf_puts_html(&c, o->title);
	buf_puts(&c, "</h1>\n<p class=\"lead\">Every number in this book was "
	             "measured by the experiments it describes, and every claim "
	             "it makes is checked against those numbers when the book is "
	             "built.</p>\n<ol class=\"contents\">\n");
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		buf_printf(&c, "<li><a href=\"%s.html\"><span class=\"num\">%zu</span> ",
		           ch->name, i + 1);
		buf_puts_html(&c, ch->title);
		buf_puts(&c, "</a> <span class=\"meta\">");
		if (sum[i].claims)
			buf_printf(&c, "%d claim%s, %s", sum[i].claims,
			           sum[i].claims > 1 ? "s" : "",
			           sum[i].failed ? "" : "all hold");
		if (sum[i].failed)
			buf_printf(&c, "<strong class=\"fails\">%d do%s not hold</strong>",
			           sum[i].failed, sum[i].failed > 1 ? "" : "es");
		if (sum[i].errors)
			buf_printf(&c, " · <strong class=\"fails\">%d problem%s</strong>",
			           sum[i].errors, sum[i].errors > 1 ? "s" : "");
		buf_puts(&c, "</span></li>\n");
	}
	buf_puts(&c, "</ol>\n<p><a href=\"provenance.html\">The machine</a> behind "
	             "the numbers · <a href=\"runs.html\">Run log</a></p>\n");
	toc(bk, NULL, &nav);
	(void)b;
	int rc = page_write(o, tmpl, "index.html", "", nav.data, banner_html,
	                    c.data, "", bk->nchs ? "" : "", st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

static int copy_if_changed(const char *src, const char *dst, int *written)
{
	size_t len;
	char *data = file_read(src, &len);
	if (!data) {
		diag("cannot read %s: %s", src, strerror(errno));
		return -1;
	}
	size_t oldlen;
	char *old = file_read(dst, &oldlen);
	int rc = 0;
	if (!old || oldlen != len || memcmp(old, data, len)) {
		rc = mkdir_parents(dst) == 0 ? file_write_atomic(dst, data, len) : -1;
		(*written)++;
	}
	free(old);
	free(data);
	return rc;
}

static int copy_assets(struct book *bk, struct bundle *b,
                       const struct site_opts *o, struct site_stats *st)
{
	int rc = 0, dummy = 0;
	char *css = path_join(o->templates, "style.css");
	char *dst = path_join(o->dir, "style.css");
	rc |= copy_if_changed(css, dst, &dummy);
	free(css);
	free(dst);
	if (b->machine) {
		char *src = path_join(b->dir, "machine.json");
		dst = path_join(o->dir, "data/machine.json");
		if (file_exists(src))
			rc |= copy_if_changed(src, dst, &dummy);
		free(src);
		free(dst);
	}
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		for (int k = 0; k < 2; k++) {
			const char *suffix = k ? "_ptxas" : "";
			char *rec = xasprintf("%s/%s%s.jsonl", b->dir, e->id, suffix);
			dst = xasprintf("%s/data/%s%s.jsonl", o->dir, e->id, suffix);
			if (file_exists(rec))
				rc |= copy_if_changed(rec, dst, &dummy);
			free(rec);
			free(dst);
		}
		if (!e->source_ok)
			continue;
		dst = xasprintf("%s/src/%s", o->dir, e->source);
		if (file_exists(e->source))
			rc |= copy_if_changed(e->source, dst, &dummy);
		free(dst);
	}
	(void)st;
	return rc ? -1 : 0;
}

int site_render(struct book *bk, struct bundle *b, const struct site_opts *o,
                struct site_stats *st)
{
	memset(st, 0, sizeof *st);
	char *tpath = path_join(o->templates, "page.html");
	char *tmpl = file_read(tpath, NULL);
	if (!tmpl) {
		diag("cannot read the page template %s: %s", tpath, strerror(errno));
		free(tpath);
		return -1;
	}
	free(tpath);
	if (mkdir_p(o->dir) != 0) {
		free(tmpl);
		return -1;
	}
	int rc = copy_assets(bk, b, o, st);
	struct buf ban = BUF_INIT;
	banner(b, o, &ban);
	struct chapter_summary *sum = xcalloc(bk->nchs ? bk->nchs : 1, sizeof *sum);
	for (size_t i = 0; i < bk->nchs; i++) {
		struct page_ctx c = {bk, b, o, st, bk->chs[i], (int)i + 1, 0, 0, 0, 0};
		rc |= chapter_page(&c, tmpl, ban.data, i);
		sum[i] = (struct chapter_summary){c.claims, c.claims_failed, c.errors};
		st->errors += c.errors;
		st->claims += c.claims;
		st->claims_failed += c.claims_failed;
	}
	rc |= index_page(bk, b, o, tmpl, ban.data, sum, st);
	rc |= machine_page(bk, b, o, tmpl, ban.data, st);
	rc |= runs_page(bk, b, o, tmpl, ban.data, st);
	free(sum);
	buf_free(&ban);
	free(tmpl);
	return rc ? -1 : 0;
}
