/*
 * piece.c - the pieces of a page (piece.h): each inline value and each
 * block made once and kept in the one cache, or taken back from it with
 * what it counted.
 */
#include "render/piece.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* More figures, tables or claims than one piece can hold. */
#define PIECE_COUNT_MAX 100000

/* A piece as kept: "FIGURES TABLES CLAIMS\n" and its HTML. */
const char *piece_get(struct store *st, const char *key, size_t *len,
                      struct piece_counts *counts)
{
	size_t n;
	const char *v = st ? store_get(st, key, &n) : NULL;
	const char *nl = v ? memchr(v, '\n', n) : NULL;
	if (!nl || nl - v > 40)
		return NULL;
	long f[3];
	char *p = (char *)v, *end;
	for (int k = 0; k < 3; k++) {
		f[k] = strtol(p, &end, 10);
		if (end == p || f[k] < 0 || f[k] > PIECE_COUNT_MAX ||
		    *end != (k < 2 ? ' ' : '\n'))
			return NULL;
		p = end + 1;
	}
	*counts = (struct piece_counts){(int)f[0], (int)f[1], (int)f[2]};
	*len = n - (size_t)(nl + 1 - v);
	return nl + 1;
}

void piece_put(struct store *st, const char *key, const char *html,
               size_t len, const struct piece_counts *counts)
{
	if (!st)
		return;
	struct buf b = BUF_INIT;
	buf_printf(&b, "%d %d %d\n", counts->figures, counts->tables,
	           counts->claims);
	buf_put(&b, html, len);
	store_put(st, key, b.data, b.len);
	buf_free(&b);
}

int piece_take(struct page_ctx *c, const char *html, size_t len,
               const struct piece_counts *fc, struct buf *out)
{
	if (c->figures > PIECE_COUNT_MAX - fc->figures ||
	    c->tables > PIECE_COUNT_MAX - fc->tables ||
	    c->claims > PIECE_COUNT_MAX - fc->claims)
		return -1;
	buf_put(out, html, len);
	c->figures += fc->figures;
	c->tables += fc->tables;
	c->claims += fc->claims;
	return 0;
}

void piece_make(struct page_ctx *c, const char *key,
                void (*make)(struct page_ctx *c, const void *arg,
                             struct buf *out),
                const void *arg, struct buf *out)
{
	/* What the page had counted before, to tell a clean piece: every
	 * problem a piece shows is counted on its page, so a piece is clean
	 * when its own counts of them are none. */
	int figures = c->figures, tables = c->tables, claims = c->claims;
	int failed = c->claims_failed, errors = c->errors;
	size_t partial = c->npartial, start = out->len;
	make(c, arg, out);
	struct piece_counts fc = {c->figures - figures, c->tables - tables,
	                          c->claims - claims};
	if (key && c->claims_failed == failed && c->errors == errors &&
	    c->npartial == partial)
		piece_put(c->store, key, out->data + start, out->len - start, &fc);
}
