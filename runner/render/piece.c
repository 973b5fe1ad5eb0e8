/*
 * piece.c - the pieces of a page (piece.h): each inline value and each
 * block made once and kept in the page's store (frags.h), or taken back
 * from it with what it counted.
 */
#include "render/piece.h"

#include "base/util.h"

void piece_take(struct page_ctx *c, const char *html, size_t len,
                const struct frag_counts *fc, struct buf *out)
{
	buf_put(out, html, len);
	c->figures += fc->figures;
	c->tables += fc->tables;
	c->claims += fc->claims;
}

void piece_make(struct page_ctx *c, const char *key,
                void (*make)(struct page_ctx *c, const void *arg,
                             struct buf *out),
                const void *arg, struct buf *out)
{
	/* What the page had counted before, to tell a clean piece. */
	int figures = c->figures, tables = c->tables, claims = c->claims;
	int failed = c->claims_failed, errors = c->errors;
	int reported = diag_count() + warn_count();
	size_t partial = c->npartial, start = out->len;
	make(c, arg, out);
	struct frag_counts fc = {c->figures - figures, c->tables - tables,
	                         c->claims - claims};
	if (key && c->claims_failed == failed && c->errors == errors &&
	    c->npartial == partial && diag_count() + warn_count() == reported)
		frags_put(c->frags, key, out->data + start, out->len - start, &fc);
}
