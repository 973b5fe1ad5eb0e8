/*
 * main.c - labbook's command line: arguments, the order of the stages, and
 * the exit status. The only file that exits.
 *
 * Exit statuses:
 *   0  the site was built; every experiment ran or was up to date
 *   1  something failed: a chapter error, an experiment that failed (and was
 *      not allowed to), a page problem, a file that could not be written
 *   2  the command line was wrong
 *   130, 143, 129  interrupted by SIGINT, SIGTERM or SIGHUP; the bundle
 *      stays consistent
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book/book.h"
#include "measure/build.h"
#include "base/buf.h"
#include "bundle/compare.h"
#include "base/exec.h"
#include "base/store.h"
#include "judge/judge.h"
#include "judge/view.h"
#include "judge/machine_set.h"
#include "book/expr.h"
#include "book/format.h"
#include "cli/init.h"
#include "bundle/results.h"
#include "render/site.h"
#include "cli/stamp.h"
#include "base/util.h"
#include "cli/watch.h"
#include "cli/lock.h"
#include "cli/explain_cmd.h"
#include "cli/claims_cmd.h"
#include "cli/history_cmd.h"
#include "cli/root.h"
#include "cli/usage.h"

#define VERSION "1.0"
enum {
	OPT_CHAPTERS = 256, OPT_RESULTS, OPT_SITE, OPT_TEMPLATES, OPT_TITLE,
	OPT_NO_RUN, OPT_NO_SITE, OPT_COMPILE_ONLY, OPT_RERUN, OPT_RERUN_ALL,
	OPT_KEEP_GOING, OPT_GPUS, OPT_TIMEOUT, OPT_COMPILE_TIMEOUT, OPT_RUNS,
	OPT_QUIET, OPT_PROGRESS, OPT_HELP, OPT_MAX_DIFF, OPT_MIN_MS, OPT_ALL,
	OPT_MIN_DIFF, OPT_MAX_NOISE, OPT_REPEAT, OPT_JSON, OPT_COMPARE, OPT_STRICT,
	OPT_LIVE, OPT_LINK, OPT_STATS, OPT_HISTORY, OPT_LEAD,
};

static const struct option build_options[] = {
	{"chapters", required_argument, NULL, OPT_CHAPTERS},
	{"results", required_argument, NULL, OPT_RESULTS},
	{"site", required_argument, NULL, OPT_SITE},
	{"templates", required_argument, NULL, OPT_TEMPLATES},
	{"title", required_argument, NULL, OPT_TITLE},
	{"lead", required_argument, NULL, OPT_LEAD},
	{"no-run", no_argument, NULL, OPT_NO_RUN},
	{"no-site", no_argument, NULL, OPT_NO_SITE},
	{"compile-only", no_argument, NULL, OPT_COMPILE_ONLY},
	{"rerun", required_argument, NULL, OPT_RERUN},
	{"rerun-all", no_argument, NULL, OPT_RERUN_ALL},
	{"keep-going", no_argument, NULL, OPT_KEEP_GOING},
	{"jobs", required_argument, NULL, 'j'},
	{"gpus", required_argument, NULL, OPT_GPUS},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"compile-timeout", required_argument, NULL, OPT_COMPILE_TIMEOUT},
	{"runs", required_argument, NULL, OPT_RUNS},
	{"quiet", no_argument, NULL, OPT_QUIET},
	{"progress", no_argument, NULL, OPT_PROGRESS},
	{"compare", required_argument, NULL, OPT_COMPARE},
	{"strict", no_argument, NULL, OPT_STRICT},
	{"stats", no_argument, NULL, OPT_STATS},
	{"live", no_argument, NULL, OPT_LIVE},
	{"link", required_argument, NULL, OPT_LINK},
	{"history", required_argument, NULL, OPT_HISTORY},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* Is s "URL|TEXT", both parts holding more than spaces and neither a
 * control character? */
static int link_ok(const char *s)
{
	const char *bar = strchr(s, '|');
	if (!bar)
		return 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return strspn(s, " ") < (size_t)(bar - s) && bar[1 + strspn(bar + 1, " ")];
}

/*
 * No GPU, the default bundle, and no results in it for the CUDA
 * experiments: every page would fail on the missing numbers. Say so once.
 */
static int nothing_to_show(const struct book *bk, struct bundle *b)
{
	size_t cuda = 0, have = 0;
	for (size_t i = 0; i < bk->nexps; i++)
		if (bk->exps[i].cuda) {
			cuda++;
			have += bundle_get_meta(b, bk->exps[i].id)->meta != NULL;
		}
	return cuda && !have && !b->machine;
}

