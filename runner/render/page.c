/* page.c - the page frame: the template, the contents, the links to the
 * neighbouring chapters, and writing a page only when it changed. */
#include "render/page.h"

#include <errno.h>
#include <string.h>

#include "base/exec.h"
#include "render/box.h"
#include "judge/view.h"
#include "render/live.h"
#include "render/machines.h"
#include "base/util.h"

/* Above this many chapters the contents of a page lists those near it. */
#define TOC_FULL 60
#define TOC_NEAR 5

struct tvar {
	const char *name;
	const char *value;
};

static char *template_fill(const char *tmpl, const struct tvar *vars, size_t n)
{
	struct buf out = BUF_INIT;
	const char *p = tmpl;
	/* Room for every value once: a page is allocated once. */
	size_t room = strlen(tmpl);
	for (size_t i = 0; i < n; i++)
		room += vars[i].value ? strlen(vars[i].value) : 0;
	buf_grow(&out, room);
	for (;;) {
		const char *s = strstr(p, "{{");
		const char *e = s ? strstr(s, "}}") : NULL;
		if (!s || !e) {
			buf_puts(&out, p);
			break;
		}
		buf_put(&out, p, (size_t)(s - p));
		char *name = xstrndup(s + 2, (size_t)(e - s - 2));
		const char *val = NULL;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(vars[i].name, str_trim(name)))
				val = vars[i].value;
		buf_puts(&out, val ? val : "");
		free(name);
		p = e + 2;
	}
	return buf_detach(&out);
}

const struct outline *outline_of(const struct site_ctx *s,
                                 const struct chapter *ch)
{
	for (size_t i = 0; i < s->bk->nchs; i++)
		if (s->bk->chs[i] == ch)
			return &s->outline[i];
	return NULL;
}

/* ", on DATE · bundle DIR" (linked to the provenance page). */
static void banner_when_where(const struct bundle_view *b, const char *date,
                              struct buf *out)
{
	if (date) {
		buf_puts(out, ", on <span class=\"nowrap\">");
		buf_put_html(out, date, strcspn(date, "T"));
		buf_puts(out, "</span>");
	}
	buf_puts(out, " · bundle <a href=\"provenance.html\"><code>");
	buf_puts_html(out, b->dir);
	buf_puts(out, "</code></a>");
}

void banner_html(const struct bundle_view *b, const struct site_opts *o,
                   struct buf *out)
{
	const char *gpu = machine_str(b, "gpu"), *date = machine_str(b, "date");
	buf_puts(out, "<div class=\"banner\" role=\"note\">");
	if (!view_machine(b)) {
		buf_puts(out, "No results bundle yet: run <code>make site</code> on a "
		              "machine with a GPU to measure this book.");
	} else if (!machine_has_gpu(b)) {
		/* A book of CPU experiments: no GPU was asked for. */
		const char *cpu = machine_str(b, "cpu");
		buf_puts(out, "Results measured on ");
		buf_puts(out, cpu ? "the processor <strong>" : "the host <strong>");
		buf_puts_html(out, cpu ? cpu : machine_str(b, "host") ?
		                                 machine_str(b, "host") : "unknown");
		buf_puts(out, "</strong> (no GPU)");
		banner_when_where(b, date, out);
	} else {
		buf_puts(out, "Results measured on ");
		buf_puts(out, "<strong>");
		buf_puts_html(out, gpu ? gpu : "unknown GPU");
		buf_puts(out, "</strong>");
		if (machine_str(b, "driver")) {
			buf_puts(out, ", driver ");
			buf_puts_html(out, machine_str(b, "driver"));
		}
		if (machine_str(b, "cuda_runtime")) {
			buf_puts(out, ", CUDA ");
			buf_puts_html(out, machine_str(b, "cuda_runtime"));
		}
		banner_when_where(b, date, out);
		if (!o->gpu)
			buf_puts(out, ". This machine has no GPU, so the book shows "
			              "these recorded results; <code>make site</code> on "
			              "a GPU measures your own.");
	}
	if (view_machine(b) && o->machines && o->machines->n > 1)
		buf_printf(out, " · compared with <a href=\"machines.html\">%zu "
		           "other machine%s</a>", o->machines->n - 1,
		           o->machines->n > 2 ? "s" : "");
	buf_puts(out, "</div>");
}

