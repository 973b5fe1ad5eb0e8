/*
 * gnuplot.c - a chart's files and their drawing (gnuplot.h): the layout,
 * the CSV and the gnuplot script of the points plot.c selected, written
 * under the site's fig/ and drawn by gnuplot when the script changed.
 */
#include "render/gnuplot.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/exec.h"
#include "render/chart_roofs.h"
#include "render/chart_svg.h"
#include "render/plot_words.h"
#include "base/util.h"

/*
 * $LABBOOK_GNUPLOT names another gnuplot (or none, to test without one).
 * Where it is looked for on PATH is an input of the build (util.h's
 * input_note): a gnuplot installed or upgraded since makes the next build
 * draw again.
 */
static const char *gnuplot(void)
{
	const char *g = getenv("LABBOOK_GNUPLOT");
	g = g && *g ? g : "gnuplot";
	static int noted;
	if (!noted) {
		noted = 1;
		const char *path = getenv("PATH");
		if (strchr(g, '/') || !path) {
			input_note(g);
		} else {
			char *dirs = xstrdup(path), *save = NULL;
			for (char *d = strtok_r(dirs, ":", &save); d;
			     d = strtok_r(NULL, ":", &save)) {
				char *p = path_join(*d ? d : ".", g);
				int there = file_exists(p);
				free(p);
				if (there)
					break;
			}
			free(dirs);
		}
	}
	return g;
}

int plot_available(void)
{
	static int known = -1;
	if (known < 0) {
		char *argv[] = {(char *)gnuplot(), "--version", NULL};
		char *out = exec_capture(argv, 20);
		known = out != NULL;
		free(out);
	}
	return known;
}

/*
 * gnuplot single-quoted string: only '' needs escaping. gnuplot's SVG
 * escapes < and & but not "]]>", which XML forbids in text: a zero-width
 * space goes between "]]" and ">".
 */
static void gp_str(struct buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			buf_putc(b, '\'');
		if (*p == '>' && p - s >= 2 && p[-1] == ']' && p[-2] == ']')
			buf_puts(b, "\xe2\x80\x8b");
		if (*p != '\n' && *p != '\r')
			buf_putc(b, *p);
	}
	buf_putc(b, '\'');
}

/* gnuplot's command to change to dir, in single quotes with each ' doubled:
 * a folder named O'Brien, or one whose name holds gnuplot commands, is
 * only a name. */
static char *gp_cd(const char *dir)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "cd '");
	for (const char *p = dir; *p; p++) {
		if (*p == '\'')
			buf_putc(&b, '\'');
		buf_putc(&b, *p);
	}
	buf_putc(&b, '\'');
	return buf_detach(&b);
}

/* A tick's text on a numeric x axis. */
static void tick_put(struct buf *b, const struct chart *c, double v)
{
	/* Powers of two read as powers once the axis reaches 2^17. */
	if (c->xunit && !strcmp(c->xunit, "bytes"))
		chart_value_put(b, v, "bytes");
	else if (c->logx == 2 && c->xmax >= 131072 && v >= 1024 &&
	         v == ldexp(1, ilogb(v)))
		buf_printf(b, "2^%d", ilogb(v));
	else
		chart_num_put(b, v);
}

/* The x ticks for a plot w pixels wide: as many as their text leaves room for. */
static void gp_xtics(struct buf *gp, const struct chart *c, double w)
{
	double a = c->xmin, z = c->xmax;
	double *t = NULL;
	char **text = NULL;
	size_t nt = 0, longest = 1;
	for (int n = 12; n >= 2; n--) {
		for (size_t i = 0; i < nt; i++)
			free(text[i]);
		nt = 0;
		longest = 1;
		if (c->logx) {
			double base = c->logx;
			int e0 = (int)ceil(log(a) / log(base) - 1e-6);
			int e1 = (int)floor(log(z) / log(base) + 1e-6);
			/* Every k-th power, k a power of two: 4 KiB, 64 KiB, 1 MiB. */
			int k = 1;
			while ((e1 - e0) / k + 1 > n)
				k *= 2;
			for (int e = e0; e <= e1; e++)
				if (e % k == 0 || k == 1) {
					t = xrealloc(t, (nt + 1) * sizeof *t);
					t[nt++] = pow(base, e);
				}
		} else {
			double step = chart_nice_step(z - a, n);
			if (c->xunit && !strcmp(c->xunit, "bytes") && z - a >= 1024)
				step = pow(2, ceil(log2((z - a) / n)));
			for (double v = ceil(a / step - 1e-9) * step;
			     v <= z + step * 1e-9; v += step) {
				t = xrealloc(t, (nt + 1) * sizeof *t);
				t[nt++] = fabs(v) < step * 1e-9 ? 0 : v;
			}
		}
		text = xrealloc(text, (nt + 1) * sizeof *text);
		for (size_t i = 0; i < nt; i++) {
			struct buf l = BUF_INIT;
			tick_put(&l, c, t[i]);
			text[i] = buf_detach(&l);
			longest = strlen(text[i]) > longest ? strlen(text[i]) : longest;
		}
		if (nt * (longest * CHART_FONT_PX * 0.6 + 12) <= w)
			break;
	}
	buf_puts(gp, "set xtics (");
	for (size_t i = 0; i < nt; i++) {
		buf_puts(gp, i ? ", " : "");
		gp_str(gp, text[i]);
		buf_printf(gp, " %.10g", t[i]);
		free(text[i]);
	}
	buf_puts(gp, ")\n");
	free(text);
	free(t);
}

