#include "plot.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "exec.h"
#include "expr.h"
#include "util.h"

/* Okabe and Ito's colour-blind-safe palette, without its black and yellow. */
static const char *const palette[] = {"#0072b2", "#d55e00", "#009e73",
                                      "#cc79a7", "#e69f00", "#56b4e9"};
#define NPALETTE (sizeof palette / sizeof palette[0])
/* Series that highlight: leaves out. */
static const char *const greys[] = {"#9a9a9a", "#c4c4c4"};
/* Limit lines: never a series colour. */
static const char *const limit_colors[] = {"#000000", "#5e5e5e"};
/* gnuplot dash types: solid first, then patterns told apart at a glance. */
static const char *const dashes[] = {"1",        "(8,4)",         "(2,3)",
                                     "(10,3,2,3)", "(4,6)", "(12,3,2,3,2,3)"};
#define NDASHES (sizeof dashes / sizeof dashes[0])
/* Filled circle, square, triangles, diamond, pentagon; then open ones. */
static const int markers[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14};
#define NMARKERS (sizeof markers / sizeof markers[0])

/* The two drawings: wide, and narrow for phones (same text size). */
enum { WIDE, NARROW };
static const int draw_width[] = {760, 400};
static const int font_px = 13;

struct point {
	double x, y, lo, hi;
	int has_err;
};

struct series {
	char *key;   /* the series field's value */
	char *title; /* the legend's words */
	struct point *pts;
	size_t n;
	int err_bars;
	const char *color, *dash;
	int marker;
	int highlight; /* named by highlight: */
	int grey;      /* drawn in grey: highlight: names others */
	size_t group;  /* the first series this one coincides with, or itself */
};

struct limit {
	double v;
	char *text; /* "HBM3 theoretical 3352 GB/s" */
};

struct label {
	char *value, *words;
	int line, used;
};

struct chart {
	const struct directive *d;
	const char *path, *xf, *yf, *sf;
	const char *xlabel, *ylabel, *xunit, *yunit;
	int logx, logy;  /* the base, or 0 */
	int bars;        /* x is a category */
	int as_points;   /* categories on a log axis: points, never bars */
	char **cats;     /* category values, in record order */
	size_t ncats;
	struct series *ser;
	size_t nser;
	struct limit *lim;
	size_t nlim;
	struct label *labels;
	size_t nlabels;
	double xmin, xmax, ylo, yhi; /* the ranges drawn */
	int key_rows[2], key_cols[2], xextra[2], xrot[2], height[2];
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
	if (!p)
		return;
	free(p->svg);
	free(p->svg_narrow);
	free(p->csv);
	free(p->gp);
	free(p->alt);
	free(p->coincide);
	free(p->error);
	free(p->note);
	memset(p, 0, sizeof *p);
}

static void chart_free(struct chart *c)
{
	for (size_t s = 0; s < c->nser; s++) {
		free(c->ser[s].key);
		free(c->ser[s].title);
		free(c->ser[s].pts);
	}
	free(c->ser);
	for (size_t i = 0; i < c->ncats; i++)
		free(c->cats[i]);
	free(c->cats);
	for (size_t i = 0; i < c->nlim; i++)
		free(c->lim[i].text);
	free(c->lim);
	for (size_t i = 0; i < c->nlabels; i++) {
		free(c->labels[i].value);
		free(c->labels[i].words);
	}
	free(c->labels);
}

/* ---- words ------------------------------------------------------------------ */

static void num_put(struct buf *b, double x)
{
	if (x == floor(x) && fabs(x) < 1e15)
		buf_printf(b, "%.0f", x);
	else if (fabs(x) >= 100)
		buf_printf(b, "%.0f", x);
	else if (fabs(x) >= 10)
		buf_printf(b, "%.1f", x);
	else
		buf_printf(b, "%.3g", x);
}

static void value_put(struct buf *b, double v, const char *unit)
{
	if (unit && !strcmp(unit, "bytes")) {
		static const char *const pre[] = {"B", "KiB", "MiB", "GiB", "TiB",
		                                  "PiB"};
		size_t k = 0;
		while (fabs(v) >= 1024 && k + 1 < sizeof pre / sizeof pre[0]) {
			v /= 1024;
			k++;
		}
		num_put(b, v);
		buf_printf(b, " %s", pre[k]);
		return;
	}
	num_put(b, v);
	if (unit)
		buf_printf(b, " %s", unit);
}

char *plot_value_text(double v, const char *unit)
{
	struct buf b = BUF_INIT;
	value_put(&b, v, unit);
	return buf_detach(&b);
}

