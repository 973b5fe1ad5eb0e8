/* excerpt.c - what a printed page shows of a long listing (excerpt.h). */
#include "render/excerpt.h"

#include <ctype.h>
#include <string.h>

#include "base/highlight.h"
#include "base/util.h"
#include "book/book.h"
#include "book/chapter.h"
#include "render/page.h"

/* What a line of source holds, for the lines above a declaration. */
enum { LINE_BLANK, LINE_COMMENT, LINE_PP, LINE_CODE };

struct scan {
	const char *s;
	size_t len, i;
	int line;             /* the line of s[i], from 1 */
	unsigned char *kind;  /* per line, LINE_* */
	char *last;           /* per line, its last character of code */
	int nlines;
};

static void scan_code(struct scan *sc, char ch)
{
	sc->kind[sc->line] = LINE_CODE;
	sc->last[sc->line] = ch;
}

/* Past a comment, a string, a character or a preprocessor line at s[i],
 * if one starts there: 1, else 0. */
static int scan_skip(struct scan *sc, int line_start)
{
	const char *s = sc->s;
	size_t i = sc->i, n = sc->len;
	if (s[i] == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
		int block = s[i + 1] == '*';
		if (sc->kind[sc->line] == LINE_BLANK)
			sc->kind[sc->line] = LINE_COMMENT;
		for (i += 2; i < n; i++) {
			if (block && s[i] == '*' && i + 1 < n && s[i + 1] == '/') {
				i += 2;
				break;
			}
			if (s[i] == '\n') {
				if (!block)
					break;
				sc->line++;
				sc->kind[sc->line] = LINE_COMMENT;
			}
		}
	} else if (line_start && s[i] == '#') {
		sc->kind[sc->line] = LINE_PP;
		for (; i < n && s[i] != '\n'; i++)
			if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
				i++, sc->line++, sc->kind[sc->line] = LINE_PP;
	} else if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];
		scan_code(sc, q);
		for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
			if (s[i] == '\\' && i + 1 < n)
				i++;
		if (i < n && s[i] == q)
			i++;
	} else {
		return 0;
	}
	sc->i = i;
	return 1;
}

