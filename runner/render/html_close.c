/*
 * html_close.c - a chapter's HTML made self-contained (html_close.h). One
 * pass reads it the way a browser's tokenizer does, as far as what is open
 * goes: comments, tags and their quoted attributes, raw text, and a stack
 * of the elements open.
 */
#include "render/html_close.h"

#include <ctype.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

#include "base/mem.h"

struct open_el {
	const char *name;
	size_t len;
	int foreign; /* inside svg or math, where "<x/>" closes itself */
};

struct scan {
	const char *end;
	struct buf out;
	struct open_el *open;
	size_t nopen;
};

static int name_in(const char *name, size_t len, const char *const *list)
{
	for (const char *const *k = list; *k; k++)
		if (strlen(*k) == len && !strncasecmp(*k, name, len))
			return 1;
	return 0;
}

/* Their text runs to their own end tag, whatever it holds. */
static const char *const raw_text[] = {"style", "xmp", "iframe", "noembed",
                                       "noframes", "noscript", "textarea",
                                       "title", NULL};
/* They act on the whole page, or never end: written as text. */
static const char *const page_wide[] = {"html", "head", "body", "base", "link",
                                        "meta", "script", "plaintext",
                                        "frameset", "frame", "object",
                                        "embed", NULL};
static const char *const void_el[] = {"area", "br", "col", "hr", "img",
                                      "input", "source", "track", "wbr",
                                      "param", "keygen", "basefont",
                                      "bgsound", "image", NULL};

static const char *find(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	for (; (size_t)(end - p) >= n; p++) {
		p = memchr(p, s[0], (size_t)(end - p));
		if (!p || (size_t)(end - p) < n)
			return NULL;
		if (!memcmp(p, s, n))
			return p;
	}
	return NULL;
}

static int tag_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* The '>' that ends the tag at lt, past quoted values; NULL if none. */
static const char *tag_end(const char *lt, const char *end, int *self_closing)
{
	const char *q = lt + 1;
	while (q < end && !tag_space(*q) && *q != '/' && *q != '>')
		q++;
	*self_closing = 0;
	while (q < end) {
		if (*q == '>')
			return q;
		if (*q == '/') {
			*self_closing = q + 1 < end && q[1] == '>';
			q++;
			continue;
		}
		if (tag_space(*q)) {
			q++;
			continue;
		}
		/* An attribute's name, then maybe '=' and a value. */
		q++;
		while (q < end && !tag_space(*q) && *q != '/' && *q != '>' && *q != '=')
			q++;
		while (q < end && tag_space(*q))
			q++;
		if (q >= end || *q != '=')
			continue;
		q++;
		while (q < end && tag_space(*q))
			q++;
		if (q < end && (*q == '"' || *q == '\'')) {
			const char *close = memchr(q + 1, *q, (size_t)(end - q - 1));
			if (!close)
				return NULL;
			q = close + 1;
		} else {
			while (q < end && !tag_space(*q) && *q != '>')
				q++;
		}
	}
	return NULL;
}

/* Where "</name" ends the raw text from p, or NULL. */
static const char *raw_end(const char *p, const char *end, const char *name,
                           size_t len)
{
	while ((p = memchr(p, '<', (size_t)(end - p)))) {
		if ((size_t)(end - p) > len + 2 && p[1] == '/' &&
		    !strncasecmp(p + 2, name, len) &&
		    (tag_space(p[2 + len]) || p[2 + len] == '/' || p[2 + len] == '>'))
			return p;
		p++;
	}
	return NULL;
}

static int in_foreign(const struct scan *s)
{
	return s->nopen && s->open[s->nopen - 1].foreign;
}