/*
 * The layout of one drawing: columns and rows of the key, the room that
 * rotated category names take, and the height.
 */
void chart_layout(struct chart *c, int w)
{
	/* Roofs whose words fit nowhere beside their lines are named in the
	 * key, as are the series (with a series field) and the ring of points
	 * beyond noise. */
	size_t roofs = chart_roofs_place(c, w);
	int keyed = c->sf != NULL || roofs;
	double char_px = CHART_FONT_PX * 0.62, plot_w = chart_width[w] - 100;
	size_t longest = 0;
	size_t entries = (c->sf ? c->nser : 0) + (c->nmarked ? 1 : 0) + roofs;
	for (size_t s = 0; c->sf && s < c->nser; s++)
		longest = strlen(c->ser[s].title) > longest ? strlen(c->ser[s].title)
		                                            : longest;
	if (c->nmarked && strlen(c->mark_title) > longest)
		longest = strlen(c->mark_title);
	for (size_t i = 0; i < c->nlim; i++)
		if (c->lim[i].at[w] == ROOF_KEY && strlen(c->lim[i].text) > longest)
			longest = strlen(c->lim[i].text);
	int cols = 1, rows = 0;
	if (keyed) {
		cols = (int)(plot_w / (longest * char_px + 60));
		cols = cols < 1 ? 1 : cols > (int)entries ? (int)entries : cols;
		rows = (int)((entries + (size_t)cols - 1) / (size_t)cols);
	}
	c->key_cols[w] = cols;
	c->key_rows[w] = rows;
	c->xrot[w] = 0;
	c->xextra[w] = 0;
	if (c->bars) {
		size_t clong = 0;
		for (size_t k = 0; k < c->ncats; k++) {
			size_t len = strlen(chart_cat_title(c, k));
			clong = len > clong ? len : clong;
		}
		double slot = plot_w / (double)c->ncats;
		if (clong * char_px > slot * 0.9) {
			c->xrot[w] = w == WIDE ? 30 : 60;
			c->xextra[w] = (int)(clong * char_px *
			                     sin(c->xrot[w] * M_PI / 180.0));
		}
	}
	/* Rows of the key 20 px each; 36 px, and a line more for each two-line
	 * roof, when some roof's words take two lines. */
	size_t wrapped = chart_roofs_wrapped(c, w);
	c->height[w] = (w == WIDE ? 400 : 330) + (wrapped ? 36 : 20) * rows +
	               20 * (int)wrapped + c->xextra[w];
}

/* The settings that differ between the wide and the narrow drawing. */
static void gp_drawing(struct buf *gp, const struct chart *c, int w,
                       const char *id)
{
	buf_printf(gp, "set terminal svg size %d,%d dynamic noenhanced "
	           "font 'DejaVu Sans,%d' background rgb 'white'\n",
	           chart_width[w], c->height[w], CHART_FONT_PX);
	buf_printf(gp, "set output '%s%s.svg'\n", id, w == NARROW ? "-narrow" : "");
	if (c->bars) {
		buf_puts(gp, "set xtics (");
		for (size_t k = 0; k < c->ncats; k++) {
			buf_puts(gp, k ? ", " : "");
			gp_str(gp, chart_cat_title(c, k));
			buf_printf(gp, " %zu", k);
		}
		buf_puts(gp, ")");
		if (c->xrot[w])
			buf_printf(gp, " rotate by %d right", c->xrot[w]);
		buf_putc(gp, '\n');
	} else {
		gp_xtics(gp, c, chart_width[w] - 100);
	}
	/* Roofs' words on two lines need room: gnuplot centres them on
	 * their row. */
	chart_roofs_titles(gp, c, w, gp_str);
	if (c->key_rows[w])
		buf_printf(gp, "set key below horizontal left reverse Left samplen 3 "
		           "spacing %s maxcols %d maxrows %d\n",
		           chart_roofs_wrapped(c, w) ? "2" : "1.1", c->key_cols[w],
		           c->key_rows[w]);
	else
		buf_puts(gp, "unset key\n");
	chart_roofs_labels(gp, c, w, gp_str);
}

