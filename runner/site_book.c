#define _GNU_SOURCE
#include "site_book.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "buf.h"
#include "render.h"
#include "util.h"

static int chapter_named(const struct book *bk, const char *s, size_t n);

struct onebook {
	const struct site_ctx *s;
	const struct book *bk;
	const char *site;
	char **chapters; /* rewritten content of chapter i, or NULL */
};

struct onebook *onebook_new(const struct site_ctx *s)
{
	struct onebook *ob = xcalloc(1, sizeof *ob);
	ob->s = s;
	ob->bk = s->bk;
	ob->site = s->o->dir;
	ob->chapters = xcalloc(ob->bk->nchs ? ob->bk->nchs : 1,
	                       sizeof *ob->chapters);
	return ob;
}

void onebook_free(struct onebook *ob)
{
	if (!ob)
		return;
	for (size_t i = 0; i < ob->bk->nchs; i++)
		free(ob->chapters[i]);
	free(ob->chapters);
	free(ob);
}

static char *part_path(const struct onebook *ob, size_t i)
{
	return xasprintf("%s/" ONEBOOK_PARTS "/%s.part", ob->site,
	                 ob->bk->chs[i]->name);
}

int onebook_add(struct onebook *ob, size_t i, const char *html)
{
	if (i >= ob->bk->nchs)
		return 0;
	struct buf out = BUF_INIT;
	onebook_rewrite(ob->bk, ob->bk->chs[i]->name, html, &out);
	free(ob->chapters[i]);
	ob->chapters[i] = buf_detach(&out);
	char *path = part_path(ob, i);
	int rc = file_write_if_changed(path, ob->chapters[i],
	                               strlen(ob->chapters[i]), NULL);
	free(path);
	return rc;
}

int onebook_has_part(const struct onebook *ob, size_t i)
{
	char *path = part_path(ob, i);
	int there = file_exists(path);
	free(path);
	return there;
}

void onebook_prune(const struct onebook *ob)
{
	char *dir = path_join(ob->site, ONEBOOK_PARTS);
	char **names = xcalloc(ob->bk->nchs ? ob->bk->nchs : 1, sizeof *names);
	for (size_t i = 0; i < ob->bk->nchs; i++)
		names[i] = ob->bk->chs[i]->name;
	dir_prune(dir, ".part", names, ob->bk->nchs);
	free(names);
	free(dir);
}

/* ---- ids and links ------------------------------------------------------- */

static int chapter_named(const struct book *bk, const char *s, size_t n)
{
	for (size_t i = 0; i < bk->nchs; i++)
		if (strlen(bk->chs[i]->name) == n && !strncmp(bk->chs[i]->name, s, n))
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
		           ch->name, i + 1);
		buf_puts_html(out, ol->title);
		buf_puts(out, "</a>");
		char *prefix = xasprintf("%s:", ch->name);
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

/* Copy the file at path to fd, in the kernel where it can. 0 or -1. */
static int copy_into(const char *path, int fd)
{
	input_note(path);
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return errno == ENOENT ? 0 : -1;
	int rc = 0;
	for (;;) {
		ssize_t n = copy_file_range(in, NULL, fd, NULL, 1 << 30, 0);
		if (n > 0)
			continue;
		if (n == 0)
			break;
		if (errno == EINTR)
			continue;
		/* Not across these file systems: through a buffer. */
		char chunk[65536];
		while ((n = read(in, chunk, sizeof chunk)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || fd_write_all(fd, chunk, (size_t)n) != 0) {
				rc = -1;
				break;
			}
		}
		break;
	}
	close(in);
	return rc;
}

int onebook_write(const struct onebook *ob, int fd, int pdf_link)
{
	const struct book *bk = ob->bk;
	struct buf out = BUF_INIT;
	buf_puts(&out, "<header class=\"book-title-page\">\n<h1 id=\"book-title\">");
	buf_puts_html(&out, ob->s->o->title);
	buf_puts(&out, "</h1>\n<p class=\"lead\">Every number in this book was "
	               "measured by the experiments it describes, and every claim "
	               "it makes is checked against those numbers when the book "
	               "is built.</p>\n<p class=\"book-formats\">The whole book on "
	               "one page, to read straight through or to print");
	if (pdf_link)
		buf_puts(&out, "; also as <a href=\"book.pdf\">a PDF</a>");
	buf_puts(&out, ".</p>\n</header>\n");
	buf_puts(&out, "<nav class=\"book-contents\" aria-labelledby=\"book-"
	               "contents\">\n<h2 id=\"book-contents\">Contents</h2>\n");
	contents_list(ob->s, "contents", &out);
	buf_puts(&out, "</nav>\n");
	int rc = fd_write_all(fd, out.data, out.len);
	for (size_t i = 0; rc == 0 && i < bk->nchs; i++) {
		out.len = 0;
		buf_printf(&out, "<section class=\"book-chapter\" id=\"%s\" "
		           "aria-label=\"Chapter %zu\">\n", bk->chs[i]->name, i + 1);
		rc = fd_write_all(fd, out.data, out.len);
		if (rc == 0 && ob->chapters[i]) {
			rc = fd_write_all(fd, ob->chapters[i], strlen(ob->chapters[i]));
		} else if (rc == 0) {
			char *path = part_path(ob, i);
			rc = copy_into(path, fd);
			free(path);
		}
		if (rc == 0)
			rc = fd_write_all(fd, "</section>\n", 11);
	}
	buf_free(&out);
	return rc;
}
