/* history_cmd.c - labbook history: a bundle's recordings over its commits,
 * the steps between them, --check and --json (history_cmd.h). */
#include "cli/history_cmd.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "bundle/history.h"
#include "cli/usage.h"

#define NONE ((size_t)-1)

enum { OPT_CHECK = 256, OPT_JSON, OPT_ALL, OPT_MIN_DIFF, OPT_MAX_NOISE,
       OPT_MIN_MS };

/* A percentage, "2" or "2%", into *out; 0 or -1. */
static int percent(const char *s, double *out)
{
	char *t = xstrdup(s);
	size_t n = strlen(t);
	if (n && t[n - 1] == '%')
		t[n - 1] = '\0';
	int rc = parse_double(t, 0, 1e9, out);
	free(t);
	return rc;
}

/* s cut to width columns (UTF-8 characters), padded; a cut ends in "…". */
static void col(FILE *out, const char *s, int width)
{
	size_t chars = 0, cut = 0;
	for (size_t i = 0; s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (chars == (size_t)width - 1)
				cut = i;
			chars++;
		}
	if (chars <= (size_t)width)
		fprintf(out, "%s%*s", s, width - (int)chars, "");
	else
		fprintf(out, "%.*s\u2026", (int)cut, s);
}

static void items_print(FILE *out, char *const *items)
{
	for (size_t i = 0; items && items[i]; i++)
		fprintf(out, "%s%s", i ? "; " : "", items[i]);
}

/* The first ten characters of a date: its day. */
static const char *day(const struct history_entry *e, char buf[11])
{
	snprintf(buf, 11, "%s", e->date ? e->date : "?");
	return buf;
}

static void print_entries(FILE *out, const struct history *h,
                          const struct history_judged *j, int all)
{
	char d[11];
	for (size_t i = 0; i < h->n; i++) {
		const struct history_entry *e = &h->e[i];
		fprintf(out, "%3zu %-9s %s  ", i + 1, e->abbrev, day(e, d));
		col(out, e->commit ? e->subject : "(not committed)", 58);
		fputc('\n', out);
		if (e->absent) {
			fprintf(out, "      the bundle was removed\n");
			continue;
		}
		size_t p = j->prev[i];
		if (p == NONE) {
			const char *tk = e->toolkit ? strrchr(e->toolkit, ' ') : NULL;
			fprintf(out, "      %s", e->gpu ? e->gpu : "unknown");
			if (e->card && !strncmp(e->card, "GPU-", 4))
				fprintf(out, " %.12s", e->card);
			fprintf(out, ", driver %s, nvcc %s\n", e->driver ? e->driver : "none",
			        tk ? tk + 1 : e->toolkit ? e->toolkit : "none");
		}
		if (p == NONE)
			continue;
		if (e->same_records) {
			fprintf(out, "      the records of %s (the commit changed only "
			        "meta.json or machine.json)\n", h->e[p].abbrev);
			continue;
		}
		fprintf(out, "      against %s: %zu point%s judged, %zu slower, %zu "
		        "faster beyond noise", h->e[p].abbrev, j->judged[i],
		        plural(j->judged[i]), j->slower[i], j->faster[i]);
		if (j->machine[i] && (j->slower[i] || j->faster[i]))
			fprintf(out, " (a change of machine%s)", all ? "" :
			        ", not listed below; --all lists them");
		fputc('\n', out);
		if (j->changed[i] && j->changed[i][0]) {
			fprintf(out, "      changed: ");
			items_print(out, j->changed[i]);
			fputc('\n', out);
		}
	}
}

