/* plan.c - the plan's own data: inline expressions, the tokens a parse
 * leaves in the HTML, pieces of a page, and section ids. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "book/chapter.h"
#include "book/expr.h"
#include "base/util.h"
#include "base/ccfacts.h"

/* The length of a label at s ("plateau", "ilp-sm"): a letter or '_',
 * then letters, digits, '_' and '-'; 0 when there is none. */
static size_t label_len(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	size_t n = 1;
	while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '-')
		n++;
	return n;
}

/* Does t start with word, then a space, a tab or its end? */
static int word_first(const char *t, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(t, word, n) && (t[n] == ' ' || t[n] == '\t' || !t[n]);
}

void inline_expr_parse(struct inline_expr *e, const char *s, size_t n,
                       int line)
{
	char *text = xstrndup(s, n);
	char *t = str_trim(text);
	e->line = line;
	/* "requires sm_90: EXPR": a value or claim about some cards only;
	 * "check [LABEL:]" may come before or after it. */
	for (int pass = 0; pass < 2; pass++) {
		if (!e->check && word_first(t, "check")) {
			e->check = 1;
			t = str_trim(t + 5);
			/* "plateau: EXPR": no expression starts with a word and ':'. */
			size_t k = label_len(t);
			if (k && t[k] == ':') {
				e->label = xstrndup(t, k);
				t = str_trim(t + k + 1);
			}
		}
		char *colon = strchr(t, ':');
		if (!e->need_cc && word_first(t, "requires") && colon) {
			*colon = '\0';
			e->need_cc = cc_requirement(t + 8, &e->need_cc) == 0
			                 ? e->need_cc : -1;
			t = str_trim(colon + 1);
		}
	}
	if (!e->check && !e->need_cc && word_first(t, "ref")) {
		e->ref = 1;
		t = str_trim(t + 3);
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

/* The column, from 1, of the first byte of e's text in the source line
 * [s, end) that holds "{{raw}}", or 0 when it is not there. */
static int value_col(const struct inline_expr *e, const char *s,
                     const char *end, const char *raw)
{
	if (!s || !raw)
		return 0;
	const char *in = strstr(raw, e->text);
	size_t n = strlen(raw);
	for (const char *q = s; q + 2 + n <= end; q++)
		if (q[0] == '{' && q[1] == '{' && !memcmp(q + 2, raw, n))
			return (int)(q + 2 - s) + (in ? (int)(in - raw) : 0) + 1;
	return 0;
}

void inline_expr_check(struct inline_expr *e, const char *path,
                       const char *const *lines, size_t nlines,
                       const char *src_end, const char *raw)
{
	if (e->need_cc < 0)
		diag_at(path, e->line, "'requires' names no compute capability: "
		        "write 'requires sm_90:' or 'requires cc >= 9.0:'");
	if (!*e->text) {
		diag_at(path, e->line, "%s", e->check ? "{{check}} holds no claim: "
		        "write {{check EXPR}}, e.g. {{check max(ilp.gflops) > 100}}"
		        : e->ref ? "{{ref}} names nothing: write {{ref fig:ID}}, "
		        "{{ref sec:ID}} or {{ref claim:LABEL}}" : "empty '{{ }}'");
		return;
	}
	if (e->ref)
		return;
	char *err = NULL;
	size_t col = 0;
	size_t at_line = (size_t)e->line;
	if (at_line >= 1 && at_line <= nlines)
		e->col = value_col(e, lines[at_line - 1],
		                   at_line < nlines ? lines[at_line] : src_end, raw);
	if (expr_parse(e->text, &e->tree, &err, &col) == 0) {
		expr_ids(e->tree, &e->reads, &e->nreads);
		return;
	}
	int at = e->col ? e->col + (int)col - 1 : 0;
	diag_at_col(path, e->line, at, "{{ %s }}: %s", e->text, err);
	e->parse_err = err;
}

int source_rest_blank(const char *const *lines, size_t nlines,
                      const char *end, int line)
{
	const char *s = line >= 0 && (size_t)line < nlines ? lines[line] : end;
	for (; s < end; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return 0;
	return 1;
}

#define TOKEN_OPEN '\x02'
#define TOKEN_CLOSE '\x03'

char *plan_token(char kind, size_t index, int block)
{
	return xasprintf("%c%c%zu%c%s", TOKEN_OPEN, kind, index, TOKEN_CLOSE,
	                 block ? "\n" : "");
}

char plan_token_kind(const char *lit, size_t *index)
{
	if (!lit || lit[0] != TOKEN_OPEN || !lit[1])
		return 0;
	char *end;
	unsigned long n = strtoul(lit + 2, &end, 10);
	if (end == lit + 2 || *end != TOKEN_CLOSE)
		return 0;
	*index = n;
	return lit[1];
}

void pieces_split(struct pieces *out, const char *html, size_t len,
                  const struct chapter *ch)
{
	const char *p = html, *end = html + len;
	while (p < end) {
		const char *t = memchr(p, TOKEN_OPEN, (size_t)(end - p));
		size_t index = 0;
		char kind = t ? plan_token_kind(t, &index) : 0;
		size_t limit = kind == 'V' ? ch->nvalues : kind == 'D' ? ch->ndirs
		             : kind == 'S' ? ch->nsections
		             : kind == 'T' ? ch->ntables
		             : kind == 'X' ? ch->nexercises
		             : kind == 'N' ? ch->nnames : 0;
		if (!t) {
			pieces_text(out, p, (size_t)(end - p));
			break;
		}
		if (index >= limit) {
			/* A stray STX from the source is only text. */
			pieces_text(out, p, (size_t)(t - p) + 1);
			p = t + 1;
			continue;
		}
		pieces_text(out, p, (size_t)(t - p));
		struct piece *x = pieces_push(out, kind == 'V' ? PIECE_VALUE
		                                 : kind == 'D' ? PIECE_DIR
		                                 : kind == 'T' ? PIECE_TABLE
		                                 : kind == 'X' ? PIECE_EXERCISE
		                                 : kind == 'N' ? PIECE_NAMES
		                                               : PIECE_SECTION);
		x->index = index;
		p = strchr(t, TOKEN_CLOSE) + 1;
	}
}

int code_names_add(struct chapter *ch, int group, const char *lit)
{
	size_t n = 0;
	while (lit && (isalnum((unsigned char)lit[n]) || lit[n] == '_'))
		n++;
	if (!n || isdigit((unsigned char)lit[0]))
		return 0;
	if (group || !ch->nnames) {
		struct code_names *g = ARRAY_PUSH(ch->names, ch->nnames);
		*g = (struct code_names){NULL, 0, (int)ch->nsections - 1};
	}
	struct code_names *g = &ch->names[ch->nnames - 1];
	for (size_t i = 0; i < g->n; i++)
		if (strlen(g->v[i]) == n && !strncmp(g->v[i], lit, n))
			return 1;
	g->v = xrealloc(g->v, (g->n + 2) * sizeof *g->v);
	g->v[g->n++] = xstrndup(lit, n);
	g->v[g->n] = NULL;
	return 1;
}

/* Arrays and text grow geometrically: a chapter may be megabytes. */
struct piece *pieces_push(struct pieces *p, enum piece_kind kind)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->v = xrealloc(p->v, p->cap * sizeof *p->v);
	}
	struct piece *x = &p->v[p->n++];
	memset(x, 0, sizeof *x);
	x->kind = kind;
	return x;
}

/* Append text to the last text piece of p, or as a new one. */
void pieces_text(struct pieces *p, const char *s, size_t n)
{
	if (!n)
		return;
	struct piece *x = p->n && p->v[p->n - 1].kind == PIECE_TEXT
	                      ? &p->v[p->n - 1] : pieces_push(p, PIECE_TEXT);
	if (x->len + n + 1 > x->cap) {
		x->cap = x->len + n + 1 > 2 * x->cap ? x->len + n + 1 : 2 * x->cap;
		x->text = xrealloc(x->text, x->cap);
	}
	memcpy(x->text + x->len, s, n);
	x->len += n;
	x->text[x->len] = '\0';
}

void pieces_free(struct pieces *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].text);
	free(p->v);
	p->v = NULL;
	p->n = p->cap = 0;
}

