/* search.c - the search index (search-index.js) and the search page, made
 * from the chapters' sections, never from their HTML. */
#include <string.h>

#include "render.h"
#include "util.h"

static void search_entry(cJSON *index, const struct site_ctx *s, size_t i,
                         const char *url, const char *title, const char *text)
{
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "u", url);
	cJSON_AddNumberToObject(e, "n", (double)(i + 1));
	cJSON_AddStringToObject(e, "c", s->outline[i].title);
	cJSON_AddStringToObject(e, "s", title);
	cJSON_AddStringToObject(e, "t", text);
	cJSON_AddItemToArray(index, e);
}

/*
 * One entry for the prose before the first heading, and one per heading of
 * levels 1 to 3; the words under a deeper heading belong to the one above.
 */
void search_add(const struct site_ctx *s, size_t i, cJSON *index)
{
	const struct chapter *ch = s->bk->chs[i];
	const struct outline *ol = &s->outline[i];
	struct buf text = BUF_INIT;
	char *url = xasprintf("%s.html", ch->name);
	struct text_src src = {s->b, s->bk, s->frags ? s->frags[i] : NULL};
	pieces_text_of(&src, ch, &ch->lead, &text);
	if (text.len)
		search_entry(index, s, i, url, ol->title, text.data);
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
		url = sec->level == 1 ? xasprintf("%s.html", ch->name)
		                      : xasprintf("%s.html#%s", ch->name, ol->ids[k]);
		search_entry(index, s, i, url, ol->titles[k],
		             text.len ? text.data : "");
		k = next;
	}
	free(url);
	buf_free(&text);
}

int search_index_write(const struct site_ctx *s, const cJSON *index)
{
	char *json = cJSON_PrintUnformatted(index);
	/* The index is megabytes: put it, no printf over it. */
	struct buf js = BUF_INIT;
	buf_puts(&js, "/* The search index of search.html, written by labbook. */\n"
	              "var LABBOOK_INDEX = ");
	buf_puts(&js, json);
	buf_puts(&js, ";\n");
	char *path = path_join(s->o->dir, "search-index.js");
	int rc = file_write_if_changed(path, js.data, js.len, NULL);
	free(path);
	buf_free(&js);
	free(json);
	return rc;
}

/* Without JavaScript the search page lists every section of the book. */
int search_page(const struct site_ctx *s)
{
	struct buf c = BUF_INIT, nav = BUF_INIT, fold = BUF_INIT;
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
		           ch->name, i + 1);
		buf_puts_html(&c, ol->title);
		buf_puts(&c, "</a>");
		int any = 0;
		for (size_t k = 0; k < ch->nsections; k++) {
			if (ch->sections[k].level != 2)
				continue;
			buf_puts(&c, any ? "" : "<ol class=\"sections\">");
			any = 1;
			buf_printf(&c, "<li><a href=\"%s.html#%s\">", ch->name, ol->ids[k]);
			buf_puts_html(&c, ol->titles[k]);
			buf_puts(&c, "</a></li>");
		}
		buf_puts(&c, any ? "</ol></li>\n" : "</li>\n");
	}
	buf_puts(&c, "</ol>\n");
	toc_html(s, NULL, &nav);
	toc_fold_html(s, NULL, &fold);
	struct page pg = {"search.html", "Search", nav.data, fold.data, c.data,
	                  "", "", "<script src=\"search-index.js\" defer></script>\n"
	                  "<script src=\"search.js\" defer></script>\n"};
	int rc = page_write(s, &pg);
	buf_free(&c);
	buf_free(&nav);
	buf_free(&fold);
	return rc;
}