static void print_steps(FILE *out, const struct history *h,
                        const struct history_judged *j, int all)
{
	size_t shown = 0;
	for (size_t s = 0; s < j->nsteps; s++) {
		const struct history_step *st = &j->steps[s];
		if (st->machine && !all)
			continue;
		if (!shown++)
			fprintf(out, "\nsteps: points beyond noise against the recording "
			        "before\n%-9s %-12s %-40s %10s %10s %8s %8s  %-8s %s\n",
			        "commit", "experiment", "point", "before ms", "after ms",
			        "diff", "band", "verdict", "what changed");
		fprintf(out, "%-9s ", h->e[st->to].abbrev);
		col(out, st->id, 12);
		fputc(' ', out);
		col(out, st->point, 40);
		fprintf(out, " %10.4f %10.4f %+7.2f%% \u00b1%5.2f%%  %-8s ",
		        st->p.a_ms, st->p.b_ms, st->p.diff * 100, st->p.band * 100,
		        st->machine ? "machine" : compare_verdict_name(st->p.verdict));
		if (st->changed && st->changed[0])
			items_print(out, st->changed);
		else
			fputs("nothing recorded", out);
		fputc('\n', out);
	}
	if (!shown)
		fprintf(out, "\nno steps: no point moved beyond its noise between "
		        "two recordings on one machine\n");
}

static void print_check(FILE *out, const struct history *h,
                        const struct history_judged *j)
{
	if (j->check_to == NONE || j->check_from == NONE) {
		fprintf(out, "check: no recording before %s on its card and driver; "
		        "nothing to check\n", j->check_to == NONE ? "the latest"
		        : h->e[j->check_to].abbrev);
		return;
	}
	fprintf(out, "check: %s against %s (the one before it on its card and "
	        "driver): %zu point%s judged, %zu slower beyond noise",
	        h->e[j->check_to].abbrev, h->e[j->check_from].abbrev,
	        j->check_judged, plural(j->check_judged), j->check_slower);
	if (j->check_worst)
		fprintf(out, ", the most %s", j->check_worst);
	fputc('\n', out);
}

static cJSON *items_json(char *const *items)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; items && items[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(items[i]));
	return a;
}

static void add_str(cJSON *o, const char *key, const char *s)
{
	cJSON_AddItemToObject(o, key, s ? cJSON_CreateString(s) : cJSON_CreateNull());
}

static cJSON *history_json(const struct history *h, const struct history_judged *j,
                           const struct compare_opts *o)
{
	cJSON *doc = cJSON_CreateObject();
	add_str(doc, "bundle", h->dir);
	add_str(doc, "path", h->path);
	add_str(doc, "note", h->note);
	cJSON_AddNumberToObject(doc, "noise_times", COMPARE_NOISE_TIMES);
	cJSON_AddNumberToObject(doc, "min_diff", o->min_diff / 100);
	cJSON_AddNumberToObject(doc, "max_noise", o->max_noise / 100);
	cJSON_AddNumberToObject(doc, "min_ms", o->min_ms);
	cJSON *es = cJSON_AddArrayToObject(doc, "entries");
	for (size_t i = 0; i < h->n; i++) {
		const struct history_entry *e = &h->e[i];
		cJSON *x = cJSON_CreateObject();
		add_str(x, "commit", e->commit);
		add_str(x, "abbrev", e->abbrev);
		add_str(x, "date", e->date);
		add_str(x, "subject", e->subject);
		cJSON_AddBoolToObject(x, "absent", e->absent);
		cJSON_AddBoolToObject(x, "same_records", e->same_records);
		add_str(x, "gpu", e->gpu);
		add_str(x, "card", e->card);
		add_str(x, "driver", e->driver);
		add_str(x, "toolkit", e->toolkit);
		cJSON_AddNumberToObject(x, "experiments", (double)e->nids);
		size_t p = j->prev[i];
		add_str(x, "previous", p == NONE ? NULL : h->e[p].abbrev);
		if (p != NONE) {
			cJSON_AddNumberToObject(x, "judged", (double)j->judged[i]);
			cJSON_AddNumberToObject(x, "slower", (double)j->slower[i]);
			cJSON_AddNumberToObject(x, "faster", (double)j->faster[i]);
			cJSON_AddBoolToObject(x, "machine_change", j->machine[i]);
			cJSON_AddItemToObject(x, "changed", items_json(j->changed[i]));
		}
		cJSON_AddItemToArray(es, x);
	}
	cJSON *ss = cJSON_AddArrayToObject(doc, "steps");
	for (size_t s = 0; s < j->nsteps; s++) {
		const struct history_step *st = &j->steps[s];
		cJSON *x = cJSON_CreateObject();
		add_str(x, "commit", h->e[st->to].abbrev);
		add_str(x, "previous", h->e[st->from].abbrev);
		add_str(x, "experiment", st->id);
		cJSON_AddNumberToObject(x, "record", (double)st->k);
		add_str(x, "point", st->point);
		cJSON_AddNumberToObject(x, "a_ms", st->p.a_ms);
		cJSON_AddNumberToObject(x, "b_ms", st->p.b_ms);
		cJSON_AddNumberToObject(x, "diff", st->p.diff);
		cJSON_AddNumberToObject(x, "noise", st->p.noise);
		cJSON_AddNumberToObject(x, "band", st->p.band);
		add_str(x, "verdict", compare_verdict_name(st->p.verdict));
		cJSON_AddBoolToObject(x, "machine_change", st->machine);
		cJSON_AddItemToObject(x, "changed", items_json(st->changed));
		cJSON_AddItemToArray(ss, x);
	}
	cJSON *c = cJSON_AddObjectToObject(doc, "check");
	add_str(c, "latest", j->check_to == NONE ? NULL : h->e[j->check_to].abbrev);
	add_str(c, "previous", j->check_from == NONE ? NULL
	                                             : h->e[j->check_from].abbrev);
	cJSON_AddNumberToObject(c, "judged", (double)j->check_judged);
	cJSON_AddNumberToObject(c, "slower", (double)j->check_slower);
	add_str(c, "worst", j->check_worst);
	return doc;
}

