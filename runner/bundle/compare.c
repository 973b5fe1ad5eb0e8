/* compare.c - labbook compare: two bundles side by side, point by point
 * (compare.h). */
#define _GNU_SOURCE
#include "bundle/compare.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/path.h"
#include "base/util.h"

/*
 * s cut to width display columns, padded with spaces; a cut is marked
 * with "…" so a reader knows there was more. (Columns are counted as
 * UTF-8 characters.)
 */
/* Two median times and their difference in percent, in the table's
 * columns: a number too large for them is printed with an exponent. */
static void put_times(FILE *out, double x, double y, double d)
{
	const double *t[] = {&x, &y};
	for (int i = 0; i < 2; i++)
		fprintf(out, fabs(*t[i]) < 1e5 ? " %10.4f" : " %10.3e", *t[i]);
	fprintf(out, fabs(d) < 1e5 ? " %+7.2f%%" : " %+7.1e%%", d);
}

static void put_col(FILE *out, const char *s, int width)
{
	size_t chars = 0, i = 0, cut_at = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == (size_t)width - 1)
				cut_at = i;
			chars++;
		}
	if (chars <= (size_t)width) {
		fprintf(out, "%s%*s", s, width - (int)chars, "");
		return;
	}
	fprintf(out, "%.*s\u2026", (int)cut_at, s);
}

/*
 * Is the median time of record k of experiment id in b one that can be
 * compared: absent (not a timed record), or a positive finite number?
 * 0, or -1 (reported at the records file's line).
 */
static int median_check(struct bundle *b, const char *id, size_t k,
                        const cJSON *row)
{
	const cJSON *m = cJSON_GetObjectItem(row, RECORD_MEDIAN);
	if (!m || (cJSON_IsNumber(m) && isfinite(m->valuedouble) &&
	           m->valuedouble > 0))
		return 0;
	char *what = cJSON_IsNumber(m) ? xasprintf("%g", m->valuedouble)
	             : cJSON_IsString(m) ? xasprintf("a string, \"%s\"",
	                                              m->valuestring)
	             : xstrdup(cJSON_IsNull(m) ? "null"
	                       : cJSON_IsBool(m) ? (cJSON_IsTrue(m) ? "true" : "false")
	                                         : "not a number");
	char *path = bundle_path(b, id, BF_RECORDS);
	diag_at(path, bundle_record_line(b, id, k), "%s is %s; a median time is "
	        "a positive number of milliseconds, so this record cannot be "
	        "compared", RECORD_MEDIAN, what);
	free(path);
	free(what);
	return -1;
}

/*
 * Is bundle b fit to compare: a folder with records, none of them
 * malformed or with a median time that is not a positive number, and a
 * readable machine.json where there is one? 0, or -1 (reported).
 */
static int bundle_fit(struct bundle *b, char **ids, size_t n)
{
	int rc = 0;
	if (b->machine_bad)
		rc = -1; /* reported by bundle_open */
	if (!n) {
		diag_at(b->dir, 0, "no records in this bundle; nothing to compare");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct exp_result *r = bundle_get(b, ids[i]);
		if (r->error) {
			diag("%s", r->error);
			rc = -1;
		}
		for (size_t k = 0; k < r->nrows; k++)
			if (median_check(b, ids[i], k, r->rows[k]) != 0)
				rc = -1;
	}
	return rc;
}

/* Why no point was compared, counted over the experiments both hold. */
struct compare_skips {
	size_t shared;    /* experiments with records in both */
	size_t changed;   /* ... built from other sources in each */
	size_t pairs;     /* records at the same position in both */
	size_t untimed;   /* ... without a median time in one or both */
	size_t unmatched; /* ... whose parameters differ */
	size_t short_;    /* ... under --min-ms in one or both */
	size_t host;      /* ... host-bound */
	size_t throttled; /* ... timed under a lowered clock */
	size_t noisy;     /* ... noisier than --max-noise */
};