static int is_word(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

/* Where the whole of a listing is: the listings volume, when tools/pdf
 * prints one, and the site. */
static void whole_where(struct buf *out, const char *site_part)
{
	buf_puts(out, "Whole <span class=\"in-volume\">in the listings volume "
	              "under this number, and </span>");
	buf_puts(out, site_part);
}

/* The offset of the start of line `line` (from 1) of src, or len. */
static size_t line_offset(const char *src, size_t len, int line)
{
	size_t i = 0;
	for (int l = 1; l < line && i < len; i++)
		l += src[i] == '\n';
	return i;
}

/* An identifier that only qualifies a declaration (__launch_bounds__,
 * __noinline__): words of the compiler's, between two underscores. */
static int attribute_word(const char *w, size_t n)
{
	return n > 4 && w[0] == '_' && w[1] == '_' && w[n - 1] == '_' &&
	       w[n - 2] == '_';
}

size_t excerpt_device_fns(const char *src, size_t len, struct excerpt_fn **fns)
{
	struct scan sc = {src, len, 0, 1, NULL, NULL, 1};
	for (size_t i = 0; i < len; i++)
		sc.nlines += src[i] == '\n';
	sc.kind = xcalloc((size_t)sc.nlines + 2, 1);
	sc.last = xcalloc((size_t)sc.nlines + 2, 1);
	/* Braces: a namespace's or extern "C"'s do not make a function body. */
	unsigned char *ns = xcalloc(len + 1, 1);
	int depth = 0, blocks = 0, parens = 0, pending_ns = 0, line_start = 1;
	int body_depth = -1;          /* the depth of the body being read */
	struct excerpt_fn decl = {0}; /* a declaration pending, at decl.first */
	const char *word = NULL;      /* the last identifier */
	size_t wlen = 0, n_fn = 0;
	struct excerpt_fn *fn = NULL;
	while (sc.i < len) {
		if (scan_skip(&sc, line_start))
			continue;
		char ch = src[sc.i];
		if (isspace((unsigned char)ch)) {
			line_start |= ch == '\n';
			sc.line += ch == '\n';
			sc.i++;
			continue;
		}
		line_start = 0;
		scan_code(&sc, ch);
		if (isalpha((unsigned char)ch) || ch == '_') {
			size_t n = 0;
			while (sc.i + n < len &&
			       (isalnum((unsigned char)src[sc.i + n]) || src[sc.i + n] == '_'))
				n++;
			word = src + sc.i;
			wlen = n;
			int kernel = is_word(word, n, "__global__");
			if (is_word(word, n, "namespace") || is_word(word, n, "extern"))
				pending_ns = 1;
			else if ((kernel || is_word(word, n, "__device__")) && !blocks &&
			         body_depth < 0) {
				if (!decl.first)
					decl = (struct excerpt_fn){sc.line, 0, NULL, 0, 0};
				decl.kernel |= kernel;
				pending_ns = 0; /* extern "C" __global__ ... */
			}
			sc.last[sc.line] = word[n - 1];
			sc.i += n;
			continue;
		}
		switch (ch) {
		case '(':
			if (decl.first && !parens && !decl.name && word &&
			    !attribute_word(word, wlen)) {
				decl.name = word;
				decl.namelen = wlen;
			}
			parens++;
			break;
		case ')': parens -= parens > 0; break;
		case ';': pending_ns = 0; decl.first = 0; break;
		case '=': decl.first = parens ? decl.first : 0; break;
		case '{':
			ns[depth] = (unsigned char)pending_ns;
			blocks += !pending_ns;
			if (decl.first && decl.name && !pending_ns && body_depth < 0) {
				body_depth = depth;
				*ARRAY_PUSH(fn, n_fn) = decl;
			}
			decl.first = 0;
			pending_ns = 0;
			depth++;
			break;
		case '}':
			if (depth > 0) {
				depth--;
				blocks -= !ns[depth];
			}
			if (depth == body_depth) {
				fn[n_fn - 1].last = sc.line;
				body_depth = -1;
			}
			break;
		}
		sc.i++;
	}
	if (body_depth >= 0)
		fn[n_fn - 1].last = sc.line; /* a body never closed runs to the end */
	/* Each function from the comment and declaration lines right above. */
	for (size_t k = 0; k < n_fn; k++) {
		int first = fn[k].first, floor = k ? fn[k - 1].last + 1 : 1;
		while (first - 1 >= floor &&
		       (sc.kind[first - 1] == LINE_COMMENT ||
		        (sc.kind[first - 1] == LINE_CODE &&
		         !strchr(";{}", sc.last[first - 1]))))
			first--;
		fn[k].first = first;
	}
	free(sc.kind);
	free(sc.last);
	free(ns);
	*fns = fn;
	return n_fn;
}

/* Does word (n bytes) name f, f's name or, f a kernel, its end after an
 * underscore? */
static int names_fn(const char *word, size_t n, const struct excerpt_fn *f)
{
	if (!n || n > f->namelen)
		return 0;
	if (n == f->namelen)
		return !strncmp(word, f->name, n);
	return f->kernel && f->name[f->namelen - n - 1] == '_' &&
	       !strncmp(word, f->name + f->namelen - n, n);
}

int excerpt_names_fn(const char *name, const struct excerpt_fn *f)
{
	size_t n = strlen(name), digits = n;
	while (digits > 0 && isdigit((unsigned char)name[digits - 1]))
		digits--;
	return names_fn(name, n, f) || (digits < n && names_fn(name, digits, f));
}

/* Does any of names name f? */
static int group_names_fn(const struct code_names *g, const struct excerpt_fn *f)
{
	for (size_t i = 0; i < g->n; i++)
		if (excerpt_names_fn(g->v[i], f))
			return 1;
	return 0;
}

/* Does a word of heading title (plain text) name f? */
static int heading_names_fn(const char *title, const struct excerpt_fn *f)
{
	int hit = 0;
	for (const char *p = title; *p && !hit;) {
		size_t n = 0;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n && !isdigit((unsigned char)p[0])) {
			char *w = xstrndup(p, n);
			hit = excerpt_names_fn(w, f);
			free(w);
		}
		p += n ? n : 1;
	}
	return hit;
}

/* The block after which f prints: the first that names it in a section
 * whose heading names it too ("Step 5: wgmma fed by TMA"), else the first
 * that names it; ch->nnames when none does. */
static size_t names_block_of(const struct page_ctx *c,
                             const struct excerpt_fn *f)
{
	const struct chapter *ch = c->ch;
	const struct outline *ol = outline_of(c->s, ch);
	size_t first = ch->nnames;
	for (size_t j = 0; j < ch->nnames; j++) {
		int s = ch->names[j].section;
		if (!group_names_fn(&ch->names[j], f))
			continue;
		if (first == ch->nnames)
			first = j;
		if (s >= 0 && s != ch->title_section && ol && ol->titles &&
		    ol->titles[s] && heading_names_fn(ol->titles[s], f))
			return j;
	}
	return first;
}

/* The functions of one source that print after block k, in the file's
 * order. */
/* Source path as page c read it: read and parsed the first time. */
static const struct excerpt_src *source_of(struct page_ctx *c,
                                           const char *path)
{
	for (size_t i = 0; i < c->nsources; i++)
		if (!strcmp(c->sources[i].path, path))
			return &c->sources[i];
	struct excerpt_src *x = ARRAY_PUSH(c->sources, c->nsources);
	memset(x, 0, sizeof *x);
	x->path = xstrdup(path);
	x->src = file_read(path, &x->len);
	x->n = x->src ? excerpt_device_fns(x->src, x->len, &x->fns) : 0;
	return x;
}

