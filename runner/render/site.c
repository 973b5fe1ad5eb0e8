/* site.c - the site: a page per chapter, the index, the one-page book, the
 * files they link to, and which of them are up to date (render.h names the
 * files below it). */
#include "render/site.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/blocks.h"
#include "render/body.h"
#include "render/book_pages.h"
#include "render/box.h"
#include "render/html_close.h"
#include "render/excerpt.h"
#include "render/gnuplot.h"
#include "render/live.h"
#include "judge/judge.h"
#include "render/machines.h"
#include "render/keys.h"
#include "render/kept.h"
#include "render/page.h"
#include "render/plot.h"
#include "render/search.h"
#include "render/site_book.h"
#include "base/store.h"
#include "base/util.h"
#include "render/values.h"
#include "render/xref.h"

struct chapter_summary {
	int claims, failed, errors;
};

static int chapter_page(struct page_ctx *c)
{
	const struct site_ctx *s = c->s;
	struct book *bk = s->bk;
	size_t i = c->index;
	struct buf body = BUF_INIT, content = BUF_INIT, nav = BUF_INIT,
	           fold = BUF_INIT;
	buf_printf(&content, "<div class=\"chapter-number\">Chapter %zu</div>\n",
	           i + 1);
	if (c->ch->error) {
		error_box(&content, "This chapter could not be read:", c->ch->error,
		          NULL);
		c->errors++;
	} else {
		size_t after_title = 0;
		body_html(c, &body, &after_title);
		/* The claims summary goes under the title, when there is one. */
		buf_put(&content, body.data, after_title);
		const char *nl = after_title ? "\n" : "";
		if (c->claims) {
			buf_puts(&content, nl);
			claims_summary_html(&content, c->claims, c->claims_failed,
			                    judge_doubted(s->o->machines->jb, c->ch,
			                                  c->index, 0),
			                    machine_has_gpu(s->v));
			buf_puts(&content, after_title ? "" : "\n");
		}
		buf_put(&content, body.data + after_title, body.len - after_title);
	}
	/* No chapter's raw HTML reaches the page around it, or the next chapter. */
	html_close(&content);
	onebook_add(s->book, i, content.data);
	toc_html(s, c->ch, &nav);
	toc_fold_html(s, c->ch, &fold);
	char *prev = nav_link(s, i ? bk->chs[i - 1] : NULL, "prev", "← Previous");
	char *next = nav_link(s, i + 1 < bk->nchs ? bk->chs[i + 1] : NULL, "next",
	                      "Next →");
	char *file = xasprintf("%s.html", c->ch->name);
	struct page pg = {file, outline_of(s, c->ch)->title, nav.data, fold.data,
	                  content.data, prev, next, ""};
	int rc = page_write(s, &pg);
	free(file);
	free(prev);
	free(next);
	buf_free(&body);
	buf_free(&content);
	buf_free(&nav);
	buf_free(&fold);
	return rc;
}