static int cmd_build(int argc, char **argv)
{
	const char *chapters = "chapters", *results = "results/local",
	           *site = "site", *templates = NULL, *title = "labbook",
	           *root = NULL, *history = NULL, *lead = NULL;
	struct run_opts ro = {0};
	int no_site = 0, keep_going = 0, chapters_given = 0, results_given = 0;
	int live = 0;
	int strict = 0, stats = 0, quiet = 0;
	const char **compare = NULL, **links = NULL;
	size_t ncompare = 0, nlinks = 0;
	int rc = 2, lock = -1;
	struct buf warnings = BUF_INIT; /* what this build warned of */
	ro.run = 1;
	ro.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	ro.timeout = 120;
	ro.output_cap = RESULTS_OUTPUT_CAP;
	ro.progress = isatty(2);
	int c;
	long n;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:C:j:h", build_options, NULL)) != -1) {
		switch (c) {
		case 'C': root = optarg; break;
		case OPT_CHAPTERS: chapters = optarg; chapters_given = 1; break;
		case OPT_RESULTS: results = optarg; results_given = 1; break;
		case OPT_SITE: site = optarg; break;
		case OPT_TEMPLATES: templates = optarg; break;
		case OPT_TITLE: title = optarg; break;
		case OPT_LEAD: lead = optarg; break;
		case OPT_NO_RUN: ro.run = 0; break;
		case OPT_NO_SITE: no_site = 1; break;
		case OPT_COMPILE_ONLY: ro.compile_only = 1; no_site = 1; break;
		case OPT_RERUN: *ARRAY_PUSH(ro.rerun, ro.nrerun) = optarg; break;
		case OPT_RERUN_ALL: ro.rerun_all = 1; break;
		case OPT_KEEP_GOING: keep_going = 1; break;
		case OPT_QUIET: ro.progress = 0; quiet = 1; break;
		case OPT_PROGRESS: ro.progress = 1; quiet = 0; break;
		case OPT_LIVE: live = 1; break;
		case OPT_COMPARE: *ARRAY_PUSH(compare, ncompare) = optarg; break;
		case OPT_STRICT: strict = 1; break;
		case OPT_STATS: stats = 1; break;
		case OPT_HISTORY: history = optarg; break;
		case OPT_LINK:
			if (!link_ok(optarg)) {
				usage_fail("build ", "--link wants 'URL|TEXT', a link and "
				            "its words, not '%s'", optarg);
				goto out;
			}
			*ARRAY_PUSH(links, nlinks) = optarg;
			break;
		case 'h':
			fputs(usage_build, stdout);
			rc = 0;
			goto out;
		case 'j':
			if (parse_long(optarg, 1, 1024, &n) != 0) {
				usage_fail("build ", "-j wants a positive number (a whole "
				            "number up to 1024), not '%s'", optarg);
				goto out;
			}
			ro.jobs = (int)n;
			break;
		case OPT_GPUS:
			if (parse_long(optarg, 1, 1024, &n) != 0) {
				usage_fail("build ", "--gpus wants a positive number (a "
				            "whole number up to 1024), not '%s'", optarg);
				goto out;
			}
			ro.gpus = (int)n;
			break;
		case OPT_RUNS:
			if (parse_long(optarg, 1, RUNS_MAX, &n) != 0) {
				usage_fail("build ", "--runs wants a positive number (a "
				            "whole number up to %d), not '%s'", RUNS_MAX, optarg);
				goto out;
			}
			ro.runs = (int)n;
			break;
		case OPT_TIMEOUT:
		case OPT_COMPILE_TIMEOUT:
			if (parse_double(optarg, 0.001, TIMEOUT_MAX,
			                 c == OPT_TIMEOUT ? &ro.timeout
			                                  : &ro.compile_timeout) != 0) {
				usage_fail("build ", "%s wants seconds, more than 0 and at "
				            "most %.0f, not '%s'", c == OPT_TIMEOUT
				            ? "--timeout" : "--compile-timeout",
				            TIMEOUT_MAX, optarg);
				goto out;
			}
			break;
		default:
			usage_fail_getopt("build ", c, argv);
			goto out;
		}
	}
	if (optind < argc) {
		usage_fail("build ", "build takes no arguments, only options; "
		            "found '%s'", argv[optind]);
		goto out;
	}
	rc = 1;
	if (root_enter(root, chapters, chapters_given) != 0)
		goto out;

	double t0 = now_seconds();
	exec_catch_signals();
	lock = lock_take(ro.run ? results : NULL);
	if (lock < 0) {
		if (exec_stopping())
			rc = 128 + exec_stopping();
		goto out;
	}
	/* What a killed build was writing; no other build is under way. */
	dir_remove_stale_temps(results, 1);
	if (!no_site)
		dir_remove_stale_temps(site, 2);
	/* A render that would change nothing is not made (stamp.h). */
	char key[33];
	int stamped = !ro.run && !no_site;
	if (stamped) {
		size_t checked;
		struct buf warned = BUF_INIT;
		stamp_key(argc, argv, key);
		if (stamp_fresh(site, key, &checked, &warned)) {
			/* What the build it spares said, said again. */
			fputs(warned.data ? warned.data : "", stderr);
			buf_free(&warned);
			if (!quiet)
				fprintf(stderr, "labbook: %s is up to date (%zu files "
				        "checked), %.2f s\n", site, checked,
				        now_seconds() - t0);
			rc = 0;
			goto out;
		}
		buf_free(&warned);
		stamp_begin(site);
		diag_log_warnings(&warnings);
	}
	struct book bk;
	if (book_load(chapters, &bk) != 0)
		goto out;
	for (size_t i = 0; i < ro.nrerun; i++)
		if (!book_find(&bk, ro.rerun[i]))
			diag("--rerun %s: no experiment has that id", ro.rerun[i]);
	struct bundle *b = bundle_open(results);
	int failed = book_run(&bk, b, &ro);
	book_mark_needs(&bk, b);
	int ran = 0;
	for (size_t i = 0; i < bk.nexps; i++)
		ran += bk.exps[i].state == ST_RAN;

	struct site_stats st = {0};
	int site_rc = 0, hidden = 0;
	if (!results_given && !bk.gpu && !ro.compile_only && nothing_to_show(&bk, b)) {
		fprintf(stderr, "labbook: no GPU here to measure on, and %s holds no "
		        "results yet, so the pages have no numbers to show. Render a "
		        "recorded bundle instead: labbook build --results results/h200 "
		        "--no-run\n", results);
		hidden = 1;
		diag_quiet(1);
	}
	/* A page would say "not measured" or "changed since recorded"; the
	 * terminal says so too, and a strict build says it fails. */
	if (!hidden && !ro.compile_only && !exec_stopping())
		book_check_measured(&bk, b, strict);
	struct machine_set ms;
	machines_open(&bk, b, compare, ncompare, &ms);
	struct judged_book jb = {0};
	char *cache = no_site ? NULL : path_join(site, SITE_CACHE_FILE);
	struct store *store = cache && mkdir_p(site) == 0 ? store_open(cache) : NULL;
	free(cache);
	if (!ro.compile_only && !exec_stopping()) {
		judge_with_repeats(&bk, ms.b, ms.n, store, &jb);
		ms.jb = &jb;
		if (!hidden)
			judge_report(&jb, &bk, ms.b, strict);
		if (!no_site) {
			machines_views(&bk, &ms);
			judge_dirs_check(&jb, &bk, &ms, store);
		}
	}
	if (stats)
		fprintf(stderr, "labbook: %zu expressions parsed; %zu judged on "
		        "%zu bundle%s (%zu evaluated, %zu kept from an earlier "
		        "build), and %zu evaluations with their data perturbed\n",
		        jb.parsed, jb.evaluated + jb.kept, jb.nbundles,
		        plural(jb.nbundles), jb.evaluated, jb.kept, jb.perturbed);
	if (!no_site && !exec_stopping()) {
		char *found = templates ? NULL : init_templates_find();
		struct history_site *hist = history ? history_site_open(history) : NULL;
		if (!ms.views)
			machines_views(&bk, &ms);
		struct site_opts so = {site, templates ? templates : found, title,
		                       bk.gpu, &ms, live, strict, links, nlinks,
		                       store, hist, lead};
		site_rc = site_render(&bk, &so, &st);
		for (size_t i = 0; i < st.nproblems; i++) {
			diag_at(st.problems[i].file, st.problems[i].line, "%s",
			        st.problems[i].msg);
			free(st.problems[i].file);
			free(st.problems[i].msg);
		}
		free(st.problems);
		history_site_free(hist);
		free(found);
	}
	if (store_close(store) != 0)
		site_rc = -1;
	diag_quiet(0);
	int stop = exec_stopping();
	/* The summary, on a terminal or in a log, unless --quiet (then only
	 * when something ran or went wrong). */
	if (!live && (!quiet || ran || diag_count()))
		fprintf(stderr, "labbook: %zu chapter%s, %zu experiment%s (%d ran, %d "
		        "failed), %d claim%s (%d do not hold), %d page%s and %d "
		        "chart%s written, %.2f s\n", bk.nchs, plural(bk.nchs), bk.nexps,
		        plural(bk.nexps), ran, failed, st.claims,
		        plural((size_t)st.claims), st.claims_failed, st.pages_written,
		        plural((size_t)st.pages_written), st.charts_drawn,
		        plural((size_t)st.charts_drawn), now_seconds() - t0);
	judge_free(&jb);
	book_free(&bk);
	machines_free(&ms);
	bundle_free(b);
	if (stop == SIGHUP)
		fprintf(stderr, "labbook: hangup (the terminal was closed); the "
		        "build stopped, and the results it had are kept\n");
	if (stop)
		rc = 128 + stop;
	else if (failed && !keep_going)
		rc = 1;
	else
		rc = site_rc != 0 || hidden || diag_count() - failed > 0 ? 1 : 0;
	diag_log_warnings(NULL);
	if (stamped && rc == 0 && !diag_count())
		stamp_write(site, key, warnings.data);
	else if (stamped)
		stamp_end();