void excerpt_sources_free(struct page_ctx *c)
{
	for (size_t i = 0; i < c->nsources; i++) {
		free(c->sources[i].path);
		free(c->sources[i].src);
		free(c->sources[i].fns);
	}
	free(c->sources);
	c->sources = NULL;
	c->nsources = 0;
}

static void names_source_html(struct page_ctx *c, size_t k, const char *path,
                              struct buf *out)
{
	const struct excerpt_src *x = source_of(c, path);
	const char *src = x->src;
	size_t len = x->len, n = x->n;
	const struct excerpt_fn *fns = x->fns;
	int any = 0;
	for (size_t f = 0; f < n; f++) {
		if (names_block_of(c, &fns[f]) != k)
			continue;
		if (!any++) {
			buf_puts(out, "<div class=\"print-only excerpt kernels\">\n"
			              "<p class=\"excerpt-note\">From <code>");
			buf_puts_html(out, path);
			buf_puts(out, "</code>:</p>\n");
		}
		size_t a = line_offset(src, len, fns[f].first);
		size_t b = line_offset(src, len, fns[f].last + 1);
		char *text = xstrndup(src + a, b - a);
		buf_printf(out, "<pre class=\"code\" style=\"counter-reset: line %d\">"
		           "<code>", fns[f].first - 1);
		highlight_c(out, text, strlen(text));
		buf_puts(out, "</code></pre>\n");
		free(text);
	}
	if (any)
		buf_puts(out, "</div>\n");
}

void excerpt_names_html(struct page_ctx *c, size_t k, struct buf *out)
{
	const struct chapter *ch = c->ch;
	const char **seen = NULL;
	size_t nseen = 0;
	if (k >= ch->nnames)
		return;
	for (size_t d = 0; d < ch->ndirs; d++) {
		const struct directive *dir = &ch->dirs[d];
		const struct exper *e = dir->kind == DIR_EXPERIMENT && !dir->error
		                            ? book_find(c->s->bk, dir->id) : NULL;
		for (size_t i = 0; e && e->source_ok &&
		                   i < (e->sources ? e->nsources : 1); i++) {
			const char *path = e->sources ? e->sources[i] : e->source;
			size_t j = 0;
			while (j < nseen && strcmp(seen[j], path))
				j++;
			if (j < nseen)
				continue;
			*ARRAY_PUSH(seen, nseen) = path;
			names_source_html(c, k, path, out);
		}
	}
	free(seen);
}

void excerpt_source_html(struct buf *out, const char *path)
{
	buf_puts(out, "<p class=\"print-only excerpt-note\">");
	struct buf site = BUF_INIT;
	buf_puts(&site, "at <code>src/");
	buf_puts_html(&site, path);
	buf_puts(&site, "</code> on the site; the chapter prints the kernels it "
	                "names where it names them.</p>\n");
	whole_where(out, site.data);
	buf_free(&site);
}

static size_t keep_range(unsigned char *keep, size_t n, size_t a, size_t b)
{
	size_t added = 0;
	for (size_t i = a; i <= b && i < n; i++) {
		added += !keep[i];
		keep[i] = 1;
	}
	return added;
}

size_t excerpt_sass_pick(const int *kind, size_t n, size_t cap,
                         unsigned char *keep)
{
	memset(keep, 0, n);
	size_t first = n;
	for (size_t i = 0; i < n && first == n; i++)
		if (kind[i] >= 0)
			first = i;
	if (first == n)
		return keep_range(keep, n, 0, cap ? cap - 1 : 0);
	/* The first marked instruction, two before it and a run after it;
	 * the longest run of marked ones (a loop's body) the same way; then
	 * the first of each other opcode marked, with one on each side. */
	size_t kept = keep_range(keep, n, first >= 2 ? first - 2 : 0,
	                         first + cap / 3);
	size_t best = n, best_len = 0;
	for (size_t i = first; i < n;) {
		size_t j = i;
		while (j < n && kind[j] >= 0)
			j++;
		if (j - i > best_len && !keep[i + (j - i) / 2]) {
			best = i;
			best_len = j - i;
		}
		i = j + 1;
	}
	if (best < n && best_len > 1)
		kept += keep_range(keep, n, best >= 2 ? best - 2 : 0, best + cap / 3);
	for (size_t i = first + 1; i < n && kept < cap; i++) {
		if (kind[i] < 0 || keep[i])
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = keep[j] && kind[j] == kind[i];
		if (!seen)
			kept += keep_range(keep, n, i - 1, i + 1);
	}
	return kept;
}

void excerpt_sass_note(struct buf *out, size_t kept, size_t n)
{
	if (kept >= n)
		return;
	buf_printf(out, "<p class=\"excerpt-note\">%zu of its %zu instructions, "
	           "around those marked. ", kept, n);
	whole_where(out, "on the chapter's page on the site.</p>\n");
}

void excerpt_output_note(struct buf *out, int shown, int lines)
{
	buf_printf(out, "<p class=\"print-only excerpt-note\">The first %d of its "
	           "%d lines. ", shown, lines);
	whole_where(out, "on the chapter's page on the site.</p>\n");
}