static int index_page(const struct site_ctx *s,
                      const struct chapter_summary *sum, int pdf_link)
{
	struct book *bk = s->bk;
	const struct site_opts *o = s->o;
	struct buf c = BUF_INIT;
	buf_puts(&c, "<h1 id=\"top\">");
	buf_puts_html(&c, o->title);
	buf_puts(&c, "</h1>\n<p class=\"lead\">");
	buf_puts_html(&c, o->lead ? o->lead : SITE_LEAD);
	buf_puts(&c, "</p>\n<ol class=\"contents\">\n");
	for (size_t i = 0; i < bk->nchs; i++) {
		const struct chapter *ch = bk->chs[i];
		buf_printf(&c, "<li><a href=\"%s.html\"><span class=\"num\">%zu</span> "
		           "<span class=\"title\">", ch->href, i + 1);
		buf_puts_html(&c, s->outline[i].title);
		buf_puts(&c, "</span></a>");
		if (s->outline[i].lead) {
			buf_puts(&c, "\n<p class=\"blurb\">");
			buf_puts_html(&c, s->outline[i].lead);
			buf_puts(&c, "</p>");
		}
		buf_puts(&c, "\n<p class=\"meta\">");
		if (sum[i].claims)
			buf_printf(&c, "%d claim%s, %s", sum[i].claims,
			           sum[i].claims > 1 ? "s" : "",
			           sum[i].failed ? "" : "all hold");
		if (sum[i].failed)
			buf_printf(&c, "<strong class=\"fails\">%d do%s not hold</strong>",
			           sum[i].failed, sum[i].failed > 1 ? "" : "es");
		if (sum[i].errors)
			buf_printf(&c, " · <strong class=\"fails\">%d problem%s</strong>",
			           sum[i].errors, sum[i].errors > 1 ? "s" : "");
		buf_puts(&c, "</p></li>\n");
	}
	buf_puts(&c, "</ol>\n<p class=\"aux-links\"><a href=\"provenance.html\">"
	             "Where the numbers come from</a> · <a href=\"runs.html\">"
	             "Run log</a> · <a href=\"search.html\">Search</a> · <a href="
	             "\"book.html\">The whole book on one page</a>");
	if (pdf_link)
		buf_puts(&c, " (<a href=\"book.pdf\">PDF</a>)");
	buf_puts(&c, o->history ? " · <a href=\"history.html\">History</a>" : "");
	for (size_t i = 0; i < o->nlinks; i++) {
		const char *bar = strchr(o->links[i], '|');
		char *url = xstrndup(o->links[i], (size_t)(bar - o->links[i]));
		char *text = xstrdup(bar + 1);
		buf_puts(&c, " · <a href=\"");
		buf_puts_html(&c, str_trim(url));
		buf_puts(&c, "\">");
		buf_puts_html(&c, str_trim(text));
		buf_puts(&c, "</a>");
		free(url);
		free(text);
	}
	buf_puts(&c, "</p>\n");
	char *next = nav_link(s, bk->nchs ? bk->chs[0] : NULL, "next",
	                      "Start reading →");
	int rc = page_write_book(s, "index.html", "", c.data, next, "");
	free(next);
	buf_free(&c);
	return rc;
}

struct book_content {
	const struct onebook *book;
	int pdf_link;
};

static int book_content(int fd, void *arg)
{
	const struct book_content *c = arg;
	return onebook_write(c->book, fd, c->pdf_link);
}

/* The key of a book-wide file made of every chapter page's part. */
static void parts_key(const struct site_ctx *s, char (*key)[33],
                      const char *what, int pdf_link, char out[33])
{
	struct hasher *h = hasher_new();
	hasher_add_self(h);
	hasher_add_str(h, what);
	for (size_t i = 0; i < s->bk->nchs; i++)
		hasher_add_str(h, key[i]);
	hasher_add(h, &pdf_link, sizeof pdf_link);
	hasher_done(h, out);
}

/*
 * Every chapter on one page; its navigation stays on the page. It is
 * written, as it is large, only when its key (every chapter page's, and
 * whether there is a PDF) is not that of the file there.
 */
static int book_page(const struct site_ctx *s, char (*key)[33], int pdf_link)
{
	char bkey[33];
	parts_key(s, key, "book.html", pdf_link, bkey);
	if (kept_file(s->store, s->o->dir, "book.html", bkey))
		return 0;
	char *nav = onebook_toc(s->book);
	struct page pg = {"book.html", "The whole book", nav, nav, NULL, "", "",
	                  ""};
	struct book_content c = {s->book, pdf_link};
	int rc = page_write_stream(s, &pg, book_content, &c);
	free(nav);
	if (rc == 0)
		kept_file_put(s->store, s->o->dir, "book.html", bkey);
	return rc;
}

/*
 * Copy src to dst unless dst already is a copy of it. A copy carries src's
 * modification time, so the same size and time mean the same file, as rsync
 * judges, and an up-to-date site reads none of them.
 */
