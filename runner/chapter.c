#include "chapter.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "buf.h"
#include "highlight.h"
#include "util.h"

#define CMARK_OPTS (CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES)

struct opt_spec {
	const char *key;
	int required;
	int repeat;
	enum { V_TEXT, V_INT, V_BOOL, V_SHOW } type;
};

static const struct opt_spec experiment_opts[] = {
	{"source", 1, 0, V_TEXT},      {"args", 0, 0, V_TEXT},
	{"flags", 0, 0, V_TEXT},       {"timeout", 0, 0, V_INT},
	{"allow-error", 0, 0, V_BOOL}, {"show", 0, 0, V_SHOW},
	{"ncu", 0, 0, V_TEXT},         {"ncu-args", 0, 0, V_TEXT},
	{"env", 0, 0, V_TEXT},         {"runs", 0, 0, V_INT},
	{NULL, 0, 0, V_TEXT},
};

static const struct opt_spec chart_opts[] = {
	{"data", 1, 0, V_TEXT},   {"x", 1, 0, V_TEXT},
	{"y", 1, 0, V_TEXT},      {"series", 0, 0, V_TEXT},
	{"where", 0, 0, V_TEXT},  {"logx", 0, 0, V_INT},
	{"logy", 0, 0, V_INT},    {"limit", 0, 1, V_TEXT},
	{"xlabel", 0, 0, V_TEXT}, {"ylabel", 0, 0, V_TEXT},
	{"title", 0, 0, V_TEXT},  {"caption", 0, 0, V_TEXT},
	{"x-unit", 0, 0, V_TEXT}, {"y-unit", 0, 0, V_TEXT},
	{"label", 0, 1, V_TEXT},  {"series-label", 0, 0, V_TEXT},
	{"highlight", 0, 0, V_TEXT}, {"machines", 0, 0, V_TEXT},
	{NULL, 0, 0, V_TEXT},
};

static const struct opt_spec table_opts[] = {
	{"data", 1, 0, V_TEXT},  {"columns", 1, 0, V_TEXT},
	{"where", 0, 0, V_TEXT}, {"sort", 0, 0, V_TEXT},
	{"caption", 0, 0, V_TEXT}, {NULL, 0, 0, V_TEXT},
};

static const struct opt_spec sass_opts[] = {
	{"experiment", 1, 0, V_TEXT}, {"kernel", 1, 0, V_TEXT},
	{"mark", 0, 0, V_TEXT},       {"caption", 0, 0, V_TEXT},
	{NULL, 0, 0, V_TEXT},
};

static const struct {
	const char *name;
	enum dir_kind kind;
	const struct opt_spec *opts;
} kinds[] = {
	{"experiment", DIR_EXPERIMENT, experiment_opts},
	{"chart", DIR_CHART, chart_opts},
	{"table", DIR_TABLE, table_opts},
	{"sass", DIR_SASS, sass_opts},
};

const char *dir_kind_name(enum dir_kind k)
{
	return kinds[k].name;
}

const char *dir_opt(const struct directive *d, const char *key)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, key))
			return d->opts[i].value;
	return NULL;
}

int dir_opt_line(const struct directive *d, const char *key)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, key))
			return d->opts[i].line;
	return d->line;
}

/* Record the first error of a directive; every error is reported. */
static void dir_fail(struct chapter *ch, struct directive *d, int line,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void dir_fail(struct chapter *ch, struct directive *d, int line,
                     const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	char *msg = buf_detach(&b);
	diag_at(ch->path, line, "%s", msg);
	if (!d->error)
		d->error = xasprintf("%s:%d: %s", ch->path, line, msg);
	free(msg);
}

static int is_ident(const char *s, int dash_ok)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && !(dash_ok && *s == '-'))
			return 0;
	return 1;
}

static void check_value(struct chapter *ch, struct directive *d,
                        const struct opt_spec *spec, struct dir_opt *o)
{
	const char *v = o->value;
	char *end;
	switch (spec->type) {
	case V_TEXT:
		if (!*v)
			dir_fail(ch, d, o->line, "option '%s' has no value", o->key);
		break;
	case V_INT:
		errno = 0;
		long n = strtol(v, &end, 10);
		if (*end || end == v || errno || n <= 0)
			dir_fail(ch, d, o->line,
			         "option '%s' wants a positive whole number, not '%s'",
			         o->key, v);
		break;
	case V_BOOL:
		if (strcmp(v, "true") && strcmp(v, "false"))
			dir_fail(ch, d, o->line,
			         "option '%s' wants true or false, not '%s'", o->key, v);
		break;
	case V_SHOW: {
		char *copy = xstrdup(v), *save = NULL;
		for (char *w = strtok_r(copy, ", ", &save); w;
		     w = strtok_r(NULL, ", ", &save))
			if (strcmp(w, "source") && strcmp(w, "command") &&
			    strcmp(w, "output") && strcmp(w, "none"))
				dir_fail(ch, d, o->line,
				         "option 'show' lists '%s'; it takes source, "
				         "command, output or none", w);
		free(copy);
		break;
	}
	}
}

