#define _GNU_SOURCE
#include "compare.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "util.h"

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
	size_t judged = 0, shown = 0, nhost = 0;
	double worst = 0, host_worst = 0;
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
			char *pa = record_params(ra->rows[k]);
			if (!record_same_point(ra->rows[k], rb->rows[k])) {
				char *pb = record_params(rb->rows[k]);
				printf("%-12s #%zu differs in its parameters: %s | %s\n",
				       ids[i], k, pa, pb);
				free(pa);
				free(pb);
				continue;
			}
			double x = ma->valuedouble, y = mb->valuedouble;
			double d = x > 0 ? (y - x) / x * 100 : 0;
			int judge = x >= o->min_ms && y >= o->min_ms;
			/* A copy through the host's CPU measures the host: it is
			 * shown, and counted apart. */
			int host = cJSON_IsTrue(cJSON_GetObjectItem(ra->rows[k], "host_bound")) ||
			           cJSON_IsTrue(cJSON_GetObjectItem(rb->rows[k], "host_bound"));
			if (host && judge) {
				nhost++;
				if (fabs(d) > fabs(host_worst))
					host_worst = d;
				if (o->all)
					printf("%-12s %-48.48s %10.4f %10.4f %+7.2f%%  (host)\n",
					       ids[i], pa, x, y, d);
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
				printf("%-12s %-48.48s %10.4f %10.4f %+7.2f%%%s\n", ids[i], pa,
				       x, y, d, bad ? "  <-- over" : judge ? "" : "  (short)");
				shown++;
			}
			free(pa);
		}
		if (exp_n)
			printf("%-12s %zu points of at least %.3f ms, largest %+.2f%%\n",
			       ids[i], exp_n, o->min_ms, exp_worst);
	}
	printf("summary: %zu points compared, largest difference %+.2f%% (%s), "
	       "%d over %.1f%%", judged, worst, worst_at, above, o->max_diff);
	if (nhost)
		printf("; %zu host-bound points not judged, largest %+.2f%%", nhost,
		       host_worst);
	printf("\n");
	free(worst_at);
	for (size_t i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	(void)shown;
	return above;
}
