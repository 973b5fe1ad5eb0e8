#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "exec.h"
#include "expr.h"
#include "util.h"

static const char *colors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                               "#e69f00", "#56b4e9", "#000000", "#8c564b"};
#define NCOLORS (sizeof colors / sizeof colors[0])

struct point {
	double x, y, lo, hi;
	const char *label; /* the category, for bars */
	int has_err;
};

struct series {
	char *name;
	struct point *pts;
	size_t n;
};

/* $LABBOOK_GNUPLOT names another gnuplot (or none, to test without one). */
static const char *gnuplot(void)
{
	const char *g = getenv("LABBOOK_GNUPLOT");
	return g && *g ? g : "gnuplot";
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

void plot_free(struct plot *p)
{
	free(p->svg);
	free(p->csv);
	free(p->gp);
	free(p->error);
	free(p->note);
	memset(p, 0, sizeof *p);
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

static char *cell_text(const cJSON *row, const char *field)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(row, field);
	if (cJSON_IsString(c))
		return xstrdup(c->valuestring);
	if (cJSON_IsNumber(c))
		return xasprintf("%.15g", c->valuedouble);
	if (cJSON_IsBool(c))
		return xstrdup(cJSON_IsTrue(c) ? "true" : "false");
	return xstrdup("");
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
	return (x > y) - (x < y);
}

static int has_field(const struct exp_result *r, const char *field)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (cJSON_GetObjectItemCaseSensitive(r->rows[i], field))
			return 1;
	return 0;
}

static int plot_fail(struct plot *out, const char *path, int line,
                     const char *msg)
{
	diag_at(path, line, "%s", msg);
	out->error = xasprintf("%s:%d: %s", path, line, msg);
	return -1;
}

/* Set while plot_prepare writes a chart without drawing it. */
static int plot_deferred;

