/*
 * body.c - a chapter's body as HTML (body.h): its prose, inline values,
 * directives, tables, exercises' titles and headings, in order.
 */
#include "render/body.h"

#include <stdlib.h>

#include "base/exec.h"
#include "judge/judge.h"
#include "render/blocks.h"
#include "render/box.h"
#include "render/excerpt.h"
#include "render/machines.h"
#include "render/page.h"
#include "base/util.h"
#include "render/values.h"

/* "<hN id=...>inner<a class=anchor>#</a></hN>" for section n. */
static void heading_html(struct page_ctx *c, size_t n, struct buf *out)
{
	const struct section *s = &c->ch->sections[n];
	const struct outline *ol = outline_of(c->s, c->ch);
	const char *id = ol->ids[n];
	buf_printf(out, "<h%d id=\"%s\">", s->level, id);
	for (size_t i = 0; i < s->html.n; i++) {
		const struct piece *x = &s->html.v[i];
		if (x->kind == PIECE_TEXT)
			buf_put(out, x->text, x->len);
		else if (x->kind == PIECE_VALUE)
			value_html(c, &c->ch->values[x->index], out);
	}
	buf_printf(out, "<a class=\"anchor\" href=\"#%s\" aria-label=\"link to "
	           "this section\">#</a></h%d>", id, s->level);
}

/* The title of exercise k: its number, or why its label cannot be used. */
static void exercise_title(struct page_ctx *c, size_t k, struct buf *out)
{
	/* The judge found and reported it. */
	const char *err = judge_exercise(c->s->o->machines->jb, c->index, k);
	buf_printf(out, "<p class=\"callout-title\">Exercise %zu.%zu",
	           c->index + 1, k + 1);
	if (err) {
		c->errors++;
		buf_puts(out, " <span class=\"inline-error\">⚠ ");
		buf_puts_html(out, err);
		buf_puts(out, "</span>");
	}
	buf_puts(out, "</p>\n");
}

void body_html(struct page_ctx *c, struct buf *out, size_t *after_title)
{
	*after_title = 0;
	const struct pieces *p = &c->ch->body;
	for (size_t i = 0; i < p->n && !exec_stopping(); i++) {
		const struct piece *x = &p->v[i];
		switch (x->kind) {
		case PIECE_TEXT:
			buf_put(out, x->text, x->len);
			break;
		case PIECE_VALUE:
			value_html(c, &c->ch->values[x->index], out);
			break;
		case PIECE_DIR:
			block_html(c, &c->ch->dirs[x->index], out);
			break;
		case PIECE_TABLE: {
			char *label = xasprintf("table %zu.%d", c->index + 1,
			                        ++c->tables);
			table_wrap_open(out, label, NULL);
			free(label);
			buf_printf(out, "<table><caption><span class=\"tabnum\">Table "
			           "%zu.%d</span></caption>", c->index + 1, c->tables);
			break;
		}
		case PIECE_EXERCISE:
			exercise_title(c, x->index, out);
			break;
		case PIECE_NAMES:
			excerpt_names_html(c, x->index, out);
			break;
		case PIECE_SECTION:
			heading_html(c, x->index, out);
			if ((int)x->index == c->ch->title_section)
				*after_title = out->len;
			break;
		}
	}
}