/* The words label: gives value, or NULL. */
static const char *label_of(struct chart *c, const char *value)
{
	for (size_t i = 0; i < c->nlabels; i++)
		if (!strcmp(c->labels[i].value, value)) {
			c->labels[i].used = 1;
			return c->labels[i].words;
		}
	return NULL;
}

/* "A, B and C" into b. */
static void list_put(struct buf *b, char **items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_puts(b, i + 1 == n ? " and " : ", ");
		buf_puts(b, items[i]);
	}
}

/* series-label: "ILP %s" with text where %s is. */
static char *series_format(const char *fmt, const char *text)
{
	const char *at = strstr(fmt, "%s");
	return xasprintf("%.*s%s%s", (int)(at - fmt), fmt, text, at + 2);
}

/* ---- selecting the points ----------------------------------------------------- */

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
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int plot_fail(struct plot *out, const char *path, int line,
                     const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_at(path, line, "%s", b.data);
	if (!out->error)
		out->error = xasprintf("%s:%d: %s", path, line, b.data);
	buf_free(&b);
	return -1;
}

static size_t series_find(struct chart *c, char *key)
{
	size_t s = 0;
	while (s < c->nser && strcmp(c->ser[s].key, key))
		s++;
	if (s == c->nser) {
		struct series *ns = ARRAY_PUSH(c->ser, c->nser);
		memset(ns, 0, sizeof *ns);
		ns->key = key;
	} else {
		free(key);
	}
	return s;
}

/* The records the chart draws, split into series; 0 or -1 (reported). */
static int chart_select(struct chart *c, struct bundle *b, struct plot *out)
{
	const struct directive *d = c->d;
	const char *data = dir_opt(d, "data");
	struct exp_result *r = bundle_get(b, data);
	struct filter where = {0};
	char *err = NULL;
	int rc = -1;

	if (!r->nrows) {
		out->error = xasprintf("no results for experiment '%s' yet", data);
		warn_at(c->path, d->line, "chart '%s': %s", d->id, out->error);
		return -1;
	}
	const char *fields[] = {c->xf, c->yf, c->sf};
	const char *names[] = {"x", "y", "series"};
	for (size_t i = 0; i < 3; i++)
		if (fields[i] && !has_field(r, fields[i]))
			return plot_fail(out, c->path, dir_opt_line(d, names[i]),
			                 "chart '%s': experiment '%s' has no field '%s' "
			                 "(option %s)", d->id, data, fields[i], names[i]);
	const char *wtext = dir_opt(d, "where");
	if (wtext && filter_parse(wtext, b, &where, &err) != 0) {
		plot_fail(out, c->path, dir_opt_line(d, "where"),
		          "chart '%s': where: %s", d->id, err);
		goto out;
	}
	for (size_t i = 0; i < r->nrows; i++)
		c->bars |= cJSON_IsString(cJSON_GetObjectItemCaseSensitive(r->rows[i],
		                                                           c->xf));
	if (c->bars)
		c->logx = 0;
	char *lo_f = xasprintf("%s_lo", c->yf), *hi_f = xasprintf("%s_hi", c->yf);
	for (size_t i = 0; i < r->nrows; i++) {
		const cJSON *row = r->rows[i];
		struct point p = {0};
		if (!filter_match(&where, row) || !row_number(row, c->yf, &p.y) ||
		    !cJSON_GetObjectItem(row, c->xf))
			continue;
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, "correct"))) {
			out->nwrong++;
			continue;
		}
		if (c->bars) {
			char *cat = cell_text(row, c->xf);
			size_t k = 0;
			while (k < c->ncats && strcmp(c->cats[k], cat))
				k++;
			if (k == c->ncats)
				*ARRAY_PUSH(c->cats, c->ncats) = cat;
			else
				free(cat);
			p.x = (double)k;
		} else if (!row_number(row, c->xf, &p.x)) {
			continue;
		}
		if (c->logx && p.x <= 0)
			continue;
		p.lo = p.hi = p.y;
		p.has_err = row_number(row, lo_f, &p.lo) && row_number(row, hi_f, &p.hi);
		size_t k = series_find(c, c->sf ? cell_text(row, c->sf)
		                                : xstrdup(c->yf));
		struct series *s = &c->ser[k];
		*ARRAY_PUSH(s->pts, s->n) = p;
		s->err_bars |= p.has_err && fabs(p.hi - p.lo) > 0.01 * fabs(p.y);
		out->npoints++;
	}
	free(lo_f);
	free(hi_f);
	if (!out->npoints) {
		plot_fail(out, c->path, d->line, "chart '%s': no records of '%s' to "
		          "draw%s", d->id, data, wtext ? " (check its where:)" : "");
		goto out;
	}
	if (!c->bars)
		for (size_t s = 0; s < c->nser; s++)
			qsort(c->ser[s].pts, c->ser[s].n, sizeof *c->ser[s].pts,
			      cmp_point);
	rc = 0;