static void directive_parse(struct chapter *ch, struct directive *d,
                            const char *info, const char *body)
{
	const char *close = strchr(info, '}');
	char *name = xstrndup(info + 1, close ? (size_t)(close - info - 1) : 0);
	const struct opt_spec *specs = NULL;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (!strcmp(name, kinds[k].name)) {
			d->kind = kinds[k].kind;
			specs = kinds[k].opts;
		}
	if (!specs) {
		dir_fail(ch, d, d->line,
		         "unknown directive '{%s}'; known: {experiment}, {chart}, "
		         "{table}, {sass}", close ? name : info);
		free(name);
		return;
	}
	free(name);

	char *copy = xstrdup(close + 1);
	char *rest = str_trim(copy);
	if (*rest)
		d->id = xstrdup(rest);
	free(copy);
	if (d->kind != DIR_TABLE && d->kind != DIR_SASS && !d->id)
		dir_fail(ch, d, d->line, "{%s} needs an id after the braces, e.g. "
		         "'```{%s} name'", kinds[d->kind].name, kinds[d->kind].name);
	else if (d->id && !is_ident(d->id, d->kind != DIR_EXPERIMENT))
		dir_fail(ch, d, d->line,
		         "'%s' is not a valid id: use letters, digits and _%s",
		         d->id, d->kind != DIR_EXPERIMENT ? " or -" : "");

	int line = d->line;
	for (const char *p = body; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *text = xstrndup(p, n);
		char *t = str_trim(text);
		line++;
		p += n + (nl ? 1 : 0);
		if (!*t || *t == '#') {
			free(text);
			continue;
		}
		char *colon = strchr(t, ':');
		if (!colon) {
			dir_fail(ch, d, line, "expected 'key: value', found '%s'", t);
			free(text);
			continue;
		}
		*colon = '\0';
		char *key = str_trim(t);
		char *value = str_trim(colon + 1);
		const struct opt_spec *spec = NULL;
		for (const struct opt_spec *s = specs; s->key; s++)
			if (!strcmp(s->key, key))
				spec = s;
		if (!spec) {
			struct buf known = BUF_INIT;
			for (const struct opt_spec *s = specs; s->key; s++)
				buf_printf(&known, "%s%s", s == specs ? "" : ", ", s->key);
			dir_fail(ch, d, line, "unknown option '%s'; {%s} takes %s",
			         key, kinds[d->kind].name, known.data);
			buf_free(&known);
			free(text);
			continue;
		}
		if (!spec->repeat && dir_opt(d, key)) {
			dir_fail(ch, d, line, "option '%s' given twice (first at line %d)",
			         key, dir_opt_line(d, key));
			free(text);
			continue;
		}
		struct dir_opt *o = ARRAY_PUSH(d->opts, d->nopts);
		o->key = xstrdup(key);
		o->value = xstrdup(value);
		o->line = line;
		check_value(ch, d, spec, o);
		free(text);
	}
	for (const struct opt_spec *s = specs; s->key; s++)
		if (s->required && !dir_opt(d, s->key))
			dir_fail(ch, d, d->line, "{%s} is missing its '%s' option",
			         kinds[d->kind].name, s->key);
}

/* Parse the inside of "{{ ... }}" at line into an inline expression. */
static void inline_parse(struct inline_expr *e, const char *s, size_t n,
                         int line)
{
	char *text = xstrndup(s, n);
	char *t = str_trim(text);
	e->line = line;
	if (str_starts(t, "check") && (t[5] == ' ' || t[5] == '\t')) {
		e->check = 1;
		t = str_trim(t + 5);
	}
	char *last = strrchr(t, ' ');
	char *fmt = last ? last + 1 : t;
	if (*fmt == '%' && fmt != t) {
		e->fmt = xstrdup(fmt);
		*fmt = '\0';
		t = str_trim(t);
	}
	e->text = xstrdup(t);
	free(text);
}