/* Report that nothing was compared, and why. */
static void compare_report_none(const struct bundle *a, const struct bundle *b,
                                const struct compare_skips *k,
                                const struct compare_opts *o)
{
	struct buf why = BUF_INIT;
	if (!k->shared) {
		buf_puts(&why, "no experiment has records in both");
	} else {
		buf_printf(&why, "of %zu experiment%s with records in both",
		           k->shared, plural(k->shared));
		if (k->changed)
			buf_printf(&why, ", %zu %s built from other sources in each",
			           k->changed, k->changed == 1 ? "was" : "were");
		if (k->pairs)
			buf_printf(&why, "; of %zu pair%s of records at the same "
			           "position", k->pairs, plural(k->pairs));
		if (k->untimed)
			buf_printf(&why, ", %zu lack%s %s in one or both", k->untimed,
			           k->untimed == 1 ? "s" : "", RECORD_MEDIAN);
		if (k->unmatched)
			buf_printf(&why, ", %zu differ%s in parameters", k->unmatched,
			           k->unmatched == 1 ? "s" : "");
		if (k->short_)
			buf_printf(&why, ", %zu %s under --min-ms %g ms", k->short_,
			           k->short_ == 1 ? "is" : "are", o->min_ms);
		if (k->host)
			buf_printf(&why, ", %zu %s host-bound (never judged)", k->host,
			           k->host == 1 ? "is" : "are");
		if (k->throttled)
			buf_printf(&why, ", %zu %s timed under a lowered clock (never "
			           "judged)", k->throttled, k->throttled == 1 ? "was" : "were");
		if (k->noisy)
			buf_printf(&why, ", %zu %s noisier than --max-noise %g%%",
			           k->noisy, k->noisy == 1 ? "is" : "are", o->max_noise);
	}
	/* After the table, where a terminal or a log shows it. */
	fflush(NULL);
	diag("nothing compared between %s and %s: %s", a->dir, b->dir, why.data);
	buf_free(&why);
}

