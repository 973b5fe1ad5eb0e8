#define _GNU_SOURCE
#include "compare.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "util.h"

static int is_measurement(const char *k)
{
	static const char *names[] = {"median_ms", "min_ms", "max_ms", "q1_ms",
	                              "q3_ms", "mean_ms", "spread", "reps",
	                              "clock_mhz", "throttled", "batch", "ms",
	                              "correct", NULL};
	for (const char **n = names; *n; n++)
		if (!strcmp(k, *n))
			return 1;
	size_t len = strlen(k);
	return len > 3 && (!strcmp(k + len - 3, "_lo") || !strcmp(k + len - 3, "_hi"));
}

/* The parameters of a record: its string and integer fields. */
static char *params(const cJSON *row)
{
	struct buf b = BUF_INIT;
	const cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (is_measurement(f->string))
			continue;
		if (cJSON_IsString(f))
			buf_printf(&b, "%s%s=%s", b.len ? " " : "", f->string, f->valuestring);
		else if (cJSON_IsNumber(f) && f->valuedouble == floor(f->valuedouble) &&
		         fabs(f->valuedouble) < 1e15)
			buf_printf(&b, "%s%s=%.0f", b.len ? " " : "", f->string, f->valuedouble);
	}
	return buf_detach(&b);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int compare_bundles(struct bundle *a, struct bundle *b,
                    const struct compare_opts *o)
{
	DIR *dp = opendir(a->dir);
	if (!dp) {
		diag("cannot read bundle %s", a->dir);
		return -1;
	}
	char **ids = NULL;
	size_t nids = 0;
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t n = strlen(de->d_name);
		if (n > 6 && !strcmp(de->d_name + n - 6, ".jsonl"))
			*ARRAY_PUSH(ids, nids) = xstrndup(de->d_name, n - 6);
	}
	closedir(dp);
	qsort(ids, nids, sizeof *ids, cmp_str);

	int above = 0;
	size_t judged = 0, shown = 0;
	double worst = 0;
	char *worst_at = xstrdup("(none)");
	printf("%-12s %-48s %10s %10s %8s\n", "experiment", "point", "A ms", "B ms",
	       "diff");
	for (size_t i = 0; i < nids; i++) {
		struct exp_result *ra = bundle_get(a, ids[i]), *rb = bundle_get(b, ids[i]);
		if (!rb->nrows) {
			printf("%-12s (only in %s)\n", ids[i], a->dir);
			continue;
		}
		size_t n = ra->nrows < rb->nrows ? ra->nrows : rb->nrows;
		double exp_worst = 0;
		size_t exp_n = 0;
		for (size_t k = 0; k < n; k++) {
			const cJSON *ma = cJSON_GetObjectItem(ra->rows[k], "median_ms");
			const cJSON *mb = cJSON_GetObjectItem(rb->rows[k], "median_ms");
			if (!cJSON_IsNumber(ma) || !cJSON_IsNumber(mb))
				continue;
			char *pa = params(ra->rows[k]), *pb = params(rb->rows[k]);
			if (strcmp(pa, pb)) {
				printf("%-12s #%zu differs in its parameters: %s | %s\n",
				       ids[i], k, pa, pb);
				free(pa);
				free(pb);
				continue;
			}
			double x = ma->valuedouble, y = mb->valuedouble;
			double d = x > 0 ? (y - x) / x * 100 : 0;
			int judge = x >= o->min_ms && y >= o->min_ms;
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
				printf("%-12s %-48.48s %10.4f %10.4f %+7.2f%%%s\n", ids[i], pa,
				       x, y, d, bad ? "  <-- over" : judge ? "" : "  (short)");
				shown++;
			}
			free(pa);
			free(pb);
		}
		if (exp_n)
			printf("%-12s %zu points of at least %.3f ms, largest %+.2f%%\n",
			       ids[i], exp_n, o->min_ms, exp_worst);
	}
	printf("summary: %zu points compared, largest difference %+.2f%% (%s), "
	       "%d over %.1f%%\n", judged, worst, worst_at, above, o->max_diff);
	free(worst_at);
	for (size_t i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	(void)shown;
	return above;
}
