/*
 * chapter_parse.c - a chapter's Markdown, parsed once with cmark-gfm, into
 * its plan (chapter.h): the "{{ ... }}" values found by the inline parser,
 * one walk of the tree for sections, words and the nodes that become
 * directives, listings, tables and callouts (whose bodies are parsed
 * the same way), and the rendered HTML cut into pieces. The only file
 * that sees cmark.
 */
#include "book/chapter.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/highlight.h"
#include "base/util.h"
#include "book/callout.h"

#define CMARK_OPTS (CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES)
#define FEED_BYTES ((size_t)1 << 20)

struct parse {
	struct chapter *ch;
	const char *src;
	size_t len;
	const char **lines; /* the start of each source line, 1-based */
	size_t nlines;
	/* The line at offset line_off of the inline text of line_parent, so
	 * the values of one paragraph are found in one pass over it. */
	const void *line_parent, *line_ip;
	int line_off, line_at;
	int line_base; /* the chapter's line before the text parsed (a
	                  callout's body: its fence), or 0 */
};

static struct parse *parse_now; /* the chapter the inline parser is in */

static cmark_mem *tree_mem(void)
{
	return cmark_get_default_mem_allocator();
}

/* The nodes the walk replaced, freed once it is over (the iterator may
 * still stand on one). */
static cmark_node **replaced;
static size_t nreplaced;

/* The inline parser found '{': a "{{ ... }}" on this line is a value. */
static cmark_node *value_match(cmark_syntax_extension *ext,
                               cmark_parser *parser, cmark_node *parent,
                               unsigned char c, cmark_inline_parser *ip)
{
	(void)ext;
	(void)parser;
	struct parse *p = parse_now;
	int off = cmark_inline_parser_get_offset(ip);
	if (c != '{' || !p || cmark_inline_parser_peek_at(ip, off + 1) != '{')
		return NULL;
	int line = p->line_base + cmark_node_get_start_line(parent), k = 0;
	if (p->line_parent == parent && p->line_ip == ip && p->line_off <= off) {
		line = p->line_at;
		k = p->line_off;
	}
	for (; k < off; k++)
		line += cmark_inline_parser_peek_at(ip, k) == '\n';
	p->line_parent = parent;
	p->line_ip = ip;
	p->line_off = off;
	p->line_at = line;
	struct buf text = BUF_INIT;
	int end = off + 2, closed = 0;
	for (;; end++) {
		unsigned char x = cmark_inline_parser_peek_at(ip, end);
		if (!x || x == '\n')
			break;
		if (x == '}' && cmark_inline_parser_peek_at(ip, end + 1) == '}') {
			closed = 1;
			break;
		}
		buf_putc(&text, (char)x);
	}
	cmark_node *node;
	if (!closed) {
		diag_at(p->ch->path, line, "'{{' without a closing '}}' on its line "
		        "(write '\\{{' for literal braces)");
		node = cmark_node_new_with_mem(CMARK_NODE_TEXT, tree_mem());
		cmark_node_set_literal(node, "{{");
		cmark_inline_parser_set_offset(ip, off + 2);
	} else {
		struct inline_expr *e = ARRAY_PUSH(p->ch->values, p->ch->nvalues);
		memset(e, 0, sizeof *e);
		inline_expr_parse(e, text.data ? text.data : "", text.len, line);
		inline_expr_check(e, p->ch->path, p->lines, p->nlines,
		                  p->src + p->len, text.data);
		char *tok = plan_token('V', p->ch->nvalues - 1, 0);
		node = cmark_node_new_with_mem(CMARK_NODE_HTML_INLINE, tree_mem());
		cmark_node_set_literal(node, tok);
		free(tok);
		cmark_inline_parser_set_offset(ip, end + 2);
	}
	buf_free(&text);
	return node;
}

static cmark_syntax_extension *values_extension(void);

/* A parser for a chapter, or a callout's body: GFM with values. */
static cmark_parser *parser_new(void)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *parser = cmark_parser_new_with_mem(CMARK_OPTS, tree_mem());
	static const char *exts[] = {"table", "strikethrough", "autolink",
	                             "tagfilter"};
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
		cmark_parser_attach_syntax_extension(
		    parser, cmark_find_syntax_extension(exts[i]));
	cmark_parser_attach_syntax_extension(parser, values_extension());
	return parser;
}