static double field(const cJSON *row, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

double compare_record_noise(const cJSON *row)
{
	double m = field(row, RECORD_MEDIAN);
	if (!(m > 0))
		return 0;
	double iqr = (field(row, "q3_ms") - field(row, "q1_ms")) / m;
	if (isnan(iqr))
		iqr = field(row, "spread");
	double runs = field(row, "run_spread");
	if (isnan(runs))
		runs = (field(row, "run_max_ms") - field(row, "run_min_ms")) / m;
	double n = 0;
	if (iqr > n)
		n = iqr;
	if (runs > n)
		n = runs;
	return n;
}

enum compare_verdict compare_judge(double a_ms, double b_ms, double noise,
                                   const struct compare_opts *o, double *band)
{
	double d = (b_ms - a_ms) / a_ms;
	*band = COMPARE_NOISE_TIMES * noise;
	if (*band < o->min_diff / 100)
		*band = o->min_diff / 100;
	if (noise > o->max_noise / 100)
		return COMPARE_NOISY;
	/* A difference equal to the band, up to rounding (1.01 against 1.00
	 * with --min-diff 1), is within it. */
	double slack = 1e-9;
	if (d > *band + slack)
		return COMPARE_SLOWER;
	if (d < -*band - slack)
		return COMPARE_FASTER;
	return COMPARE_WITHIN;
}

/* Does path hold a bundle (a machine.json)? */
static int is_bundle(const char *path)
{
	char *m = path_join(path, "machine.json");
	struct stat st;
	int yes = stat(m, &st) == 0 && S_ISREG(st.st_mode);
	free(m);
	return yes;
}

int compare_repeat_open(const char *a_dir, const char *b_dir,
                        const char *named, struct bundle **out)
{
	*out = NULL;
	if (named) {
		if (!is_bundle(named)) {
			diag("--repeat %s: not a results bundle (no machine.json)", named);
			return -1;
		}
		*out = bundle_open(named);
		return 0;
	}
	size_t len = strlen(a_dir);
	while (len > 1 && a_dir[len - 1] == '/')
		len--;
	char *guess = xasprintf("%.*s-repeat", (int)len, a_dir);
	/* Compared with its own repeat, A's difference from it is what is
	 * being measured, not a noise to allow for. */
	char *rg = realpath(guess, NULL), *rb = realpath(b_dir, NULL);
	if (rg && is_bundle(guess) && !(rb && !strcmp(rg, rb)))
		*out = bundle_open(guess);
	free(rg);
	free(rb);
	free(guess);
	return 0;
}

/*
 * The difference, relative to a_ms, between record k of experiment id in
 * A and the same point in A's repeat, or 0 where there is none to see
 * (no repeat, no such record, or another version of the kernel).
 */
static double repeat_diff(struct bundle *rep, struct bundle *a, const char *id,
                          size_t k, const cJSON *row_a, double a_ms)
{
	if (!rep)
		return 0;
	struct exp_result *r = bundle_get(rep, id);
	if (k >= r->nrows || !record_same_point(row_a, r->rows[k]))
		return 0;
	const char *ka = bundle_source_key(a, id), *kr = bundle_source_key(rep, id);
	if (ka && kr && strcmp(ka, kr))
		return 0;
	double m = field(r->rows[k], RECORD_MEDIAN);
	return m > 0 ? fabs(m - a_ms) / a_ms : 0;
}

double compare_point_noise(struct bundle *b, struct bundle *repeat,
                           const char *id, size_t k)
{
	struct exp_result *r = bundle_get(b, id);
	if (k >= r->nrows)
		return 0;
	double n = compare_record_noise(r->rows[k]);
	double m = field(r->rows[k], RECORD_MEDIAN);
	double rep = m > 0 ? repeat_diff(repeat, b, id, k, r->rows[k], m) : 0;
	return rep > n ? rep : n;
}

int compare_same_source(struct bundle *a, struct bundle *b, const char *id)
{
	const char *ka = bundle_source_key(a, id), *kb = bundle_source_key(b, id);
	return !ka || !kb || !strcmp(ka, kb);
}

enum compare_pair compare_point_judge(struct bundle *a, struct bundle *b,
                                      const char *id, size_t k,
                                      const struct compare_opts *o,
                                      struct compare_point *p)
{
	struct exp_result *ra = bundle_get(a, id), *rb = bundle_get(b, id);
	memset(p, 0, sizeof *p);
	p->noise = -1;
	if (k >= ra->nrows || k >= rb->nrows)
		return COMPARE_UNMATCHED;
	const cJSON *ma = cJSON_GetObjectItem(ra->rows[k], RECORD_MEDIAN);
	const cJSON *mb = cJSON_GetObjectItem(rb->rows[k], RECORD_MEDIAN);
	if (!cJSON_IsNumber(ma) || !cJSON_IsNumber(mb))
		return COMPARE_UNTIMED;
	if (!record_same_point(ra->rows[k], rb->rows[k]))
		return COMPARE_UNMATCHED;
	p->a_ms = ma->valuedouble;
	p->b_ms = mb->valuedouble;
	p->diff = (p->b_ms - p->a_ms) / p->a_ms;
	if (p->a_ms < o->min_ms || p->b_ms < o->min_ms)
		return COMPARE_SHORT;
	/* A copy through the host's CPU measures the host. */
	if (record_host_bound(ra->rows[k]) || record_host_bound(rb->rows[k]))
		return COMPARE_HOST;
	/* A point timed while the card held its clock down measures the
	 * card's power or heat at that moment, not the kernel. */
	if (record_flag(ra->rows[k], RECORD_THROTTLED) ||
	    record_flag(rb->rows[k], RECORD_THROTTLED))
		return COMPARE_THROTTLED;
	if (o->max_diff >= 0) {
		p->band = o->max_diff / 100;
		p->verdict = fabs(p->diff) <= p->band ? COMPARE_WITHIN
		             : p->diff > 0           ? COMPARE_SLOWER
		                                     : COMPARE_FASTER;
		return COMPARE_JUDGED;
	}
	double na = compare_record_noise(ra->rows[k]);
	double nb = compare_record_noise(rb->rows[k]);
	p->repeat = repeat_diff(o->repeat, a, id, k, ra->rows[k], p->a_ms);
	p->noise = fmax(fmax(na, nb), p->repeat);
	p->verdict = compare_judge(p->a_ms, p->b_ms, p->noise, o, &p->band);
	return COMPARE_JUDGED;
}

/* One judged point for --json: a new object. */
static cJSON *point_json(const char *id, size_t k, const char *params,
                         double x, double y, double noise, double rep,
                         double band, const char *verdict)
{
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "experiment", id);
	cJSON_AddNumberToObject(p, "record", (double)k);
	cJSON_AddStringToObject(p, "point", params);
	cJSON_AddNumberToObject(p, "a_ms", x);
	cJSON_AddNumberToObject(p, "b_ms", y);
	cJSON_AddNumberToObject(p, "diff", (y - x) / x);
	if (noise >= 0) {
		cJSON_AddNumberToObject(p, "noise", noise);
		cJSON_AddNumberToObject(p, "repeat_diff", rep);
	}
	cJSON_AddNumberToObject(p, "band", band);
	cJSON_AddStringToObject(p, "verdict", verdict);
	return p;
}

