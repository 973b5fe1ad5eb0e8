/* site_book.c - the whole book on one page, book.html (site_book.h). */
#define _GNU_SOURCE
#include "render/site_book.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/buf.h"
#include "render/page.h"
#include "render/keys.h"
#include "base/store.h"
#include "base/util.h"

static int chapter_named(const struct book *bk, const char *s, size_t n);

struct onebook {
	const struct site_ctx *s;
	const struct book *bk;
	char (*key)[33];      /* chapter i's part's key in the store */
	struct buf *chapters; /* rewritten content of chapter i, or empty */
};

struct onebook *onebook_new(const struct site_ctx *s, char (*page_key)[33])
{
	struct onebook *ob = xcalloc(1, sizeof *ob);
	ob->s = s;
	ob->bk = s->bk;
	size_t n = ob->bk->nchs ? ob->bk->nchs : 1;
	ob->chapters = xcalloc(n, sizeof *ob->chapters);
	ob->key = xcalloc(n, sizeof *ob->key);
	for (size_t i = 0; i < ob->bk->nchs; i++)
		keys_derive(page_key[i], "book", ob->key[i]);
	return ob;
}

void onebook_free(struct onebook *ob)
{
	if (!ob)
		return;
	for (size_t i = 0; i < ob->bk->nchs; i++)
		buf_free(&ob->chapters[i]);
	free(ob->chapters);
	free(ob->key);
	free(ob);
}

void onebook_add(struct onebook *ob, size_t i, const char *html)
{
	if (i >= ob->bk->nchs)
		return;
	ob->chapters[i].len = 0;
	buf_puts(&ob->chapters[i], ""); /* added, even if it were empty */
	onebook_rewrite(ob->bk, ob->bk->chs[i]->href, html, &ob->chapters[i]);
	store_put(ob->s->store, ob->key[i], ob->chapters[i].data,
	          ob->chapters[i].len);
}

/* Chapter i's part: made by this build, or kept from an earlier one. */
static const char *part_of(const struct onebook *ob, size_t i, size_t *len)
{
	const struct buf *ch = &ob->chapters[i];
	if (ch->data) {
		*len = ch->len;
		return ch->data;
	}
	return store_get(ob->s->store, ob->key[i], len);
}

int onebook_has_part(const struct onebook *ob, size_t i)
{
	size_t len;
	return part_of(ob, i, &len) != NULL;
}

/* ---- ids and links ------------------------------------------------------- */

static int chapter_named(const struct book *bk, const char *s, size_t n)
{
	for (size_t i = 0; i < bk->nchs; i++)
		if (strlen(bk->chs[i]->href) == n && !strncmp(bk->chs[i]->href, s, n))
			return 1;
	return 0;
}

/* An attribute whose value is one id, or a list of ids. */
static int attr_names_ids(const char *name, size_t n)
{
	static const char *names[] = {"id", "for", "aria-labelledby",
	                              "aria-describedby", "aria-controls",
	                              "aria-owns", NULL};
	for (const char **k = names; *k; k++)
		if (strlen(*k) == n && !strncasecmp(*k, name, n))
			return 1;
	return 0;
}

static void rewrite_ids(const char *name, const char *v, size_t n,
                        struct buf *out)
{
	size_t i = 0;
	while (i < n) {
		size_t sp = i;
		while (sp < n && v[sp] != ' ')
			sp++;
		if (sp > i)
			buf_printf(out, "%s:%.*s", name, (int)(sp - i), v + i);
		while (sp < n && v[sp] == ' ')
			buf_putc(out, v[sp++]);
		i = sp;
	}
}

static void rewrite_href(const struct book *bk, const char *name, const char *v,
                         size_t n, struct buf *out)
{
	if (n > 1 && v[0] == '#') {
		buf_printf(out, "#%s:%.*s", name, (int)(n - 1), v + 1);
		return;
	}
	/* "OTHER.html" or "OTHER.html#x", OTHER a chapter of the book. */
	size_t base = strcspn(v, "/#?:\"' >");
	if (base > 5 && base <= n && !strncmp(v + base - 5, ".html", 5) &&
	    chapter_named(bk, v, base - 5)) {
		size_t stem = base - 5;
		if (base < n && v[base] == '#' && base + 1 < n)
			buf_printf(out, "#%.*s:%.*s", (int)stem, v, (int)(n - base - 1),
			           v + base + 1);
		else if (base == n)
			buf_printf(out, "#%.*s", (int)stem, v);
		else
			buf_put(out, v, n);
		return;
	}
	buf_put(out, v, n);
}

