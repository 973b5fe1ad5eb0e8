/*
 * buf.h - the one growable byte buffer for all generated text.
 *
 * A struct buf owns its data; buf_free releases it and leaves an empty
 * buffer. data is always NUL-terminated once anything was added. Out of
 * memory aborts (xmalloc), so these functions cannot fail.
 */
#ifndef LB_BUF_H
#define LB_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t cap;
};

#define BUF_INIT {NULL, 0, 0}

void buf_grow(struct buf *b, size_t extra);
void buf_put(struct buf *b, const void *data, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, int c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Append s with &, <, >, " and ' replaced by HTML entities. */
void buf_put_html(struct buf *b, const char *s, size_t len);
void buf_puts_html(struct buf *b, const char *s);
/* Append s for a terminal: each control byte (below 0x20, and 0x7f) as
 * \xNN, so that text from a chapter or a bundle cannot drive it. */
void buf_puts_term(struct buf *b, const char *s);
/* Append s percent-encoded for a URL: every byte but letters, digits and
 * -._~ as %XX (UTF-8 bytes too), so any name goes into an href. */
void buf_puts_url(struct buf *b, const char *s);
void buf_reset(struct buf *b);
/* Hand the data to the caller (who frees it); the buffer becomes empty. */
char *buf_detach(struct buf *b);
void buf_free(struct buf *b);

#endif