out:
	filter_free(&where);
	free(err);
	return rc;
}

/* Each limit: evaluated once, with its text; 0 or -1 (reported). */
static int chart_limits(struct chart *c, struct bundle *b, struct plot *out)
{
	const struct directive *d = c->d;
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "limit"))
			continue;
		char *spec = xstrdup(d->opts[i].value), *e = NULL;
		char *bar = strchr(spec, '|');
		if (bar)
			*bar = '\0';
		struct value v;
		int rc = expr_eval(spec, b, &v, &e);
		if (rc == 0)
			rc = value_scalar(&v, &e);
		if (rc != 0 || v.type != VAL_NUM) {
			plot_fail(out, c->path, d->opts[i].line, "chart '%s': limit: %s",
			          d->id, e ? e : "not a number");
			free(e);
			free(spec);
			if (rc == 0)
				value_free(&v);
			return -1;
		}
		struct buf t = BUF_INIT;
		buf_puts(&t, bar ? str_trim(bar + 1) : str_trim(spec));
		buf_putc(&t, ' ');
		value_put(&t, v.num, c->yunit);
		struct limit *l = ARRAY_PUSH(c->lim, c->nlim);
		l->v = v.num;
		l->text = buf_detach(&t);
		value_free(&v);
		free(spec);
	}
	return 0;
}

/* label: lines ("value | words"), series-label: and the titles; 0 or -1. */
static int chart_titles(struct chart *c, struct plot *out)
{
	const struct directive *d = c->d;
	for (size_t i = 0; i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "label"))
			continue;
		char *bar = strchr(d->opts[i].value, '|');
		if (!bar)
			return plot_fail(out, c->path, d->opts[i].line, "chart '%s': "
			                 "label: write 'VALUE | words'", d->id);
		struct label *l = ARRAY_PUSH(c->labels, c->nlabels);
		char *v = xstrndup(d->opts[i].value, (size_t)(bar - d->opts[i].value));
		l->value = xstrdup(str_trim(v));
		free(v);
		v = xstrdup(bar + 1);
		l->words = xstrdup(str_trim(v));
		free(v);
		l->line = d->opts[i].line;
		l->used = 0;
	}
	const char *fmt = dir_opt(d, "series-label");
	if (fmt && (!strstr(fmt, "%s") || strstr(strstr(fmt, "%s") + 2, "%")))
		return plot_fail(out, c->path, dir_opt_line(d, "series-label"),
		                 "chart '%s': series-label: write one %%s where the "
		                 "value goes, e.g. 'ILP %%s'", d->id);
	for (size_t s = 0; s < c->nser; s++) {
		const char *w = label_of(c, c->ser[s].key);
		c->ser[s].title = w ? xstrdup(w)
		                  : fmt ? series_format(fmt, c->ser[s].key)
		                        : xstrdup(c->sf ? c->ser[s].key
		                                        : c->ylabel ? c->ylabel : c->yf);
	}
	for (size_t k = 0; k < c->ncats; k++)
		label_of(c, c->cats[k]);
	for (size_t i = 0; i < c->nlabels; i++)
		if (!c->labels[i].used)
			return plot_fail(out, c->path, c->labels[i].line, "chart '%s': "
			                 "label: no series or category '%s' is drawn",
			                 d->id, c->labels[i].value);
	return 0;
}

static const char *cat_title(struct chart *c, size_t k)
{
	const char *w = label_of(c, c->cats[k]);
	return w ? w : c->cats[k];
}

/* ---- styles -------------------------------------------------------------------- */

