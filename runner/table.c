/* table.c - a {table} directive: chosen columns of an experiment's
 * records, filtered and sorted. */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "render.h"
#include "util.h"

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

void table_html(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	const char *data = dir_opt(d, "data");
	struct exp_result *r = bundle_get(c->s->b, data);
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
	if (!msg && wtext && filter_parse(wtext, c->s->b, &where, &err) != 0)
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