static int fence_open(const char *line, size_t n, char *ch, size_t *len)
{
	size_t i = 0;
	while (i < n && i < 3 && line[i] == ' ')
		i++;
	if (i >= n || (line[i] != '`' && line[i] != '~'))
		return 0;
	size_t k = i;
	while (k < n && line[k] == line[i])
		k++;
	if (k - i < 3)
		return 0;
	if (line[i] == '`' && memchr(line + k, '`', n - k))
		return 0;
	*ch = line[i];
	*len = k - i;
	return 1;
}

static int fence_closes(const char *line, size_t n, char ch, size_t len)
{
	size_t i = 0;
	while (i < n && i < 3 && line[i] == ' ')
		i++;
	size_t k = i;
	while (k < n && line[k] == ch)
		k++;
	if (k - i < len)
		return 0;
	for (; k < n; k++)
		if (line[k] != ' ' && line[k] != '\t' && line[k] != '\r')
			return 0;
	return 1;
}

/*
 * Replace each "{{ ... }}" outside fenced blocks with an inline marker,
 * keeping line structure so cmark's line numbers stay the chapter's.
 */
static char *expand_inlines(struct chapter *ch, const char *src, size_t len,
                            size_t *out_len)
{
	struct buf out = BUF_INIT;
	char fch = 0;
	size_t flen = 0;
	int line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *l = src + pos;
		const char *nl = memchr(l, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - l) : len - pos;
		pos += n + (nl ? 1 : 0);
		line++;
		if (flen) {
			if (fence_closes(l, n, fch, flen))
				flen = 0;
			buf_put(&out, l, n + (nl ? 1 : 0));
			continue;
		}
		if (fence_open(l, n, &fch, &flen)) {
			buf_put(&out, l, n + (nl ? 1 : 0));
			continue;
		}
		for (size_t i = 0; i < n;) {
			if (l[i] == '\\' && i + 2 < n && l[i + 1] == '{' &&
			    l[i + 2] == '{') {
				buf_puts(&out, "{{");
				i += 3;
				continue;
			}
			if (l[i] == '{' && i + 1 < n && l[i + 1] == '{') {
				const char *end = NULL;
				for (size_t k = i + 2; k + 1 < n; k++)
					if (l[k] == '}' && l[k + 1] == '}') {
						end = l + k;
						break;
					}
				if (!end) {
					diag_at(ch->path, line, "'{{' without a closing '}}' "
					        "(write '\\{{' for literal braces)");
					buf_put(&out, l + i, n - i);
					break;
				}
				struct inline_expr *e = ARRAY_PUSH(ch->inl, ch->ninl);
				memset(e, 0, sizeof *e);
				inline_parse(e, l + i + 2, (size_t)(end - l - i - 2), line);
				if (!*e->text)
					diag_at(ch->path, line, "empty '{{ }}'");
				buf_printf(&out, MARK_OPEN "I%zu" MARK_CLOSE, ch->ninl - 1);
				i = (size_t)(end - l) + 2;
				continue;
			}
			/* A stray marker character in the source must not pose as one. */
			if (i + 2 < n && !memcmp(l + i, "\xee\x80", 2) &&
			    ((unsigned char)l[i + 2] == 0x80 ||
			     (unsigned char)l[i + 2] == 0x81)) {
				buf_puts(&out, "\xef\xbf\xbd");
				i += 3;
				continue;
			}
			/* Up to the next character that may start something. */
			size_t run = 1;
			while (i + run < n && l[i + run] != '\\' && l[i + run] != '{' &&
			       (unsigned char)l[i + run] != 0xee)
				run++;
			buf_put(&out, l + i, run);
			i += run;
		}
		if (nl)
			buf_putc(&out, '\n');
	}
	*out_len = out.len;
	return buf_detach(&out);
}

static char *slugify(const char *text)
{
	struct buf b = BUF_INIT;
	int dash = 0;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (isalnum(*p)) {
			if (dash && b.len)
				buf_putc(&b, '-');
			buf_putc(&b, tolower(*p));
			dash = 0;
		} else if (*p == 0xee && p[1] == 0x80) {
			p += 2; /* marker characters carry no text */
		} else {
			dash = 1;
		}
	}
	if (!b.len)
		buf_puts(&b, "section");
	return buf_detach(&b);
}

static char *plain_text(cmark_node *node)
{
	struct buf b = BUF_INIT;
	cmark_iter *it = cmark_iter_new(node);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			buf_puts(&b, cmark_node_get_literal(n));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			buf_putc(&b, ' ');
			break;
		default:
			break;
		}
	}
	cmark_iter_free(it);
	return buf_detach(&b);
}

