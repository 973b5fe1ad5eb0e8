/* table.c - a {table} directive: chosen columns of an experiment's
 * records, filtered and sorted.
 *
 *   columns: kernel "Kernel", gbps "GB/s" %.0f, correct
 *
 * Each column is a field, then optionally a header in double quotes and a
 * printf format. A column whose cells are all numbers is marked "num"
 * (right-aligned, tabular figures). */
#define _GNU_SOURCE /* qsort_r */
#include "render/table.h"

#include <stdlib.h>
#include <string.h>

#include "render/box.h"
#include "judge/judge.h"
#include "judge/view.h"
#include "render/machines.h"
#include "book/format.h"
#include "base/util.h"

/* Rows a page shows; the records file has them all. */
#define TABLE_MAX_ROWS 400

/* The order of a table's rows: by field, descending or not. */
struct sort_by {
	const char *field;
	int desc;
};

static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct sort_by *by = arg;
	const char *sort_field = by->field;
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
	return by->desc ? -r : r;
}

/*
 * Profiler records have a row per launch, so a kernel launched twice is
 * listed twice: say so, when the table does not show the launch.
 */
static void launches_note(const cJSON **rows, size_t n, const struct table_col *cols,
                          size_t ncols, struct buf *out)
{
	if (!n || !ncols || !cJSON_GetObjectItemCaseSensitive(rows[0], "launch"))
		return;
	for (size_t k = 0; k < ncols; k++)
		if (!strcmp(cols[k].field, "launch"))
			return;
	size_t most = 1;
	for (size_t i = 0; i < n; i++) {
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(rows[i], cols[0].field);
		size_t same = 0;
		for (size_t j = 0; j < n; j++)
			same += cJSON_Compare(a, cJSON_GetObjectItemCaseSensitive(
			                             rows[j], cols[0].field), 1);
		if (same > most)
			most = same;
	}
	if (most > 1)
		buf_printf(out, "<p class=\"note\">One row per profiled launch, so "
		           "a %s appears up to %zu times: the program launched it "
		           "more than once.</p>\n",
		           cols[0].label ? cols[0].label : cols[0].field, most);
}

void table_html(struct page_ctx *c, const struct directive *d,
                struct buf *out)
{
	const char *data = dir_opt(d, "data"), *sort = dir_opt(d, "sort");
	if (data_needs(c, data, "table", out))
		return;
	const struct exp_result *r = view_records(c->s->v, data);
	struct table_col *cols = NULL;
	size_t ncols = 0;
	const cJSON **rows = NULL;
	size_t nrows = 0;
	static const struct filter everything = {0};
	const struct filter *where = &everything;
	const struct judged_opt *jo = judge_opts(c->s->o->machines->jb, c->index,
	                                         (size_t)(d - c->ch->dirs), 0);
	const struct dir_check *k = judge_dir(c->s->o->machines->jb, c->index,
	                                      (size_t)(d - c->ch->dirs), 0);
	char *sort_copy = NULL;
	struct sort_by by = {NULL, 0};
	/* Its number counts whether or not it can be made, as references
	 * count it (xref.h). */
	int num = ++c->tables;
	char *id = d->id ? xasprintf("tab-%s", d->id) : NULL;

	if (k->why && id)
		buf_printf(out, "<span id=\"%s\"></span>", id);
	if (k->why && data_outdated(c, data)) {
		buf_puts(out, "<p class=\"note not-measured\">This table's data were "
		         "not measured on this machine: ");
		buf_puts_html(out, c->s->v->dir);
		buf_puts(out, " holds no results of the experiment's current "
		         "source.</p>\n");
		goto out;
	}
	if (k->why) {
		/* The judge found it and reported it. */
		char *full = xasprintf("%s:%d: %s", c->ch->path, k->line, k->why);
		error_box(out, "This table could not be made:", full, NULL);
		free(full);
		c->errors++;
		goto out;
	}
	free(table_columns_parse(dir_opt(d, "columns"), &cols, &ncols));
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, "where"))
			where = &jo[i].where;
	if (sort) {
		sort_copy = xstrdup(sort);
		char *sp = strchr(sort_copy, ' ');
		by.desc = sp && strstr(sp, "desc");
		if (sp)
			*sp = '\0';
	}
	for (size_t i = 0; i < r->nrows; i++)
		if (filter_match(where, r->rows[i]))
			*ARRAY_PUSH(rows, nrows) = r->rows[i];
	if (r->error) {
		partial_count(c, data);
		buf_puts(out, "<p class=\"note partial\">These rows stop before a "
		         "malformed line of the records: ");
		buf_puts_html(out, r->error);
		buf_puts(out, ".</p>\n");
	}
	if (sort && nrows > 1) {
		by.field = sort_copy;
		qsort_r(rows, nrows, sizeof *rows, cmp_rows, &by);
	}
	for (size_t k = 0; k < ncols; k++) {
		cols[k].num = nrows > 0;
		for (size_t i = 0; i < nrows && cols[k].num; i++) {
			const cJSON *f = cJSON_GetObjectItemCaseSensitive(rows[i],
			                                                  cols[k].field);
			cols[k].num = !f || cJSON_IsNumber(f);
		}
	}
	const char *caption = dir_opt(d, "caption");
	char *label = xasprintf("records of %s, table %zu.%d", data, c->index + 1,
	                        num);
	if (id)
		buf_printf(out, "<div id=\"%s\">", id);
	table_wrap_open(out, caption ? caption : label, NULL);
	free(label);
	buf_printf(out, "<table class=\"records\"><caption><span class=\"tabnum\">"
	           "Table %zu.%d%s</span>", c->index + 1, num, caption ? "." : "");
	if (caption) {
		buf_puts(out, " ");
		buf_puts_html(out, caption);
	}
	buf_puts(out, "</caption>");
	buf_puts(out, "<thead><tr>");
	for (size_t k = 0; k < ncols; k++) {
		buf_puts(out, cols[k].num ? "<th scope=\"col\" class=\"num\">"
		                          : "<th scope=\"col\">");
		buf_puts_html(out, cols[k].label ? cols[k].label : cols[k].field);
		buf_puts(out, "</th>");
	}
	buf_puts(out, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < nrows && i < TABLE_MAX_ROWS; i++) {
		buf_puts(out, row_wrong(rows[i]) ? "<tr class=\"wrong\">" : "<tr>");
		for (size_t k = 0; k < ncols; k++) {
			buf_puts(out, cols[k].num ? "<td class=\"num\">" : "<td>");
			cell_html(out, cJSON_GetObjectItemCaseSensitive(rows[i], cols[k].field),
			          cols[k].fmt);
			buf_puts(out, "</td>");
		}
		buf_puts(out, "</tr>\n");
	}
	buf_puts(out, id ? "</tbody></table></div></div>\n"
	              : "</tbody></table></div>\n");
	if (nrows > TABLE_MAX_ROWS) {
		buf_printf(out, "<p class=\"note\">The first %d of %zu rows; all "
		           "are in <a href=\"data/", TABLE_MAX_ROWS, nrows);
		buf_puts_html(out, data);
		buf_puts(out, ".jsonl\">the records file</a>.</p>\n");
	}
	launches_note(rows, nrows, cols, ncols, out);
out:
	for (size_t k = 0; k < ncols; k++) {
		free(cols[k].field);
		free(cols[k].label);
		free(cols[k].fmt);
	}
	free(cols);
	free(rows);
	free(sort_copy);
	free(id);
}
