/*
 * chart_svg.c - what labbook writes over gnuplot's drawings (chart_svg.h):
 * the titles of the SVGs and the page's layer of titled points.
 */
#include "render/chart_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "render/plot_words.h"
#include "base/util.h"

/* Radius of a point's hover target, in the drawing's pixels. */
#define HOVER_R 6

/* ---- what each point says ---------------------------------------------- */

/* x of point p of a numeric axis in words: "1 MiB", "1048576 (2^20)". */
static void x_put(struct buf *b, const struct chart *c, double x)
{
	chart_value_put(b, x, c->xunit);
	if (c->logx == 2 && !c->xunit && x >= 1024 && x == ldexp(1, ilogb(x)))
		buf_printf(b, " (2^%d)", ilogb(x));
}

/* "unroll4: elements (int) 1048576 (2^20), 1234 GB/s (1201–1250 GB/s),
 * 3 runs, 600 repetitions". */
static char *point_title(const struct chart *c, const struct series *sr,
                         const struct point *p)
{
	struct buf b = BUF_INIT;
	if (c->sf)
		buf_printf(&b, "%s: ", sr->title);
	if (c->bars) {
		buf_puts(&b, chart_cat_title(c, (size_t)p->x));
	} else {
		buf_printf(&b, "%s ", c->xlabel ? c->xlabel : c->xf);
		x_put(&b, c, p->x);
	}
	buf_puts(&b, ", ");
	if (!c->yunit)
		buf_printf(&b, "%s ", c->ylabel ? c->ylabel : c->yf);
	chart_value_put(&b, p->y, c->yunit);
	/* The spread, where it shows at the figures written; the unit once,
	 * unless the prefix may differ (bytes). */
	const char *u = c->yunit && !strcmp(c->yunit, "bytes") ? c->yunit : NULL;
	char *lo = plot_value_text(p->lo, u), *hi = plot_value_text(p->hi, u);
	if (p->has_err && strcmp(lo, hi))
		buf_printf(&b, " (%s\xe2\x80\x93%s)", lo, hi);
	free(lo);
	free(hi);
	if (p->runs > 0)
		buf_printf(&b, ", %.0f run%s", p->runs, p->runs == 1 ? "" : "s");
	if (p->reps > 0)
		buf_printf(&b, ", %.0f repetition%s", p->reps, p->reps == 1 ? "" : "s");
	return buf_detach(&b);
}

/* Where v lies between lo and hi on an axis (0 to 1). */
static double axis_frac(double v, double lo, double hi, int logb)
{
	double a = chart_axis_t(lo, logb), z = chart_axis_t(hi, logb);
	return (chart_axis_t(v, logb) - a) / (z - a);
}

/* A header cell: the axis' label, else its field, and its unit. */
static void values_th(struct buf *b, const char *label, const char *field,
                      const char *unit, int num)
{
	buf_puts(b, num ? "<th class=\"num\">" : "<th>");
	buf_puts_html(b, label ? label : field);
	if (unit && !label) {
		buf_puts(b, " (");
		buf_puts_html(b, unit);
		buf_puts(b, ")");
	}
	buf_puts(b, "</th>");
}

/*
 * The points as the rows of a table, in the legend's order: the series,
 * x, y with its unit, the spread, the runs and repetitions behind each;
 * what a point's title says, for a reader who cannot hover.
 */