out:
	buf_free(&warnings);
	if (lock >= 0)
		close(lock);
	free(ro.rerun);
	free(compare);
	free(links);
	return rc;
}

/* Does dir look like a bundle: machine.json or a records file? */
static int bundle_present(const char *dir)
{
	struct bundle *b = bundle_open(dir);
	char **ids = NULL;
	size_t n = 0;
	int ok = b->machine || b->machine_bad ||
	         (file_exists(dir) && bundle_list(b, &ids, &n) == 0 && n > 0);
	argv_free(ids);
	bundle_free(b);
	return ok;
}

/*
 * labbook watch: the build options, of which watch needs to know only
 * where things are (the builds check them all), in the book's root.
 */
static int cmd_watch(int argc, char **argv)
{
	struct watch_opts w = {"chapters", "results/local", "site", NULL, 0};
	const char *root = NULL;
	int c, chapters_given = 0;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:C:j:h", build_options, NULL)) != -1) {
		switch (c) {
		case 'C': root = optarg; break;
		case OPT_CHAPTERS: w.chapters = optarg; chapters_given = 1; break;
		case OPT_RESULTS: w.results = optarg; break;
		case OPT_SITE: w.site = optarg; break;
		case OPT_TEMPLATES: w.templates = optarg; break;
		case OPT_NO_RUN: w.no_run = 1; break;
		case 'h': fputs(usage_watch, stdout); return 0;
		default: break;
		}
	}
	opterr = 1;
	if (root_enter(root, w.chapters, chapters_given) != 0)
		return 1;
	/* The templates the builds use: the book's own, or labbook's. */
	char *found = w.templates ? NULL : init_templates_find();
	if (found)
		w.templates = found;
	int rc = watch_main(&w, argc - 1, argv + 1);
	free(found);
	return rc;
}