static int copy_if_changed(struct site_stats *st, const char *src,
                           const char *dst, int *written)
{
	struct stat a, z;
	input_note(src);
	if (stat(src, &a) == 0 && stat(dst, &z) == 0 && a.st_size == z.st_size &&
	    a.st_mtim.tv_sec == z.st_mtim.tv_sec &&
	    a.st_mtim.tv_nsec == z.st_mtim.tv_nsec)
		return 0;
	size_t len;
	char *data = file_read(src, &len);
	if (!data) {
		site_problem(st, NULL, 0, "cannot read %s: %s", src,
		             strerror(errno));
		return -1;
	}
	int rc = mkdir_parents(dst) == 0 ? file_write_atomic(dst, data, len) : -1;
	if (rc == 0) {
		struct timespec t[2] = {a.st_mtim, a.st_mtim};
		utimensat(AT_FDCWD, dst, t, 0);
		(*written)++;
	}
	free(data);
	return rc;
}

static int copy_assets(const struct site_ctx *s)
{
	struct book *bk = s->bk;
	const struct bundle_view *v = s->v;
	const struct site_opts *o = s->o;
	int rc = 0, dummy = 0;
	char *dst;
	static const char *assets[] = {"style.css", "print.css", "search.js",
	                               "page.js"};
	for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) {
		char *src = path_join(o->templates, assets[i]);
		dst = path_join(o->dir, assets[i]);
		if (path_check_inside(src) != 0)
			rc = -1;
		else
			rc |= copy_if_changed(s->st, src, dst, &dummy);
		free(src);
		free(dst);
	}
	if (view_machine(v)) {
		char *src = view_machine_path(v);
		dst = path_join(o->dir, "data/machine.json");
		if (file_exists(src))
			rc |= copy_if_changed(s->st, src, dst, &dummy);
		free(src);
		free(dst);
	}
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		for (int k = 0; k < 2; k++) {
			char *id = k ? view_ptxas_id(e->id) : xstrdup(e->id);
			char *rec = view_records_path(v, id);
			dst = xasprintf("%s/data/%s.jsonl", o->dir, id);
			if (file_exists(rec))
				rc |= copy_if_changed(s->st, rec, dst, &dummy);
			free(rec);
			free(dst);
			free(id);
		}
		if (!e->source_ok)
			continue;
		for (size_t k = 0; k < (e->sources ? e->nsources : 1); k++) {
			const char *src = e->sources ? e->sources[k] : e->source;
			dst = xasprintf("%s/src/%s", o->dir, src);
			if (file_exists(src))
				rc |= copy_if_changed(s->st, src, dst, &dummy);
			free(dst);
		}
	}
	return rc ? -1 : 0;
}

/* What every chapter page shows of the others: names, titles, and where
 * each experiment is declared. */
static void book_digest(const struct site_ctx *s, char out[33])
{
	struct hasher *h = hasher_new();
	for (size_t i = 0; i < s->bk->nchs; i++) {
		hasher_add_str(h, s->bk->chs[i]->name);
		hasher_add_str(h, s->outline[i].title);
	}
	for (size_t i = 0; i < s->bk->nexps; i++) {
		hasher_add_str(h, s->bk->exps[i].id);
		hasher_add_str(h, s->bk->exps[i].ch->name);
	}
	hasher_done(h, out);
}

/* The key of chapter i's page: its own inputs, what it shows of the rest
 * of the book, and the numbers of what it refers to (xref_digest). */
static void page_key(const struct site_ctx *s, size_t i, const char *own,
                     const char *digest, char key[33])
{
	char refs[33];
	xref_digest(s->xref, i, refs);
	struct hasher *h = hasher_new();
	hasher_add_str(h, own);
	hasher_add_str(h, digest);
	hasher_add_str(h, refs);
	hasher_done(h, key);
}

