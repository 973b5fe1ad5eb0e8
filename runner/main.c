/*
 * main.c - labbook's command line: arguments, the order of the stages, and
 * the exit status. The only file that exits.
 *
 * Exit statuses:
 *   0  the site was built; every experiment ran or was up to date
 *   1  something failed: a chapter error, an experiment that failed (and was
 *      not allowed to), a page problem, a file that could not be written
 *   2  the command line was wrong
 *   130, 143  interrupted by SIGINT or SIGTERM; the bundle stays consistent
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book.h"
#include "compare.h"
#include "exec.h"
#include "machines.h"
#include "expr.h"
#include "results.h"
#include "site.h"
#include "util.h"

#define VERSION "1.0"

static const char usage[] =
	"usage: labbook build [options]      run the experiments, then write the site\n"
	"       labbook eval --results DIR EXPR   print the value of an expression\n"
	"       labbook compare A B [--max-diff PCT] [--min-ms MS] [--all]\n"
	"                                     compare two results bundles\n"
	"\n"
	"build options:\n"
	"  --chapters DIR    the chapters (default chapters)\n"
	"  --results DIR     the results bundle (default results/local)\n"
	"  --site DIR        where the site goes (default site)\n"
	"  --templates DIR   page template and stylesheet (default templates)\n"
	"  --title TEXT      the book's title\n"
	"  --no-run          render from the bundle; run nothing\n"
	"  --no-site         run, but write no site\n"
	"  --compile-only    compile every experiment, run none (no GPU needed)\n"
	"  --rerun ID        run ID even if its results are up to date (repeatable)\n"
	"  --rerun-all       run everything\n"
	"  --keep-going      exit 0 even when experiments fail (they are still shown)\n"
	"  -j N              parallel compiles (default: the number of cores)\n"
	"  --gpus N          run on N GPUs at once, one experiment per GPU\n"
	"                    (default: every visible GPU of one model; an inherited\n"
	"                    CUDA_VISIBLE_DEVICES says which are visible)\n"
	"  --timeout S       default per-experiment timeout in seconds (default 120)\n"
	"  --runs N          run every experiment in N separate processes, in rounds,\n"
	"                    and keep the median run of each point (default: the\n"
	"                    chapter's runs: option, else 3)\n"
	"  --compare DIR     put the bundle DIR beside the one rendered: a Machines\n"
	"                    page, the claims on every machine, charts that ask\n"
	"                    for several machines (repeatable)\n"
	"  --strict          a claim that does not hold, on any bundle, is an\n"
	"                    error (exit 1), not a warning\n"
	"  --quiet           no progress lines\n"
	"\n"
	"Exit status: 0 success, 1 failures (each reported as file:line), 2 usage,\n"
	"130/143 interrupted. See README.md for chapters, directives and expressions.\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "labbook: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nRun 'labbook --help' for the options.\n");
	return 2;
}

static int cmd_build(int argc, char **argv)
{
	const char *chapters = "chapters", *results = "results/local",
	           *site = "site", *templates = "templates", *title = "labbook";
	struct run_opts ro = {0};
	int no_site = 0, keep_going = 0, strict = 0;
	const char **compare = NULL;
	size_t ncompare = 0;
	ro.run = 1;
	ro.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	ro.timeout = 120;
	ro.output_cap = 1 << 20;
	ro.progress = isatty(2);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE() (next ? argv[++i] : NULL)
		if (!strcmp(a, "--chapters") || !strcmp(a, "--results") ||
		    !strcmp(a, "--site") || !strcmp(a, "--templates") ||
		    !strcmp(a, "--title") || !strcmp(a, "--rerun") || !strcmp(a, "-j") ||
		    !strcmp(a, "--timeout") || !strcmp(a, "--gpus") ||
		    !strcmp(a, "--runs") || !strcmp(a, "--compare")) {
			const char *v = VALUE();
			if (!v)
				return usage_error("%s needs a value", a);
			if (!strcmp(a, "--chapters"))
				chapters = v;
			else if (!strcmp(a, "--results"))
				results = v;
			else if (!strcmp(a, "--site"))
				site = v;
			else if (!strcmp(a, "--templates"))
				templates = v;
			else if (!strcmp(a, "--title"))
				title = v;
			else if (!strcmp(a, "--compare"))
				*ARRAY_PUSH(compare, ncompare) = v;
			else if (!strcmp(a, "--rerun"))
				*ARRAY_PUSH(ro.rerun, ro.nrerun) = (char *)v;
			else if (!strcmp(a, "-j") && (ro.jobs = atoi(v)) < 1)
				return usage_error("-j wants a positive number, not '%s'", v);
			else if (!strcmp(a, "--gpus") && (ro.gpus = atoi(v)) < 1)
				return usage_error("--gpus wants a positive number, not '%s'", v);
			else if (!strcmp(a, "--runs") && (ro.runs = atoi(v)) < 1)
				return usage_error("--runs wants a positive number, not '%s'", v);
			else if (!strcmp(a, "--timeout") && (ro.timeout = atof(v)) <= 0)
				return usage_error("--timeout wants seconds, not '%s'", v);
		} else if (!strcmp(a, "--no-run")) {
			ro.run = 0;
		} else if (!strcmp(a, "--no-site")) {
			no_site = 1;
		} else if (!strcmp(a, "--compile-only")) {
			ro.compile_only = 1;
			no_site = 1;
		} else if (!strcmp(a, "--rerun-all")) {
			ro.rerun_all = 1;
		} else if (!strcmp(a, "--keep-going")) {
			keep_going = 1;
		} else if (!strcmp(a, "--strict")) {
			strict = 1;
		} else if (!strcmp(a, "--quiet")) {
			ro.progress = 0;
		} else if (!strcmp(a, "--progress")) {
			ro.progress = 1;
		} else {
			free(ro.rerun);
			free(compare);
			return usage_error("unknown option '%s'", a);
		}
	}

	double t0 = now_seconds();
	exec_catch_signals();
	struct book bk;
	if (book_load(chapters, &bk) != 0) {
		free(ro.rerun);
		free(compare);
		return 1;
	}
	for (size_t i = 0; i < ro.nrerun; i++)
		if (!book_find(&bk, ro.rerun[i]))
			diag("--rerun %s: no experiment has that id", ro.rerun[i]);
	struct bundle *b = bundle_open(results);
	int failed = book_run(&bk, b, &ro);
	int fresh = 0;
	for (size_t i = 0; i < bk.nexps; i++)
		fresh += bk.exps[i].state == ST_FRESH;

	struct machine_set ms;
	machines_open(b, compare, ncompare, &ms);
	if (!ro.compile_only && !exec_stopping())
		machines_claims_check(&bk, &ms, strict);
	struct site_stats st = {0};
	int site_rc = 0;
	if (!no_site && !exec_stopping()) {
		struct site_opts so = {site, templates, title, bk.gpu, &ms};
		site_rc = site_render(&bk, b, &so, &st);
	}
	int stop = exec_stopping();
	if (ro.progress || fresh || diag_count())
		fprintf(stderr, "labbook: %zu chapters, %zu experiments (%d ran, %d "
		        "failed), %d claims (%d do not hold), %d pages and %d charts "
		        "written, %.2f s\n", bk.nchs, bk.nexps, fresh, failed, st.claims,
		        st.claims_failed, st.pages_written, st.charts_drawn,
		        now_seconds() - t0);
	book_free(&bk);
	machines_free(&ms);
	bundle_free(b);
	free(ro.rerun);
	free(compare);
	if (stop)
		return 128 + stop;
	if (failed && !keep_going)
		return 1;
	int other = diag_count() - failed;
	return site_rc != 0 || other > 0 ? 1 : 0;
}

static int cmd_eval(int argc, char **argv)
{
	const char *results = "results/local", *expr = NULL;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--results") && i + 1 < argc)
			results = argv[++i];
		else if (!expr)
			expr = argv[i];
		else
			return usage_error("eval takes one expression; quote it ('%s')",
			                   argv[i]);
	}
	if (!expr)
		return usage_error("eval needs an expression%s", "");
	struct bundle *b = bundle_open(results);
	struct value v;
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
		puts(out.data);
		rc = 0;
	} else {
		fprintf(stderr, "labbook: %s\n", err);
	}
	value_free(&v);
	free(err);
	free(text);
	buf_free(&out);
	bundle_free(b);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	const char *dirs[2] = {NULL, NULL};
	struct compare_opts o = {5.0, 0.05, 0};
	int nd = 0;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--max-diff") && i + 1 < argc)
			o.max_diff = atof(argv[++i]);
		else if (!strcmp(argv[i], "--min-ms") && i + 1 < argc)
			o.min_ms = atof(argv[++i]);
		else if (!strcmp(argv[i], "--all"))
			o.all = 1;
		else if (argv[i][0] == '-')
			return usage_error("unknown option '%s'", argv[i]);
		else if (nd < 2)
			dirs[nd++] = argv[i];
		else
			return usage_error("compare takes two bundles, not '%s'", argv[i]);
	}
	if (nd != 2)
		return usage_error("compare needs two bundles%s", "");
	struct bundle *a = bundle_open(dirs[0]), *b = bundle_open(dirs[1]);
	int over = compare_bundles(a, b, &o);
	bundle_free(a);
	bundle_free(b);
	return over != 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("labbook %s\n", VERSION);
		return 0;
	}
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		}
	if (!strcmp(argv[1], "build"))
		return cmd_build(argc - 2, argv + 2);
	if (!strcmp(argv[1], "eval"))
		return cmd_eval(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 2, argv + 2);
	return usage_error("unknown command '%s'; commands: build, eval, compare",
	                   argv[1]);
}
