/* xref.c - the targets of references, numbered as the pages number them,
 * and a reference as it reads (xref.h). */
#include "render/xref.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

enum kind { K_CHAPTER, K_FIGURE, K_TABLE, K_SECTION, K_CLAIM, K_EXERCISE };

static const struct {
	const char *prefix; /* as written: "fig" */
	const char *what;   /* in messages */
	const char *word;   /* as it reads: "Figure 2.1" */
	const char *anchor; /* the id's prefix on the page */
} kinds[] = {
	{"ch", "chapter", "Chapter", ""},
	{"fig", "chart", "Figure", "fig-"},
	{"tab", "{table}", "Table", "tab-"},
	{"sec", "heading", NULL, ""},
	{"claim", "claim", "Claim", "claim-"},
	{"ex", "exercise", "Exercise", "ex-"},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

struct target {
	enum kind kind;
	const char *label; /* borrowed from the book or the outlines */
	size_t ch;
	int num;  /* in the chapter; a section's index */
	int line;
};

struct xref {
	const struct book *bk;
	const struct outline *ol;
	struct target *v;
	size_t n;
	int **claim; /* per chapter, per value: its claim number, or 0 */
};

static void target_add(struct xref *x, enum kind kind, const char *label,
                       size_t ch, int num, int line)
{
	struct target *t = ARRAY_PUSH(x->v, x->n);
	*t = (struct target){kind, label, ch, num, line};
}

static int target_cmp(const void *a, const void *b)
{
	const struct target *s = a, *t = b;
	if (s->kind != t->kind)
		return s->kind < t->kind ? -1 : 1;
	int c = strcmp(s->label, t->label);
	if (c)
		return c;
	if (s->ch != t->ch)
		return s->ch < t->ch ? -1 : 1;
	return s->num - t->num;
}

/* Value k of chapter i, when it is a labelled claim: the next number. */
static void claim_add(struct xref *x, size_t i, size_t k, int *num)
{
	const struct inline_expr *e = &x->bk->chs[i]->values[k];
	if (!e->check || !e->label)
		return;
	x->claim[i][k] = ++*num;
	target_add(x, K_CLAIM, e->label, i, *num, e->line);
}

/* Chapter i's targets, in the order its page numbers them. */
static void chapter_targets(struct xref *x, size_t i)
{
	const struct chapter *ch = x->bk->chs[i];
	int fig = 0, tab = 0, claim = 0;
	x->claim[i] = xcalloc(ch->nvalues ? ch->nvalues : 1, sizeof **x->claim);
	target_add(x, K_CHAPTER, ch->name, i, 0, 0);
	for (size_t k = 0; k < ch->body.n; k++) {
		const struct piece *p = &ch->body.v[k];
		const struct directive *d;
		const struct pieces *title;
		const struct exercise *ex;
		switch (p->kind) {
		case PIECE_TEXT:
		case PIECE_NAMES:
			break;
		case PIECE_TABLE:
			tab++;
			break;
		case PIECE_DIR:
			d = &ch->dirs[p->index];
			if (d->error)
				break;
			if (d->kind == DIR_CHART)
				target_add(x, K_FIGURE, d->id, i, ++fig, d->line);
			if (d->kind == DIR_TABLE && ++tab && d->id)
				target_add(x, K_TABLE, d->id, i, tab, d->line);
			break;
		case PIECE_VALUE:
			claim_add(x, i, p->index, &claim);
			break;
		case PIECE_SECTION:
			title = &ch->sections[p->index].html;
			for (size_t m = 0; m < title->n; m++)
				if (title->v[m].kind == PIECE_VALUE)
					claim_add(x, i, title->v[m].index, &claim);
			break;
		case PIECE_EXERCISE:
			ex = &ch->exercises[p->index];
			if (ex->label)
				target_add(x, K_EXERCISE, ex->label, i, (int)p->index + 1,
				           ex->line);
			break;
		}
	}
	for (size_t k = 0; k < ch->nsections; k++)
		target_add(x, K_SECTION, x->ol[i].ids[k], i, (int)k,
		           ch->sections[k].line);
}

struct xref *xref_new(const struct book *bk, const struct outline *ol)
{
	struct xref *x = xcalloc(1, sizeof *x);
	x->bk = bk;
	x->ol = ol;
	x->claim = xcalloc(bk->nchs ? bk->nchs : 1, sizeof *x->claim);
	for (size_t i = 0; i < bk->nchs; i++)
		chapter_targets(x, i);
	if (x->n)
		qsort(x->v, x->n, sizeof *x->v, target_cmp);
	return x;
}

void xref_free(struct xref *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->bk->nchs; i++)
		free(x->claim[i]);
	free(x->claim);
	free(x->v);
	free(x);
}

