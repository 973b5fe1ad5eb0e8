/*
 * box.c - the pieces of HTML that blocks, tables, figures and the book's
 * pages all print (box.h): error boxes, program text, records' cells and
 * the machine's facts, and what a page says of data that is outdated or
 * stands on part of its records.
 */
#include "render/box.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#include "book/format.h"
#include "base/util.h"
#include "base/ccfacts.h"
#include "judge/view.h"

const char *machine_str(const struct bundle_view *v, const char *key)
{
	return view_machine_str(v, key);
}

int machine_has_gpu(const struct bundle_view *v)
{
	const char *gpu = machine_str(v, "gpu");
	return gpu && strcmp(gpu, "none") != 0;
}

void claims_summary_html(struct buf *out, int n, int failed, int weak,
                         int gpu)
{
	const char *where = gpu ? "card" : "machine";
	if (!failed && n == 1)
		buf_printf(out, "<p class=\"claims-summary holds\">The one claim "
		           "this chapter makes holds on the %s these numbers come "
		           "from.", where);
	else if (!failed)
		buf_printf(out, "<p class=\"claims-summary holds\">All %d claims "
		           "this chapter makes hold on the %s these numbers come "
		           "from.", n, where);
	else if (n == 1)
		buf_printf(out, "<p class=\"claims-summary fails\" role=\"alert\">"
		           "The one claim this chapter makes does not hold on the %s "
		           "these numbers come from; it is marked ✗ below.", where);
	else
		buf_printf(out, "<p class=\"claims-summary fails\" role=\"alert\">"
		           "%d of the %d claims this chapter makes do%s not hold on "
		           "the %s these numbers come from; %s marked ✗ below.",
		           failed, n, failed == 1 ? "es" : "", where,
		           failed == 1 ? "it is" : "they are");
	/* What the judge doubts (judge.h): a margin inside the noise, or a
	 * claim no data could flip. */
	if (weak && n == 1)
		buf_printf(out, " It is within its noise, or could not fail on any "
		           "%s.", where);
	else if (weak == 1)
		buf_printf(out, " One of them is within its noise, or could not "
		           "fail on any %s; it is marked.", where);
	else if (weak)
		buf_printf(out, " %d of them are within their noise, or could not "
		           "fail on any %s; each is marked.", weak, where);
	buf_puts(out, "</p>");
}

void error_box(struct buf *out, const char *title, const char *msg,
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
		text_html(out, text, strlen(text));
		buf_puts(out, "</pre>");
	}
	buf_puts(out, "</div>\n");
}

/*
 * Bytes from a program (its output, a record's text) as HTML: escaped,
 * with every byte that is not valid UTF-8, and every control character but
 * tab and newline (and the CR of a CRLF, which ends a line as LF does),
 * shown as U+FFFD, so a NUL, an ESC or a broken sequence
 * neither cuts the page nor reaches the reader's terminal.
 */
void text_html(struct buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		const unsigned char *run = p;
		while (p < end && *p >= 0x20 && *p < 0x7f && *p != '&' && *p != '<' &&
		       *p != '>' && *p != '"' && *p != '\'')
			p++;
		buf_put(out, run, (size_t)(p - run));
		if (p >= end)
			break;
		unsigned char c = *p;
		size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3
		         : (c >> 3) == 30 ? 4 : 0;
		int ok = n && (size_t)(end - p) >= n;
		for (size_t k = 1; ok && k < n; k++)
			ok = (p[k] & 0xc0) == 0x80;
		if (ok && n == 2)
			ok = c >= 0xc2;
		if (ok && n == 3)
			ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
		if (ok && n == 4)
			ok = c <= 0xf4 && !(c == 0xf0 && p[1] < 0x90) &&
			     !(c == 0xf4 && p[1] >= 0x90);
		if (!ok) {
			buf_puts(out, "\xef\xbf\xbd");
			p++;
		} else if (n > 1) {
			buf_put(out, p, n);
			p += n;
		} else if (c == '\t' || c == '\n') {
			buf_putc(out, c);
			p++;
		} else if (c == '\r' && p + 1 < end && p[1] == '\n') {
			p++; /* CRLF ends a line, as LF does */
		} else if (c < 0x20 || c == 0x7f) {
			buf_puts(out, "\xef\xbf\xbd");
			p++;
		} else {
			buf_put_html(out, (const char *)p, 1);
			p++;
		}
	}
}