/* 0 or -1 (reported). */
static int chart_styles(struct chart *c, struct plot *out)
{
	const struct directive *d = c->d;
	const char *hl = dir_opt(d, "highlight");
	if (hl) {
		char *list = xstrdup(hl), *save = NULL;
		for (char *t = strtok_r(list, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			t = str_trim(t);
			size_t s = 0;
			while (s < c->nser && strcmp(c->ser[s].key, t))
				s++;
			if (s == c->nser) {
				plot_fail(out, c->path, dir_opt_line(d, "highlight"),
				          "chart '%s': highlight: no series '%s'", d->id, t);
				free(list);
				return -1;
			}
			c->ser[s].highlight = 1;
		}
		free(list);
	}
	size_t ngrey = 0, nhl = 0;
	for (size_t s = 0; s < c->nser; s++) {
		struct series *sr = &c->ser[s];
		if (hl && !sr->highlight) {
			sr->grey = 1;
			sr->color = greys[ngrey % 2];
			sr->dash = dashes[(ngrey / 2) % NDASHES];
			sr->marker = markers[(ngrey / 2) % NMARKERS];
			ngrey++;
			continue;
		}
		size_t k = hl ? nhl++ : s;
		sr->color = palette[k % NPALETTE];
		sr->dash = dashes[(k / NPALETTE) % NDASHES];
		sr->marker = markers[k % NMARKERS];
	}
	/*
	 * Of series that coincide, the later ones are dashed, so the one
	 * beneath shows through; their colours already tell them apart.
	 */
	if (c->nser <= NPALETTE && !hl)
		for (size_t s = 0; s < c->nser; s++) {
			size_t k = 0;
			for (size_t t = 0; t < s; t++)
				k += c->ser[t].group == c->ser[s].group;
			if (k)
				c->ser[s].dash = dashes[k % NDASHES];
		}
	return 0;
}

/* ---- ranges and ticks -------------------------------------------------------- */

static double axis_t(double v, int logb)
{
	return logb ? log(v) : v;
}

/* A round step that cuts span into at most n parts (1, 2, 5 x 10^k). */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw)));
	static const double m[] = {1, 2, 2.5, 5, 10};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (m[i] * mag >= raw)
			return m[i] * mag;
	return 10 * mag;
}

static void chart_ranges(struct chart *c)
{
	double lo = INFINITY, hi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
	double lim_hi = -INFINITY;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++) {
			struct point *p = &c->ser[s].pts[i];
			double a = c->ser[s].err_bars ? fmin(p->lo, p->y) : p->y;
			double z = c->ser[s].err_bars ? fmax(p->hi, p->y) : p->y;
			if (!c->logy || a > 0)
				lo = fmin(lo, a);
			hi = fmax(hi, z);
			xlo = fmin(xlo, p->x);
			xhi = fmax(xhi, p->x);
		}
	for (size_t i = 0; i < c->nlim; i++)
		if (!c->logy || c->lim[i].v > 0) {
			lo = fmin(lo, c->lim[i].v);
			lim_hi = fmax(lim_hi, c->lim[i].v);
		}
	/* A limit above the data needs room for its label above it. */
	int lim_top = lim_hi >= hi;
	hi = fmax(hi, lim_hi);
	if (!(lo < INFINITY))
		lo = hi = 1;
	if (c->logy) {
		double span = log(hi) - log(lo) + 0.1;
		c->ylo = lo * exp(-0.04 * span);
		c->yhi = hi * exp((lim_top ? 0.14 : 0.04) * span);
	} else {
		lo = fmin(lo, 0);
		if (hi <= lo)
			hi = lo + 1;
		double room = (hi - lo) * (lim_top ? 0.1 : 0.03);
		double step = nice_step(hi + room - lo, 6);
		c->ylo = lo < 0 ? floor(lo / step) * step : 0;
		c->yhi = ceil((hi + room) / step) * step;
	}
	if (c->bars) {
		c->xmin = -0.6;
		c->xmax = (double)c->ncats - 0.4;
	} else if (xlo == xhi) {
		c->xmin = c->logx ? xlo / 2 : xlo - 1;
		c->xmax = c->logx ? xhi * 2 : xhi + 1;
	} else if (c->logx) {
		/* A hair wider, so gnuplot keeps the ticks at both ends. */
		c->xmin = xlo / 1.0001;
		c->xmax = xhi * 1.0001;
	} else {
		c->xmin = xlo - (xhi - xlo) * 1e-6;
		c->xmax = xhi + (xhi - xlo) * 1e-6;
	}
}

/* A tick's text on a numeric x axis. */
static void tick_put(struct buf *b, const struct chart *c, double v)
{
	/* Powers of two read as powers once the axis reaches 2^17. */
	if (c->xunit && !strcmp(c->xunit, "bytes"))
		value_put(b, v, "bytes");
	else if (c->logx == 2 && c->xmax >= 131072 && v >= 1024 &&
	         v == ldexp(1, ilogb(v)))
		buf_printf(b, "2^%d", ilogb(v));
	else
		num_put(b, v);
}

