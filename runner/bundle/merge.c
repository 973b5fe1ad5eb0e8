/* merge.c - the runs of an experiment made one set of records: medians,
 * quartiles and spreads per point (merge.h). */
#define _GNU_SOURCE
#include "bundle/merge.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "bundle/results.h"
#include "base/util.h"

static double num(const cJSON *row, const char *key, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* Set row[key] to item (taken), replacing the field or adding it. */
static void put(cJSON *row, const char *key, cJSON *item)
{
	if (cJSON_GetObjectItemCaseSensitive(row, key))
		cJSON_ReplaceItemInObjectCaseSensitive(row, key, item);
	else
		cJSON_AddItemToObject(row, key, item);
}

static void put_num(cJSON *row, const char *key, double v)
{
	put(row, key, cJSON_CreateNumber(v));
}

struct ranked {
	double v;
	size_t run;
};

static int cmp_ranked(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
	return x < y ? -1 : x > y;
}

/* Bound every rate F that has F_lo and F_hi by the times lo_ms..hi_ms. */
static void rebound_rates(cJSON *row, double median, double lo_ms, double hi_ms)
{
	cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (!cJSON_IsNumber(f))
			continue;
		char *lo = xasprintf("%s_lo", f->string), *hi = xasprintf("%s_hi", f->string);
		if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, lo)) &&
		    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, hi)) &&
		    lo_ms > 0 && hi_ms > 0) {
			double amount = f->valuedouble * median;
			put_num(row, lo, amount / hi_ms);
			put_num(row, hi, amount / lo_ms);
		}
		free(lo);
		free(hi);
	}
}

/*
 * An untimed record (no median_ms, not a fact): each number that differs
 * between runs is a measurement, not a parameter (a swept or constant
 * one is the same in every run). It becomes the median of the runs'
 * values, F_lo and F_hi the smallest and largest (or the widest of the
 * runs' own bounds), and the record says how many runs it merged. The
 * rest is the first run's.
 */
static void merge_untimed(cJSON *out, cJSON **const *runs, size_t nruns,
                          size_t k)
{
	struct ranked *r = xcalloc(nruns, sizeof *r);
	int merged = 0;
	const cJSON *f;
	cJSON_ArrayForEach(f, runs[0][k])
	{
		if (!cJSON_IsNumber(f) || record_is_measurement(f->string))
			continue;
		int differ = 0, all = 1;
		for (size_t i = 0; i < nruns && all; i++) {
			r[i].v = num(runs[i][k], f->string, NAN);
			all = !isnan(r[i].v);
			differ |= all && r[i].v != f->valuedouble;
		}
		if (!all || !differ)
			continue;
		char *lo = record_bound_name(f->string, 0);
		char *hi = record_bound_name(f->string, 1);
		double blo = INFINITY, bhi = -INFINITY;
		for (size_t i = 0; i < nruns; i++) {
			blo = fmin(blo, fmin(r[i].v, num(runs[i][k], lo, INFINITY)));
			bhi = fmax(bhi, fmax(r[i].v, num(runs[i][k], hi, -INFINITY)));
		}
		qsort(r, nruns, sizeof *r, cmp_ranked);
		put_num(out, f->string, r[(nruns - 1) / 2].v);
		put_num(out, lo, blo);
		put_num(out, hi, bhi);
		free(lo);
		free(hi);
		merged = 1;
	}
	if (merged)
		put_num(out, "runs", (double)nruns);
	free(r);
}

/* The merged record k: a new object. */
static cJSON *merge_one(cJSON **const *runs, size_t nruns, size_t k, char **why)
{
	const cJSON *first = runs[0][k];
	struct ranked *r = xcalloc(nruns, sizeof *r);
	cJSON *out = NULL;
	int timed = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(first, "median_ms"));
	const cJSON *fact0 = cJSON_GetObjectItemCaseSensitive(first, "fact");
	int fact = cJSON_IsString(fact0);
	/* A timed record must be the same point in every run, a fact the
	 * same fact. */
	for (size_t i = 0; i < nruns; i++) {
		const cJSON *row = runs[i][k];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(row, "fact");
		int same = fact ? cJSON_IsString(name) &&
		                      !strcmp(name->valuestring, fact0->valuestring)
		                : !timed || record_same_point(first, row);
		if (!same) {
			char *p0 = record_params(first);
			*why = xasprintf("record %zu of run %zu is not that of run 1 (%s)",
			                 k + 1, i + 1, p0);
			free(p0);
			goto out;
		}
		r[i].v = num(row, timed ? "median_ms" : "value", NAN);
		r[i].run = i;
	}
	int correct = 1, has_correct = 0, throttled = 0, has_throttled = 0;
	double lo = INFINITY, hi = -INFINITY, reps = 0;
	for (size_t i = 0; i < nruns; i++) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(runs[i][k], "correct");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(runs[i][k], "throttled");
		has_correct |= cJSON_IsBool(c);
		correct &= !cJSON_IsFalse(c);
		has_throttled |= cJSON_IsBool(t);
		throttled |= cJSON_IsTrue(t);
		lo = fmin(lo, num(runs[i][k], "min_ms", INFINITY));
		hi = fmax(hi, num(runs[i][k], "max_ms", -INFINITY));
		reps += num(runs[i][k], "reps", 0);
	}
	size_t pick = 0;
	const cJSON *value = cJSON_GetObjectItemCaseSensitive(first, "value");
	if (timed || (fact && cJSON_IsNumber(value))) {
		qsort(r, nruns, sizeof *r, cmp_ranked);
		pick = r[(nruns - 1) / 2].run;
	}
	out = cJSON_Duplicate(runs[pick][k], 1);
	if (has_correct)
		put(out, "correct", cJSON_CreateBool(correct));
	if (has_throttled)
		put(out, "throttled", cJSON_CreateBool(throttled));
	if (timed && isfinite(r[0].v) && isfinite(r[nruns - 1].v)) {
		double median = num(out, "median_ms", 0);
		if (isfinite(lo) && isfinite(hi)) {
			put_num(out, "min_ms", lo);
			put_num(out, "max_ms", hi);
			rebound_rates(out, median, lo, hi);
		}
		if (reps > 0)
			put_num(out, "reps", reps);
		put_num(out, "runs", (double)nruns);
		put_num(out, "run_min_ms", r[0].v);
		put_num(out, "run_max_ms", r[nruns - 1].v);
		put_num(out, "run_spread", median > 0 ? (r[nruns - 1].v - r[0].v) / median : 0);
	} else if (!timed && !fact) {
		merge_untimed(out, runs, nruns, k);
	}
out:
	free(r);
	return out;
}

char *records_merge(cJSON **const *runs, const size_t *nrows, size_t nruns,
                    char **why)
{
	*why = NULL;
	for (size_t i = 1; i < nruns; i++)
		if (nrows[i] != nrows[0]) {
			*why = xasprintf("run %zu wrote %zu records, run 1 %zu", i + 1,
			                 nrows[i], nrows[0]);
			return NULL;
		}
	struct buf b = BUF_INIT;
	for (size_t k = 0; k < (nruns ? nrows[0] : 0); k++) {
		cJSON *row = merge_one(runs, nruns, k, why);
		if (!row) {
			buf_free(&b);
			return NULL;
		}
		char *text = cJSON_PrintUnformatted(row);
		buf_puts(&b, text);
		buf_puts(&b, "\n");
		free(text);
		cJSON_Delete(row);
	}
	return buf_detach(&b);
}