/* Write the verdicts to o->json; 0, or -1 (reported). */
static int compare_json_write(const struct compare_opts *o, const struct bundle *a,
                              const struct bundle *b, cJSON *points,
                              const size_t count[4], size_t host,
                              size_t throttled)
{
	cJSON *doc = cJSON_CreateObject();
	cJSON_AddStringToObject(doc, "a", a->dir);
	cJSON_AddStringToObject(doc, "b", b->dir);
	if (o->max_diff >= 0) {
		cJSON_AddStringToObject(doc, "method", "flat");
		cJSON_AddNumberToObject(doc, "max_diff", o->max_diff / 100);
	} else {
		cJSON_AddStringToObject(doc, "method", "noise");
		cJSON_AddNumberToObject(doc, "noise_times", COMPARE_NOISE_TIMES);
		cJSON_AddNumberToObject(doc, "min_diff", o->min_diff / 100);
		cJSON_AddNumberToObject(doc, "max_noise", o->max_noise / 100);
		if (o->repeat)
			cJSON_AddStringToObject(doc, "repeat", o->repeat->dir);
	}
	cJSON_AddNumberToObject(doc, "min_ms", o->min_ms);
	cJSON *sum = cJSON_AddObjectToObject(doc, "summary");
	cJSON_AddNumberToObject(sum, "slower", (double)count[COMPARE_SLOWER]);
	cJSON_AddNumberToObject(sum, "faster", (double)count[COMPARE_FASTER]);
	cJSON_AddNumberToObject(sum, "within_noise", (double)count[COMPARE_WITHIN]);
	cJSON_AddNumberToObject(sum, "too_noisy", (double)count[COMPARE_NOISY]);
	cJSON_AddNumberToObject(sum, "host_bound", (double)host);
	cJSON_AddNumberToObject(sum, "throttled", (double)throttled);
	cJSON_AddItemToObject(doc, "points", points);
	int rc = json_write_out(doc, o->json, "--json");
	cJSON_Delete(doc);
	return rc;
}