int plot_render(const struct directive *d, const char *path, struct bundle *b,
                const char *site_dir, struct plot *out)
{
	memset(out, 0, sizeof *out);
	const char *data = dir_opt(d, "data"), *xf = dir_opt(d, "x"),
	           *yf = dir_opt(d, "y"), *sf = dir_opt(d, "series");
	struct exp_result *r = bundle_get(b, data);
	struct series *ser = NULL;
	size_t nser = 0;
	char **cats = NULL;
	size_t ncats = 0;
	struct filter where = {0};
	struct buf gp = BUF_INIT, csv = BUF_INIT;
	int rc = -1;
	char *err = NULL;

	if (!r->nrows) {
		out->error = xasprintf("no results for experiment '%s' yet", data);
		warn_at(path, d->line, "chart '%s': %s", d->id, out->error);
		goto out;
	}
	const char *fields[] = {xf, yf, sf};
	const char *names[] = {"x", "y", "series"};
	for (size_t i = 0; i < 3; i++)
		if (fields[i] && !has_field(r, fields[i])) {
			char *msg = xasprintf("chart '%s': experiment '%s' has no field "
			                      "'%s' (option %s)", d->id, data, fields[i],
			                      names[i]);
			plot_fail(out, path, dir_opt_line(d, names[i]), msg);
			free(msg);
			goto out;
		}
	const char *wtext = dir_opt(d, "where");
	if (wtext && filter_parse(wtext, b, &where, &err) != 0) {
		char *msg = xasprintf("chart '%s': where: %s", d->id, err);
		plot_fail(out, path, dir_opt_line(d, "where"), msg);
		free(msg);
		goto out;
	}

	int bars = 0;
	for (size_t i = 0; i < r->nrows; i++)
		bars |= cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r->rows[i], xf));
	char *lo_f = xasprintf("%s_lo", yf), *hi_f = xasprintf("%s_hi", yf);
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *row = r->rows[i];
		if (!filter_match(&where, row))
			continue;
		double y;
		if (!row_number(row, yf, &y) || !cJSON_GetObjectItem(row, xf))
			continue;
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"))) {
			out->nwrong++;
			continue;
		}
		struct point p = {0, y, y, y, NULL, 0};
		if (bars) {
			char *label = cell_text(row, xf);
			size_t c = 0;
			while (c < ncats && strcmp(cats[c], label))
				c++;
			if (c == ncats)
				*ARRAY_PUSH(cats, ncats) = label;
			else
				free(label);
			p.x = (double)c;
			p.label = cats[c];
		} else if (!row_number(row, xf, &p.x)) {
			continue;
		}
		p.has_err = row_number(row, lo_f, &p.lo) && row_number(row, hi_f, &p.hi);
		char *sname = sf ? cell_text(row, sf) : xstrdup(yf);
		size_t s = 0;
		while (s < nser && strcmp(ser[s].name, sname))
			s++;
		if (s == nser) {
			struct series *ns = ARRAY_PUSH(ser, nser);
			memset(ns, 0, sizeof *ns);
			ns->name = sname;
		} else {
			free(sname);
		}
		*ARRAY_PUSH(ser[s].pts, ser[s].n) = p;
		out->npoints++;
	}
	free(lo_f);
	free(hi_f);
	if (!out->npoints) {
		char *msg = xasprintf("chart '%s': no records of '%s' to draw%s",
		                      d->id, data, wtext ? " (check its where:)" : "");
		plot_fail(out, path, d->line, msg);
		free(msg);
		goto out;
	}

	/* The CSV, tidy: one row per point. */
	buf_printf(&csv, "series,%s,%s,%s_lo,%s_hi\n", xf, yf, yf, yf);
	for (size_t s = 0; s < nser; s++) {
		if (!bars)
			qsort(ser[s].pts, ser[s].n, sizeof *ser[s].pts, cmp_point);
		for (size_t i = 0; i < ser[s].n; i++) {
			struct point *p = &ser[s].pts[i];
			csv_str(&csv, ser[s].name);
			buf_putc(&csv, ',');
			if (bars)
				csv_str(&csv, p->label);
			else
				buf_printf(&csv, "%.10g", p->x);
			buf_printf(&csv, ",%.10g,%.10g,%.10g\n", p->y, p->lo, p->hi);
		}
	}

	/* The gnuplot script, data inline. */
	buf_printf(&gp, "# labbook chart '%s' (%s:%d), records of '%s' from %s\n",
	           d->id, path, d->line, data, b->dir);
	buf_printf(&gp, "set terminal svg size 760,470 dynamic noenhanced "
	           "font 'DejaVu Sans,13' background rgb 'white'\n");
	buf_printf(&gp, "set output '%s.svg'\n", d->id);
	const char *title = dir_opt(d, "title");
	if (title) {
		buf_puts(&gp, "set title ");
		gp_str(&gp, title);
		buf_putc(&gp, '\n');
	}
	const char *xl = dir_opt(d, "xlabel"), *yl = dir_opt(d, "ylabel");
	buf_puts(&gp, "set xlabel ");
	gp_str(&gp, xl ? xl : xf);
	buf_puts(&gp, "\nset ylabel ");
	gp_str(&gp, yl ? yl : yf);
	buf_puts(&gp, "\nset grid lc rgb '#d8d8d8'\nset border lc rgb '#444444'\n"
	              "set key below horizontal samplen 2 maxrows 3\n");
	const char *logx = dir_opt(d, "logx"), *logy = dir_opt(d, "logy");
	if (logx && !bars) {
		buf_printf(&gp, "set logscale x %s\n", logx);
		/* Large powers of two read better as powers than as digits. */
		double xmax = 0;
		for (size_t s = 0; s < nser; s++)
			for (size_t i = 0; i < ser[s].n; i++)
				if (ser[s].pts[i].x > xmax)
					xmax = ser[s].pts[i].x;
		if (!strcmp(logx, "2") && xmax >= 1e5)
			buf_puts(&gp, "set format x '2^%L'\n");
	}
	if (logy)
		buf_printf(&gp, "set logscale y %s\n", logy);
	else
		buf_puts(&gp, "set yrange [0:*]\n");
	if (bars) {
		double w = 0.8 / (double)nser;
		buf_printf(&gp, "set style fill solid 0.85 noborder\nset boxwidth %.4f\n"
		           "set xrange [-0.6:%.1f]\nset xtics (", w, ncats - 0.4);
		for (size_t c = 0; c < ncats; c++) {
			if (c)
				buf_puts(&gp, ", ");
			gp_str(&gp, cats[c]);
			buf_printf(&gp, " %zu", c);
		}
		buf_printf(&gp, ")%s\n", ncats > 5 ? " rotate by -35" : "");
	}
	for (size_t s = 0; s < nser; s++) {
		buf_printf(&gp, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < ser[s].n; i++) {
			struct point *p = &ser[s].pts[i];
			double x = p->x;
			if (bars)
				x += (s - (nser - 1) / 2.0) * (0.8 / (double)nser);
			buf_printf(&gp, "%.10g %.10g %.10g %.10g\n", x, p->y, p->lo, p->hi);
		}
		buf_puts(&gp, "EOD\n");
	}
	buf_puts(&gp, "plot ");
	for (size_t s = 0; s < nser; s++) {
		const char *col = colors[s % NCOLORS];
		int err_bars = 0;
		for (size_t i = 0; i < ser[s].n; i++)
			err_bars |= ser[s].pts[i].has_err &&
			            fabs(ser[s].pts[i].hi - ser[s].pts[i].lo) >
			                0.01 * fabs(ser[s].pts[i].y);
		char *t = sf ? xasprintf("%s %s", sf, ser[s].name) : xstrdup(ser[s].name);
		if (s)
			buf_puts(&gp, ", \\\n     ");
		if (bars) {
			buf_printf(&gp, "$s%zu using 1:2 with boxes lc rgb '%s' title ", s, col);
			gp_str(&gp, nser > 1 || sf ? t : "");
			if (err_bars)
				buf_printf(&gp, ", $s%zu using 1:2:3:4 with yerrorbars "
				           "lc rgb '#333333' pt -1 notitle", s);
		} else {
			buf_printf(&gp, "$s%zu using 1:2%s with %s lw 2 pt %zu ps 0.6 "
			           "lc rgb '%s' title ", s, err_bars ? ":3:4" : "",
			           err_bars ? "yerrorlines" : "linespoints", s % 6 + 5, col);
			gp_str(&gp, t);
		}
		free(t);
	}
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "limit"))
			continue;
		char *spec = xstrdup(d->opts[i].value);
		char *bar = strchr(spec, '|');
		if (bar)
			*bar = '\0';
		const char *label = bar ? str_trim(bar + 1) : str_trim(spec);
		struct value v;
		char *e = NULL;
		if (expr_eval(spec, b, &v, &e) != 0 || value_scalar(&v, &e) != 0 ||
		    (v.type != VAL_NUM)) {
			char *msg = xasprintf("chart '%s': limit: %s", d->id,
			                      e ? e : "not a number");
			plot_fail(out, path, d->opts[i].line, msg);
			free(msg);
			free(e);
			free(spec);
			value_free(&v);
			goto out;
		}
		buf_printf(&gp, ", \\\n     %.10g with lines dt 2 lw 1.5 "
		           "lc rgb '#555555' title ", v.num);
		char *t = fabs(v.num) >= 100 ? xasprintf("%s (%.0f)", label, v.num)
		                              : xasprintf("%s (%.3g)", label, v.num);
		gp_str(&gp, t);
		free(t);
		value_free(&v);
		free(spec);
	}
	buf_putc(&gp, '\n');

	char *figdir = path_join(site_dir, "fig");
	char *gp_path = xasprintf("%s/%s.gp", figdir, d->id);
	char *svg_path = xasprintf("%s/%s.svg", figdir, d->id);
	char *csv_path = xasprintf("%s/%s.csv", figdir, d->id);
	out->svg = xasprintf("fig/%s.svg", d->id);
	out->gp = xasprintf("fig/%s.gp", d->id);
	out->csv = xasprintf("fig/%s.csv", d->id);
	char *old = file_read(gp_path, NULL);
	int same = old && !strcmp(old, gp.data) && file_exists(svg_path);
	free(old);
	if (mkdir_p(figdir) == 0 &&
	    file_write_atomic(csv_path, csv.data, csv.len) == 0) {
		if (same) {
			out->drawn = 1;
			rc = 0;
		} else if (plot_deferred) {
			/* plot_prepare: the drawing is left to plot_draw. */
			unlink(svg_path);
			if (file_write_atomic(gp_path, gp.data, gp.len) == 0) {
				out->pending = 1;
				rc = 0;
			}
		} else if (!plot_available()) {
			unlink(svg_path);
			file_write_atomic(gp_path, gp.data, gp.len);
			out->note = xstrdup("gnuplot is not installed, so this chart was "
			                    "not drawn; its data and script are linked "
			                    "below");
			rc = 0;
		} else if (file_write_atomic(gp_path, gp.data, gp.len) == 0) {
			char *cd = xasprintf("cd '%s'", figdir);
			char *gpname = xasprintf("%s.gp", d->id);
			char *argv[] = {(char *)gnuplot(), "-e", cd, gpname, NULL};
			struct run_result rr;
			if (exec_run(argv, NULL, 60, 1 << 16, &rr) == 0) {
				if (rr.exit_code == 0 && file_exists(svg_path)) {
					out->drawn = out->redrawn = 1;
					rc = 0;
				} else {
					char *msg = xasprintf("chart '%s': gnuplot failed: %s",
					                      d->id, rr.out);
					plot_fail(out, path, d->line, msg);
					free(msg);
					unlink(gp_path);
				}
				free(rr.out);
			}
			free(cd);
			free(gpname);
		}
	}
	free(figdir);
	free(gp_path);
	free(svg_path);
	free(csv_path);
out:
	for (size_t s = 0; s < nser; s++) {
		free(ser[s].name);
		free(ser[s].pts);
	}
	free(ser);
	for (size_t c = 0; c < ncats; c++)
		free(cats[c]);
	free(cats);
	filter_free(&where);
	buf_free(&gp);
	buf_free(&csv);
	free(err);
	return rc;
}

char *plot_prepare(const struct directive *d, const char *path,
                   struct bundle *b, const char *site_dir)
{
	struct plot p;
	char *name = NULL;
	plot_deferred = 1;
	diag_quiet(1);
	int rc = plot_render(d, path, b, site_dir, &p);
	diag_quiet(0);
	plot_deferred = 0;
	if (rc == 0 && p.pending)
		name = xasprintf("%s.gp", d->id);
	plot_free(&p);
	return name;
}

int plot_draw(const char *site_dir, char *const *names, size_t n)
{
	if (!n)
		return 0;
	char *figdir = path_join(site_dir, "fig");
	char *cd = xasprintf("cd '%s'", figdir);
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