void sections_html(const struct site_ctx *s, size_t i, const char *prefix,
                   struct buf *out)
{
	const struct chapter *ch = s->bk->chs[i];
	const struct outline *ol = &s->outline[i];
	int any = 0;
	for (size_t k = 0; k < ch->nsections; k++) {
		if (ch->sections[k].level != 2)
			continue;
		buf_puts(out, any ? "" : "\n<ol class=\"sections\">");
		any = 1;
		buf_printf(out, "<li><a href=\"#%s%s\">", prefix, ol->ids[k]);
		buf_puts_html(out, ol->titles[k]);
		buf_puts(out, "</a></li>");
	}
	if (any)
		buf_puts(out, "</ol>");
}

static void toc_item(const struct site_ctx *s, size_t i, int current,
                     struct buf *out)
{
	const struct chapter *ch = s->bk->chs[i];
	buf_printf(out, "<li%s><a href=\"%s.html\"%s><span class=\"num\">%zu"
	           "</span> ", current ? " class=\"current\"" : "", ch->href,
	           current ? " aria-current=\"page\"" : "", i + 1);
	buf_puts_html(out, s->outline[i].title);
	buf_puts(out, "</a>");
	if (current)
		sections_html(s, i, "", out);
	buf_puts(out, "</li>\n");
}

static size_t chapter_index(const struct site_ctx *s, const struct chapter *ch)
{
	for (size_t i = 0; i < s->bk->nchs; i++)
		if (s->bk->chs[i] == ch)
			return i;
	return 0;
}

static void toc_aux(struct buf *out, int all)
{
	buf_puts(out, "<p class=\"aux\">");
	if (all)
		buf_puts(out, "<a href=\"index.html\">All chapters</a> · ");
	buf_puts(out, "<a href=\"provenance.html\">Provenance</a> · <a href=\"runs.html"
	              "\">Run log</a> · <a href=\"search.html\">Search</a></p>\n");
}

void toc_html(const struct site_ctx *s, const struct chapter *cur,
              struct buf *out)
{
	size_t n = s->bk->nchs, at = cur ? chapter_index(s, cur) : 0;
	int near = n > TOC_FULL;
	buf_puts(out, "<ol class=\"toc\">\n");
	for (size_t i = 0; i < n; i++) {
		/* A long book: the first and last chapters and those near this one. */
		if (near && i && i + 1 < n && (i + TOC_NEAR < at || i > at + TOC_NEAR))
			continue;
		toc_item(s, i, s->bk->chs[i] == cur, out);
	}
	buf_puts(out, "</ol>\n");
	toc_aux(out, near);
}

void toc_fold_html(const struct site_ctx *s, const struct chapter *cur,
                   struct buf *out)
{
	if (cur) {
		buf_puts(out, "<ol class=\"toc\">\n");
		toc_item(s, chapter_index(s, cur), 1, out);
		buf_puts(out, "</ol>\n");
	}
	toc_aux(out, 1);
}

/* The marker that stands for the content while the frame is filled. */
#define CONTENT_MARK "\x01content\x01"