/*
 * Is chapter i's page up to date: made under key without a problem or a
 * claim that failed (which must be reported again), the file there as it
 * was written, its charts drawn, and its parts of the one-page book and of
 * the search index kept? Then *claims gets the claims it makes, and the
 * pieces it was made with are kept for the build that makes it again.
 *
 * A page is kept as "CLAIMS SIZE MTIME INODE\n" and the keys of the pieces
 * it was made with (store_note).
 */
static int chapter_fresh(const struct site_ctx *s, size_t i, const char *key,
                         const char *skey, int *claims)
{
	const struct chapter *ch = s->bk->chs[i];
	size_t len;
	const char *v = store_get(s->store, key, &len);
	char facts[80];
	int n;
	if (!v || sscanf(v, "%d %79[0-9 ]", &n, facts) != 2 || n < 0 ||
	    n > 1000000)
		return 0;
	char *file = xasprintf("%s.html", ch->name);
	char now[80];
	kept_facts(s->o->dir, file, now);
	free(file);
	size_t klen;
	if (!*now || strcmp(now, facts) || !onebook_has_part(s->book, i) ||
	    !store_get(s->store, skey, &klen))
		return 0;
	/* Its charts' drawings are part of it. */
	for (size_t k = 0; k < ch->ndirs; k++) {
		const struct directive *d = &ch->dirs[k];
		if (d->kind == DIR_CHART && !d->error && d->id &&
		    !plot_drawn(s->o->dir, d->id))
			return 0;
	}
	*claims = n;
	const char *nl = memchr(v, '\n', len);
	if (nl)
		store_keep(s->store, nl + 1, len - (size_t)(nl + 1 - v));
	return 1;
}

/* Draw the charts of the pages to be made with one gnuplot, before the
 * pages are: each page then finds its charts up to date. */
