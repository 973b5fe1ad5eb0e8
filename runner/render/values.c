/* values.c - inline values and claims as HTML or plain text, and a
 * chapter's outline (values.h). */
#include "render/values.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "render/box.h"
#include "judge/judge.h"
#include "book/format.h"
#include "render/machines.h"
#include "render/keys.h"
#include "render/piece.h"
#include "base/util.h"
#include "base/ccfacts.h"
#include "render/xref.h"

/* The verdict on e, of chapter ch, on the base. */
static const struct verdict *verdict_of(const struct judged_book *jb,
                                        const struct book *bk,
                                        const struct chapter *ch,
                                        const struct inline_expr *e)
{
	size_t c = 0;
	while (c < bk->nchs && bk->chs[c] != ch)
		c++;
	return judge_get(jb, c, (size_t)(e - ch->values), 0);
}

/* Open the mark of a value that stands on part of a records file. */
static void partial_open(struct buf *out, const struct verdict *v)
{
	buf_puts(out, "<span class=\"partial\" title=\"computed from the "
	              "records before a malformed line: ");
	buf_puts_html(out, v->partial);
	buf_puts(out, "\">");
}

static size_t machine_count(const struct page_ctx *c)
{
	return c->s->o->machines ? c->s->o->machines->n : 1;
}

static void value_make(struct page_ctx *c, const void *arg,
                       struct buf *out);

/* Show err, a problem of the value at line (what: as written), where the
 * value would stand, and count it; hand it to the command to report too
 * when report (the judge reports the problems of values). */
static void inline_error(struct page_ctx *c, int line, const char *what,
                         const char *err, int report, struct buf *out)
{
	if (report)
		site_problem(c->s->st, c->ch->path, line, "%s: %s", what, err);
	c->errors++;
	buf_puts(out, "<span class=\"inline-error\" title=\"");
	buf_printf(out, "%s:%d: ", c->ch->path, line);
	buf_puts_html(out, err);
	buf_puts(out, "\">⚠ ");
	buf_puts_html(out, err);
	buf_puts(out, "</span>");
}

/* A reference as a link (xref.h); it reads no records, so it is made
 * each time, and the page's key holds what it reads (xref_digest). */
static void ref_html(struct page_ctx *c, const struct inline_expr *e,
                     struct buf *out)
{
	char *err = NULL;
	if (e->fmt)
		err = xasprintf("a reference takes no format, not '%s'", e->fmt);
	else if (xref_write(c->s->xref, c->index, e->text, 1, out, &err) == 0)
		return;
	char *what = xasprintf("{{ref %s}}", e->text);
	/* One that names nothing was reported where its chapter loaded. */
	inline_error(c, e->line, what, err, *e->text != '\0', out);
	free(what);
	free(err);
}

void value_html(struct page_ctx *c, const struct inline_expr *e,
                struct buf *out)
{
	char key[33];
	if (e->ref) {
		ref_html(c, e, out);
		return;
	}
	if (c->store) {
		size_t n = machine_count(c), len;
		char *err = NULL;
		int num = e->label ? xref_claim(c->s->xref, c->index,
		                                (size_t)(e - c->ch->values), &err)
		                   : 0;
		free(err);
		/* Several machines: a claim's id is its place in the chapter; a
		 * labelled claim shows its number. */
		const struct verdict *v = judge_get(c->s->o->machines->jb, c->index,
		                                    (size_t)(e - c->ch->values), 0);
		char *facts = xasprintf("%zu %d %zd %zu %d %d %d %d %.17g %.17g %s",
		                        n, c->s->o->strict,
		                        n > 1 ? e - c->ch->values : (ptrdiff_t)-1,
		                        num ? c->index : 0, num, c->s->v->cc,
		                        (int)v->kind, (int)v->teeth, v->factor,
		                        v->margin, v->flip ? v->flip : "");
		keys_value(e, c->s->v, facts, key);
		free(facts);
		struct piece_counts fc;
		const char *html = piece_get(c->store, key, &len, &fc);
		if (html && piece_take(c, html, len, &fc, out) == 0)
			return;
	}
	piece_make(c, c->store ? key : NULL, value_make, e, out);
}

/* A claim's margin in words: ", by 12 noise bands", and what it lacks:
 * " (loose)", " (it cannot fail)", ", within its noise" (html: with
 * markup). */
static void margin_words(const struct verdict *v, struct buf *out, int html)
{
	const char *open = html ? "<span class=\"teeth\">" : "";
	const char *close = html ? "</span>" : "";
	if (v->teeth == TEETH_CANNOT) {
		buf_printf(out, " %s(it cannot fail)%s", open, close);
		return;
	}
	if (!v->is_static && !isinf(v->margin))
		buf_printf(out, html ? ", <span class=\"margin%s\">by %.*f noise "
		                       "band%s%s</span>"
		                     : "%.0s, by %.*f noise band%s%s",
		           v->fragile ? " fragile" : "", v->margin < 10 ? 1 : 0,
		           v->margin, v->margin == 1 ? "" : "s",
		           v->fragile ? ", within its noise" : "");
	if (v->teeth == TEETH_LOOSE)
		buf_printf(out, " %s(loose)%s", open, close);
}