/* The plain text of pieces, leaving out values. Caller frees. */
char *pieces_plain(const struct pieces *p)
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].kind == PIECE_TEXT)
			buf_put(&b, p->v[i].text, p->v[i].len);
	buf_putc(&b, '\0');
	b.len--;
	char *t = buf_detach(&b);
	char *s = str_trim(t);
	memmove(t, s, strlen(s) + 1);
	return t;
}

int pieces_static(const struct pieces *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].kind != PIECE_TEXT)
			return 0;
	return 1;
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
		} else {
			dash = 1;
		}
	}
	if (!b.len)
		buf_puts(&b, "section");
	return buf_detach(&b);
}

/* The ids given so far: a hash set, so a long chapter costs no more per
 * heading than a short one. */
struct idset {
	char **slot; /* borrowed strings, NULL when free */
	size_t cap;  /* a power of two */
	size_t n;
	/* Each slug that was taken, owned, with the next suffix to try, so
	 * that the k-th "Summary" costs one try, not k. */
	char **base;
	int *next;
};

static size_t id_hash(const char *s)
{
	size_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

static int id_taken(const struct idset *set, const char *id)
{
	if (!strcmp(id, "main"))
		return 1;
	for (size_t i = id_hash(id) & (set->cap - 1); set->slot[i];
	     i = (i + 1) & (set->cap - 1))
		if (!strcmp(set->slot[i], id))
			return 1;
	return 0;
}

static void id_add(struct idset *set, char *id)
{
	size_t i = id_hash(id) & (set->cap - 1);
	while (set->slot[i])
		i = (i + 1) & (set->cap - 1);
	set->slot[i] = id;
	set->n++;
}

/* A unique id for a heading: its slug, or slug-2, -3, ... */
static char *heading_id(const struct idset *set, const char *text)
{
	char *slug = slugify(text);
	if (str_starts(slug, "exp-") || str_starts(slug, "fig-") ||
	    str_starts(slug, "tab-") || str_starts(slug, "claim-") ||
	    str_starts(slug, "ex-")) {
		char *s = xasprintf("section-%s", slug);
		free(slug);
		slug = s;
	}
	if (!id_taken(set, slug))
		return slug;
	size_t b = id_hash(slug) & (set->cap - 1);
	while (set->base[b] && strcmp(set->base[b], slug))
		b = (b + 1) & (set->cap - 1);
	int k = set->base[b] ? set->next[b] : 2;
	char *id = NULL;
	for (; !id || id_taken(set, id); k++) {
		free(id);
		id = xasprintf("%s-%d", slug, k);
	}
	if (set->base[b])
		free(slug);
	else
		set->base[b] = slug;
	set->next[b] = k;
	return id;
}

char **chapter_section_ids(const struct chapter *ch, char *const *titles)
{
	size_t n = ch->nsections;
	char **ids = xcalloc(n ? n : 1, sizeof *ids);
	struct idset set = {NULL, 16, 0, NULL, NULL};
	while (set.cap < 2 * n + 2)
		set.cap *= 2;
	set.slot = xcalloc(set.cap, sizeof *set.slot);
	set.base = xcalloc(set.cap, sizeof *set.base);
	set.next = xcalloc(set.cap, sizeof *set.next);
	for (size_t i = 0; i < n; i++) {
		ids[i] = heading_id(&set, titles[i]);
		id_add(&set, ids[i]);
	}
	for (size_t i = 0; i < set.cap; i++)
		free(set.base[i]);
	free(set.base);
	free(set.next);
	free(set.slot);
	return ids;
}

void chapter_titles_settle(struct chapter *ch)
{
	char **titles = xcalloc(ch->nsections ? ch->nsections : 1, sizeof *titles);
	int all_static = 1;
	for (size_t i = 0; i < ch->nsections; i++) {
		titles[i] = pieces_plain(&ch->sections[i].title);
		all_static &= pieces_static(&ch->sections[i].title);
		if (ch->sections[i].level == 1 && ch->title_section < 0) {
			ch->title_section = (int)i;
			ch->title = xstrdup(titles[i]);
		}
	}
	char **ids = chapter_section_ids(ch, titles);
	for (size_t i = 0; i < ch->nsections; i++) {
		if (all_static)
			ch->sections[i].id = ids[i];
		else
			free(ids[i]);
		free(titles[i]);
	}
	free(ids);
	free(titles);
}
