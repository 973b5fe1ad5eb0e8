#include "site.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "chapter.h"
#include "expr.h"
#include "highlight.h"
#include "listing.h"
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
	int tables;   /* tables so far on this page */
	int claims, claims_failed, errors;
	cJSON *search; /* the search index, which the page adds its sections to */
	char *lead;    /* the chapter's first sentence, once the page is made */
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
	} else if (cJSON_IsArray(c)) {
		const cJSON *item;
		const char *sep = "";
		cJSON_ArrayForEach(item, c)
		{
			buf_puts(out, sep);
			cell_html(out, item, fmt);
			sep = ", ";
		}
	}
}

/* " on <GPU>", and which of the bundle's GPUs where several shared the
 * experiments; uuid (may be NULL) is the one an experiment ran on. */
static void gpu_html(struct buf *out, const struct bundle *b, const char *uuid)
{
	const cJSON *all = b->machine ? cJSON_GetObjectItem(b->machine, "gpu_uuids")
	                              : NULL;
	buf_puts(out, " on ");
	buf_puts_html(out, mstr(b, "gpu"));
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

static int row_wrong(const cJSON *row)
{
	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"));
}

/* A box that scrolls a wide table on a narrow screen, from the keyboard too. */
static void table_wrap_open(struct buf *out, const char *label, const char *id)
{
	buf_puts(out, "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" "
	              "aria-label=\"");
	buf_puts_html(out, label);
	if (id) {
		buf_puts(out, " ");
		buf_puts_html(out, id);
	}
	buf_puts(out, "\">");
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
			buf_printf(out, "<span class=\"check %s\" ",
			           holds ? "holds" : "fails");
			/* The Machines page links to each claim. */
			if (c->o->machines && c->o->machines->n > 1)
				buf_printf(out, "id=\"claim-%zu\" ",
				           (size_t)(e - c->ch->inl));
			buf_puts(out, "title=\"");
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

/* The state as one word, for a class attribute. */
static const char *state_class(enum exp_state s)
{
	return s == ST_MISSING ? "missing" : state_name(s);
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
	table_wrap_open(out, label, r->id);
	buf_puts(out, "<table class=\"records\"><thead><tr>");
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
	           e ? state_class(e->state) : "failed",
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
			buf_printf(out, "</code> (%d lines)</summary>\n<p class=\"files\">"
			           "<a href=\"src/", lines);
			buf_puts_html(out, e->source);
			buf_puts(out, "\">The source file</a>, to download or read "
			              "whole.</p>\n<pre class=\"code\" tabindex=\"0\">"
			              "<code>");
			highlight_c(out, src, len);
			buf_puts(out, "</code></pre></details>\n");
			free(src);
		}
	}
	const cJSON *m = r->meta;
	if (shows(d, "command") && e) {
		buf_puts(out, "<div class=\"command\"><p><span class=\"prompt\">$</span> "
		              "<code>");
		buf_puts_html(out, e->compile_cmd ? e->compile_cmd : "");
		buf_puts(out, "</code></p><p><span class=\"prompt\">$</span> <code>");
		buf_puts_html(out, e->run_cmd ? e->run_cmd : "");
		buf_puts(out, "</code></p></div>\n");
	}
	if (shows(d, "output") && r->out) {
		buf_puts(out, "<details class=\"output\" open><summary>Output</summary>"
		              "<pre class=\"output\" tabindex=\"0\">");
		buf_put_html(out, r->out, r->out_len);
		buf_puts(out, "</pre></details>\n");
	}
	char *res_id = xasprintf("%s_ptxas", d->id);
	struct exp_result *res = bundle_get(c->b, res_id);
	if (res->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Registers, "
		           "shared memory and spills per kernel (ptxas, %zu kernels)"
		           "</summary>\n<p class=\"files\"><a href=\"data/%s.jsonl\">"
		           "The ptxas report as JSON lines</a></p>\n", res->nrows,
		           res_id);
		records_table(out, res, "ptxas report of");
		buf_puts(out, "</details>\n");
	}
	free(res_id);
	if (r->nrows) {
		buf_printf(out, "<details class=\"records\"><summary>Records (%zu)"
		           "</summary>\n<p class=\"files\"><a href=\"data/%s.jsonl\">"
		           "All %zu records as JSON lines</a></p>\n", r->nrows, d->id,
		           r->nrows);
		records_table(out, r, "records of");
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
		if (mstr(c->b, "gpu") && e && e->cuda)
			gpu_html(out, c->b, cJSON_GetStringValue(cJSON_GetObjectItem(m, "gpu_uuid")));
		const cJSON *runs = cJSON_GetObjectItem(m, "runs");
		buf_printf(out, " in %.1f s", cJSON_IsNumber(secs) ? secs->valuedouble : 0.0);
		if (cJSON_IsNumber(runs) && runs->valuedouble > 1)
			buf_printf(out, " (%.0f runs)", runs->valuedouble);
		buf_printf(out, " · %s · bundle <a href=\"provenance.html\">",
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

/*
 * The name of a chart's data, linked to the experiment that made it: on
 * this page or another, and for derived records (ilp_ptxas) the
 * experiment they come with. Plain text when there is none.
 */
static void data_link(struct page_ctx *c, const char *data, struct buf *out)
{
	const struct exper *e = book_find(c->bk, data);
	char *base = xstrdup(data);
	for (char *u = strrchr(base, '_'); !e && u; u = strrchr(base, '_')) {
		*u = '\0';
		e = book_find(c->bk, base);
	}
	free(base);
	if (e) {
		buf_puts(out, "<a href=\"");
		if (e->ch != c->ch)
			buf_printf(out, "%s.html", e->ch->name);
		buf_printf(out, "#exp-%s\">", e->id);
	}
	buf_puts_html(out, data);
	if (e)
		buf_puts(out, "</a>");
}

static void render_chart(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	struct plot p;
	int rc = machines_chart(d, c->ch->path, c->o->machines, c->b, c->o->dir,
	                        &p);
	c->figures++;
	buf_printf(out, "<figure class=\"chart\" id=\"fig-%s\">\n", d->id);
	const char *caption = dir_opt(d, "caption");
	if (rc != 0 || !p.svg) {
		error_box(out, "This chart could not be drawn:", p.error, NULL);
		if (rc != 0)
			c->errors++;
	} else if (p.drawn) {
		/* Phones get the narrow drawing: its text stays legible. */
		buf_printf(out, "<a class=\"chart-full\" href=\"%s\"><picture>"
		           "<source media=\"(max-width: 36rem)\" srcset=\"%s\" "
		           "width=\"%d\" height=\"%d\"><img src=\"%s\" width=\"%d\" "
		           "height=\"%d\" loading=\"lazy\" alt=\"", p.svg, p.svg_narrow,
		           p.narrow_width, p.narrow_height, p.svg, p.width, p.height);
		buf_puts_html(out, p.alt);
		buf_puts(out, "\"></picture></a>\n");
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
	if (p.coincide) {
		buf_puts(out, " ");
		buf_puts_html(out, p.coincide);
	}
	buf_puts(out, " <span class=\"figmeta\">Records of ");
	data_link(c, dir_opt(d, "data"), out);
	buf_puts(out, ", bundle ");
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
	const char *caption = dir_opt(d, "caption");
	char *label = xasprintf("records of %s, table %d", data, ++c->tables);
	table_wrap_open(out, caption ? caption : label, NULL);
	free(label);
	buf_puts(out, "<table class=\"records\">");
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

static void render_sass(struct page_ctx *c, const struct directive *d,
                        struct buf *out)
{
	char *err = NULL;
	const char *caption = dir_opt(d, "caption");
	buf_puts(out, "<figure class=\"listing\">\n");
	if (listing_sass(out, c->b, dir_opt(d, "experiment"), dir_opt(d, "kernel"),
	                 dir_opt(d, "mark"), &err) != 0) {
		diag_at(c->ch->path, d->line, "{sass}: %s", err);
		char *msg = xasprintf("%s:%d: %s", c->ch->path, d->line, err);
		error_box(out, "This listing could not be shown:", msg, NULL);
		free(msg);
		free(err);
		c->errors++;
	}
	if (caption) {
		buf_puts(out, "<figcaption>");
		buf_puts_html(out, caption);
		buf_puts(out, "</figcaption>\n");
	}
	buf_puts(out, "</figure>\n");
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
	case DIR_SASS: render_sass(c, d, out); break;
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
			buf_puts(out, ", on <span class=\"nowrap\">");
			buf_put_html(out, date, strcspn(date, "T"));
			buf_puts(out, "</span>");
		}
		buf_puts(out, " · bundle <a href=\"provenance.html\"><code>");
		buf_puts_html(out, b->dir);
		buf_puts(out, "</code></a>");
		if (o->machines && o->machines->n > 1)
			buf_printf(out, " · compared with <a href=\"machines.html\">%zu "
			           "other machine%s</a>", o->machines->n - 1,
			           o->machines->n > 2 ? "s" : "");
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
	buf_puts(out, "</ol>\n<p class=\"aux\"><a href=\"provenance.html\">Machine"
	              "</a> · <a href=\"runs.html\">Run log</a> · <a href=\"search"
	              ".html\">Search</a></p>\n");
}

/* What a page template is filled with; every field but file is HTML. */
struct page {
	const char *file;    /* under the site folder */
	const char *title;   /* plain text; "" for the book's own title */
	const char *toc;
	const char *banner;
	const char *content;
	const char *prev, *next; /* links to the neighbouring pages, or "" */
	const char *scripts;     /* script elements, or "" */
};

static int page_write(const struct site_opts *o, const char *tmpl,
                      const struct page *pg, struct site_stats *st)
{
	char *full_title = xasprintf("%s%s%s", pg->title, *pg->title ? " · " : "",
	                             o->title);
	struct buf t = BUF_INIT, book = BUF_INIT, pager = BUF_INIT;
	buf_puts_html(&t, full_title);
	buf_puts_html(&book, o->title);
	if (*pg->prev || *pg->next)
		buf_printf(&pager, "<nav class=\"pager\" aria-label=\"Previous and "
		           "next chapter\">%s%s</nav>", pg->prev, pg->next);
	struct tvar vars[] = {
		{"title", t.data},          {"book", book.data},
		{"toc", pg->toc},           {"banner", pg->banner},
		{"content", pg->content},   {"pager", pager.data},
		{"scripts", pg->scripts},
	};
	char *html = template_fill(tmpl, vars, sizeof vars / sizeof vars[0]);
	char *path = path_join(o->dir, pg->file);
	int rc = write_if_changed(path, html, &st->pages_written);
	free(path);
	free(html);
	free(full_title);
	buf_free(&t);
	buf_free(&book);
	buf_free(&pager);
	return rc;
}

static char *nav_link(const struct chapter *ch, const char *rel, const char *label)
{
	if (!ch)
		return xstrdup("");
	struct buf b = BUF_INIT;
	buf_printf(&b, "<a class=\"%s\" rel=\"%s\" href=\"%s.html\"><span "
	           "class=\"dir\">%s</span> ", rel, rel, ch->name, label);
	buf_puts_html(&b, ch->title);
	buf_puts(&b, "</a>");
	return buf_detach(&b);
}

/* ---- search -------------------------------------------------------------------- */

/* Generated detail that the search index leaves out: it is not prose. */
static const struct {
	const char *open, *close;
} search_skip[] = {
	{"<section class=\"experiment\"", "</section>"},
	{"<pre", "</pre>"},
	{"<span class=\"check", "</span>"},
	{"<span class=\"inline-error\"", "</span>"},
	{"<span class=\"figmeta\"", "</span>"},
	{"<a class=\"anchor\"", "</a>"},
	{"<div class=\"error-box\"", "</div>"},
};

/* Is tag (at its '<') one that sits inside a word's line, not between blocks? */
static int tag_inline(const char *tag)
{
	static const char *names[] = {"a", "abbr", "b", "code", "del", "em", "i",
	                              "kbd", "mark", "span", "strong", "sub",
	                              "sup", NULL};
	const char *p = tag + 1 + (tag[1] == '/');
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789");
	for (const char **k = names; *k; k++)
		if (strlen(*k) == n && !strncmp(*k, p, n))
			return 1;
	return 0;
}

/* Append the character of the entity at p; returns its length, or 0. */
static size_t entity_text(const char *p, struct buf *out)
{
	static const char *ents[][2] = {
		{"&amp;", "&"},   {"&lt;", "<"}, {"&gt;", ">"},
		{"&quot;", "\""}, {"&#39;", "'"}, {"&nbsp;", " "},
	};
	for (size_t i = 0; i < sizeof ents / sizeof ents[0]; i++)
		if (str_starts(p, ents[i][0])) {
			buf_puts(out, ents[i][1]);
			return strlen(ents[i][0]);
		}
	return 0;
}

/* Append the words of html[0, len) to out: no tags, one space between. */
static void html_words(const char *html, size_t len, struct buf *out)
{
	const char *p = html, *end = html + len;
	int space = 0;
	while (p < end) {
		size_t k = 0, nskip = sizeof search_skip / sizeof search_skip[0];
		if (*p == '<') {
			while (k < nskip && !str_starts(p, search_skip[k].open))
				k++;
			const char *e = k < nskip ? strstr(p, search_skip[k].close)
			                          : memchr(p, '>', (size_t)(end - p));
			space |= k < nskip || !tag_inline(p);
			p = e && e < end ? e + (k < nskip ? strlen(search_skip[k].close)
			                                  : 1) : end;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			space = 1;
			p++;
			continue;
		}
		if (space && out->len)
			buf_putc(out, ' ');
		space = 0;
		size_t n = *p == '&' ? entity_text(p, out) : 0;
		if (!n) {
			/* A run of plain text goes in at once. */
			n = 1;
			while (p + n < end && p[n] != '<' && p[n] != '&' &&
			       !isspace((unsigned char)p[n]))
				n++;
			buf_put(out, p, n);
		}
		p += n;
	}
}

/* The next heading that search can link to (h1 to h3, with an id), or NULL. */
static const char *next_heading(const char *p)
{
	for (; (p = strstr(p, "<h")); p++)
		if (p[2] >= '1' && p[2] <= '3' && str_starts(p + 3, " id=\""))
			return p;
	return NULL;
}

/* The first sentence of text, cut at a word when it is long; caller frees. */
static char *first_sentence(const char *text)
{
	size_t n = strlen(text);
	for (size_t i = 40; i + 1 < n; i++)
		if (strchr(".?!", text[i]) && text[i + 1] == ' ') {
			n = i + 1;
			break;
		}
	if (n <= 240)
		return xstrndup(text, n);
	while (n > 0 && (n > 230 || text[n] != ' '))
		n--;
	return xasprintf("%.*s …", (int)n, text);
}

/*
 * Add one entry per section of a chapter's HTML (its h1, h2 and h3) to the
 * search index: the page, the chapter and the section's words. *lead gets
 * the first sentence of the chapter (caller frees).
 */
static void search_entry(cJSON *index, const struct chapter *ch, int number,
                         const char *url, const char *title, const char *text)
{
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "u", url);
	cJSON_AddNumberToObject(e, "n", number);
	cJSON_AddStringToObject(e, "c", ch->title);
	cJSON_AddStringToObject(e, "s", title);
	cJSON_AddStringToObject(e, "t", text);
	cJSON_AddItemToArray(index, e);
}

static void search_add(cJSON *index, const struct chapter *ch, int number,
                       const char *html, char **lead)
{
	struct buf title = BUF_INIT, text = BUF_INIT;
	const char *h = next_heading(html);
	char *url = xasprintf("%s.html", ch->name);
	/* Words before the first heading belong to the page as a whole. */
	html_words(html, h ? (size_t)(h - html) : strlen(html), &text);
	if (text.len) {
		search_entry(index, ch, number, url, ch->title, text.data);
		*lead = first_sentence(text.data);
	}
	while (h) {
		char level = h[2], close[] = "</h1>";
		const char *id = h + strlen("<h1 id=\""), *gt = strchr(h, '>');
		close[3] = level;
		const char *end = strstr(h, close);
		if (!gt || !end)
			break;
		buf_reset(&title);
		buf_reset(&text);
		html_words(gt + 1, (size_t)(end - gt - 1), &title);
		const char *body = end + strlen(close);
		h = next_heading(body);
		html_words(body, h ? (size_t)(h - body) : strlen(body), &text);
		free(url);
		url = level == '1' ? xasprintf("%s.html", ch->name)
		    : xasprintf("%s.html#%.*s", ch->name, (int)strcspn(id, "\""), id);
		search_entry(index, ch, number, url, title.len ? title.data : "",
		             text.len ? text.data : "");
		if (!*lead && text.len)
			*lead = first_sentence(text.data);
	}
	free(url);
	buf_free(&title);
	buf_free(&text);
}

static int search_index_write(cJSON *index, const struct site_opts *o)
{
	char *json = cJSON_PrintUnformatted(index);
	/* The index is megabytes: put it, no printf over it. */
	struct buf js = BUF_INIT;
	buf_puts(&js, "/* The search index of search.html, written by labbook. */\n"
	              "var LABBOOK_INDEX = ");
	buf_puts(&js, json);
	buf_puts(&js, ";\n");
	char *path = path_join(o->dir, "search-index.js");
	int dummy = 0, rc = write_if_changed(path, js.data, &dummy);
	free(path);
	buf_free(&js);
	free(json);
	return rc;
}

/* Without JavaScript the search page lists every section of the book. */
static int search_page(struct book *bk, const struct site_opts *o,
                       const char *tmpl, const char *banner_html,
                       struct site_stats *st)
{
	struct buf c = BUF_INIT, nav = BUF_INIT;
	buf_puts(&c, "<h1 id=\"search\">Search</h1>\n<form class=\"search-page\" "
	             "id=\"search-form\" action=\"search.html\" role=\"search\" "
	             "aria-label=\"Search the chapters\">"
	             "<label for=\"q\">Words to find in the chapters</label> "
	             "<input type=\"search\" id=\"q\" name=\"q\" autocomplete="
	             "\"off\"> <button type=\"submit\">Search</button></form>\n"
	             "<p id=\"search-status\" class=\"search-status\" role=\"status\">"
	             "Searching needs JavaScript. Without it, here is every section "
	             "of the book.</p>\n<ol id=\"search-results\" class=\"search-"
	             "results\">\n");
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		buf_printf(&c, "<li><a href=\"%s.html\"><span class=\"num\">%zu</span> ",
		           ch->name, i + 1);
		buf_puts_html(&c, ch->title);
		buf_puts(&c, "</a>");
		int any = 0;
		for (size_t k = 0; k < ch->nheads; k++) {
			if (ch->heads[k].level != 2)
				continue;
			buf_puts(&c, any ? "" : "<ol class=\"sections\">");
			any = 1;
			buf_printf(&c, "<li><a href=\"%s.html#%s\">", ch->name,
			           ch->heads[k].id);
			buf_puts_html(&c, ch->heads[k].text);
			buf_puts(&c, "</a></li>");
		}
		buf_puts(&c, any ? "</ol></li>\n" : "</li>\n");
	}
	buf_puts(&c, "</ol>\n");
	toc(bk, NULL, &nav);
	struct page pg = {"search.html", "Search", nav.data, banner_html, c.data,
	                  "", "", "<script src=\"search-index.js\" defer></script>\n"
	                  "<script src=\"search.js\" defer></script>\n"};
	int rc = page_write(o, tmpl, &pg, st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

/* ---- chapters, index and the bundle's pages ----------------------------------- */

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
	search_add(c->search, c->ch, c->number, body.data ? body.data : "", &c->lead);
	/* The claims summary goes under the title, when there is one. */
	const char *h1 = body.data ? strstr(body.data, "</h1>\n") : NULL;
	size_t head = h1 ? (size_t)(h1 - body.data) + 6 : 0;
	buf_printf(&content, "<div class=\"chapter-number\">Chapter %zu</div>\n", i + 1);
	buf_put(&content, body.data ? body.data : "", head);
	if (c->claims_failed)
		buf_printf(&content, "<p class=\"claims-summary fails\" role=\"alert\">"
		           "%d of the %d claims this chapter makes do not hold on the "
		           "card these numbers come from; they are marked ✗ below.</p>\n",
		           c->claims_failed, c->claims);
	else if (c->claims)
		buf_printf(&content, "<p class=\"claims-summary holds\">All %d claims "
		           "this chapter makes hold on the card these numbers come "
		           "from.</p>\n", c->claims);
	buf_put(&content, body.data ? body.data + head : "", body.len - head);
	toc(bk, c->ch, &nav);
	char *prev = nav_link(i ? bk->chs[i - 1] : NULL, "prev", "← Previous");
	char *next = nav_link(i + 1 < bk->nchs ? bk->chs[i + 1] : NULL, "next",
	                      "Next →");
	char *file = xasprintf("%s.html", c->ch->name);
	struct page pg = {file, c->ch->title, nav.data, banner_html, content.data,
	                  prev, next, ""};
	int rc = page_write(c->o, tmpl, &pg, c->st);
	free(file);
	free(prev);
	free(next);
	buf_free(&body);
	buf_free(&content);
	buf_free(&nav);
	return rc;
}

static void machine_table(const cJSON *obj, const char *label, struct buf *out)
{
	table_wrap_open(out, label, NULL);
	buf_puts(out, "<table class=\"records machine\"><tbody>\n");
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
		machine_table(b->machine, "machine facts", &c);
		const cJSON *m = cJSON_GetObjectItem(b->machine, "measured");
		if (cJSON_IsObject(m)) {
			buf_puts(&c, "<h2 id=\"measured\">Measured by the book's "
			             "experiments</h2>\n");
			machine_table(m, "measured facts", &c);
		}
	}
	toc(bk, NULL, &nav);
	struct page pg = {"provenance.html", "Machine", nav.data, banner_html,
	                  c.data, "", "", ""};
	int rc = page_write(o, tmpl, &pg, st);
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
	             "it from the recorded bundle.</p>\n");
	table_wrap_open(&c, "run log", NULL);
	buf_puts(&c, "<table class=\"records\"><thead><tr><th scope=\"col\">"
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
		           "<td>%.1f</td><td>%zu</td><td>", state_class(e->state),
		           state_name(e->state), s, r->nrows);
		if (cJSON_IsString(date))
			buf_puts_html(&c, date->valuestring);
		buf_puts(&c, "</td></tr>\n");
	}
	buf_printf(&c, "</tbody></table></div>\n<p>%zu experiments, %.1f s of "
	           "measurement in all.</p>\n", bk->nexps, total);
	toc(bk, NULL, &nav);
	struct page pg = {"runs.html", "Run log", nav.data, banner_html, c.data,
	                  "", "", ""};
	int rc = page_write(o, tmpl, &pg, st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

/* machines.html, where other bundles were put beside this one. */
static int machines_page(struct book *bk, const struct site_opts *o,
                         const char *tmpl, const char *banner_html,
                         struct site_stats *st)
{
	struct buf c = BUF_INIT, nav = BUF_INIT;
	machines_page_html(bk, o->machines, &c);
	toc(bk, NULL, &nav);
	struct page pg = {"machines.html", "Machines", nav.data, banner_html,
	                  c.data, "", "", ""};
	int rc = page_write(o, tmpl, &pg, st);
	buf_free(&c);
	buf_free(&nav);
	return rc;
}

struct chapter_summary {
	int claims, failed, errors;
	char *lead; /* the chapter's first sentence, plain text, or NULL */
};

static int index_page(struct book *bk, const struct site_opts *o,
                      const char *tmpl, const char *banner_html,
                      const struct chapter_summary *sum, struct site_stats *st)
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
		buf_printf(&c, "<li><a href=\"%s.html\"><span class=\"num\">%zu</span> "
		           "<span class=\"title\">", ch->name, i + 1);
		buf_puts_html(&c, ch->title);
		buf_puts(&c, "</span></a>");
		if (sum[i].lead) {
			buf_puts(&c, "\n<p class=\"blurb\">");
			buf_puts_html(&c, sum[i].lead);
			buf_puts(&c, "</p>");
		}
		buf_puts(&c, "\n<p class=\"meta\">");
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
		buf_puts(&c, "</p></li>\n");
	}
	buf_puts(&c, "</ol>\n<p class=\"aux-links\"><a href=\"provenance.html\">"
	             "The machine</a> behind the numbers · <a href=\"runs.html\">"
	             "Run log</a> · <a href=\"search.html\">Search</a></p>\n");
	toc(bk, NULL, &nav);
	char *next = nav_link(bk->nchs ? bk->chs[0] : NULL, "next",
	                      "Start reading →");
	struct page pg = {"index.html", "", nav.data, banner_html, c.data, "",
	                  next, ""};
	int rc = page_write(o, tmpl, &pg, st);
	free(next);
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
	char *dst;
	static const char *assets[] = {"style.css", "search.js"};
	for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) {
		char *src = path_join(o->templates, assets[i]);
		dst = path_join(o->dir, assets[i]);
		rc |= copy_if_changed(src, dst, &dummy);
		free(src);
		free(dst);
	}
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
	cJSON *index = cJSON_CreateArray();
	for (size_t i = 0; i < bk->nchs; i++) {
		struct page_ctx c = {bk, b, o, st, bk->chs[i], (int)i + 1, 0, 0,
		                     0, 0, 0, index, NULL};
		rc |= chapter_page(&c, tmpl, ban.data, i);
		sum[i] = (struct chapter_summary){c.claims, c.claims_failed, c.errors,
		                                  c.lead};
		st->errors += c.errors;
		st->claims += c.claims;
		st->claims_failed += c.claims_failed;
	}
	rc |= index_page(bk, o, tmpl, ban.data, sum, st);
	rc |= machine_page(bk, b, o, tmpl, ban.data, st);
	rc |= runs_page(bk, b, o, tmpl, ban.data, st);
	if (o->machines && o->machines->n > 1)
		rc |= machines_page(bk, o, tmpl, ban.data, st);
	rc |= search_page(bk, o, tmpl, ban.data, st);
	rc |= search_index_write(index, o);
	cJSON_Delete(index);
	for (size_t i = 0; i < bk->nchs; i++)
		free(sum[i].lead);
	free(sum);
	buf_free(&ban);
	free(tmpl);
	return rc ? -1 : 0;
}