static void gp_str(struct buf *b, const char *s);

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
			double step = nice_step(z - a, n);
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
		if (nt * (longest * font_px * 0.6 + 12) <= w)
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
static void chart_layout(struct chart *c, int w)
{
	int keyed = c->sf != NULL;
	double char_px = font_px * 0.62, plot_w = draw_width[w] - 100;
	size_t longest = 0;
	for (size_t s = 0; keyed && s < c->nser; s++)
		longest = strlen(c->ser[s].title) > longest ? strlen(c->ser[s].title)
		                                            : longest;
	int cols = 1, rows = 0;
	if (keyed) {
		cols = (int)(plot_w / (longest * char_px + 60));
		cols = cols < 1 ? 1 : cols > (int)c->nser ? (int)c->nser : cols;
		rows = (int)((c->nser + (size_t)cols - 1) / (size_t)cols);
	}
	c->key_cols[w] = cols;
	c->key_rows[w] = rows;
	c->xrot[w] = 0;
	c->xextra[w] = 0;
	if (c->bars) {
		size_t clong = 0;
		for (size_t k = 0; k < c->ncats; k++) {
			size_t len = strlen(cat_title(c, k));
			clong = len > clong ? len : clong;
		}
		double slot = plot_w / (double)c->ncats;
		if (clong * char_px > slot * 0.9) {
			c->xrot[w] = w == WIDE ? 30 : 60;
			c->xextra[w] = (int)(clong * char_px *
			                     sin(c->xrot[w] * M_PI / 180.0));
		}
	}
	c->height[w] = (w == WIDE ? 400 : 330) + 20 * rows + c->xextra[w];
}

/* ---- what the chart says ------------------------------------------------------ */

/*
 * Series that lie on each other: at every x both draw, the points' spreads
 * (or, without one, a sliver of the axis) overlap. Plain text, or NULL.
 */
static char *chart_coincide(struct chart *c)
{
	for (size_t s = 0; s < c->nser; s++)
		c->ser[s].group = s;
	if (c->bars || c->nser < 2)
		return NULL;
	size_t *group = xmalloc(c->nser * sizeof *group);
	for (size_t s = 0; s < c->nser; s++)
		group[s] = s;
	double span = axis_t(c->yhi, c->logy) - axis_t(c->ylo, c->logy);
	double tol = 0.006 * span;
	for (size_t a = 0; a < c->nser; a++)
		for (size_t b = a + 1; b < c->nser; b++) {
			const struct series *sa = &c->ser[a], *sb = &c->ser[b];
			size_t shared = 0, apart = 0;
			for (size_t i = 0, j = 0; i < sa->n && j < sb->n;) {
				const struct point *p = &sa->pts[i], *q = &sb->pts[j];
				if (p->x < q->x) {
					i++;
				} else if (q->x < p->x) {
					j++;
				} else {
					double plo = fmin(p->lo, p->y), phi = fmax(p->hi, p->y);
					double qlo = fmin(q->lo, q->y), qhi = fmax(q->hi, q->y);
					if (c->logy && (plo <= 0 || qlo <= 0))
						apart++;
					else if (axis_t(plo, c->logy) - tol >
					             axis_t(qhi, c->logy) ||
					         axis_t(qlo, c->logy) - tol >
					             axis_t(phi, c->logy))
						apart++;
					shared++;
					i++;
					j++;
				}
			}
			if (shared >= 2 && !apart && 2 * shared >= sa->n &&
			    2 * shared >= sb->n) {
				size_t ga = group[a], gb = group[b];
				for (size_t s = 0; s < c->nser; s++)
					if (group[s] == gb)
						group[s] = ga;
			}
		}
	struct buf out = BUF_INIT;
	const char *fmt = dir_opt(c->d, "series-label");
	for (size_t g = 0; g < c->nser; g++) {
		char **names = NULL;
		size_t n = 0, plain = 1;
		for (size_t s = 0; s < c->nser; s++)
			if (group[s] == g) {
				*ARRAY_PUSH(names, n) = c->ser[s].key;
				for (size_t i = 0; i < c->nlabels; i++)
					plain &= strcmp(c->labels[i].value, c->ser[s].key) != 0;
			}
		if (n >= 2) {
			struct buf l = BUF_INIT;
			if (!(plain && fmt))
				for (size_t i = 0, k = 0; i < c->nser; i++)
					if (group[i] == g)
						names[k++] = c->ser[i].title;
			list_put(&l, names, n);
			char *t = plain && fmt ? series_format(fmt, l.data) : buf_detach(&l);
			buf_printf(&out, "%s%s coincide.", out.len ? " " : "", t);
			free(t);
			buf_free(&l);
		}
		free(names);
	}
	for (size_t s = 0; s < c->nser; s++)
		c->ser[s].group = group[s];
	free(group);
	return out.len ? buf_detach(&out) : NULL;
}