static int cmd_eval(int argc, char **argv)
{
	const char *results = "results/local";
	static const struct option opts[] = {
		{"results", required_argument, NULL, OPT_RESULTS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:h", opts, NULL)) != -1) {
		if (c == OPT_RESULTS)
			results = optarg;
		else if (c == 'h') {
			fputs(usage_eval, stdout);
			return 0;
		} else
			return usage_fail_getopt("eval ", c, argv);
	}
	if (optind == argc)
		return usage_fail("eval ", "eval needs an expression");
	if (optind + 1 < argc)
		return usage_fail("eval ", argv[optind + 1][0] == '-' ? "options "
		                  "come first: labbook eval %s ... 'EXPR'" : "eval "
		                  "takes one expression; quote it ('%s')",
		                  argv[optind + 1]);
	const char *expr = argv[optind];
	struct bundle *b = bundle_open(results);
	struct value v = {0};
	char *err = NULL;
	struct buf out = BUF_INIT;
	int rc = 1;
	/* A trailing printf format, as in chapters: "max(x.y) %.1f". */
	char *text = xstrdup(expr), *fmt = NULL;
	char *sp = strrchr(text, ' ');
	if (sp && sp[1] == '%') {
		fmt = sp + 1;
		*sp = '\0';
	}
	if (expr_eval(text, b, &v, &err) == 0 &&
	    value_format(&v, fmt, 0, &out, &err) == 0) {
		puts(out.data ? out.data : "");
		rc = 0;
	} else if (!bundle_present(results)) {
		fprintf(stderr, "labbook: %s; there is no results bundle in %s (no "
		        "machine.json and no records); name one with --results DIR, "
		        "e.g. --results results/h200\n", err ? err : "error", results);
	} else {
		fprintf(stderr, "labbook: %s\n", err ? err : "error");
	}
	value_free(&v);
	free(err);
	free(text);
	buf_free(&out);
	bundle_free(b);
	return rc;
}

/* A percentage, "2" or "2%", into *out; 0 or -1. */
static int parse_percent(const char *s, double *out)
{
	size_t n = strlen(s);
	char *t = xstrdup(s);
	if (n && t[n - 1] == '%')
		t[n - 1] = 0;
	int rc = parse_double(t, 0, 1e9, out);
	free(t);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = COMPARE_OPTS_INIT;
	const char *repeat = NULL;
	int no_repeat = 0;
	static const struct option opts[] = {
		{"max-diff", required_argument, NULL, OPT_MAX_DIFF},
		{"min-diff", required_argument, NULL, OPT_MIN_DIFF},
		{"max-noise", required_argument, NULL, OPT_MAX_NOISE},
		{"min-ms", required_argument, NULL, OPT_MIN_MS},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"no-repeat", no_argument, NULL, 'R'},
		{"json", required_argument, NULL, OPT_JSON},
		{"all", no_argument, NULL, OPT_ALL},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_MAX_DIFF:
			if (parse_percent(optarg, &o.max_diff) != 0)
				return usage_fail("compare ", "--max-diff wants a "
				                   "percentage, not '%s'", optarg);
			break;
		case OPT_MIN_DIFF:
			if (parse_percent(optarg, &o.min_diff) != 0)
				return usage_fail("compare ", "--min-diff wants a "
				                   "percentage, not '%s'", optarg);
			break;
		case OPT_MAX_NOISE:
			if (parse_percent(optarg, &o.max_noise) != 0)
				return usage_fail("compare ", "--max-noise wants a "
				                   "percentage, not '%s'", optarg);
			break;
		case OPT_MIN_MS:
			if (parse_double(optarg, 0, 1e9, &o.min_ms) != 0)
				return usage_fail("compare ", "--min-ms wants "
				                   "milliseconds, not '%s'", optarg);
			break;
		case OPT_REPEAT: repeat = optarg; break;
		case 'R': no_repeat = 1; break;
		case OPT_JSON: o.json = optarg; break;
		case OPT_ALL: o.all = 1; break;
		case 'h': fputs(usage_compare, stdout); return 0;
		default: return usage_fail_getopt("compare ", c, argv);
		}
	}
	if (argc - optind != 2)
		return usage_fail("compare ", "compare needs two bundles, A and B; "
		                   "found %d", argc - optind);
	if (repeat && no_repeat)
		return usage_fail("compare ", "--repeat and --no-repeat contradict "
		                   "each other");
	const char *da = argv[optind], *db = argv[optind + 1];
	struct bundle *a = bundle_open(da);
	struct bundle *b = bundle_open(db);
	int over = -1;
	if (o.max_diff >= 0 || no_repeat ||
	    compare_repeat_open(da, db, repeat, &o.repeat) == 0)
		over = compare_bundles(a, b, &o);
	bundle_free(o.repeat);
	bundle_free(a);
	bundle_free(b);
	/* 1 for a point slower beyond its noise, 2 when nothing could be
	 * compared. */
	return over < 0 ? 2 : over > 0 ? 1 : 0;
}

static int cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{"force", no_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c, force = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "+:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'f': force = 1; break;
		case 'h': fputs(usage_init, stdout); return 0;
		default: return usage_fail_getopt("init ", c, argv);
		}
	}
	if (argc - optind != 1)
		return usage_fail("init ", "init takes one folder, the new book's");
	return init_book(argv[optind], force) != 0;
}

int main(int argc, char **argv)
{
	usage_json_alone(argc, argv);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage_labbook, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("labbook %s\n", VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "build"))
		return cmd_build(argc - 1, argv + 1);
	if (!strcmp(argv[1], "watch"))
		return cmd_watch(argc - 1, argv + 1);
	if (!strcmp(argv[1], "eval"))
		return cmd_eval(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "init"))
		return cmd_init(argc - 1, argv + 1);
	if (!strcmp(argv[1], "explain"))
		return explain_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "claims"))
		return claims_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "history"))
		return history_main(argc - 1, argv + 1);
	return usage_fail_command(argv[1]);
}