/* The first target of kind named label, and how many there are. */
static const struct target *targets_of(const struct xref *x, enum kind kind,
                                       const char *label, size_t *count)
{
	struct target key = {kind, label, 0, 0, 0};
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (target_cmp(&x->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	while (k < x->n && x->v[k].kind == kind && !strcmp(x->v[k].label, label))
		k++;
	*count = k - lo;
	return k > lo ? &x->v[lo] : NULL;
}

static void where_add(const struct xref *x, const struct target *t,
                      size_t n, struct buf *out)
{
	for (size_t k = 0; k < n; k++)
		buf_printf(out, "%s%s:%d", k ? ", " : "", x->bk->chs[t[k].ch]->path,
		           t[k].line);
}

/* Find text's target as seen from chapter from, or say why not. */
static const struct target *target_find(const struct xref *x, size_t from,
                                        const char *text, char **err)
{
	const char *colon = strchr(text, ':');
	size_t kind = 0;
	while (colon && kind < NKINDS &&
	       (strlen(kinds[kind].prefix) != (size_t)(colon - text) ||
	        strncmp(text, kinds[kind].prefix, (size_t)(colon - text))))
		kind++;
	if (!colon || kind == NKINDS || !colon[1]) {
		*err = xstrdup("not a reference: write fig:ID, tab:ID, sec:ID, "
		               "claim:LABEL, ex:LABEL or ch:NAME");
		return NULL;
	}
	const char *label = colon + 1, *hash = strchr(label, '#');
	size_t in = from, n;
	char *name = NULL;
	if (kind == K_SECTION && hash) {
		name = xstrndup(label, (size_t)(hash - label));
		const struct target *c = targets_of(x, K_CHAPTER, name, &n);
		if (!c) {
			*err = xasprintf("no chapter is named '%s'", name);
			free(name);
			return NULL;
		}
		in = c->ch;
		label = hash + 1;
	}
	const struct target *t = targets_of(x, (enum kind)kind, label, &n);
	/* A heading: the chapter's own (or the one named), else the one
	 * other chapter that has it. */
	int own = 0;
	for (size_t k = 0; kind == K_SECTION && !own && k < n; k++)
		if (t[k].ch == in) {
			t += k;
			own = 1;
		}
	if (own)
		n = 1;
	else if (name)
		n = 0;
	struct buf b = BUF_INIT;
	if (n == 1)
		goto out;
	if (!n && name)
		buf_printf(&b, "chapter '%s' has no heading with the id '%s'",
		           name, label);
	else if (!n)
		buf_printf(&b, "no %s is labelled '%s' in the book",
		           kinds[kind].what, label);
	else {
		buf_printf(&b, "ambiguous: %zu %ss are labelled '%s' (", n,
		           kinds[kind].what, label);
		where_add(x, t, n, &b);
		buf_puts(&b, kind == K_SECTION ? "); name the chapter: "
		                                 "sec:CHAPTER#ID" : ")");
	}
	t = NULL;
	*err = buf_detach(&b);
out:
	free(name);
	return t;
}

int xref_write(const struct xref *x, size_t from, const char *text, int html,
               struct buf *out, char **err)
{
	const struct target *t = target_find(x, from, text, err);
	if (!t)
		return -1;
	const struct chapter *ch = x->bk->chs[t->ch];
	if (html) {
		buf_puts(out, "<a class=\"xref\" href=\"");
		if (t->ch != from || t->kind == K_CHAPTER)
			buf_printf(out, "%s.html", ch->href);
		if (t->kind != K_CHAPTER)
			buf_printf(out, "#%s%s", kinds[t->kind].anchor, t->label);
		buf_puts(out, "\">");
	}
	if (t->kind == K_SECTION) {
		buf_puts(out, "“");
		const char *title = x->ol[t->ch].titles[t->num];
		if (html)
			buf_puts_html(out, title);
		else
			buf_puts(out, title);
		buf_puts(out, "”");
		if (t->ch != from)
			buf_printf(out, " in Chapter %zu", t->ch + 1);
	} else if (t->kind == K_CHAPTER) {
		buf_printf(out, "Chapter %zu", t->ch + 1);
	} else {
		buf_printf(out, "%s %zu.%d", kinds[t->kind].word, t->ch + 1, t->num);
	}
	if (html)
		buf_puts(out, "</a>");
	return 0;
}

/* Is the target of kind label, number num of chapter i the first of its
 * label in the book? 1, or 0 with *err. */
static int label_first(const struct xref *x, enum kind kind, const char *label,
                       size_t i, int num, char **err)
{
	size_t n;
	const struct target *t = targets_of(x, kind, label, &n);
	if (!t || (t->ch == i && t->num == num))
		return 1;
	*err = xasprintf("the %s label '%s' is used twice; first at %s:%d",
	                 kinds[kind].what, label, x->bk->chs[t->ch]->path,
	                 t->line);
	return 0;
}

int xref_claim(const struct xref *x, size_t i, size_t k, char **err)
{
	int num = x->claim[i][k];
	if (num && !label_first(x, K_CLAIM, x->bk->chs[i]->values[k].label, i,
	                        num, err))
		return -1;
	return num;
}

int xref_exercise(const struct xref *x, size_t i, size_t k, char **err)
{
	const char *label = x->bk->chs[i]->exercises[k].label;
	if (label && !label_first(x, K_EXERCISE, label, i, (int)k + 1, err))
		return -1;
	return (int)k + 1;
}

void xref_digest(const struct xref *x, size_t i, char out[33])
{
	const struct chapter *ch = x->bk->chs[i];
	struct hasher *h = hasher_new();
	struct buf b = BUF_INIT;
	for (size_t k = 0; k < ch->nvalues; k++) {
		char *err = NULL;
		const struct inline_expr *e = &ch->values[k];
		b.len = 0;
		if (e->ref)
			xref_write(x, i, e->text, 1, &b, &err);
		else if (e->label)
			buf_printf(&b, "%d", xref_claim(x, i, k, &err));
		buf_puts(&b, err ? err : "");
		hasher_add_str(h, b.data ? b.data : "");
		free(err);
	}
	for (size_t k = 0; k < ch->nexercises; k++) {
		char *err = NULL;
		hasher_add_str(h, xref_exercise(x, i, k, &err) < 0 ? err : "");
		free(err);
	}
	buf_free(&b);
	hasher_done(h, out);
}