/* Copy one tag, from its '<' to its '>', rewriting what names an id. */
static const char *rewrite_tag(const struct book *bk, const char *name,
                               const char *p, struct buf *out)
{
	const char *q = p + 1;
	while (*q && *q != '>' && !isspace((unsigned char)*q))
		q++;
	buf_put(out, p, (size_t)(q - p));
	while (*q && *q != '>') {
		if (isspace((unsigned char)*q) || *q == '/') {
			buf_putc(out, *q++);
			continue;
		}
		const char *an = q;
		while (*q && *q != '=' && *q != '>' && !isspace((unsigned char)*q))
			q++;
		size_t alen = (size_t)(q - an);
		buf_put(out, an, alen);
		if (*q != '=')
			continue;
		buf_putc(out, *q++);
		char quote = *q == '"' || *q == '\'' ? *q : 0;
		if (quote)
			buf_putc(out, *q++);
		const char *v = q;
		while (*q && (quote ? *q != quote
		                    : *q != '>' && !isspace((unsigned char)*q)))
			q++;
		size_t vlen = (size_t)(q - v);
		if (attr_names_ids(an, alen))
			rewrite_ids(name, v, vlen, out);
		else if (alen == 4 && !strncasecmp(an, "href", 4))
			rewrite_href(bk, name, v, vlen, out);
		else
			buf_put(out, v, vlen);
		if (quote && *q == quote)
			buf_putc(out, *q++);
	}
	if (*q == '>')
		buf_putc(out, *q++);
	return q;
}

void onebook_rewrite(const struct book *bk, const char *name, const char *html,
                     struct buf *out)
{
	const char *p = html;
	while (*p) {
		const char *lt = strchr(p, '<');
		if (!lt) {
			buf_puts(out, p);
			return;
		}
		buf_put(out, p, (size_t)(lt - p));
		if (str_starts(lt, "<!--")) {
			const char *end = strstr(lt, "-->");
			end = end ? end + 3 : lt + strlen(lt);
			buf_put(out, lt, (size_t)(end - lt));
			p = end;
		} else if (isalpha((unsigned char)lt[1])) {
			p = rewrite_tag(bk, name, lt, out);
		} else {
			buf_putc(out, '<');
			p = lt + 1;
		}
	}
}

/* ---- the page -------------------------------------------------------------- */

/* The chapters and their sections as a list, linked inside the page. */
static void contents_list(const struct site_ctx *s, const char *cls,
                          struct buf *out)
{
	const struct book *bk = s->bk;
	buf_printf(out, "<ol class=\"%s\">\n", cls);
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		const struct outline *ol = &s->outline[i];
		buf_printf(out, "<li><a href=\"#%s\"><span class=\"num\">%zu</span> ",
		           ch->href, i + 1);
		buf_puts_html(out, ol->title);
		buf_puts(out, "</a>");
		char *prefix = xasprintf("%s:", ch->href);
		sections_html(s, i, prefix, out);
		free(prefix);
		buf_puts(out, "</li>\n");
	}
	buf_puts(out, "</ol>\n");
}

char *onebook_toc(const struct onebook *ob)
{
	struct buf out = BUF_INIT;
	contents_list(ob->s, "toc", &out);
	buf_puts(&out, "<p class=\"aux\"><a href=\"index.html\">All chapters</a> · "
	               "<a href=\"provenance.html\">Provenance</a> · <a href="
	               "\"runs.html\">Run log</a> · <a href=\"search.html\">Search"
	               "</a></p>\n");
	return buf_detach(&out);
}

int onebook_write(const struct onebook *ob, int fd, int pdf_link)
{
	const struct book *bk = ob->bk;
	struct buf out = BUF_INIT;
	buf_puts(&out, "<header class=\"book-title-page\">\n<h1 id=\"book-title\">");
	buf_puts_html(&out, ob->s->o->title);
	buf_puts(&out, "</h1>\n<p class=\"lead\">");
	buf_puts_html(&out, ob->s->o->lead ? ob->s->o->lead : SITE_LEAD);
	buf_puts(&out, "</p>\n<p class=\"book-formats\">The whole book on one "
	               "page, to read straight through or to print");
	if (pdf_link)
		buf_puts(&out, "; also as <a href=\"book.pdf\">a PDF</a>");
	/* On paper (print.css): what the chapters print of their listings, and
	 * the title of the volume that holds them whole. */
	buf_puts(&out, ".</p>\n<p class=\"print-only\"><span class=\"in-volume\">"
	               "Each chapter prints the kernels it names where it names "
	               "them, and the parts of the SASS and of the outputs that "
	               "its sentences point at. Every listing is whole in the "
	               "listings volume, book-listings.pdf, under the number the "
	               "chapter gives it.</span></p>\n<p class=\"print-only "
	               "listings-title\">Listings: the sources, SASS and outputs "
	               "of the book's experiments, whole, under the numbers its "
	               "chapters give them.</p>\n</header>\n");
	buf_puts(&out, "<nav class=\"book-contents\" aria-labelledby=\"book-"
	               "contents\">\n<h2 id=\"book-contents\">Contents</h2>\n");
	contents_list(ob->s, "contents", &out);
	buf_puts(&out, "</nav>\n");
	int rc = fd_write_all(fd, out.data, out.len);
	for (size_t i = 0; rc == 0 && i < bk->nchs; i++) {
		out.len = 0;
		buf_printf(&out, "<section class=\"book-chapter\" id=\"%s\" "
		           "aria-label=\"Chapter %zu\">\n", bk->chs[i]->href, i + 1);
		rc = fd_write_all(fd, out.data, out.len);
		size_t len = 0;
		const char *part = part_of(ob, i, &len);
		if (rc == 0)
			rc = fd_write_all(fd, part ? part : "", len);
		if (rc == 0)
			rc = fd_write_all(fd, "</section>\n", 11);
	}
	buf_free(&out);
	return rc;
}