static cmark_syntax_extension *values_extension(void)
{
	static cmark_syntax_extension *ext;
	if (!ext) {
		ext = cmark_syntax_extension_new("labbook-values");
		cmark_llist *chars = cmark_llist_append(
		    cmark_get_default_mem_allocator(), NULL, (void *)(uintptr_t)'{');
		cmark_syntax_extension_set_special_inline_chars(ext, chars);
		cmark_syntax_extension_set_match_inline_func(ext, value_match);
	}
	return ext;
}

static void html_replace(cmark_node *node, const char *html)
{
	cmark_node *rep = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, tree_mem());
	cmark_node_set_literal(rep, html);
	cmark_node_replace(node, rep);
	*ARRAY_PUSH(replaced, nreplaced) = node;
}

/* A heading becomes section n: its inner HTML, cut into pieces. */
static void heading_replace(struct parse *p, cmark_node *node,
                            cmark_llist *exts, size_t n)
{
	struct section *s = &p->ch->sections[n];
	char *html = cmark_render_html_with_mem(node, CMARK_OPTS, exts,
	                                        tree_mem());
	/* "<hN>inner</hN>\n" */
	const char *inner = strchr(html, '>');
	inner = inner ? inner + 1 : html;
	const char *close = strstr(inner, "</h");
	const char *last;
	while (close && (last = strstr(close + 1, "</h")))
		close = last;
	pieces_split(&s->html, inner, close ? (size_t)(close - inner) : strlen(inner),
	             p->ch);
	free(html);
	char *tok = plan_token('S', n, 1);
	html_replace(node, tok);
	free(tok);
}

/*
 * A code block becomes a focusable (so it scrolls from the keyboard)
 * listing, highlighted when its language is C, C++ or CUDA.
 */
static void code_replace(cmark_node *node)
{
	const char *info = cmark_node_get_fence_info(node);
	const char *code = cmark_node_get_literal(node);
	char *lang = xstrndup(info ? info : "", info ? strcspn(info, " \t{") : 0);
	size_t len = code ? strlen(code) : 0;
	struct buf b = BUF_INIT;
	buf_puts(&b, "<pre class=\"code snippet\" tabindex=\"0\"><code");
	if (*lang) {
		buf_puts(&b, " class=\"language-");
		buf_puts_html(&b, lang);
		buf_puts(&b, "\"");
	}
	buf_puts(&b, ">");
	if (highlight_is_c(lang))
		highlight_c(&b, code ? code : "", len);
	else /* as written, its last blank lines too (CommonMark) */
		buf_put_html(&b, code ? code : "", len);
	buf_puts(&b, "</code></pre>\n");
	html_replace(node, b.data);
	buf_free(&b);
	free(lang);
}

/*
 * A table scrolls inside a focusable box of its own on narrow screens; the
 * box and the table's opening tag and caption are made where the page is,
 * as they hold the table's number in the book.
 */
static void table_replace(struct parse *p, cmark_node *node, cmark_llist *exts)
{
	char *table = cmark_render_html_with_mem(node, CMARK_OPTS, exts,
	                                         tree_mem());
	char *tok = plan_token('T', p->ch->ntables++, 0);
	const char *rest = str_starts(table, "<table>") ? table + 7 : table;
	char *html = xasprintf("%s%s</div>\n", tok, rest);
	free(table);
	html_replace(node, html);
	free(html);
	free(tok);
}

/* A fence that is never closed runs to the end of the document: say so
 * at the fence. One that its container closes (the end of a block quote
 * or a list item) is closed, as CommonMark has it. What ended the block
 * is read from cmark's own tree, never from the source's look: a closing
 * fence is the block's last line and none of its text, so an unclosed
 * block's text reaches its last line ("    ```" indented four spaces is
 * text, spec example 107). */
static int fence_unclosed(struct parse *p, cmark_node *node)
{
	int len = 0, offset = 0;
	char c = 0;
	if (!cmark_node_get_fenced(node, &len, &offset, &c))
		return 0;
	int start = cmark_node_get_start_line(node);
	int end = cmark_node_get_end_line(node);
	int lines = 0;
	for (const char *s = cmark_node_get_literal(node); s && *s; s++)
		lines += *s == '\n';
	return lines >= end - start &&
	       source_rest_blank(p->lines, p->nlines, p->src + p->len,
	                         p->line_base + end);
}