static char *values_table(const struct chart *c)
{
	int err = 0, runs = 0, reps = 0;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t k = 0; k < c->ser[s].n; k++) {
			const struct point *p = &c->ser[s].pts[k];
			err |= p->has_err;
			runs |= p->runs > 0;
			reps |= p->reps > 0;
		}
	struct buf b = BUF_INIT;
	buf_puts(&b, "<thead><tr>");
	if (c->sf)
		values_th(&b, NULL, c->sf, NULL, 0);
	values_th(&b, c->xlabel, c->xf, c->bars ? NULL : c->xunit, !c->bars);
	values_th(&b, c->ylabel, c->yf, NULL, 1);
	if (err)
		buf_puts(&b, "<th class=\"num\">spread</th>");
	if (runs)
		buf_puts(&b, "<th class=\"num\">runs</th>");
	if (reps)
		buf_puts(&b, "<th class=\"num\">repetitions</th>");
	buf_puts(&b, "</tr></thead>\n<tbody>\n");
	for (size_t s = 0; s < c->nser; s++) {
		const struct series *sr = &c->ser[s];
		for (size_t k = 0; k < sr->n; k++) {
			const struct point *p = &sr->pts[k];
			struct buf v = BUF_INIT;
			buf_puts(&b, "<tr>");
			if (c->sf) {
				buf_puts(&b, "<td>");
				buf_puts_html(&b, sr->title);
				buf_puts(&b, "</td>");
			}
			if (c->bars)
				buf_puts(&v, chart_cat_title(c, (size_t)p->x));
			else
				x_put(&v, c, p->x);
			buf_puts(&b, c->bars ? "<td>" : "<td class=\"num\">");
			buf_puts_html(&b, v.data ? v.data : "");
			v.len = 0;
			chart_value_put(&v, p->y, c->yunit);
			buf_puts(&b, "</td><td class=\"num\">");
			buf_puts_html(&b, v.data);
			buf_puts(&b, "</td>");
			if (err) {
				buf_puts(&b, "<td class=\"num\">");
				if (p->has_err) {
					char *lo = plot_value_text(p->lo, NULL);
					char *hi = plot_value_text(p->hi, NULL);
					buf_puts_html(&b, lo);
					buf_puts(&b, "\xe2\x80\x93");
					buf_puts_html(&b, hi);
					free(lo);
					free(hi);
				}
				buf_puts(&b, "</td>");
			}
			if (runs)
				buf_printf(&b, "<td class=\"num\">%.0f</td>", p->runs);
			if (reps)
				buf_printf(&b, "<td class=\"num\">%.0f</td>", p->reps);
			buf_puts(&b, "</tr>\n");
			buf_free(&v);
		}
	}
	buf_puts(&b, "</tbody>");
	return buf_detach(&b);
}

void chart_hover_make(const struct chart *c, struct plot *out)
{
	out->values = values_table(c);
	const char *t = dir_opt(c->d, "title");
	if (!t)
		t = dir_opt(c->d, "caption");
	out->svg_title = xstrdup(t ? t : c->d->id);
	size_t *order = xmalloc((c->nser + 1) * sizeof *order);
	chart_draw_order(c, order);
	/* gnuplot's order: the runs' spreads, the series, the rings of points
	 * beyond noise, the limit lines (gnuplot.c, gp_plot). */
	size_t nruns = 0;
	for (size_t s = 0; s < c->nser; s++)
		nruns += c->ser[s].run_bars != 0;
	out->nruns = nruns;
	out->nseries = c->nser;
	out->marks = c->nmarked != 0;
	out->nlayers = nruns + c->nser + (size_t)out->marks + c->nlim;
	out->layer_titles = xcalloc(out->nlayers + 1, sizeof *out->layer_titles);
	for (size_t s = 0, k = 0; s < c->nser; s++)
		if (c->ser[s].run_bars)
			out->layer_titles[k++] = xasprintf("%s: spread of the runs",
			                                   c->ser[s].title);
	if (out->marks)
		out->layer_titles[nruns + c->nser] = xstrdup(c->mark_title);
	double bw = 0.8 / (double)c->nser;
	for (size_t i = 0; i < c->nser; i++) {
		size_t s = order[i];
		const struct series *sr = &c->ser[s];
		out->layer_titles[nruns + i] = xstrdup(sr->title);
		for (size_t k = 0; k < sr->n; k++) {
			const struct point *p = &sr->pts[k];
			if (c->logy && p->y <= 0)
				continue;
			struct hover *h = ARRAY_PUSH(out->hover, out->nhover);
			double x = p->x;
			if (c->bars)
				x += ((double)s - (c->nser - 1) / 2.0) * bw;
			h->fx = axis_frac(x, c->xmin, c->xmax, c->logx);
			h->fy = axis_frac(p->y, c->ylo, c->yhi, c->logy);
			h->fw = h->fb = 0;
			if (c->bars && !c->as_points) {
				h->fw = bw / (c->xmax - c->xmin);
				h->fb = fmin(1, fmax(0, axis_frac(0, c->ylo, c->yhi, 0)));
			}
			h->series = nruns + i;
			h->title = point_title(c, sr, p);
		}
	}
	out->nlimits = c->nlim;
	out->limit_fy = xcalloc(c->nlim + 1, sizeof *out->limit_fy);
	for (size_t i = 0; i < c->nlim; i++) {
		out->layer_titles[out->nlayers - c->nlim + i] = xstrdup(c->lim[i].text);
		out->limit_fy[i] = c->logy && c->lim[i].v <= 0
		                       ? -1
		                       : axis_frac(c->lim[i].v, c->ylo, c->yhi, c->logy);
	}
	free(order);
}

/* ---- the drawings' titles ------------------------------------------------ */