/* What the chart shows, in words, from the points it draws. */
static char *chart_alt(const struct chart *c, const char *coincide)
{
	struct buf a = BUF_INIT;
	const char *yl = c->ylabel ? c->ylabel : c->yf;
	const char *xl = c->xlabel ? c->xlabel : c->xf;
	const struct series *top = NULL;
	const struct point *tp = NULL;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++)
			if (!tp || c->ser[s].pts[i].y > tp->y) {
				top = &c->ser[s];
				tp = &c->ser[s].pts[i];
			}
	const char *kind = c->as_points ? "Point" : c->bars ? "Bar" : "Line";
	if (c->bars && !c->sf) {
		buf_printf(&a, "%s chart of %s for each %s", kind, yl, xl);
		if (c->logy)
			buf_puts(&a, " (log scale)");
		buf_puts(&a, ": ");
		const struct series *s = &c->ser[0];
		for (size_t i = 0; i < s->n && i < 16; i++) {
			buf_printf(&a, "%s%s ", i ? ", " : "",
			           cat_title((struct chart *)c, (size_t)s->pts[i].x));
			value_put(&a, s->pts[i].y, c->yunit);
		}
		buf_puts(&a, s->n > 16 ? ", and more." : ".");
	} else {
		buf_printf(&a, "%s chart of %s against %s", kind, yl, xl);
		if (c->logx || c->logy)
			buf_printf(&a, " (log scale on %s)", c->logx ? (c->logy ? "both "
			           "axes" : "x") : "y");
		if (c->sf) {
			buf_printf(&a, ", one %s for each of ", c->bars ? "bar" : "line");
			char **t = NULL;
			size_t n = 0;
			for (size_t s = 0; s < c->nser && s < 12; s++)
				*ARRAY_PUSH(t, n) = c->ser[s].title;
			list_put(&a, t, n);
			free(t);
			if (c->nser > 12)
				buf_printf(&a, " and %zu more", c->nser - 12);
		}
		buf_puts(&a, ". The highest point is ");
		value_put(&a, tp->y, c->yunit);
		buf_printf(&a, ", at %s ", xl);
		if (c->bars)
			buf_puts(&a, cat_title((struct chart *)c, (size_t)tp->x));
		else
			value_put(&a, tp->x, c->xunit);
		if (c->sf)
			buf_printf(&a, " (%s)", top->title);
		buf_puts(&a, ".");
		if (coincide)
			buf_printf(&a, " %s", coincide);
	}
	for (size_t i = 0; i < c->nlim; i++)
		buf_printf(&a, " A reference line marks %s.", c->lim[i].text);
	return buf_detach(&a);
}

/* ---- the files ---------------------------------------------------------------- */

/* gnuplot single-quoted string: only '' needs escaping. */
static void gp_str(struct buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_putc(b, '\'');
		if (*s != '\n' && *s != '\r')
			buf_putc(b, *s);
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

/* The CSV, tidy: one row per point. */
static void chart_csv(const struct chart *c, struct buf *csv)
{
	buf_printf(csv, "series,%s,%s,%s_lo,%s_hi\n", c->xf, c->yf, c->yf, c->yf);
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i < c->ser[s].n; i++) {
			const struct point *p = &c->ser[s].pts[i];
			csv_str(csv, c->ser[s].key);
			buf_putc(csv, ',');
			if (c->bars)
				csv_str(csv, c->cats[(size_t)p->x]);
			else
				buf_printf(csv, "%.10g", p->x);
			buf_printf(csv, ",%.10g,%.10g,%.10g\n", p->y, p->lo, p->hi);
		}
}

/*
 * How much of the curves a label would hide: samples along each line that
 * fall in the box from x_from (a fraction of the plot's width) to its right
 * end, between y_lo and y_hi pixels above the bottom.
 */
static int label_hits(const struct chart *c, double plot_h, double x_from,
                      double y_lo, double y_hi)
{
	double tx0 = axis_t(c->xmin, c->logx), tx1 = axis_t(c->xmax, c->logx);
	double ty0 = axis_t(c->ylo, c->logy), ty1 = axis_t(c->yhi, c->logy);
	int hits = 0;
	if (c->bars)
		return 0;
	for (size_t s = 0; s < c->nser; s++)
		for (size_t i = 0; i + 1 < c->ser[s].n; i++) {
			const struct point *p = &c->ser[s].pts[i], *q = p + 1;
			if (c->logy && (p->y <= 0 || q->y <= 0))
				continue;
			for (int k = 0; k <= 10; k++) {
				double f = k / 10.0;
				double x = (axis_t(p->x, c->logx) * (1 - f) +
				            axis_t(q->x, c->logx) * f - tx0) / (tx1 - tx0);
				double y = ((axis_t(p->y, c->logy) * (1 - f) +
				             axis_t(q->y, c->logy) * f) - ty0) / (ty1 - ty0) *
				           plot_h;
				hits += x >= x_from && y >= y_lo && y <= y_hi;
			}
		}
	return hits;
}

/*
 * The limit labels of one drawing, at the right end of their lines: above
 * or below each, wherever it hides less of the curves and stays clear of
 * the frame and of the label before it.
 */