/* A directive, or a malformed callout (error: why, reported; taken). */
static void directive_replace(struct parse *p, cmark_node *node, int unclosed,
                              char *error)
{
	struct chapter *ch = p->ch;
	struct directive *d = ARRAY_PUSH(ch->dirs, ch->ndirs);
	memset(d, 0, sizeof *d);
	d->line = cmark_node_get_start_line(node);
	if (error)
		d->error = error;
	else if (unclosed)
		dir_fail(ch->path, d, d->line, "this directive's fence is never closed");
	else
		directive_parse(ch->path, d, cmark_node_get_fence_info(node),
		                cmark_node_get_literal(node));
	char *tok = plan_token('D', ch->ndirs - 1, 1);
	html_replace(node, tok);
	free(tok);
}

/* An expression in a URL or raw HTML cannot be computed: say where. */
static void misplaced_check(struct parse *p, cmark_node *n)
{
	const char *where = NULL, *text = NULL;
	size_t index;
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
		where = cmark_node_get_type(n) == CMARK_NODE_LINK
		            ? "a link's destination or title"
		            : "an image's URL or title";
		text = cmark_node_get_url(n);
		if (!text || !strstr(text, "{{"))
			text = cmark_node_get_title(n);
		break;
	case CMARK_NODE_HTML_INLINE:
	case CMARK_NODE_HTML_BLOCK:
		text = cmark_node_get_literal(n);
		if (plan_token_kind(text, &index))
			return;
		where = "raw HTML";
		break;
	default:
		return;
	}
	if (!text || !strstr(text, "{{"))
		return;
	int line = cmark_node_get_start_line(n);
	for (cmark_node *up = n; !line && up; up = cmark_node_parent(up))
		line = cmark_node_get_start_line(up);
	diag_at(p->ch->path, p->line_base + line, "an inline value cannot go in "
	        "%s; write the text around it, or '\\{{' for literal braces",
	        where);
}

/* Is tag (at its '<') one that sits inside a word's line, not between blocks? */
static int tag_inline(const char *tag)
{
	static const char *names[] = {"a", "abbr", "b", "code", "del", "em", "i",
	                              "kbd", "mark", "span", "strong", "sub",
	                              "sup", NULL};
	if (!tag || *tag != '<')
		return 1;
	const char *p = tag + 1 + (tag[1] == '/');
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789");
	for (const char **k = names; *k; k++)
		if (strlen(*k) == n && !strncmp(*k, p, n))
			return 1;
	return 0;
}

/* Append a node's text to words: text and code spans, one space between blocks. */
static void words_add(struct pieces *w, cmark_node *n, cmark_event_type ev)
{
	const char *lit;
	size_t index;
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE:
		lit = cmark_node_get_literal(n);
		pieces_text(w, lit, strlen(lit));
		break;
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
		pieces_text(w, " ", 1);
		break;
	case CMARK_NODE_HTML_INLINE:
		lit = cmark_node_get_literal(n);
		if (plan_token_kind(lit, &index) == 'V')
			pieces_push(w, PIECE_VALUE)->index = index;
		else if (!tag_inline(lit))
			pieces_text(w, " ", 1);
		break;
	default:
		/* Table cells are blocks too: a space between them. */
		if (ev == CMARK_EVENT_EXIT &&
		    (cmark_node_get_type(n) & CMARK_NODE_TYPE_MASK) ==
		        CMARK_NODE_TYPE_BLOCK)
			pieces_text(w, " ", 1);
		break;
	}
}

static void chapter_walk(struct parse *p, cmark_node *doc, cmark_llist *exts,
                         char **callout);

/*
 * Markdown src (len bytes) of a callout, whose first line is the
 * chapter's line base + 1, as HTML: walked as the chapter's prose, so its
 * values, listings and tables are the chapter's, and its words go to the
 * section it stands in. What a callout cannot hold is kept in *error.
 * Caller frees.
 */
static char *callout_part(struct parse *p, const char *src, size_t len,
                          int base, char **error)
{
	p->line_base = base;
	p->line_parent = NULL;
	cmark_parser *parser = parser_new();
	parse_now = p;
	cmark_parser_feed(parser, src, len);
	cmark_node *doc = cmark_parser_finish(parser);
	parse_now = NULL;
	cmark_llist *exts = cmark_parser_get_syntax_extensions(parser);
	chapter_walk(p, doc, exts, error);
	char *html = cmark_render_html_with_mem(doc, CMARK_OPTS, exts, tree_mem());
	cmark_node_free(doc);
	cmark_parser_free(parser);
	p->line_base = 0;
	p->line_parent = NULL;
	return html;
}