/* The plot area gnuplot printed (its pixels, from the bottom left) into
 * p->box, as pixels from the top left; 0 or -1. */
static int box_parse(const char *path, struct plot *p)
{
	char *text = file_read(path, NULL);
	double v[2][4];
	int rc = -1;
	if (text && sscanf(text, "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0][0],
	                   &v[0][1], &v[0][2], &v[0][3], &v[1][0], &v[1][1],
	                   &v[1][2], &v[1][3]) == 8 &&
	    v[0][1] > v[0][0] && v[0][3] > v[0][2] && v[1][1] > v[1][0] &&
	    v[1][3] > v[1][2]) {
		int h[2] = {p->height, p->narrow_height};
		for (int w = 0; w < 2; w++) {
			p->box[w][0] = v[w][0];
			p->box[w][1] = v[w][1];
			p->box[w][2] = h[w] - v[w][3];
			p->box[w][3] = h[w] - v[w][2];
		}
		p->boxed = 1;
		rc = 0;
	}
	free(text);
	return rc;
}

int chart_box_read(const char *site_dir, const char *id, struct plot *p)
{
	char *path = xasprintf("%s/fig/%s.box", site_dir, id);
	int rc = box_parse(path, p);
	free(path);
	return rc;
}

/*
 * gnuplot's SVG with labbook's titles: the drawing's own, its description
 * (the chart in words) and each plot group's, whose id says whether it is
 * a series or a limit line.
 */
static void svg_titled(const char *svg, const struct plot *p, struct buf *out)
{
	static const char group[] = "<g id=\"gnuplot_plot_";
	const char *s = svg, *at;
	if ((at = strstr(s, "<title>Gnuplot</title>"))) {
		buf_put(out, s, (size_t)(at - s));
		buf_puts(out, "<title>");
		buf_puts_html(out, p->svg_title);
		buf_puts(out, "</title>");
		s = at + strlen("<title>Gnuplot</title>");
	}
	const char *desc = strstr(s, "<desc>"), *dend = desc ? strstr(desc, "</desc>") : NULL;
	if (dend && p->alt) {
		buf_put(out, s, (size_t)(desc - s));
		buf_puts(out, "<desc>");
		buf_puts_html(out, p->alt);
		s = dend;
	}
	while ((at = strstr(s, group))) {
		buf_put(out, s, (size_t)(at - s));
		s = at + strlen(group);
		size_t n = strtoul(s, NULL, 10);
		const char *gt = strchr(s, '>');
		if (!gt || n < 1 || n > p->nlayers) {
			buf_puts(out, group);
			continue;
		}
		size_t series_end = p->nruns + p->nseries + (size_t)p->marks;
		if (n <= p->nruns)
			buf_printf(out, "<g id=\"runs_%zu\" >", n);
		else if (n <= p->nruns + p->nseries)
			buf_printf(out, "<g id=\"series_%zu\" >", n - p->nruns);
		else if (n <= series_end)
			buf_puts(out, "<g id=\"marks\" >");
		else
			buf_printf(out, "<g id=\"limit_%zu\" >", n - series_end);
		s = gt + 1;
		const char *tend = strstr(s, "</title>");
		if (!strncmp(s, "<title>", 7) && tend)
			s = tend + strlen("</title>");
		buf_puts(out, "<title>");
		buf_puts_html(out, p->layer_titles[n - 1]);
		buf_puts(out, "</title>");
	}
	buf_puts(out, s);
}

static int svg_title_file(const char *path, const struct plot *p)
{
	char *svg = file_read(path, NULL);
	if (!svg)
		return -1;
	struct buf b = BUF_INIT;
	svg_titled(svg, p, &b);
	int rc = file_write_atomic(path, b.data, b.len);
	buf_free(&b);
	free(svg);
	return rc;
}

int chart_svg_finish(const char *site_dir, const char *id, struct plot *p)
{
	char *svg = xasprintf("%s/fig/%s.svg", site_dir, id);
	char *narrow = xasprintf("%s/fig/%s-narrow.svg", site_dir, id);
	char *area = xasprintf("%s/fig/%s.area", site_dir, id);
	char *box = xasprintf("%s/fig/%s.box", site_dir, id);
	int rc = -1;
	/* The box is written last: a drawing without one is drawn again. */
	if (box_parse(area, p) == 0 && svg_title_file(svg, p) == 0 &&
	    svg_title_file(narrow, p) == 0 && rename(area, box) == 0)
		rc = 0;
	free(svg);
	free(narrow);
	free(area);
	free(box);
	return rc;
}

