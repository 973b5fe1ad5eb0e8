/* listing.c - a kernel's SASS from the bundle as HTML (listing.h). */
#include "render/listing.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "render/excerpt.h"
#include "judge/view.h"

/* Is the instruction on this line one of the marked mnemonics? */
static int marked(const char *line, size_t n, const char *marks)
{
	if (!marks)
		return 0;
	const char *p = strstr(line, "*/");
	if (!p || (size_t)(p - line) > n)
		return 0;
	p += 2;
	while (*p == ' ')
		p++;
	if (*p == '@')
		p += strcspn(p, " ") + 1;
	size_t op = strcspn(p, " .;");
	for (const char *m = marks; *m;) {
		while (*m == ' ' || *m == ',')
			m++;
		size_t k = strcspn(m, " ,");
		if (k && k == op && !strncmp(m, p, k))
			return 1;
		m += k;
	}
	return 0;
}

/* An instruction of a listing, and which opcode of those marked it is
 * (-1: not marked). */
struct sass_line {
	const char *text;
	size_t len;
	int kind;
};

/* The opcode of an instruction, with its modifiers ("STL.128"). */
static size_t opcode_at(const struct sass_line *l, const char **op)
{
	const char *p = l->text, *end = l->text + l->len;
	while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
		p++;
	p = p + 1 < end ? p + 2 : end;
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '@')
		while (p < end && *p++ != ' ')
			;
	*op = p;
	size_t n = 0;
	while (p + n < end && p[n] != ' ' && p[n] != ';')
		n++;
	return n;
}

/* The kind of marked instruction i: that of an earlier one of the same
 * opcode, or a new one. */
static int opcode_kind(const struct sass_line *ins, size_t i)
{
	const char *op, *other;
	size_t n = opcode_at(&ins[i], &op);
	int kinds = 0;
	for (size_t j = 0; j < i; j++) {
		if (ins[j].kind < 0)
			continue;
		kinds = ins[j].kind + 1 > kinds ? ins[j].kind + 1 : kinds;
		if (opcode_at(&ins[j], &other) == n && !strncmp(op, other, n))
			return ins[j].kind;
	}
	return kinds;
}

static void sass_line_html(struct buf *out, const struct sass_line *l)
{
	buf_puts(out, l->kind >= 0 ? "<span class=\"line mark\">"
	                           : "<span class=\"line\">");
	buf_put_html(out, l->text, l->len);
	buf_puts(out, "</span>\n");
}

/* What print shows in place of the listing (excerpt.h). */
static void sass_excerpt_html(struct buf *out, const struct sass_line *ins,
                              size_t n)
{
	int *kind = xcalloc(n ? n : 1, sizeof *kind);
	unsigned char *keep = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++)
		kind[i] = ins[i].kind;
	size_t kept = excerpt_sass_pick(kind, n, EXCERPT_SASS_CAP, keep);
	buf_puts(out, "<div class=\"print-only excerpt\">\n<pre class=\"code sass "
	              "snippet\"><code>");
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (i && !keep[i - 1])
			buf_puts(out, "<span class=\"line gap\">\xe2\x8b\xae</span>\n");
		sass_line_html(out, &ins[i]);
	}
	if (n && !keep[n - 1])
		buf_puts(out, "<span class=\"line gap\">\xe2\x8b\xae</span>\n");
	buf_puts(out, "</code></pre>\n");
	excerpt_sass_note(out, kept, n);
	buf_puts(out, "</div>\n");
	free(kind);
	free(keep);
}

int listing_sass(struct buf *out, const struct bundle_view *v,
                 const char *exp, const char *kernel, const char *marks,
                 char **err)
{
	char *text = view_sass(v, exp, kernel, err);
	if (!text)
		return -1;
	const char *start = text, *end = text + strlen(text);
	struct sass_line *ins = NULL;
	size_t total = 0, nmarked = 0;
	for (const char *p = start; p < end;) {
		size_t n = strcspn(p, "\n");
		if (p + n > end)
			n = (size_t)(end - p);
		const char *code = p;
		while (code < p + n && (*code == ' ' || *code == '\t'))
			code++;
		if (code < p + n && code[0] == '/' && code[1] == '*') {
			struct sass_line *l = ARRAY_PUSH(ins, total);
			*l = (struct sass_line){code, (size_t)(p + n - code), -1};
			if (marked(code, l->len, marks)) {
				l->kind = opcode_kind(ins, total - 1);
				nmarked++;
			}
		}
		p += n + 1;
	}
	buf_printf(out, "<details class=\"sass\"><summary>SASS of <code>");
	buf_puts_html(out, kernel);
	buf_printf(out, "</code>: %zu instructions", total);
	if (marks) {
		buf_printf(out, ", %zu of them ", nmarked);
		buf_puts_html(out, marks);
	}
	buf_puts(out, "</summary>\n<pre class=\"code sass\" tabindex=\"0\"><code>");
	for (size_t i = 0; i < total; i++)
		sass_line_html(out, &ins[i]);
	buf_puts(out, "</code></pre></details>\n");
	sass_excerpt_html(out, ins, total);
	free(ins);
	free(text);
	return 0;
}