/* A claim's hover title: the claim, its margin, and what flips it. */
static void claim_title(const struct inline_expr *e, const struct verdict *v,
                        struct buf *out)
{
	buf_puts_html(out, e->text);
	if (v->teeth == TEETH_CANNOT) {
		buf_puts(out, " — no change of the data it reads (x1/8 to x8) "
		              "flips it: it cannot fail");
		return;
	}
	if (!v->flip)
		return;
	buf_puts(out, " — ");
	if (!v->is_static && !isinf(v->margin))
		buf_printf(out, "%.1f noise bands from flipping%s; ", v->margin,
		           v->fragile ? ", fewer than 3: fragile" : "");
	buf_puts(out, "flips when ");
	buf_puts_html(out, v->flip);
	if (v->teeth == TEETH_LOOSE)
		buf_puts(out, " (only a change of 2x or more: loose)");
}

static void value_make(struct page_ctx *c, const void *arg,
                       struct buf *out)
{
	const struct inline_expr *e = arg;
	const struct verdict *v = judge_get(c->s->o->machines->jb, c->index,
	                                    (size_t)(e - c->ch->values), 0);
	char *err = NULL;
	int num = e->label ? xref_claim(c->s->xref, c->index,
	                                (size_t)(e - c->ch->values), &err)
	                   : 0;
	if (num < 0) {
		char *what = xasprintf("{{check %s: %s}}", e->label, e->text);
		inline_error(c, e->line, what, err, 1, out);
		free(what);
		free(err);
		return;
	}
	switch (v->kind) {
	case VERDICT_NEEDS:
		needs_html(out, e->text, v->need_cc, e->check);
		return;
	case VERDICT_OUTDATED:
	case VERDICT_MISSING:
		not_measured_html(out, e->text, v->why);
		return;
	case VERDICT_ERROR:
	case VERDICT_REF: {
		char *what = xasprintf("{{ %s }}", e->text);
		inline_error(c, e->line, what, v->why ? v->why : "no value", 0, out);
		free(what);
		return;
	}
	default:
		break;
	}
	if (v->partial) {
		partial_count(c, v->partial_id);
		partial_open(out, v);
	}
	if (e->check) {
		int holds = v->kind == VERDICT_HOLDS;
		const struct site_opts *o = c->s->o;
		c->claims++;
		c->claims_failed += !holds;
		buf_printf(out, "<span class=\"check %s%s\" ",
		           holds ? "holds" : "fails", v->fragile ? " fragile" : "");
		/* References and the Machines page link to each claim. */
		if (e->label)
			buf_printf(out, "id=\"claim-%s\" ", e->label);
		else if (o->machines && o->machines->n > 1)
			buf_printf(out, "id=\"claim-%zu\" ",
			           (size_t)(e - c->ch->values));
		buf_puts(out, "title=\"");
		claim_title(e, v, out);
		int card = machine_has_gpu(c->s->v);
		buf_printf(out, "\">%s", holds ? "✓ " : "✗ ");
		if (num)
			buf_printf(out, "Claim %zu.%d ", c->index + 1, num);
		buf_puts(out, holds ? (card ? "holds on this card" : "holds here")
		                    : (card ? "does not hold on this card"
		                            : "does not hold here"));
		margin_words(v, out, 1);
		buf_puts(out, "</span>");
	} else {
		buf_puts_html(out, v->text);
	}
	buf_puts(out, v->partial ? " ⚠</span>" : "");
}

void not_measured_html(struct buf *out, const char *what, const char *why)
{
	buf_puts(out, "<span class=\"not-measured\" title=\"");
	buf_puts_html(out, what);
	buf_puts(out, ": ");
	buf_puts_html(out, why);
	buf_puts(out, "\">not measured on this machine</span>");
}

void needs_html(struct buf *out, const char *what, int cc, int claim)
{
	buf_printf(out, "<span class=\"%snot-applicable\" title=\"",
	           claim ? "check " : "");
	buf_puts_html(out, what);
	char w[48];
	if (cc > 0)
		buf_printf(out, "\">needs compute capability %s</span>",
		           cc_need_words(cc, w, sizeof w));
	else
		buf_puts(out, "\">not on this card</span>");
}

/* A reference as plain text: as it reads where the book's targets are
 * known (t->xref), else as written. */
static void ref_text(const struct text_src *t, const struct inline_expr *e,
                     struct buf *out)
{
	char *err = NULL;
	size_t from = 0;
	while (t->xref && from < t->bk->nchs && t->bk->chs[from] != t->ch)
		from++;
	if (!t->xref || from == t->bk->nchs ||
	    xref_write(t->xref, from, e->text, 0, out, &err) != 0)
		buf_puts(out, e->text);
	free(err);
}