/* ---- the page's layer ------------------------------------------------------ */

/*
 * One layer serves both drawings: its points lie where the wide drawing
 * has them, and on narrow screens, where the narrow drawing is shown and
 * the layer is stretched over it, a transform (--narrow, style.css) moves
 * them to where the narrow drawing has them. Points are not repeated.
 */
static void hover_layer(const struct plot *p, struct buf *out)
{
	const double *b = p->box[WIDE], *n = p->box[NARROW];
	double W = p->width, H = p->height;
	double pw = b[1] - b[0], ph = b[3] - b[2];
	double sx = (n[1] - n[0]) / pw, sy = (n[3] - n[2]) / ph;
	double kx = W / p->narrow_width, ky = H / p->narrow_height;
	buf_printf(out, "<svg class=\"chart-hover\" viewBox=\"0 0 %d %d\" "
	           "preserveAspectRatio=\"none\" fill=\"transparent\" "
	           "style=\"--narrow: matrix(%.4f, 0, 0, %.4f, %.2f, %.2f)\">"
	           "<title>", p->width, p->height, sx * kx, sy * ky,
	           (n[0] - b[0] * sx) * kx, (n[2] - b[2] * sy) * ky);
	buf_puts_html(out, p->svg_title);
	buf_printf(out, "</title><rect width=\"%d\" height=\"%d\"/>"
	           "<g class=\"chart-points\">\n", p->width, p->height);
	/* A limit line answers with its words and value; under the points,
	 * so a point on a roof still answers for itself. */
	for (size_t i = 0; i < p->nlimits; i++) {
		double fy = p->limit_fy[i];
		if (fy < 0 || fy > 1)
			continue;
		buf_puts(out, "<g><title>");
		buf_puts_html(out, p->layer_titles[p->nlayers - p->nlimits + i]);
		buf_printf(out, "</title><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
		           "y2=\"%.1f\" stroke=\"transparent\" stroke-width=\"8\"/></g>\n",
		           b[0], b[1], b[3] - fy * ph, b[3] - fy * ph);
	}
	for (size_t i = 0; i < p->nhover;) {
		size_t s = p->hover[i].series, j = i;
		buf_puts(out, "<g><title>");
		buf_puts_html(out, p->layer_titles[s]);
		buf_puts(out, "</title>");
		/* The line between the points answers with the series' name. */
		if (!p->hover[i].fw) {
			buf_puts(out, "<polyline points=\"");
			for (j = i; j < p->nhover && p->hover[j].series == s; j++)
				buf_printf(out, "%s%.1f,%.1f", j > i ? " " : "",
				           b[0] + p->hover[j].fx * pw,
				           b[3] - p->hover[j].fy * ph);
			buf_puts(out, "\" fill=\"none\" stroke=\"transparent\" "
			         "stroke-width=\"8\"/>");
		}
		for (j = i; j < p->nhover && p->hover[j].series == s; j++) {
			const struct hover *h = &p->hover[j];
			double x = b[0] + h->fx * pw, y = b[3] - h->fy * ph;
			if (h->fw) {
				double base = b[3] - h->fb * ph;
				buf_printf(out, "\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				           "height=\"%.1f\" tabindex=\"0\">", x - h->fw * pw / 2,
				           fmin(y, base), h->fw * pw, fabs(base - y));
			} else {
				buf_printf(out, "\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" "
				           "tabindex=\"0\">", x, y, HOVER_R);
			}
			buf_puts(out, "<title>");
			buf_puts_html(out, h->title);
			buf_puts(out, h->fw ? "</title></rect>" : "</title></circle>");
		}
		buf_puts(out, "</g>\n");
		i = j;
	}
	buf_puts(out, "</g></svg>");
}

void chart_hover_html(const struct plot *p, struct buf *out)
{
	if (!p->boxed || !p->nhover)
		return;
	hover_layer(p, out);
}

void chart_values_html(const struct plot *p, const char *id,
                       const char *label, struct buf *out)
{
	if (!p->values)
		return;
	buf_printf(out, "<details class=\"chart-data\" id=\"values-%s\"><summary>",
	           id);
	buf_puts_html(out, label);
	/* A table that may scroll sideways is a region the keyboard reaches. */
	buf_puts(out, "</summary>\n<div class=\"table-wrap\" tabindex=\"0\" "
	              "role=\"region\" aria-label=\"");
	buf_puts_html(out, label);
	buf_puts(out, "\"><table class=\"records\">\n");
	buf_puts(out, p->values);
	buf_puts(out, "\n</table></div></details>\n");
}
