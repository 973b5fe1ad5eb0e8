/*
 * chart.c - what the files that make a chart all read of its points
 * (chart.h): its categories' words, and its axes.
 */
#include "render/chart.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

const int chart_width[2] = {760, 400};

struct label *chart_label_find(const struct chart *c, const char *value)
{
	for (size_t i = 0; i < c->nlabels; i++)
		if (!strcmp(c->labels[i].value, value))
			return &c->labels[i];
	return NULL;
}

const char *chart_cat_title(const struct chart *c, size_t k)
{
	const struct label *l = chart_label_find(c, c->cats[k]);
	return l ? l->words : c->cats[k];
}

void chart_draw_order(const struct chart *c, size_t *order)
{
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t s = 0; s < c->nser; s++)
			if ((pass == 0) == (c->ser[s].grey == 1))
				order[k++] = s;
}

double chart_axis_t(double v, int logb)
{
	return logb ? log(v) : v;
}

/* A round step that cuts span into at most n parts (1, 2, 5 x 10^k). */
double chart_nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw)));
	static const double m[] = {1, 2, 2.5, 5, 10};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (m[i] * mag >= raw)
			return m[i] * mag;
	return 10 * mag;
}