void value_text(const struct text_src *t, const struct inline_expr *e,
                struct buf *out)
{
	char key[33];
	struct piece_counts fc = {0, 0, 0};
	size_t len;
	if (e->ref) {
		ref_text(t, e, out);
		return;
	}
	if (t->store) {
		keys_value(e, t->v, "text", key);
		const char *text = piece_get(t->store, key, &len, &fc);
		if (text) {
			buf_put(out, text, len);
			return;
		}
	}
	const struct verdict *v = verdict_of(t->jb, t->bk, t->ch, e);
	size_t start = out->len;
	if (v->kind == VERDICT_HOLDS || v->kind == VERDICT_FAILS)
		buf_puts(out, v->kind == VERDICT_HOLDS ? "✓" : "✗");
	else
		buf_puts(out, v->kind == VERDICT_VALUE ? v->text : "?");
	if (t->store && v->kind != VERDICT_ERROR)
		piece_put(t->store, key, out->data + start, out->len - start, &fc);
}

void pieces_text_of(const struct text_src *t, const struct chapter *ch,
                    const struct pieces *p, struct buf *out)
{
	struct buf raw = BUF_INIT;
	for (size_t i = 0; i < p->n; i++) {
		const struct piece *x = &p->v[i];
		if (x->kind == PIECE_TEXT)
			buf_put(&raw, x->text, x->len);
		else if (x->kind == PIECE_VALUE && !ch->values[x->index].check)
			value_text(t, &ch->values[x->index], &raw);
		else if (x->kind == PIECE_DIR && ch->dirs[x->index].kind != DIR_EXPERIMENT)
			buf_printf(&raw, " %s ", dir_opt(&ch->dirs[x->index], "caption")
			                             ? dir_opt(&ch->dirs[x->index], "caption") : "");
	}
	int space = 0;
	for (size_t i = 0; i < raw.len; i++) {
		if (isspace((unsigned char)raw.data[i])) {
			space = 1;
			continue;
		}
		if (space && out->len)
			buf_putc(out, ' ');
		space = 0;
		buf_putc(out, raw.data[i]);
	}
	buf_free(&raw);
}

/* The first sentence of text, cut at a word when it is long; caller frees. */
static char *first_sentence(const char *text)
{
	size_t n = strlen(text);
	for (size_t i = 40; i + 1 < n; i++)
		if (strchr(".?!", text[i]) && text[i + 1] == ' ') {
			n = i + 1;
			break;
		}
	if (n <= 240)
		return xstrndup(text, n);
	while (n > 0 && (n > 230 || text[n] != ' '))
		n--;
	return xasprintf("%.*s …", (int)n, text);
}

void outline_make(const struct text_src *src, const struct chapter *ch,
                  struct outline *ol)
{
	size_t n = ch->nsections;
	ol->titles = xcalloc(n ? n : 1, sizeof *ol->titles);
	for (size_t i = 0; i < n; i++) {
		struct buf t = BUF_INIT;
		pieces_text_of(src, ch, &ch->sections[i].title, &t);
		buf_puts(&t, "");
		ol->titles[i] = buf_detach(&t);
	}
	if (n && ch->sections[0].id) {
		ol->ids = xcalloc(n, sizeof *ol->ids);
		for (size_t i = 0; i < n; i++)
			ol->ids[i] = xstrdup(ch->sections[i].id);
	} else {
		ol->ids = chapter_section_ids(ch, ol->titles);
	}
	ol->title = xstrdup(ch->title_section >= 0
	                        ? ol->titles[ch->title_section] : ch->title);
	/* The lead: the prose before the first heading, or the first section's. */
	struct buf t = BUF_INIT;
	pieces_text_of(src, ch, &ch->lead, &t);
	for (size_t i = 0; !t.len && i < n; i++)
		pieces_text_of(src, ch, &ch->sections[i].words, &t);
	ol->lead = t.len ? first_sentence(t.data) : NULL;
	buf_free(&t);
}

/* Does p hold a reference ({{ref}})? */
static int pieces_ref(const struct chapter *ch, const struct pieces *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].kind == PIECE_VALUE && ch->values[p->v[i].index].ref)
			return 1;
	return 0;
}

void outline_resolve(const struct text_src *t, const struct chapter *ch,
                     struct outline *ol)
{
	for (size_t i = 0; i < ch->nsections; i++) {
		if (!pieces_ref(ch, &ch->sections[i].title))
			continue;
		struct buf b = BUF_INIT;
		pieces_text_of(t, ch, &ch->sections[i].title, &b);
		buf_puts(&b, "");
		free(ol->titles[i]);
		ol->titles[i] = buf_detach(&b);
		if ((int)i == ch->title_section) {
			free(ol->title);
			ol->title = xstrdup(ol->titles[i]);
		}
	}
}

void outline_free(struct outline *ol, size_t nsections)
{
	for (size_t i = 0; i < nsections; i++) {
		if (ol->titles)
			free(ol->titles[i]);
		if (ol->ids)
			free(ol->ids[i]);
	}
	free(ol->titles);
	free(ol->ids);
	free(ol->title);
	free(ol->lead);
}