/* A tag at lt whose name is name; returns where the scan goes on. */
static const char *scan_tag(struct scan *s, const char *lt, const char *name,
                            size_t len, int closing)
{
	int self_closing;
	const char *gt = tag_end(lt, s->end, &self_closing);
	if (!gt || name_in(name, len, page_wide)) {
		buf_puts(&s->out, "&lt;");
		return lt + 1;
	}
	const char *next = gt + 1;
	if (closing) {
		size_t k = s->nopen;
		while (k && (s->open[k - 1].len != len ||
		             strncasecmp(s->open[k - 1].name, name, len)))
			k--;
		if (k) {
			s->nopen = k - 1;
			buf_put(&s->out, lt, (size_t)(next - lt));
		}
		return next;
	}
	buf_put(&s->out, lt, (size_t)(next - lt));
	int foreign = in_foreign(s) || (len == 3 && !strncasecmp(name, "svg", 3)) ||
	              (len == 4 && !strncasecmp(name, "math", 4));
	if ((foreign && self_closing) ||
	    (!foreign && name_in(name, len, void_el)))
		return next;
	struct open_el *e = ARRAY_PUSH(s->open, s->nopen);
	*e = (struct open_el){name, len, foreign};
	if (foreign || !name_in(name, len, raw_text))
		return next;
	const char *close = raw_end(next, s->end, name, len);
	if (!close) {
		buf_put(&s->out, next, (size_t)(s->end - next));
		return s->end;
	}
	buf_put(&s->out, next, (size_t)(close - next));
	return close;
}

/* Copy [p, end) of a comment or the like; closer when it never ends. */
static const char *scan_until(struct scan *s, const char *p, const char *stop,
                              size_t skip, const char *closer)
{
	const char *e = find(p + skip, s->end, stop);
	const char *next = e ? e + strlen(stop) : s->end;
	buf_put(&s->out, p, (size_t)(next - p));
	if (!e)
		buf_puts(&s->out, closer);
	return next;
}

static const char *scan_comment(struct scan *s, const char *lt)
{
	const char *p = lt + 4, *end = s->end;
	if (p < end && *p == '>')
		return scan_until(s, lt, ">", 4, "");
	if (p + 1 < end && p[0] == '-' && p[1] == '>')
		return scan_until(s, lt, ">", 5, "");
	const char *a = find(p, end, "-->"), *b = find(p, end, "--!>");
	if (b && (!a || b < a))
		return scan_until(s, lt, "--!>", 4, "");
	/* After a newline no "--!" or "-" of the text joins the closer. */
	return scan_until(s, lt, "-->", 4, "\n-->");
}

void html_close(struct buf *html)
{
	struct scan s = {html->data + html->len, BUF_INIT, NULL, 0};
	const char *p = html->data;
	buf_grow(&s.out, html->len + 64);
	while (p && p < s.end) {
		const char *lt = memchr(p, '<', (size_t)(s.end - p));
		if (!lt) {
			buf_put(&s.out, p, (size_t)(s.end - p));
			break;
		}
		buf_put(&s.out, p, (size_t)(lt - p));
		size_t left = (size_t)(s.end - lt);
		int closing = left > 2 && lt[1] == '/';
		const char *name = lt + 1 + closing;
		if (left >= 4 && !memcmp(lt, "<!--", 4)) {
			p = scan_comment(&s, lt);
		} else if (left >= 9 && !memcmp(lt, "<![CDATA[", 9) && in_foreign(&s)) {
			p = scan_until(&s, lt, "]]>", 9, "]]>");
		} else if (name < s.end && isalpha((unsigned char)*name)) {
			size_t len = 0;
			while (name + len < s.end && !tag_space(name[len]) &&
			       name[len] != '/' && name[len] != '>')
				len++;
			p = scan_tag(&s, lt, name, len, closing);
		} else if (left >= 2 && (lt[1] == '!' || lt[1] == '?' ||
		                         (lt[1] == '/' && left >= 3))) {
			/* A bogus comment, which runs to the next '>'. */
			p = scan_until(&s, lt, ">", 2, ">");
		} else {
			buf_putc(&s.out, '<');
			p = lt + 1;
		}
	}
	while (s.nopen) {
		const struct open_el *e = &s.open[--s.nopen];
		buf_puts(&s.out, "</");
		buf_put(&s.out, e->name, e->len);
		buf_putc(&s.out, '>');
	}
	free(s.open);
	buf_free(html);
	*html = s.out;
}