static void gp_limit_labels(struct buf *gp, const struct chart *c, int w)
{
	double plot_h = c->height[w] - 110 - 20 * c->key_rows[w] - c->xextra[w];
	double plot_w = draw_width[w] - 100;
	double t0 = axis_t(c->ylo, c->logy), t1 = axis_t(c->yhi, c->logy);
	double prev = INFINITY;
	int prev_below = 0;
	size_t *order = xmalloc((c->nlim + 1) * sizeof *order);
	for (size_t i = 0; i < c->nlim; i++)
		order[i] = i;
	for (size_t i = 1; i < c->nlim; i++)
		for (size_t j = i; j > 0 && c->lim[order[j]].v > c->lim[order[j - 1]].v;
		     j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	buf_puts(gp, "unset label\n");
	for (size_t k = 0; k < c->nlim; k++) {
		const struct limit *l = &c->lim[order[k]];
		if (c->logy && l->v <= 0)
			continue;
		double y = (axis_t(l->v, c->logy) - t0) / (t1 - t0) * plot_h;
		double x_from = 0.99 - (strlen(l->text) * font_px * 0.6 + 6) / plot_w;
		int above_ok = y + 22 <= plot_h && prev - y >= (prev_below ? 40 : 20);
		int below_ok = y >= 22;
		int below = !above_ok;
		if (above_ok && below_ok)
			below = label_hits(c, plot_h, x_from, y - 20, y - 2) <
			        label_hits(c, plot_h, x_from, y + 2, y + 20);
		buf_printf(gp, "set label %zu ", k + 1);
		gp_str(gp, l->text);
		buf_printf(gp, " at graph 0.99, first %.10g right front "
		           "offset 0,%s tc rgb '%s'\n", l->v, below ? "-0.75" : "0.75",
		           limit_colors[order[k] % 2]);
		prev = y;
		prev_below = below;
	}
	free(order);
}

/* The settings that differ between the wide and the narrow drawing. */
static void gp_drawing(struct buf *gp, const struct chart *c, int w,
                       const char *id)
{
	buf_printf(gp, "set terminal svg size %d,%d dynamic noenhanced "
	           "font 'DejaVu Sans,%d' background rgb 'white'\n",
	           draw_width[w], c->height[w], font_px);
	buf_printf(gp, "set output '%s%s.svg'\n", id, w == NARROW ? "-narrow" : "");
	if (c->bars) {
		buf_puts(gp, "set xtics (");
		for (size_t k = 0; k < c->ncats; k++) {
			buf_puts(gp, k ? ", " : "");
			gp_str(gp, cat_title((struct chart *)c, k));
			buf_printf(gp, " %zu", k);
		}
		buf_puts(gp, ")");
		if (c->xrot[w])
			buf_printf(gp, " rotate by %d right", c->xrot[w]);
		buf_putc(gp, '\n');
	} else {
		gp_xtics(gp, c, draw_width[w] - 100);
	}
	if (c->sf)
		buf_printf(gp, "set key below horizontal left reverse Left samplen 3 spacing 1.1 "
		           "maxcols %d maxrows %d\n", c->key_cols[w], c->key_rows[w]);
	else
		buf_puts(gp, "unset key\n");
	gp_limit_labels(gp, c, w);
}

/* The plot command: the series, then the limit lines over them. */
static void gp_plot(struct buf *gp, const struct chart *c)
{
	double w = 0.8 / (double)c->nser;
	buf_puts(gp, "plot ");
	/* Greyed series first, so the ones the text discusses lie on top. */
	int first = 1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t s = 0; s < c->nser; s++) {
			const struct series *sr = &c->ser[s];
			if ((pass == 0) != (sr->grey == 1))
				continue;
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
	for (size_t i = 0; i < c->nlim; i++)
		buf_printf(gp, ", \\\n     %.10g with lines lw 1.5 dt %s lc rgb '%s' "
		           "notitle", c->lim[i].v, dashes[1 + (i / 2) % (NDASHES - 1)],
		           limit_colors[i % 2]);
	buf_putc(gp, '\n');
}

static void chart_script(const struct chart *c, const char *bundle_dir,
                         struct buf *gp)
{
	const struct directive *d = c->d;
	buf_printf(gp, "# labbook chart '%s' (%s:%d), records of '%s' from %s\n"
	           "# Draws %s.svg, then %s-narrow.svg for narrow screens.\n",
	           d->id, c->path, d->line, dir_opt(d, "data"), bundle_dir, d->id,
	           d->id);
	for (size_t s = 0; s < c->nser; s++) {
		buf_printf(gp, "$s%zu << EOD\n", s);
		for (size_t i = 0; i < c->ser[s].n; i++) {
			const struct point *p = &c->ser[s].pts[i];
			double x = p->x;
			if (c->bars)
				x += ((double)s - (c->nser - 1) / 2.0) * (0.8 / c->nser);
			buf_printf(gp, "%.10g %.10g %.10g %.10g\n", x, p->y, p->lo, p->hi);
		}
		buf_puts(gp, "EOD\n");
	}
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
	gp_drawing(gp, c, NARROW, d->id);
	buf_puts(gp, "replot\n");
}

/* Write the CSV and script; run gnuplot when the script changed. */
static int chart_draw(const struct chart *c, const char *site_dir,
                      const struct buf *gp, const struct buf *csv,
                      struct plot *out)
{
	const char *id = c->d->id;
	char *figdir = path_join(site_dir, "fig");
	char *gp_path = xasprintf("%s/%s.gp", figdir, id);
	char *svg_path = xasprintf("%s/%s.svg", figdir, id);
	char *nsvg_path = xasprintf("%s/%s-narrow.svg", figdir, id);
	char *csv_path = xasprintf("%s/%s.csv", figdir, id);
	int rc = -1;
	out->svg = xasprintf("fig/%s.svg", id);
	out->svg_narrow = xasprintf("fig/%s-narrow.svg", id);
	out->gp = xasprintf("fig/%s.gp", id);
	out->csv = xasprintf("fig/%s.csv", id);
	char *old = file_read(gp_path, NULL);
	int same = old && !strcmp(old, gp->data) && file_exists(svg_path) &&
	           file_exists(nsvg_path);
	free(old);
	if (mkdir_p(figdir) != 0 ||
	    file_write_atomic(csv_path, csv->data, csv->len) != 0)
		goto out;
	if (same) {
		out->drawn = 1;
		rc = 0;
	} else if (!plot_available()) {
		unlink(svg_path);
		unlink(nsvg_path);
		file_write_atomic(gp_path, gp->data, gp->len);
		out->note = xstrdup("gnuplot is not installed, so this chart was not "
		                    "drawn; its data and script are linked below");
		rc = 0;
	} else if (file_write_atomic(gp_path, gp->data, gp->len) == 0) {
		char *cd = xasprintf("cd '%s'", figdir);
		char *gpname = xasprintf("%s.gp", id);
		char *argv[] = {(char *)gnuplot(), "-e", cd, gpname, NULL};
		struct run_result rr;
		if (exec_run(argv, NULL, 60, 1 << 16, &rr) == 0) {
			if (rr.exit_code == 0 && file_exists(svg_path) &&
			    file_exists(nsvg_path)) {
				out->drawn = out->redrawn = 1;
				rc = 0;
			} else {
				plot_fail(out, c->path, c->d->line,
				          "chart '%s': gnuplot failed: %s", id, rr.out);
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
	return rc;
}

int plot_render(const struct directive *d, const char *path, struct bundle *b,
                const char *site_dir, struct plot *out)
{
	memset(out, 0, sizeof *out);
	struct chart c = {0};
	struct buf gp = BUF_INIT, csv = BUF_INIT;
	int rc = -1;
	c.d = d;
	c.path = path;
	c.xf = dir_opt(d, "x");
	c.yf = dir_opt(d, "y");
	c.sf = dir_opt(d, "series");
	c.xlabel = dir_opt(d, "xlabel");
	c.ylabel = dir_opt(d, "ylabel");
	c.xunit = dir_opt(d, "x-unit");
	c.yunit = dir_opt(d, "y-unit");
	c.logx = dir_opt(d, "logx") ? atoi(dir_opt(d, "logx")) : 0;
	c.logy = dir_opt(d, "logy") ? atoi(dir_opt(d, "logy")) : 0;
	if (chart_select(&c, b, out) != 0 || chart_limits(&c, b, out) != 0 ||
	    chart_titles(&c, out) != 0)
		goto out;
	c.as_points = c.bars && c.logy;
	chart_ranges(&c);
	out->coincide = chart_coincide(&c);
	if (chart_styles(&c, out) != 0)
		goto out;
	chart_layout(&c, WIDE);
	chart_layout(&c, NARROW);
	out->width = draw_width[WIDE];
	out->height = c.height[WIDE];
	out->narrow_width = draw_width[NARROW];
	out->narrow_height = c.height[NARROW];
	out->alt = chart_alt(&c, out->coincide);
	chart_csv(&c, &csv);
	chart_script(&c, b->dir, &gp);
	rc = chart_draw(&c, site_dir, &gp, &csv, out);
out:
	chart_free(&c);
	buf_free(&gp);
	buf_free(&csv);
	return rc;
}