static void html_replace(cmark_node *node, const char *html)
{
	cmark_node *rep = cmark_node_new(CMARK_NODE_HTML_BLOCK);
	cmark_node_set_literal(rep, html);
	cmark_node_replace(node, rep);
	cmark_node_free(node);
}

static int id_taken(const struct chapter *ch, const char *id)
{
	if (!strcmp(id, "main"))
		return 1;
	for (size_t i = 0; i < ch->nheads; i++)
		if (!strcmp(ch->heads[i].id, id))
			return 1;
	return 0;
}

/*
 * A unique id for a heading: its slug, or the slug with -2, -3, ... The
 * page's own ids (main, exp-*, fig-*) are never taken.
 */
static char *heading_id(const struct chapter *ch, const char *text)
{
	char *slug = slugify(text);
	if (str_starts(slug, "exp-") || str_starts(slug, "fig-")) {
		char *s = xasprintf("section-%s", slug);
		free(slug);
		slug = s;
	}
	if (!id_taken(ch, slug))
		return slug;
	char *id = NULL;
	for (int n = 2; !id || id_taken(ch, id); n++) {
		free(id);
		id = xasprintf("%s-%d", slug, n);
	}
	free(slug);
	return id;
}

static void heading_replace(struct chapter *ch, cmark_node *node,
                            cmark_llist *exts)
{
	int level = cmark_node_get_heading_level(node);
	char *text = plain_text(node);
	char *slug = heading_id(ch, text);
	struct heading *h = ARRAY_PUSH(ch->heads, ch->nheads);
	h->level = level;
	h->id = slug;
	h->text = text;
	if (level == 1 && !ch->title)
		ch->title = xstrdup(text);

	char *html = cmark_render_html(node, CMARK_OPTS, exts);
	/* "<hN>inner</hN>\n" gets an id and a link to itself. */
	const char *inner = strchr(html, '>');
	char *lit = xasprintf("<h%d id=\"%s\">%s<a class=\"anchor\" href=\"#%s\" "
	                      "aria-label=\"link to this section\">#</a></h%d>\n",
	                      level, slug, inner ? inner + 1 : "", slug, level);
	char *endtag = strstr(lit, "</h");
	if (endtag && endtag < strstr(lit, "<a class=\"anchor\"")) {
		/* cut cmark's own closing tag, which precedes our anchor */
		char *anchor = strstr(lit, "<a class=\"anchor\"");
		memmove(endtag, anchor, strlen(anchor) + 1);
	}
	free(html);
	html_replace(node, lit);
	free(lit);
}

static int is_c_like(const char *lang)
{
	static const char *names[] = {"c", "c++", "cpp", "cu", "cuda", "h", NULL};
	for (const char **n = names; *n; n++)
		if (!strcmp(lang, *n))
			return 1;
	return 0;
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
	if (is_c_like(lang))
		highlight_c(&b, code ? code : "", len);
	else
		buf_put_html(&b, code ? code : "",
		             len - (len && code[len - 1] == '\n'));
	buf_puts(&b, "</code></pre>\n");
	html_replace(node, b.data);
	buf_free(&b);
	free(lang);
}

/*
 * Table n of the chapter scrolls inside a focusable box of its own on
 * narrow screens.
 */
static void table_replace(cmark_node *node, cmark_llist *exts, int n)
{
	char *table = cmark_render_html(node, CMARK_OPTS, exts);
	char *html = xasprintf("<div class=\"table-wrap\" tabindex=\"0\" "
	                       "role=\"region\" aria-label=\"table %d\">\n%s"
	                       "</div>\n", n, table);
	html_replace(node, html);
	free(html);
	free(table);
}

static void directive_replace(struct chapter *ch, cmark_node *node)
{
	struct directive *d = ARRAY_PUSH(ch->dirs, ch->ndirs);
	memset(d, 0, sizeof *d);
	d->line = cmark_node_get_start_line(node);
	directive_parse(ch, d, cmark_node_get_fence_info(node),
	                cmark_node_get_literal(node));
	char *lit = xasprintf(MARK_OPEN "B%zu" MARK_CLOSE "\n", ch->ndirs - 1);
	html_replace(node, lit);
	free(lit);
}

