/* compare.c - labbook compare: two bundles side by side, point by point
 * (compare.h). */
#define _GNU_SOURCE
#include "bundle/compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

/*
 * s cut to width display columns, padded with spaces; a cut is marked
 * with "…" so a reader knows there was more. (Columns are counted as
 * UTF-8 characters.)
 */
static void put_col(const char *s, int width)
{
	size_t chars = 0, i = 0, cut_at = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == (size_t)width - 1)
				cut_at = i;
			chars++;
		}
	if (chars <= (size_t)width) {
		printf("%s%*s", s, width - (int)chars, "");
		return;
	}
	printf("%.*s\u2026", (int)cut_at, s);
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
	}
	/* After the table, where a terminal or a log shows it. */
	fflush(stdout);
	diag("nothing compared between %s and %s: %s", a->dir, b->dir, why.data);
	buf_free(&why);
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

	int above = 0;
	size_t judged = 0, shown = 0, nhost = 0, nchanged = 0;
	struct compare_skips skip = {0};
	double worst = 0, host_worst = 0;
	char *worst_at = xstrdup("(none)");
	printf("A = %s, B = %s; diff = (B - A) / A of the median times: "
	       "positive means B is slower\n", a->dir, b->dir);
	printf("%-12s %-48s %10s %10s %8s\n", "experiment", "point", "A ms", "B ms",
	       "diff");
	for (size_t i = 0; i < nids; i++) {
		struct exp_result *ra = bundle_get(a, ids[i]), *rb = bundle_get(b, ids[i]);
		if (!rb->nrows) {
			put_col(ids[i], 12);
			printf(" (only in %s)\n", a->dir);
			continue;
		}
		skip.shared++;
		/* Numbers from two versions of a kernel measure the change, not
		 * the machines. */
		const char *ka = bundle_source_key(a, ids[i]);
		const char *kb = bundle_source_key(b, ids[i]);
		if (ka && kb && strcmp(ka, kb)) {
			put_col(ids[i], 12);
			printf(" (built from other sources in each: not compared)\n");
			nchanged++;
			skip.changed++;
			continue;
		}
		size_t n = ra->nrows < rb->nrows ? ra->nrows : rb->nrows;
		double exp_worst = 0;
		size_t exp_n = 0;
		skip.pairs += n;
		for (size_t k = 0; k < n; k++) {
			const cJSON *ma = cJSON_GetObjectItem(ra->rows[k], RECORD_MEDIAN);
			const cJSON *mb = cJSON_GetObjectItem(rb->rows[k], RECORD_MEDIAN);
			if (!cJSON_IsNumber(ma) || !cJSON_IsNumber(mb)) {
				skip.untimed++;
				continue;
			}
			char *pa = record_params(ra->rows[k]);
			if (!record_same_point(ra->rows[k], rb->rows[k])) {
				char *pb = record_params(rb->rows[k]);
				put_col(ids[i], 12);
				printf(" #%zu differs in its parameters: %s | %s\n", k, pa, pb);
				free(pa);
				free(pb);
				skip.unmatched++;
				continue;
			}
			double x = ma->valuedouble, y = mb->valuedouble;
			/* bundle_fit saw to it that both are positive. */
			double d = (y - x) / x * 100;
			int judge = x >= o->min_ms && y >= o->min_ms;
			skip.short_ += !judge;
			/* A copy through the host's CPU measures the host: it is
			 * shown, and counted apart. */
			int host = record_host_bound(ra->rows[k]) ||
			           record_host_bound(rb->rows[k]);
			if (host && judge) {
				nhost++;
				skip.host++;
				if (fabs(d) > fabs(host_worst))
					host_worst = d;
				if (o->all) {
					put_col(ids[i], 12);
					putchar(' ');
					put_col(pa, 48);
					printf(" %10.4f %10.4f %+7.2f%%  (host)\n", x, y, d);
				}
				free(pa);
				continue;
			}
			int bad = judge && fabs(d) > o->max_diff;
			if (judge) {
				judged++;
				exp_n++;
				if (fabs(d) > fabs(exp_worst))
					exp_worst = d;
				if (fabs(d) > fabs(worst)) {
					worst = d;
					free(worst_at);
					worst_at = xasprintf("%s #%zu %s", ids[i], k, pa);
				}
			}
			above += bad;
			if (o->all || bad) {
				put_col(ids[i], 12);
				putchar(' ');
				put_col(pa, 48);
				printf(" %10.4f %10.4f %+7.2f%%%s\n", x, y, d,
				       bad ? "  <-- over" : judge ? "" : "  (short)");
				shown++;
			}
			free(pa);
		}
		if (exp_n)
		{
			put_col(ids[i], 12);
			printf(" %zu point%s of at least %.3f ms, largest %+.2f%%\n",
			       exp_n, plural(exp_n), o->min_ms, exp_worst);
		}
	}
	/* The error that says why stands in for a summary of nothing. */
	if (!judged) {
		compare_report_none(a, b, &skip, o);
		free(worst_at);
		argv_free(ids);
		return -1;
	}
	printf("summary: %zu point%s compared, largest difference %+.2f%% (%s), "
	       "%d over %.1f%%", judged, plural(judged), worst, worst_at, above,
	       o->max_diff);
	if (nhost)
		printf("; %zu host-bound point%s not judged, largest %+.2f%%", nhost,
		       plural(nhost), host_worst);
	if (nchanged)
		printf("; %zu experiment%s built from other sources not compared",
		       nchanged, plural(nchanged));
	printf("\n");
	free(worst_at);
	argv_free(ids);
	(void)shown;
	return above;
}