/* Names longer than this (CUB's templates) are shortened in a table. */
#define NAME_MAX_SHOWN 48

/*
 * A C++ name as a table shows it: a long one loses its namespaces and
 * template and function arguments ("DeviceReduceKernel<…>"), and keeps
 * the whole name for the pointer to hover on.
 */
static void name_html(struct buf *out, const char *s)
{
	size_t len = strlen(s), cut = strcspn(s, "<(");
	int mangled = s[0] == '_' && s[1] == 'Z' && !strchr(s, ' ');
	if (len <= NAME_MAX_SHOWN || (!mangled && !strchr(s, '<') &&
	                              !strstr(s, "::"))) {
		text_html(out, s, len);
		return;
	}
	if (mangled) {
		buf_puts(out, "<span class=\"long-name\" title=\"");
		buf_puts_html(out, s);
		buf_puts(out, "\">");
		buf_put_html(out, s, NAME_MAX_SHOWN - 8);
		buf_puts(out, "…</span>");
		return;
	}
	size_t start = 0;
	for (size_t i = 0; i + 1 < cut; i++)
		if (s[i] == ':' && s[i + 1] == ':')
			start = i + 2;
	size_t n = cut - start;
	if (n > NAME_MAX_SHOWN - 6)
		n = NAME_MAX_SHOWN - 6;
	buf_puts(out, "<span class=\"long-name\" title=\"");
	buf_puts_html(out, s);
	buf_puts(out, "\">");
	buf_put_html(out, s + start, n);
	buf_puts(out, s[cut] == '<' ? "&lt;…&gt;" : "");
	buf_puts(out, strchr(s + cut, '(') ? "(…)" : "");
	buf_puts(out, "</span>");
}

void cell_html(struct buf *out, const cJSON *c, const char *fmt)
{
	if (cJSON_IsNumber(c)) {
		struct value v = {VAL_NUM, c->valuedouble, NULL, {0}};
		char *err = NULL;
		if (value_format(&v, fmt, 1, out, &err) != 0) {
			buf_printf(out, "%g", c->valuedouble);
			free(err);
		}
	} else if (cJSON_IsString(c)) {
		name_html(out, c->valuestring);
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

int row_wrong(const cJSON *row)
{
	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"));
}

void table_wrap_open(struct buf *out, const char *label, const char *id)
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

void num_text(struct buf *out, double x)
{
	struct value v = {VAL_NUM, x, NULL, {0}};
	char *err = NULL;
	if (value_format(&v, NULL, 0, out, &err) != 0) {
		buf_printf(out, "%g", x);
		free(err);
	}
}

void field_text(struct buf *out, const cJSON *f)
{
	if (cJSON_IsString(f))
		buf_puts(out, f->valuestring);
	else if (cJSON_IsNumber(f))
		num_text(out, f->valuedouble);
	else if (cJSON_IsBool(f))
		buf_puts(out, cJSON_IsTrue(f) ? "true" : "false");
}

int data_needs(struct page_ctx *c, const char *data, const char *what,
               struct buf *out)
{
	const struct exp_view *x = view_find(c->s->v, data);
	int need = x ? x->needs : 0;
	if (!need)
		return 0;
	int cc = c->s->v->cc;
	char w[48];
	buf_printf(out, "<p class=\"note not-applicable\">This %s needs compute "
	           "capability %s", what, cc_need_words(need, w, sizeof w));
	if (cc)
		buf_printf(out, "; this card has %d.%d", cc / 10, cc % 10);
	buf_puts(out, ". It is not run here, and nothing of it is checked.</p>\n");
	return 1;
}

int data_outdated(struct page_ctx *c, const char *data)
{
	const struct exp_view *x = view_find(c->s->v, data);
	return x && x->outdated;
}

void partial_count(struct page_ctx *c, const char *id)
{
	for (size_t i = 0; i < c->npartial; i++)
		if (!strcmp(c->partial[i], id))
			return;
	*ARRAY_PUSH(c->partial, c->npartial) = id;
	c->errors++;
}

void site_problem(struct site_stats *st, const char *file, int line,
                  const char *fmt, ...)
{
	va_list ap;
	struct buf b = BUF_INIT;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	*ARRAY_PUSH(st->problems, st->nproblems) = (struct site_problem){
		file ? xstrdup(file) : NULL, line, buf_detach(&b)};
}