static void chapter_parse(struct chapter *ch, const char *src, size_t len)
{
	size_t xlen;
	char *text = expand_inlines(ch, src, len, &xlen);

	cmark_gfm_core_extensions_ensure_registered();
	cmark_parser *parser = cmark_parser_new(CMARK_OPTS);
	static const char *exts[] = {"table", "strikethrough", "autolink"};
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++)
		cmark_parser_attach_syntax_extension(
		    parser, cmark_find_syntax_extension(exts[i]));
	cmark_parser_feed(parser, text, xlen);
	cmark_node *doc = cmark_parser_finish(parser);
	cmark_llist *extlist = cmark_parser_get_syntax_extensions(parser);

	/* Collect first: the tree must not change under the iterator. */
	cmark_node **nodes = NULL;
	size_t nnodes = 0;
	cmark_iter *it = cmark_iter_new(doc);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_CODE_BLOCK:
		case CMARK_NODE_HEADING:
			*ARRAY_PUSH(nodes, nnodes) = n;
			break;
		default:
			if (!strcmp(cmark_node_get_type_string(n), "table"))
				*ARRAY_PUSH(nodes, nnodes) = n;
			break;
		}
	}
	cmark_iter_free(it);
	int tables = 0;
	for (size_t i = 0; i < nnodes; i++) {
		cmark_node *n = nodes[i];
		const char *info;
		switch (cmark_node_get_type(n)) {
		case CMARK_NODE_HEADING:
			heading_replace(ch, n, extlist);
			break;
		case CMARK_NODE_CODE_BLOCK:
			info = cmark_node_get_fence_info(n);
			if (info && info[0] == '{')
				directive_replace(ch, n);
			else
				code_replace(n);
			break;
		default:
			table_replace(n, extlist, ++tables);
			break;
		}
	}
	free(nodes);

	ch->html = cmark_render_html(doc, CMARK_OPTS, extlist);
	cmark_node_free(doc);
	cmark_parser_free(parser);
	free(text);
}

/* A chapter named after its path, with nothing parsed yet. */
static struct chapter *chapter_new(const char *path)
{
	struct chapter *ch = xcalloc(1, sizeof *ch);
	ch->path = xstrdup(path);
	char *stem = path_stem(path);
	const char *name = stem;
	while (isdigit((unsigned char)*name))
		name++;
	if (name != stem && (*name == '-' || *name == '_'))
		name++;
	else
		name = stem;
	ch->name = xstrdup(*name ? name : stem);
	free(stem);
	return ch;
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

struct chapter *chapter_parse_text(const char *path, const char *src,
                                   size_t len)
{
	struct chapter *ch = chapter_new(path);
	int bad_line;
	if (!utf8_valid(src, len, &bad_line)) {
		ch->error = xasprintf("%s:%d: not valid UTF-8; save the chapter "
		                      "as UTF-8", path, bad_line);
		diag_at(path, bad_line, "not valid UTF-8; save the chapter as UTF-8");
	} else if (is_blank(src, len)) {
		ch->error = xasprintf("%s: the chapter is empty; start it with a "
		                      "'# Title' line", path);
		diag_at(path, 0, "the chapter is empty; start it with a '# Title' line");
	} else {
		struct hasher *h = hasher_new();
		hasher_add(h, src, len);
		hasher_done(h, ch->hash);
		chapter_parse(ch, src, len);
	}
	if (!ch->title)
		ch->title = xstrdup(ch->name);
	return ch;
}

struct chapter *chapter_load(const char *path)
{
	size_t len;
	char *src = file_read(path, &len);
	if (!src) {
		int err = errno;
		struct chapter *ch = chapter_new(path);
		ch->error = xasprintf("%s: cannot read: %s", path, strerror(err));
		diag_at(path, 0, "cannot read: %s", strerror(err));
		ch->title = xstrdup(ch->name);
		return ch;
	}
	struct chapter *ch = chapter_parse_text(path, src, len);
	free(src);
	return ch;
}

void chapter_free(struct chapter *ch)
{
	if (!ch)
		return;
	for (size_t i = 0; i < ch->ndirs; i++) {
		struct directive *d = &ch->dirs[i];
		for (size_t k = 0; k < d->nopts; k++) {
			free(d->opts[k].key);
			free(d->opts[k].value);
		}
		free(d->opts);
		free(d->id);
		free(d->error);
	}
	for (size_t i = 0; i < ch->ninl; i++) {
		free(ch->inl[i].text);
		free(ch->inl[i].fmt);
	}
	for (size_t i = 0; i < ch->nheads; i++) {
		free(ch->heads[i].id);
		free(ch->heads[i].text);
	}
	free(ch->dirs);
	free(ch->inl);
	free(ch->heads);
	free(ch->html);
	free(ch->path);
	free(ch->name);
	free(ch->title);
	free(ch->error);
	free(ch);
}