/* The plot command: the spread of the runs (thick bars) under the series,
 * the rings of points beyond noise over them, then the limit lines. */
static void gp_plot(struct buf *gp, const struct chart *c)
{
	double w = 0.8 / (double)c->nser;
	size_t *order = xmalloc((c->nser + 1) * sizeof *order);
	chart_draw_order(c, order);
	buf_puts(gp, "plot ");
	int first = 1;
	for (size_t s = 0; s < c->nser; s++) {
		if (!c->ser[s].run_bars)
			continue;
		buf_printf(gp, "%s$s%zu using 1:5:(0):($6-$5) with vectors nohead "
		           "lw 5 lc rgb '%s' notitle", first ? "" : ", \\\n     ", s,
		           c->bars && !c->as_points ? "#222222" : c->ser[s].color);
		first = 0;
	}
	/* Greyed series first, so the ones the text discusses lie on top. */
	for (size_t i = 0; i < c->nser; i++) {
		size_t s = order[i];
		const struct series *sr = &c->ser[s];
		buf_puts(gp, first ? "" : ", \\\n     ");
		first = 0;
		if (c->bars && !c->as_points)
			buf_printf(gp, "$s%zu using 1:2%s:(%.4f) with %s lc rgb '%s' ",
			           s, sr->err_bars ? ":3:4" : "", w,
			           sr->err_bars ? "boxerrorbars" : "boxes", sr->color);
		else if (c->bars)
			buf_printf(gp, "$s%zu using 1:2%s with %s pt %d ps 1.3 "
			           "lc rgb '%s' ", s, sr->err_bars ? ":3:4" : "",
			           sr->err_bars ? "yerrorbars" : "points", sr->marker,
			           sr->color);
		else
			buf_printf(gp, "$s%zu using 1:2%s with %s lw %s dt %s pt %d "
			           "ps %s lc rgb '%s' ", s, sr->err_bars ? ":3:4" : "",
			           sr->err_bars ? "yerrorlines" : "linespoints",
			           sr->grey ? "1.2" : "2", sr->dash, sr->marker,
			           sr->grey ? "0.5" : "0.7", sr->color);
		if (c->sf) {
			buf_puts(gp, "title ");
			gp_str(gp, sr->title);
		} else {
			buf_puts(gp, "notitle");
		}
	}
	free(order);
	if (c->nmarked) {
		/* Round a point on a line; over a bar, narrower than three. */
		buf_printf(gp, ", \\\n     $marks using 1:2 with points pt 6 ps %s lw 2.5 "
		           "lc rgb '#000000' title ", c->bars && !c->as_points ? "1.8"
		                                                               : "2.6");
		gp_str(gp, c->mark_title);
	}
	for (size_t i = 0; i < c->nlim; i++) {
		buf_printf(gp, ", \\\n     %.10g with lines lw 1.5 dt %s lc rgb '%s' ",
		           c->lim[i].v, c->lim[i].dash, c->lim[i].color);
		/* Named in the key of the drawings that key it (chart_roofs.h). */
		buf_printf(gp, "title labbook_roof%zu", i + 1);
	}
	buf_putc(gp, '\n');
}