/*
 * Callout node n of kind as the HTML that replaces it; or NULL with the
 * first problem in *error (reported), when it is malformed.
 */
static char *callout_make(struct parse *p, cmark_node *n,
                          enum callout_kind kind, char **error)
{
	struct chapter *ch = p->ch;
	int line = cmark_node_get_start_line(n);
	const char *body = cmark_node_get_literal(n);
	struct callout_parts parts;
	char *html = NULL, *q = NULL, *a = NULL, *title = NULL;
	if (fence_unclosed(p, n)) {
		diag_keep(error, ch->path, line, "this callout's fence is never "
		          "closed; everything after it became the callout");
		return NULL;
	}
	if (callout_split(ch->path, line, cmark_node_get_fence_info(n),
	                  body ? body : "", kind, &parts) != 0) {
		*error = xstrdup(parts.error);
		goto out;
	}
	q = callout_part(p, parts.question, parts.question_len, line, error);
	if (parts.answer)
		a = callout_part(p, parts.answer, parts.answer_len,
		                 parts.answer_line - 1, error);
	if (*error)
		goto out;
	if (kind == CALLOUT_EXERCISE) {
		struct exercise *x = ARRAY_PUSH(ch->exercises, ch->nexercises);
		x->label = parts.label ? xstrdup(parts.label) : NULL;
		x->line = line;
		title = plan_token('X', ch->nexercises - 1, 1);
	}
	struct buf b = BUF_INIT;
	callout_wrap(&b, kind, parts.label, title, q, a);
	html = buf_detach(&b);
out:
	free(title);
	free(q);
	free(a);
	callout_parts_free(&parts);
	return html;
}

/* A node the walk replaces; a callout with its HTML, or why it cannot be
 * made (then a directive that says so stands in for it). */
struct todo {
	cmark_node *node;
	char *html, *error;
};

/*
 * Walk the tree once: sections and their words, and the nodes to replace
 * (collected, since the tree must not change under the iterator). In a
 * callout's body (callout: where its first problem is kept), a heading or
 * a directive is a problem and a fence only a listing.
 */
