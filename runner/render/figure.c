/* figure.c - a {chart} directive as a figure: the SVG that plot.c draws,
 * a text alternative saying what it shows, and its caption. */
#include "render/figure.h"

#include <stdlib.h>
#include <string.h>

#include "render/box.h"
#include "render/chart_svg.h"
#include "judge/chart_pick.h"
#include "judge/judge.h"
#include "judge/machine_set.h"
#include "judge/view.h"
#include "render/plot.h"
#include "base/util.h"


/*
 * The name of a chart's data, linked to the experiment that made it: on
 * this page or another, and for derived records (ilp_ptxas) the
 * experiment they come with. Plain text when there is none.
 */
static void data_link(struct page_ctx *c, const char *data, struct buf *out)
{
	const struct exper *e = book_find(c->s->bk, data);
	char *base = xstrdup(data);
	for (char *u = strrchr(base, '_'); !e && u; u = strrchr(base, '_')) {
		*u = '\0';
		e = book_find(c->s->bk, base);
	}
	free(base);
	if (e) {
		buf_puts(out, "<a href=\"");
		if (e->ch != c->ch)
			buf_printf(out, "%s.html", e->ch->href);
		buf_printf(out, "#exp-%s\">", e->id);
	}
	buf_puts_html(out, data);
	if (e)
		buf_puts(out, "</a>");
}

void figure_html(struct page_ctx *c, const struct directive *d,
                         struct buf *out)
{
	struct plot p;
	if (data_needs(c, dir_opt(d, "data"), "chart", out))
		return;
	int outdated = data_outdated(c, dir_opt(d, "data"));
	size_t di = (size_t)(d - c->ch->dirs);
	const struct judged_opt *jo = judge_opts(c->s->o->machines->jb, c->index,
	                                         di, 0);
	/* A limit may read results of another version of a source. */
	for (size_t i = 0; i < d->nopts; i++)
		outdated |= jo[i].outdated;
	struct chart_pick pk;
	chart_pick(c->s->o->machines, c->index, di, d, c->ch->path, &pk);
	int rc = plot_render(c->s->memo, &pk, c->ch->path, c->s->v, c->s->o->dir,
	                     &p);
	if (p.problem)
		site_problem(c->s->st, c->ch->path, d->line, "%s", p.problem);
	c->figures++;
	buf_printf(out, "<figure class=\"chart\" id=\"fig-%s\">\n", d->id);
	const char *caption = dir_opt(d, "caption");
	if (rc != 0 && outdated) {
		buf_puts(out, "<p class=\"note not-measured\">This chart's data were "
		         "not measured on this machine: ");
		buf_puts_html(out, c->s->v->dir);
		buf_puts(out, " holds no results of the experiment's current "
		         "source.</p>\n");
	} else if (rc != 0 || !p.svg) {
		error_box(out, "This chart could not be drawn:", p.error, NULL);
		if (rc != 0)
			c->errors++;
	} else if (p.drawn) {
		if (pk.partial) {
			partial_count(c, dir_opt(d, "data"));
			buf_puts(out, "<p class=\"note partial\">This chart stops "
			         "before a malformed line of the records: ");
			buf_puts_html(out, pk.partial);
			buf_puts(out, ".</p>\n");
		}
		/* Phones get the narrow drawing: its text stays legible. The
		 * hover layers lie over the drawing in a frame of its size; the
		 * drawing is no link, so a tap reaches a point (page.js). */
		buf_printf(out, "<div class=\"chart-full\"><span "
		           "class=\"chart-frame\"><picture>"
		           "<source media=\"(max-width: 36rem)\" srcset=\"%s\" "
		           "width=\"%d\" height=\"%d\"><img src=\"%s\" width=\"%d\" "
		           "height=\"%d\" loading=\"lazy\" alt=\"", p.svg_narrow,
		           p.narrow_width, p.narrow_height, p.svg, p.width, p.height);
		buf_puts_html(out, p.alt ? p.alt : d->id);
		buf_puts(out, "\"></picture>");
		chart_hover_html(&p, out);
		buf_puts(out, "</span></div>\n");
		c->s->st->charts_drawn += p.redrawn;
	}
	if (p.note) {
		buf_puts(out, "<p class=\"note\">");
		buf_puts_html(out, p.note);
		buf_puts(out, "</p>");
	}
	buf_printf(out, "<figcaption><a class=\"fignum\" href=\"#fig-%s\">Figure "
	           "%d.%d.</a> ", d->id, (int)c->index + 1, c->figures);
	if (caption)
		buf_puts_html(out, caption);
	if (p.coincide) {
		buf_puts(out, " ");
		buf_puts_html(out, p.coincide);
	}
	buf_puts(out, " <span class=\"figmeta\">Records of ");
	data_link(c, dir_opt(d, "data"), out);
	buf_puts(out, ", bundle ");
	buf_puts_html(out, c->s->v->dir);
	if (machine_has_gpu(c->s->v)) {
		buf_puts(out, " (");
		buf_puts_html(out, machine_str(c->s->v, "gpu"));
		buf_puts(out, ")");
	}
	buf_puts(out, ".");
	if (p.nwrong)
		buf_printf(out, " <strong>%zu record%s marked wrong left out.</strong>",
		           p.nwrong, p.nwrong > 1 ? "s" : "");
	/* The values as a table (folded after the figure), as files, and the
	 * drawing alone. */
	const char *sep = " ";
	if (p.values && p.drawn) {
		buf_printf(out, " <a href=\"#values-%s\">Table</a>", d->id);
		sep = " · ";
	}
	if (p.csv)
		buf_printf(out, "%s<a href=\"%s\">CSV</a> · <a href=\"%s\">gnuplot "
		           "script</a>", sep, p.csv, p.gp);
	if (p.drawn)
		buf_printf(out, " · <a href=\"%s\">SVG</a>", p.svg);
	buf_puts(out, "</span></figcaption>\n</figure>\n");
	if (p.drawn) {
		char *label = xasprintf("The values of Figure %d.%d",
		                        (int)c->index + 1, c->figures);
		chart_values_html(&p, d->id, label, out);
		free(label);
	}
	plot_free(&p);
	chart_pick_free(&pk);
}