void chart_script(const struct chart *c, const char *bundle_dir,
                         struct buf *gp)
{
	const struct directive *d = c->d;
	buf_printf(gp, "# labbook chart '%s' (%s:%d), records of '%s' from %s\n"
	           "# Draws %s.svg, then %s-narrow.svg for narrow screens.\n",
	           d->id, c->path, d->line, dir_opt(d, "data"), bundle_dir, d->id,
	           d->id);
	struct buf marks = BUF_INIT;
	for (size_t s = 0; s < c->nser; s++) {
		buf_printf(gp, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < c->ser[s].n; i++) {
			const struct point *p = &c->ser[s].pts[i];
			double x = p->x;
			if (c->bars)
				x += ((double)s - (c->nser - 1) / 2.0) * (0.8 / c->nser);
			buf_printf(gp, "%.10g %.10g %.10g %.10g", x, p->y, p->lo, p->hi);
			/* Runs' spread; a point without one gets a bar of no length. */
			if (c->mark_title)
				buf_printf(gp, " %.10g %.10g", p->has_run ? p->run_lo : p->y,
				           p->has_run ? p->run_hi : p->y);
			buf_putc(gp, '\n');
			if (p->mark)
				buf_printf(&marks, "%.10g %.10g\n", x, p->y);
		}
		buf_puts(gp, "EOD\n");
	}
	if (c->nmarked)
		buf_printf(gp, "$marks << EOD\n%sEOD\n", marks.data);
	buf_free(&marks);
	const char *title = dir_opt(d, "title");
	if (title) {
		buf_puts(gp, "set title ");
		gp_str(gp, title);
		buf_putc(gp, '\n');
	}
	buf_puts(gp, "set xlabel ");
	gp_str(gp, c->xlabel ? c->xlabel : c->xf);
	buf_puts(gp, "\nset ylabel ");
	gp_str(gp, c->ylabel ? c->ylabel : c->yf);
	buf_puts(gp, "\nset border 3 lc rgb '#444444'\nset tics nomirror "
	              "textcolor rgb '#222222'\nset grid lc rgb '#dddddd'\n");
	if (c->logx)
		buf_printf(gp, "set logscale x %d\n", c->logx);
	if (c->logy)
		buf_printf(gp, "set logscale y %d\n", c->logy);
	if (c->yunit && !strcmp(c->yunit, "bytes"))
		buf_puts(gp, "set format y '%.0b %BB'\n");
	buf_printf(gp, "set xrange [%.10g:%.10g]\nset yrange [%.10g:%.10g]\n",
	           c->xmin, c->xmax, c->ylo, c->yhi);
	if (c->bars && !c->as_points)
		buf_puts(gp, "set style fill solid 0.9 noborder\n"
		              "set errorbars lw 1.5 lc rgb '#222222'\n");

	gp_drawing(gp, c, WIDE, d->id);
	gp_plot(gp, c);
	/* Where gnuplot put the plot area, in pixels from the left and the
	 * bottom: labbook lays the page's hover layer over it. */
	buf_puts(gp, "labbook_wide = sprintf('%.2f %.2f %.2f %.2f', "
	         "GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
	         "GPVAL_TERM_YMAX)\n");
	gp_drawing(gp, c, NARROW, d->id);
	buf_puts(gp, "replot\nunset output\n");
	buf_printf(gp, "set print '%s.area'\nprint labbook_wide\n"
	           "print sprintf('%%.2f %%.2f %%.2f %%.2f', GPVAL_TERM_XMIN, "
	           "GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX)\n"
	           "set print\n", d->id);
}

static void csv_str(struct buf *b, const char *s)
{
	if (!s[strcspn(s, ",\"\n")]) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			buf_putc(b, '"');
		buf_putc(b, *s);
	}
	buf_putc(b, '"');
}

/* The CSV, tidy: one row per point. */
void chart_csv(const struct chart *c, struct buf *csv)
{
	buf_printf(csv, "series,%s,%s,%s_lo,%s_hi", c->xf, c->yf, c->yf, c->yf);
	if (c->mark_title)
		buf_printf(csv, ",%s_runs_lo,%s_runs_hi,beyond_noise", c->yf, c->yf);
	buf_putc(csv, '\n');
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++) {
			const struct point *p = &c->ser[s].pts[i];
			csv_str(csv, c->ser[s].key);
			buf_putc(csv, ',');
			if (c->bars)
				csv_str(csv, c->cats[(size_t)p->x]);
			else
				buf_printf(csv, "%.10g", p->x);
			/* The field's own values, as its column says: y-scale is
			 * the drawing's. */
			double k = c->yscale;
			buf_printf(csv, ",%.10g,%.10g,%.10g", p->y / k, p->lo / k, p->hi / k);
			if (c->mark_title && p->has_run)
				buf_printf(csv, ",%.10g,%.10g,%d", p->run_lo / k,
				           p->run_hi / k, p->mark);
			else if (c->mark_title)
				buf_printf(csv, ",,,%d", p->mark);
			buf_putc(csv, '\n');
		}
}

