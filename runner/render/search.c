/* search.c - the search index (search-index.js) and the search page, made
 * from the chapters' sections, never from their HTML. */
#include "render/search.h"
#include "render/machines.h"

#include <string.h>

#include "render/page.h"
#include "base/store.h"
#include "base/util.h"
#include "render/values.h"

/* Append s as a JSON string, escaped as cJSON escapes it. */
static void json_string(struct buf *out, const char *s, size_t len)
{
	buf_putc(out, '"');
	size_t from = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		buf_put(out, s + from, i - from);
		from = i + 1;
		switch (c) {
		case '"': buf_puts(out, "\\\""); break;
		case '\\': buf_puts(out, "\\\\"); break;
		case '\b': buf_puts(out, "\\b"); break;
		case '\f': buf_puts(out, "\\f"); break;
		case '\n': buf_puts(out, "\\n"); break;
		case '\r': buf_puts(out, "\\r"); break;
		case '\t': buf_puts(out, "\\t"); break;
		default: buf_printf(out, "\\u%04x", c); break;
		}
	}
	buf_put(out, s + from, len - from);
	buf_putc(out, '"');
}

static void search_entry(struct buf *out, const struct site_ctx *s, size_t i,
                         const char *url, const char *title,
                         const struct buf *text)
{
	if (out->len)
		buf_putc(out, ',');
	buf_puts(out, "{\"u\":");
	json_string(out, url, strlen(url));
	buf_printf(out, ",\"n\":%zu,\"c\":", i + 1);
	json_string(out, s->outline[i].title, strlen(s->outline[i].title));
	buf_puts(out, ",\"s\":");
	json_string(out, title, strlen(title));
	buf_puts(out, ",\"t\":");
	json_string(out, text->len ? text->data : "", text->len);
	buf_putc(out, '}');
}

/*
 * One entry for the prose before the first heading, and one per heading of
 * levels 1 to 3; the words under a deeper heading belong to the one above.
 */
char *search_entries(const struct site_ctx *s, size_t i)
{
	const struct chapter *ch = s->bk->chs[i];
	const struct outline *ol = &s->outline[i];
	struct buf out = BUF_INIT, text = BUF_INIT;
	char *url = xasprintf("%s.html", ch->href);
	struct text_src src = {s->v, s->o->machines->jb, s->bk, s->store,
	                       s->xref, ch};
	pieces_text_of(&src, ch, &ch->lead, &text);
	if (text.len)
		search_entry(&out, s, i, url, ol->title, &text);
	for (size_t k = 0; k < ch->nsections;) {
		const struct section *sec = &ch->sections[k];
		buf_reset(&text);
		size_t next = k;
		do {
			if (text.len)
				buf_putc(&text, ' ');
			pieces_text_of(&src, ch, &ch->sections[next].words, &text);
			next++;
		} while (next < ch->nsections && ch->sections[next].level > 3);
		free(url);
		url = sec->level == 1 ? xasprintf("%s.html", ch->href)
		                      : xasprintf("%s.html#%s", ch->href, ol->ids[k]);
		search_entry(&out, s, i, url, ol->titles[k], &text);
		k = next;
	}
	free(url);
	buf_free(&text);
	if (!out.data)
		return xstrdup("");
	return buf_detach(&out);
}

struct index_fill {
	const struct site_ctx *s;
	char (*key)[33];
	char *const *entries;
};

static int index_fill(int fd, void *arg)
{
	const struct index_fill *f = arg;
	static const char head[] = "/* The search index of search.html, written "
	                           "by labbook. */\nvar LABBOOK_INDEX = [";
	int rc = fd_write_all(fd, head, sizeof head - 1);
	int any = 0;
	for (size_t i = 0; rc == 0 && i < f->s->bk->nchs; i++) {
		size_t len = 0;
		const char *e = f->entries[i];
		if (e)
			len = strlen(e);
		else if (!(e = store_get(f->s->store, f->key[i], &len)))
			len = 0;
		/* A comma before each chapter's entries but the first's. */
		if (len && any)
			rc = fd_write_all(fd, ",", 1);
		if (rc == 0 && len)
			rc = fd_write_all(fd, e, len);
		any |= len > 0;
	}
	return rc ? rc : fd_write_all(fd, "];\n", 3);
}

int search_index_write(const struct site_ctx *s, char (*key)[33],
                       char *const *entries)
{
	char *path = path_join(s->o->dir, "search-index.js");
	struct index_fill f = {s, key, entries};
	int rc = file_write_atomic_with(path, index_fill, &f);
	free(path);
	return rc;
}

/* Without JavaScript the search page lists every section of the book. */
int search_page(const struct site_ctx *s)
{
	struct buf c = BUF_INIT;
	buf_puts(&c, "<h1 id=\"search\">Search</h1>\n<form class=\"search-page\" "
	             "id=\"search-form\" action=\"search.html\" role=\"search\" "
	             "aria-label=\"Search the chapters\">"
	             "<label for=\"q\">Words to find in the chapters</label> "
	             "<input type=\"search\" id=\"q\" name=\"q\" autocomplete="
	             "\"off\"> <button type=\"submit\">Search</button></form>\n"
	             "<p id=\"search-status\" class=\"search-status\" role=\"status\">"
	             "Searching needs JavaScript. Without it, here is every section "
	             "of the book.</p>\n<ol id=\"search-results\" class=\"search-"
	             "results\">\n");
	for (size_t i = 0; i < s->bk->nchs; i++) {
		const struct chapter *ch = s->bk->chs[i];
		const struct outline *ol = &s->outline[i];
		buf_printf(&c, "<li><a href=\"%s.html\"><span class=\"num\">%zu</span> ",
		           ch->href, i + 1);
		buf_puts_html(&c, ol->title);
		buf_puts(&c, "</a>");
		int any = 0;
		for (size_t k = 0; k < ch->nsections; k++) {
			if (ch->sections[k].level != 2)
				continue;
			buf_puts(&c, any ? "" : "<ol class=\"sections\">");
			any = 1;
			buf_printf(&c, "<li><a href=\"%s.html#%s\">", ch->href, ol->ids[k]);
			buf_puts_html(&c, ol->titles[k]);
			buf_puts(&c, "</a></li>");
		}
		buf_puts(&c, any ? "</ol></li>\n" : "</li>\n");
	}
	buf_puts(&c, "</ol>\n");
	int rc = page_write_book(s, "search.html", "Search", c.data, "",
	                         "<script src=\"search-index.js\" defer></script>\n"
	                         "<script src=\"search.js\" defer></script>\n");
	buf_free(&c);
	return rc;
}