/* The page pg in its frame; content stands in for its content. */
static char *page_frame(const struct site_ctx *s, const struct page *pg,
                        const char *content)
{
	const struct site_opts *o = s->o;
	char *full_title = xasprintf("%s%s%s", pg->title, *pg->title ? " · " : "",
	                             o->title);
	struct buf t = BUF_INIT, book = BUF_INIT, pager = BUF_INIT;
	buf_puts_html(&t, full_title);
	buf_puts_html(&book, o->title);
	buf_puts(&pager, "");
	if (*pg->prev || *pg->next)
		buf_printf(&pager, "<nav class=\"pager\" aria-label=\"Previous and "
		           "next chapter\">%s%s</nav>", pg->prev, pg->next);
	char *scripts = xasprintf("%s%s", pg->scripts,
	                          o->live ? LIVE_SCRIPT_HTML : "");
	/* The books linked with this one (--link), in the bar on top of
	 * every page, not only at the foot of the index. */
	struct buf links = BUF_INIT;
	for (size_t i = 0; i < o->nlinks; i++) {
		const char *bar = strchr(o->links[i], '|');
		char *url = xstrndup(o->links[i], (size_t)(bar - o->links[i]));
		buf_puts(&links, i ? " · " : "<nav class=\"top-links\" aria-label="
		         "\"Other books\">");
		buf_puts(&links, "<a href=\"");
		buf_puts_html(&links, str_trim(url));
		buf_puts(&links, "\">");
		buf_puts_html(&links, bar + 1 + strspn(bar + 1, " "));
		buf_puts(&links, "</a>");
		free(url);
	}
	buf_puts(&links, o->nlinks ? "</nav>" : "");
	struct tvar vars[] = {
		{"title", t.data},          {"book", book.data},
		{"toc", pg->toc},           {"toc_fold", pg->toc_fold},
		{"banner", s->banner},      {"content", content},
		{"pager", pager.data},      {"scripts", scripts},
		{"links", links.data},
	};
	char *html = template_fill(s->tmpl, vars, sizeof vars / sizeof vars[0]);
	free(scripts);
	buf_free(&links);
	free(full_title);
	buf_free(&t);
	buf_free(&book);
	buf_free(&pager);
	return html;
}

int page_write(const struct site_ctx *s, const struct page *pg)
{
	/* What a build asked to stop made may be cut short. */
	if (exec_stopping())
		return -1;
	char *html = page_frame(s, pg, pg->content);
	char *path = path_join(s->o->dir, pg->file);
	int rc = file_write_if_changed(path, html, strlen(html),
	                               &s->st->pages_written);
	free(path);
	free(html);
	return rc;
}

struct page_stream {
	const char *head, *tail; /* the frame before and after the content */
	size_t head_len;
	int (*content)(int fd, void *arg);
	void *arg;
};

static int page_stream_fill(int fd, void *arg)
{
	const struct page_stream *p = arg;
	if (fd_write_all(fd, p->head, p->head_len) != 0 ||
	    p->content(fd, p->arg) != 0)
		return -1;
	return fd_write_all(fd, p->tail, strlen(p->tail));
}

int page_write_book(const struct site_ctx *s, const char *file,
                    const char *title, const char *content, const char *next,
                    const char *tail)
{
	struct buf nav = BUF_INIT, fold = BUF_INIT;
	toc_html(s, NULL, &nav);
	toc_fold_html(s, NULL, &fold);
	struct page pg = {file, title, nav.data, fold.data, content, "", next,
	                  tail};
	int rc = page_write(s, &pg);
	buf_free(&nav);
	buf_free(&fold);
	return rc;
}

int page_write_stream(const struct site_ctx *s, const struct page *pg,
                      int (*content)(int fd, void *arg), void *arg)
{
	if (exec_stopping())
		return -1;
	char *html = page_frame(s, pg, CONTENT_MARK);
	char *path = path_join(s->o->dir, pg->file);
	char *mark = strstr(html, CONTENT_MARK);
	int rc = -1;
	if (!mark) {
		site_problem(s->st, NULL, 0, "the page template has no "
		             "{{ content }}: %s cannot be written", path);
	} else {
		struct page_stream p = {html, mark + strlen(CONTENT_MARK),
		                        (size_t)(mark - html), content, arg};
		rc = file_write_atomic_with(path, page_stream_fill, &p);
		s->st->pages_written += rc == 0;
	}
	free(path);
	free(html);
	return rc;
}

char *nav_link(const struct site_ctx *s, const struct chapter *ch,
               const char *rel, const char *label)
{
	if (!ch)
		return xstrdup("");
	struct buf b = BUF_INIT;
	buf_printf(&b, "<a class=\"%s\" rel=\"%s\" href=\"%s.html\"><span "
	           "class=\"dir\">%s</span> ", rel, rel, ch->href, label);
	buf_puts_html(&b, outline_of(s, ch)->title);
	buf_puts(&b, "</a>");
	return buf_detach(&b);
}