/* Write the CSV and script; run gnuplot when the script changed. */
int chart_draw(const struct chart *c, const char *site_dir,
               const struct buf *gp, const struct buf *csv, int deferred,
               struct plot *out)
{
	const char *id = c->d->id;
	char *figdir = path_join(site_dir, "fig");
	char *gp_path = xasprintf("%s/%s.gp", figdir, id);
	char *svg_path = xasprintf("%s/%s.svg", figdir, id);
	char *nsvg_path = xasprintf("%s/%s-narrow.svg", figdir, id);
	char *csv_path = xasprintf("%s/%s.csv", figdir, id);
	char *area_path = xasprintf("%s/%s.area", figdir, id);
	char *box_path = xasprintf("%s/%s.box", figdir, id);
	int rc = -1;
	out->svg = xasprintf("fig/%s.svg", id);
	out->svg_narrow = xasprintf("fig/%s-narrow.svg", id);
	out->gp = xasprintf("fig/%s.gp", id);
	out->csv = xasprintf("fig/%s.csv", id);
	char *old = file_read(gp_path, NULL);
	int same = old && !strcmp(old, gp->data) && plot_drawn(site_dir, id) &&
	           chart_box_read(site_dir, id, out) == 0;
	free(old);
	if (mkdir_p(figdir) != 0 ||
	    file_write_atomic(csv_path, csv->data, csv->len) != 0)
		goto out;
	/* A drawing of another script is no drawing of this one, even when
	 * gnuplot fails to draw this one. */
	if (!same) {
		unlink(box_path);
		unlink(area_path);
		unlink(svg_path);
		unlink(nsvg_path);
	}
	if (same) {
		out->drawn = 1;
		rc = 0;
	} else if (deferred) {
		/* plot_prepare: the drawing is left to plot_draw. */
		unlink(svg_path);
		unlink(nsvg_path);
		if (file_write_atomic(gp_path, gp->data, gp->len) == 0) {
			out->pending = 1;
			rc = 0;
		}
	} else if (!plot_available()) {
		unlink(svg_path);
		unlink(nsvg_path);
		file_write_atomic(gp_path, gp->data, gp->len);
		out->note = xstrdup("gnuplot is not installed, so this chart was not "
		                    "drawn; its data and script are linked below");
		rc = 0;
	} else if (file_write_atomic(gp_path, gp->data, gp->len) == 0) {
		char *cd = gp_cd(figdir);
		char *gpname = xasprintf("%s.gp", id);
		char *argv[] = {(char *)gnuplot(), "-e", cd, gpname, NULL};
		struct run_result rr;
		if (exec_run(argv, NULL, 60, 1 << 16, &rr) == 0) {
			if (rr.exit_code == 0 && file_exists(svg_path) &&
			    file_exists(nsvg_path) &&
			    chart_svg_finish(site_dir, id, out) == 0) {
				out->drawn = out->redrawn = 1;
				rc = 0;
			} else {
				size_t n = strlen(rr.out);
				while (n && isspace((unsigned char)rr.out[n - 1]))
					rr.out[--n] = '\0';
				out->problem = xasprintf("chart '%s': gnuplot failed: "
				                         "%s", id, rr.out);
				out->error = xasprintf("%s:%d: %s", c->path, c->d->line,
				                       out->problem);
				unlink(gp_path);
			}
			free(rr.out);
		}
		free(cd);
		free(gpname);
	}
out:
	free(figdir);
	free(gp_path);
	free(svg_path);
	free(nsvg_path);
	free(csv_path);
	free(area_path);
	free(box_path);
	return rc;
}


int plot_drawn(const char *site_dir, const char *id)
{
	char *svg = xasprintf("%s/fig/%s.svg", site_dir, id);
	char *narrow = xasprintf("%s/fig/%s-narrow.svg", site_dir, id);
	char *box = xasprintf("%s/fig/%s.box", site_dir, id);
	int there = file_exists(svg) && file_exists(narrow) && file_exists(box);
	free(svg);
	free(narrow);
	free(box);
	return there;
}

int plot_draw(const char *site_dir, char *const *names, size_t n)
{
	if (!n)
		return 0;
	char *figdir = path_join(site_dir, "fig");
	char *cd = gp_cd(figdir);
	char **argv = xcalloc(4 + 3 * n, sizeof *argv);
	size_t k = 0;
	argv[k++] = (char *)gnuplot();
	argv[k++] = "-e";
	argv[k++] = cd;
	/* Each script starts from gnuplot's defaults, as when drawn alone. */
	for (size_t i = 0; i < n; i++) {
		argv[k++] = "-e";
		argv[k++] = "reset";
		argv[k++] = names[i];
	}
	struct run_result rr;
	int rc = -1;
	if (exec_run(argv, NULL, 60 + (double)n, 1 << 16, &rr) == 0) {
		rc = rr.exit_code == 0 ? 0 : -1;
		free(rr.out);
	}
	free(argv);
	free(cd);
	free(figdir);
	return rc;
}