/* Write doc to path ("-": stdout). 0, or -1 (reported). */
int history_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"check", no_argument, NULL, OPT_CHECK},
		{"json", required_argument, NULL, OPT_JSON},
		{"all", no_argument, NULL, OPT_ALL},
		{"min-diff", required_argument, NULL, OPT_MIN_DIFF},
		{"max-noise", required_argument, NULL, OPT_MAX_NOISE},
		{"min-ms", required_argument, NULL, OPT_MIN_MS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct compare_opts o = COMPARE_OPTS_INIT;
	int check = 0, all = 0, c;
	const char *json = NULL;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_CHECK: check = 1; break;
		case OPT_JSON: json = optarg; break;
		case OPT_ALL: all = 1; break;
		case OPT_MIN_DIFF:
		case OPT_MAX_NOISE:
			if (percent(optarg, c == OPT_MIN_DIFF ? &o.min_diff
			                                      : &o.max_noise) != 0)
				return usage_fail("history ", "%s wants a percentage, "
				                  "not '%s'", c == OPT_MIN_DIFF
				                  ? "--min-diff" : "--max-noise", optarg);
			break;
		case OPT_MIN_MS:
			if (parse_double(optarg, 0, 1e9, &o.min_ms) != 0)
				return usage_fail("history ", "--min-ms wants "
				                  "milliseconds, not '%s'", optarg);
			break;
		case 'h': fputs(usage_history, stdout); return 0;
		default: return usage_fail_getopt("history ", c, argv);
		}
	}
	if (argc - optind != 1)
		return usage_fail("history ", "history needs one bundle; found %d",
		                  argc - optind);
	struct history *h = NULL;
	struct history_judged j;
	if (history_read(argv[optind], &h) != 0)
		return 2;
	if (history_judge(h, &o, &j) != 0) {
		history_free(h);
		return 2;
	}
	FILE *out = json && !strcmp(json, "-") ? stderr : stdout;
	size_t present = 0;
	for (size_t i = 0; i < h->n; i++)
		present += !h->e[i].absent;
	fprintf(out, "%s: %zu recording%s", h->dir, present, plural(present));
	if (h->path)
		fprintf(out, " (git log -- %s)", h->path);
	fprintf(out, "; a point is a step when |diff| > max(%g x noise, --min-diff "
	        "%g%%)\n", COMPARE_NOISE_TIMES, o.min_diff);
	if (h->note)
		fprintf(out, "%s\n", h->note);
	print_entries(out, h, &j, all);
	print_steps(out, h, &j, all);
	print_check(out, h, &j);
	fflush(out);
	int rc = check && j.check_slower ? 1 : 0;
	if (json) {
		cJSON *doc = history_json(h, &j, &o);
		if (json_write_out(doc, json, "--json") != 0)
			rc = 2;
		cJSON_Delete(doc);
	}
	history_judged_free(&j, h->n);
	history_free(h);
	return rc;
}