static void chapter_walk(struct parse *p, cmark_node *doc, cmark_llist *exts,
                         char **callout)
{
	struct chapter *ch = p->ch;
	struct todo *nodes = NULL;
	size_t nnodes = 0;
	cmark_node *heading = NULL;
	const char *info;
	size_t ndirs = 0, nsaid = 0;
	enum callout_kind kind;
	struct said { cmark_node *block; size_t names; } *said = NULL;
	cmark_node *top; /* said: the blocks that name code, ch->names[names] */
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE &&
	       !exec_stopping()) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type type = cmark_node_get_type(n);
		struct pieces *w = ch->nsections ? &ch->sections[ch->nsections - 1].words
		                                 : &ch->lead;
		int line = p->line_base + cmark_node_get_start_line(n);
		struct todo *t;
		if (type == CMARK_NODE_DOCUMENT)
			continue;
		if (ev == CMARK_EVENT_ENTER)
			misplaced_check(p, n);
		/* A name in code, and the block that holds it: the chapter's, a
		 * callout's or a list item's (print shows the kernel it names
		 * after it). */
		for (top = n; type == CMARK_NODE_CODE && !heading &&
		              cmark_node_parent(top) != doc &&
		              cmark_node_get_type(cmark_node_parent(top)) != CMARK_NODE_ITEM;
		     top = cmark_node_parent(top))
			;
		int fresh = !nsaid || top != said[nsaid - 1].block;
		if (type == CMARK_NODE_CODE && !heading &&
		    code_names_add(ch, fresh, cmark_node_get_literal(n)) && fresh)
			*ARRAY_PUSH(said, nsaid) = (struct said){top, ch->nnames - 1};
		switch (type) {
		case CMARK_NODE_HEADING:
			if (callout && ev == CMARK_EVENT_ENTER) {
				diag_keep(callout, ch->path, line, "a callout cannot hold "
				          "a heading; end the callout before it");
			} else if (ev == CMARK_EVENT_ENTER) {
				struct section *s = ARRAY_PUSH(ch->sections, ch->nsections);
				memset(s, 0, sizeof *s);
				s->level = cmark_node_get_heading_level(n);
				s->line = line;
				heading = n;
				*ARRAY_PUSH(nodes, nnodes) = (struct todo){n, NULL, NULL};
			} else {
				heading = NULL;
			}
			break;
		case CMARK_NODE_CODE_BLOCK:
			t = ARRAY_PUSH(nodes, nnodes);
			*t = (struct todo){n, NULL, NULL};
			info = cmark_node_get_fence_info(n);
			if (callout && info && info[0] == '{')
				diag_keep(callout, ch->path, line, "'%s' cannot go inside "
				          "a callout; put it before or after the callout",
				          info);
			else if (callout && fence_unclosed(p, n))
				diag_keep(callout, ch->path, line, "this code fence is "
				          "never closed inside the callout; give the "
				          "callout a longer fence than the code's "
				          "(````{note})");
			else if (callout_kind_of(info, &kind))
				t->html = callout_make(p, n, kind, &t->error);
			if (!callout && info && info[0] == '{' && !t->html)
				pieces_push(w, PIECE_DIR)->index = ndirs++;
			break;
		default:
			if (heading)
				words_add(&ch->sections[ch->nsections - 1].title, n, ev);
			else if (!strcmp(cmark_node_get_type_string(n), "table")) {
				if (ev == CMARK_EVENT_ENTER)
					*ARRAY_PUSH(nodes, nnodes) = (struct todo){n, NULL, NULL};
				words_add(w, n, ev);
			} else
				words_add(w, n, ev);
			break;
		}
	}
	cmark_iter_free(it);
	/* After each block that names code, a token for what it names. */
	for (size_t i = 0; i < nsaid; i++) {
		char *tok = plan_token('N', said[i].names, 0);
		cmark_node *h = cmark_node_new_with_mem(CMARK_NODE_HTML_BLOCK, tree_mem());
		cmark_node_set_literal(h, tok);
		cmark_node_insert_after(said[i].block, h);
		free(tok);
	}
	free(said);

	size_t sections = 0;
	for (size_t i = 0; i < nnodes && !exec_stopping(); i++) {
		cmark_node *n = nodes[i].node;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_HEADING:
			heading_replace(p, n, exts, sections++);
			break;
		case CMARK_NODE_CODE_BLOCK:
			info = cmark_node_get_fence_info(n);
			int unclosed = fence_unclosed(p, n);
			if (nodes[i].html) {
				html_replace(n, nodes[i].html);
			} else if (!callout && info && info[0] == '{') {
				directive_replace(p, n, unclosed, nodes[i].error);
				nodes[i].error = NULL;
			} else {
				if (unclosed && !callout)
					diag_at(ch->path, cmark_node_get_start_line(n),
					        "this code fence is never closed; everything "
					        "after it became code");
				code_replace(n);
			}
			break;
		default:
			table_replace(p, n, exts);
			break;
		}
	}
	for (size_t i = 0; i < nnodes; i++) {
		free(nodes[i].html);
		free(nodes[i].error);
	}
	free(nodes);
}

void chapter_parse_markdown(struct chapter *ch, const char *src, size_t len)
{
	struct parse p = {ch, src, len, NULL, 0, NULL, NULL, 0, 0, 0};
	*ARRAY_PUSH(p.lines, p.nlines) = src;
	for (size_t i = 0; i + 1 < len; i++)
		if (src[i] == '\n')
			*ARRAY_PUSH(p.lines, p.nlines) = src + i + 1;

	cmark_parser *parser = parser_new();
	parse_now = &p;
	/* In slices, so that a build asked to stop does so between them. */
	for (size_t at = 0; at < len && !exec_stopping(); at += FEED_BYTES)
		cmark_parser_feed(parser, src + at,
		                  len - at < FEED_BYTES ? len - at : FEED_BYTES);
	cmark_node *doc = cmark_parser_finish(parser);
	parse_now = NULL;
	cmark_llist *extlist = cmark_parser_get_syntax_extensions(parser);

	chapter_walk(&p, doc, extlist, NULL);
	/* A plan cut short is never rendered nor kept: the build stops. */
	if (exec_stopping()) {
		ch->error = xstrdup("the build was asked to stop");
		goto out;
	}
	char *html = cmark_render_html_with_mem(doc, CMARK_OPTS, extlist,
	                                        tree_mem());
	pieces_split(&ch->body, html, strlen(html), ch);
	free(html);

	chapter_titles_settle(ch);
out:
	for (size_t i = 0; i < nreplaced; i++)
		cmark_node_free(replaced[i]);
	free(replaced);
	replaced = NULL;
	nreplaced = 0;
	cmark_node_free(doc);
	cmark_parser_free(parser);
	free(p.lines);
}
