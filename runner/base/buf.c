/* buf.c - the growable buffer all generated text is written into (buf.h). */
#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void buf_grow(struct buf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < b->len + extra + 1)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void buf_put(struct buf *b, const void *data, size_t len)
{
	buf_grow(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

void buf_putc(struct buf *b, int c)
{
	if (b->len + 2 > b->cap)
		buf_grow(b, 1);
	b->data[b->len++] = (char)c;
	b->data[b->len] = '\0';
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_put_html(struct buf *b, const char *s, size_t len)
{
	size_t start = 0;
	for (size_t i = 0; i < len; i++) {
		const char *rep;
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		buf_put(b, s + start, i - start);
		buf_puts(b, rep);
		start = i + 1;
	}
	buf_put(b, s + start, len - start);
}

void buf_puts_html(struct buf *b, const char *s)
{
	buf_put_html(b, s, strlen(s));
}

void buf_puts_term(struct buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_putc(b, (char)c);
	}
}

void buf_puts_url(struct buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~", *p))
			buf_putc(b, *p);
		else
			buf_printf(b, "%%%02X", *p);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

char *buf_detach(struct buf *b)
{
	char *d = b->data ? b->data : xstrdup("");
	b->data = NULL;
	b->len = b->cap = 0;
	return d;
}

void buf_free(struct buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