int compare_bundles(struct bundle *a, struct bundle *b,
                    const struct compare_opts *o)
{
	char **ids = NULL, **ids_b = NULL;
	size_t nids = 0, nb = 0;
	if (bundle_list(a, &ids, &nids) != 0 || bundle_list(b, &ids_b, &nb) != 0) {
		argv_free(ids);
		argv_free(ids_b);
		return -1;
	}
	int fit = bundle_fit(a, ids, nids);
	if (bundle_fit(b, ids_b, nb) != 0)
		fit = -1;
	argv_free(ids_b);
	if (fit != 0) {
		argv_free(ids);
		return -1;
	}

	/* With the verdicts on stdout, the table is for a person: stderr. */
	FILE *out = o->json && !strcmp(o->json, "-") ? stderr : stdout;
	int flat = o->max_diff >= 0;
	size_t count[4] = {0};
	size_t judged = 0, nchanged = 0;
	struct compare_skips skip = {0};
	double worst = 0, host_worst = 0, slow_worst = 0;
	char *worst_at = xstrdup("(none)");
	cJSON *points = cJSON_CreateArray();
	fprintf(out, "A = %s, B = %s; diff = (B - A) / A of the median times: "
	        "positive means B is slower\n", a->dir, b->dir);
	char *ra = realpath(a->dir, NULL), *rb = realpath(b->dir, NULL);
	if (ra && rb && !strcmp(ra, rb))
		fprintf(out, "A and B are one folder, %s: every point is the same "
		        "as itself\n", ra);
	free(ra);
	free(rb);
	if (!flat)
		fprintf(out, "a point differs when |diff| > band = max(%g x noise, "
		        "--min-diff %g%%); noise: the larger quartile range or run "
		        "spread of A and B%s%s\n", COMPARE_NOISE_TIMES, o->min_diff,
		        o->repeat ? ", and A's difference from " : "",
		        o->repeat ? o->repeat->dir : "");
	fprintf(out, "%-12s %-48s %10s %10s %8s%s\n", "experiment", "point", "A ms",
	        "B ms", "diff", flat ? "" : "     band  verdict");
	for (size_t i = 0; i < nids; i++) {
		struct exp_result *ra = bundle_get(a, ids[i]), *rb = bundle_get(b, ids[i]);
		if (!rb->nrows) {
			put_col(out, ids[i], 12);
			fprintf(out, " (only in %s)\n", a->dir);
			continue;
		}
		skip.shared++;
		/* Numbers from two versions of a kernel measure the change, not
		 * the machines. */
		if (!compare_same_source(a, b, ids[i])) {
			put_col(out, ids[i], 12);
			fprintf(out, " (built from other sources in each: not compared)\n");
			nchanged++;
			skip.changed++;
			continue;
		}
		size_t n = ra->nrows < rb->nrows ? ra->nrows : rb->nrows;
		double exp_worst = 0;
		size_t exp_n = 0, exp_diff = 0;
		skip.pairs += n;
		for (size_t k = 0; k < n; k++) {
			struct compare_point pt;
			enum compare_pair got = compare_point_judge(a, b, ids[i], k, o, &pt);
			if (got == COMPARE_UNTIMED) {
				skip.untimed++;
				continue;
			}
			char *pa = record_params(ra->rows[k]);
			if (got == COMPARE_UNMATCHED) {
				char *pb = record_params(rb->rows[k]);
				put_col(out, ids[i], 12);
				fprintf(out, " #%zu differs in its parameters: %s | %s\n", k,
				        pa, pb);
				free(pa);
				free(pb);
				skip.unmatched++;
				continue;
			}
			double x = pt.a_ms, y = pt.b_ms, d = pt.diff * 100;
			if (got == COMPARE_HOST) {
				skip.host++;
				if (fabs(d) > fabs(host_worst))
					host_worst = d;
			} else if (got == COMPARE_THROTTLED) {
				skip.throttled++;
				if (fabs(d) > fabs(slow_worst))
					slow_worst = d;
			} else if (got == COMPARE_SHORT) {
				skip.short_++;
			}
			if (got != COMPARE_JUDGED) {
				if (o->all) {
					put_col(out, ids[i], 12);
					fputc(' ', out);
					put_col(out, pa, 48);
					put_times(out, x, y, d);
					fprintf(out, "  (%s)\n",
					        got == COMPARE_HOST        ? "host"
					        : got == COMPARE_THROTTLED ? "lowered clock"
					                                   : "short");
				}
				free(pa);
				continue;
			}
			enum compare_verdict v = pt.verdict;
			double band = pt.band, noise = pt.noise, rep = pt.repeat;
			count[v]++;
			cJSON_AddItemToArray(points, point_json(ids[i], k, pa, x, y, noise,
			                                        rep, band,
			                                        compare_verdict_name(v)));
			if (v == COMPARE_NOISY) {
				skip.noisy++;
			} else {
				judged++;
				exp_n++;
				exp_diff += v != COMPARE_WITHIN;
				if (fabs(d) > fabs(exp_worst))
					exp_worst = d;
				if (fabs(d) > fabs(worst)) {
					worst = d;
					free(worst_at);
					worst_at = xasprintf("%s #%zu %s", ids[i], k, pa);
				}
			}
			if (o->all || v != COMPARE_WITHIN) {
				put_col(out, ids[i], 12);
				fputc(' ', out);
				put_col(out, pa, 48);
				put_times(out, x, y, d);
				if (flat)
					fprintf(out, "%s\n", v != COMPARE_WITHIN ? "  <-- over" : "");
				else
					fprintf(out, "  \u00b1%5.2f%%  %s\n", band * 100,
					        compare_verdict_name(v));
			}
			free(pa);
		}
		if (exp_n) {
			put_col(out, ids[i], 12);
			fprintf(out, " %zu point%s of at least %.3f ms, largest %+.2f%%",
			        exp_n, plural(exp_n), o->min_ms, exp_worst);
			if (!flat)
				fprintf(out, ", %zu beyond noise", exp_diff);
			fputc('\n', out);
		}
	}
	int rc = -1;
	/* The error that says why stands in for a summary of nothing. */
	if (!judged) {
		compare_report_none(a, b, &skip, o);
		cJSON_Delete(points);
		goto out;
	}
	fprintf(out, "summary: %zu point%s compared, largest difference %+.2f%% (%s), ",
	        judged, plural(judged), worst, worst_at);
	if (flat)
		fprintf(out, "%zu over %.1f%%", count[COMPARE_SLOWER] +
		        count[COMPARE_FASTER], o->max_diff);
	else
		fprintf(out, "%zu slower, %zu faster beyond noise, %zu within noise",
		        count[COMPARE_SLOWER], count[COMPARE_FASTER],
		        count[COMPARE_WITHIN]);
	if (count[COMPARE_NOISY])
		fprintf(out, "; %zu point%s noisier than --max-noise %g%% not judged",
		        count[COMPARE_NOISY], plural(count[COMPARE_NOISY]),
		        o->max_noise);
	if (skip.host)
		fprintf(out, "; %zu host-bound point%s not judged, largest %+.2f%%",
		        skip.host, plural(skip.host), host_worst);
	if (skip.throttled)
		fprintf(out, "; %zu point%s timed under a lowered clock not judged, "
		        "largest %+.2f%%", skip.throttled, plural(skip.throttled),
		        slow_worst);
	if (nchanged)
		fprintf(out, "; %zu experiment%s built from other sources not compared",
		        nchanged, plural(nchanged));
	fputc('\n', out);
	fflush(out);
	if (o->json && compare_json_write(o, a, b, points, count, skip.host,
	                                skip.throttled) != 0)
		goto out;
	else if (!o->json)
		cJSON_Delete(points);
	rc = (int)count[COMPARE_SLOWER] + (flat ? (int)count[COMPARE_FASTER] : 0);
out:
	free(worst_at);
	argv_free(ids);
	return rc;
}