static void charts_draw(struct site_ctx *s, const int *fresh)
{
	char **names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < s->bk->nchs; i++) {
		struct chapter *ch = s->bk->chs[i];
		/* The figure number a chart's key holds: charts before it. */
		struct page_ctx c = {s, ch, i, 0, 0, 0, 0, 0, NULL, 0, s->store,
		                     NULL, 0};
		for (size_t k = 0; !fresh[i] && k < ch->ndirs; k++) {
			const struct directive *d = &ch->dirs[k];
			if (d->kind != DIR_CHART || d->error)
				continue;
			int kept = block_kept(&c, d);
			c.figures++;
			if (kept)
				continue;
			struct chart_pick pk;
			chart_pick(s->o->machines, i, k, d, ch->path, &pk);
			char *name = plot_prepare(s->memo, &pk, ch->path, s->v,
			                          s->o->dir);
			chart_pick_free(&pk);
			if (name)
				*ARRAY_PUSH(names, n) = name;
		}
	}
	/* Each page counts its charts drawn as it takes them (plot.h). */
	if (n)
		plot_draw(s->o->dir, names, n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Chapter i's page, made again unless fresh; with its search entries
 * when entries is not NULL. */
static int chapter_update(struct site_ctx *s, size_t i, const char *key,
                          const char *skey, int fresh,
                          struct chapter_summary *sum, char **entries,
                          struct buf *made)
{
	struct chapter *ch = s->bk->chs[i];
	if (fresh)
		return 0;
	struct page_ctx c = {s, ch, i, 0, 0, 0, 0, 0, NULL, 0, s->store, NULL,
	                     0};
	store_note(s->store, made);
	int rc = chapter_page(&c);
	free(c.partial);
	excerpt_sources_free(&c);
	*sum = (struct chapter_summary){c.claims, c.claims_failed, c.errors};
	if (entries) {
		entries[i] = search_entries(s, i);
		store_put(s->store, skey, entries[i], strlen(entries[i]));
	}
	store_note(s->store, NULL);
	if (rc == 0 && !c.errors && !c.claims_failed) {
		char *file = xasprintf("%s.html", ch->name);
		char facts[80];
		kept_facts(s->o->dir, file, facts);
		struct buf v = BUF_INIT;
		buf_printf(&v, "%d %s\n", c.claims, facts);
		buf_put(&v, made->data ? made->data : "", made->len);
		if (*facts)
			store_put(s->store, key, v.data, v.len);
		buf_free(&v);
		free(file);
	}
	return rc;
}

/* The files this build made that a later one may not: chapter pages, the
 * Machines page, each chart's drawings and data, each experiment's
 * records copied, and each source copied. */
static void site_files(const struct site_ctx *s, struct buf *out)
{
	static const char *chart[] = {".svg", "-narrow.svg", ".csv", ".gp", ".box",
	                              ".area"};
	for (size_t i = 0; i < s->bk->nchs; i++) {
		const struct chapter *ch = s->bk->chs[i];
		buf_printf(out, "%s.html\n", ch->name);
		for (size_t k = 0; k < ch->ndirs; k++) {
			const struct directive *d = &ch->dirs[k];
			if (d->kind != DIR_CHART || d->error || !d->id)
				continue;
			for (size_t m = 0; m < sizeof chart / sizeof chart[0]; m++)
				buf_printf(out, "fig/%s%s\n", d->id, chart[m]);
		}
	}
	if (s->o->machines && s->o->machines->n > 1)
		buf_puts(out, "machines.html\n");
	buf_puts(out, s->o->history ? "history.html\n" : "");
	for (size_t i = 0; i < s->bk->nexps; i++) {
		const struct exper *e = &s->bk->exps[i];
		buf_printf(out, "data/%s.jsonl\n", e->id);
		char *id = view_ptxas_id(e->id);
		buf_printf(out, "data/%s.jsonl\n", id);
		free(id);
		for (size_t k = 0; e->source_ok && k < (e->sources ? e->nsources : 1);
		     k++)
			buf_printf(out, "src/%s\n",
			           e->sources ? e->sources[k] : e->source);
	}
}

int site_render(struct book *bk, const struct site_opts *o,
                struct site_stats *st)
{
	const struct bundle_view *v = o->machines->views[0];
	memset(st, 0, sizeof *st);
	char *tpath = path_join(o->templates, "page.html");
	if (path_check_inside(tpath) != 0) {
		free(tpath);
		return -1;
	}
	char *tmpl = file_read(tpath, NULL);
	if (!tmpl) {
		site_problem(st, NULL, 0, "cannot read the page template %s: %s",
		             tpath, strerror(errno));
		free(tpath);
		return -1;
	}
	free(tpath);
	if (mkdir_p(o->dir) != 0) {
		free(tmpl);
		return -1;
	}
	kept_legacy_remove(o->dir);
	struct buf ban = BUF_INIT, common = BUF_INIT;
	banner_html(v, o, &ban);
	buf_printf(&common, "%s\n%s\n%s\n%d\n%s\n%s\n%d\n%s", tmpl, o->title,
	           o->lead ? o->lead : "", o->gpu, v->dir, ban.data, o->live,
	           o->machines->jb->digest);
	struct site_ctx s = {bk, v, o, st, tmpl, ban.data,
	                     NULL, NULL, o->store, NULL, plot_memo_new()};
	size_t n = bk->nchs;
	s.outline = xcalloc(n ? n : 1, sizeof *s.outline);
	char (*own)[33] = xcalloc(n ? n : 1, sizeof *own);
	/* The keys of what each page is made with, kept with it. */
	struct buf *made = xcalloc(n ? n : 1, sizeof *made);
	const struct bundle_view **others = NULL;
	size_t nothers = 0;
	for (size_t m = 1; o->machines && m < o->machines->n; m++) {
		*ARRAY_PUSH(others, nothers) = o->machines->views[m];
		if (o->machines->repeat_views[m])
			*ARRAY_PUSH(others, nothers) = o->machines->repeat_views[m];
	}
	for (size_t i = 0; i < n; i++) {
		keys_chapter(bk->chs[i], s.v, others, nothers, common.data, own[i]);
		if (kept_outline(s.store, own[i], bk->chs[i], &s.outline[i]) != 0) {
			struct text_src src = {s.v, o->machines->jb, bk, s.store, NULL,
			                       bk->chs[i]};
			store_note(s.store, &made[i]);
			outline_make(&src, bk->chs[i], &s.outline[i]);
			store_note(s.store, NULL);
			kept_outline_put(s.store, own[i], bk->chs[i], &s.outline[i]);
		}
	}
	char digest[33];
	book_digest(&s, digest);
	s.xref = xref_new(bk, s.outline);
	/* A title that holds a reference reads as the page shows it. */
	for (size_t i = 0; i < n; i++) {
		struct text_src src = {s.v, o->machines->jb, bk, s.store, s.xref,
		                       bk->chs[i]};
		outline_resolve(&src, bk->chs[i], &s.outline[i]);
	}
	char (*key)[33] = xcalloc(n ? n : 1, sizeof *key);
	char (*skey)[33] = xcalloc(n ? n : 1, sizeof *skey);
	for (size_t i = 0; i < n; i++) {
		page_key(&s, i, own[i], digest, key[i]);
		keys_derive(key[i], "search", skey[i]);
	}
	s.book = onebook_new(&s, key);
	char *pdf = path_join(o->dir, "book.pdf");
	int pdf_link = file_exists(pdf);
	free(pdf);
	int rc = copy_assets(&s);
	rc |= live_assets_write(o->dir, o->live);
	int *fresh = xcalloc(n ? n : 1, sizeof *fresh);
	struct chapter_summary *sum = xcalloc(n ? n : 1, sizeof *sum);
	for (size_t i = 0; i < n; i++)
		fresh[i] = chapter_fresh(&s, i, key[i], skey[i], &sum[i].claims);
	charts_draw(&s, fresh);
	/* Every page up to date, and the index as written: so is the index. */
	char jskey[33];
	parts_key(&s, skey, "search-index.js", 0, jskey);
	struct buf files = BUF_INIT;
	char **entries = kept_file(s.store, o->dir, "search-index.js", jskey)
	                     ? NULL : xcalloc(n ? n : 1, sizeof *entries);
	for (size_t i = 0; i < n; i++) {
		rc |= chapter_update(&s, i, key[i], skey[i], fresh[i], &sum[i],
		                     entries, &made[i]);
		st->errors += sum[i].errors;
		st->claims += sum[i].claims;
		st->claims_failed += sum[i].failed;
	}
	plot_memo_free(s.memo);
	s.memo = NULL;
	rc |= index_page(&s, sum, pdf_link);
	rc |= book_page(&s, key, pdf_link);
	onebook_free(s.book);
	rc |= provenance_page(&s);
	rc |= runs_page(&s);
	if (o->machines && o->machines->n > 1)
		rc |= machines_html_page(&s);
	rc |= o->history ? history_html_page(&s) : 0;
	rc |= search_page(&s);
	if (entries) {
		if (search_index_write(&s, skey, entries) == 0)
			kept_file_put(s.store, o->dir, "search-index.js", jskey);
		else
			rc = -1;
	}
	for (size_t i = 0; entries && i < n; i++)
		free(entries[i]);
	free(entries);
	site_files(&s, &files);
	kept_files_prune(s.store, o->dir, files.data ? files.data : "", files.len);
	buf_free(&files);
	xref_free(s.xref);
	for (size_t i = 0; i < n; i++)
		outline_free(&s.outline[i], bk->chs[i]->nsections);
	free(s.outline);
	for (size_t i = 0; i < n; i++)
		buf_free(&made[i]);
	free(made);
	free(own);
	free(others);
	free(key);
	free(skey);
	free(fresh);
	free(sum);
	buf_free(&ban);
	buf_free(&common);
	free(tmpl);
	return rc ? -1 : 0;
}
