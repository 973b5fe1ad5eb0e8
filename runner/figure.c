/* figure.c - a {chart} directive as a figure: the SVG that plot.c draws,
 * a text alternative saying what it shows, and its caption. */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "plot.h"
#include "render.h"
#include "util.h"


/* Append the distinct values of field in rows, in order, at most max of them. */
static void distinct_text(struct buf *out, const cJSON **rows, size_t n,
                          const char *field, size_t max)
{
	const cJSON **seen = NULL;
	size_t nseen = 0;
	for (size_t i = 0; i < n; i++) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(rows[i], field);
		size_t k = 0;
		while (k < nseen && !cJSON_Compare(seen[k], f, 1))
			k++;
		if (k == nseen && f)
			*ARRAY_PUSH(seen, nseen) = f;
	}
	for (size_t k = 0; k < nseen && k < max; k++) {
		buf_puts(out, k ? ", " : "");
		field_text(out, seen[k]);
	}
	if (nseen > max)
		buf_printf(out, " and %zu more", nseen - max);
	free(seen);
}

/* The limit lines of a chart: "label (value)", as plain text. */
static void chart_alt_limits(struct page_ctx *c, const struct directive *d,
                             struct buf *out)
{
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "limit"))
			continue;
		char *expr = xstrdup(d->opts[i].value), *err = NULL;
		char *bar = strchr(expr, '|');
		if (bar)
			*bar = '\0';
		struct value v;
		buf_puts(out, " A reference line marks ");
		buf_puts(out, bar ? str_trim(bar + 1) : str_trim(expr));
		if (expr_eval(expr, c->s->b, &v, &err) == 0 &&
		    value_scalar(&v, &err) == 0 && v.type == VAL_NUM) {
			buf_puts(out, " at ");
			num_text(out, v.num);
		}
		buf_puts(out, ".");
		value_free(&v);
		free(err);
		free(expr);
	}
}

/*
 * What a chart shows, in words, for readers who cannot see it: its kind,
 * axes, series, extremes and reference lines, from the records it draws.
 * The caller frees the plain text it returns.
 */
static char *chart_alt(struct page_ctx *c, const struct directive *d)
{
	const char *xf = dir_opt(d, "x"), *yf = dir_opt(d, "y"),
	           *sf = dir_opt(d, "series"), *wtext = dir_opt(d, "where");
	const char *xl = dir_opt(d, "xlabel"), *yl = dir_opt(d, "ylabel");
	struct exp_result *r = bundle_get(c->s->b, dir_opt(d, "data"));
	struct filter where = {0};
	struct buf alt = BUF_INIT;
	const cJSON **rows = NULL;
	size_t n = 0, top = 0;
	int bars = 0;
	char *err = NULL;
	if (wtext && filter_parse(wtext, c->s->b, &where, &err) != 0)
		goto out;
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *row = r->rows[i];
		double y, ytop;
		if (!filter_match(&where, row) || row_wrong(row) ||
		    !row_number(row, yf, &y) || !cJSON_GetObjectItem(row, xf))
			continue;
		bars |= cJSON_IsString(cJSON_GetObjectItemCaseSensitive(row, xf));
		if (!n || (row_number(rows[top], yf, &ytop) && y > ytop))
			top = n;
		*ARRAY_PUSH(rows, n) = row;
	}
	if (!n)
		goto out;
	if (bars && !sf) {
		buf_printf(&alt, "Bar chart of %s for each %s: ", yl ? yl : yf,
		           xl ? xl : xf);
		for (size_t i = 0; i < n && i < 16; i++) {
			buf_puts(&alt, i ? ", " : "");
			field_text(&alt, cJSON_GetObjectItemCaseSensitive(rows[i], xf));
			buf_puts(&alt, " ");
			field_text(&alt, cJSON_GetObjectItemCaseSensitive(rows[i], yf));
		}
		buf_puts(&alt, n > 16 ? ", and more." : ".");
	} else {
		buf_printf(&alt, "%s chart of %s against %s", bars ? "Bar" : "Line",
		           yl ? yl : yf, xl ? xl : xf);
		if (dir_opt(d, "logx") || dir_opt(d, "logy"))
			buf_printf(&alt, " (log scale on %s)", dir_opt(d, "logx") ?
			           (dir_opt(d, "logy") ? "both axes" : "x") : "y");
		if (sf) {
			buf_printf(&alt, ", one %s for each %s: ", bars ? "bar" : "line",
			           sf);
			distinct_text(&alt, rows, n, sf, 12);
		}
		buf_printf(&alt, ". The highest point is %s = ", yf);
		field_text(&alt, cJSON_GetObjectItemCaseSensitive(rows[top], yf));
		buf_printf(&alt, ", at %s = ", xf);
		field_text(&alt, cJSON_GetObjectItemCaseSensitive(rows[top], xf));
		if (sf) {
			buf_printf(&alt, ", %s = ", sf);
			field_text(&alt, cJSON_GetObjectItemCaseSensitive(rows[top], sf));
		}
		buf_puts(&alt, ".");
	}
	chart_alt_limits(c, d, &alt);
out:
	free(rows);
	free(err);
	filter_free(&where);
	if (!alt.len)
		buf_printf(&alt, "Chart %s", d->id);
	return buf_detach(&alt);
}

/*
 * The name of a chart's data, linked to the experiment that made it: on
 * this page or another, and for derived records (ilp_ptxas) the
 * experiment they come with. Plain text when there is none.
 */
static void data_link(struct page_ctx *c, const char *data, struct buf *out)
{
	const struct exper *e = book_find(c->s->bk, data);
	char *base = xstrdup(data);
	for (char *u = strrchr(base, '_'); !e && u; u = strrchr(base, '_')) {
		*u = '\0';
		e = book_find(c->s->bk, base);
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

void figure_html(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	struct plot p;
	int rc = plot_render(d, c->ch->path, c->s->b, c->s->o->dir, &p);
	c->figures++;
	buf_printf(out, "<figure class=\"chart\" id=\"fig-%s\">\n", d->id);
	const char *caption = dir_opt(d, "caption");
	if (rc != 0 || !p.svg) {
		error_box(out, "This chart could not be drawn:", p.error, NULL);
		if (rc != 0)
			c->errors++;
	} else if (p.drawn) {
		char *alt = chart_alt(c, d);
		buf_printf(out, "<a class=\"chart-full\" href=\"%s\"><img src=\"%s\" "
		           "width=\"760\" height=\"470\" loading=\"lazy\" alt=\"",
		           p.svg, p.svg);
		buf_puts_html(out, alt);
		buf_puts(out, "\"></a>\n");
		free(alt);
		c->s->st->charts_drawn += p.redrawn;
	}
	if (p.note) {
		buf_puts(out, "<p class=\"note\">");
		buf_puts_html(out, p.note);
		buf_puts(out, "</p>");
	}
	buf_printf(out, "<figcaption><a class=\"fignum\" href=\"#fig-%s\">Figure "
	           "%d.%d.</a> ", d->id, (int)c->index + 1, c->figures);
	if (caption)
		buf_puts_html(out, caption);
	buf_puts(out, " <span class=\"figmeta\">Records of ");
	data_link(c, dir_opt(d, "data"), out);
	buf_puts(out, ", bundle ");
	buf_puts_html(out, c->s->b->dir);
	if (machine_str(c->s->b, "gpu")) {
		buf_puts(out, " (");
		buf_puts_html(out, machine_str(c->s->b, "gpu"));
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

