/* explain_cmd.c - the command line of labbook explain (explain_cmd.h). */
#include "cli/explain_cmd.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/exec.h"
#include "base/util.h"
#include "book/book.h"
#include "bundle/results.h"
#include "cli/root.h"
#include "cli/usage.h"
#include "measure/explain.h"

enum {
	OPT_CHAPTERS = 256, OPT_RESULTS, OPT_NO_RUN, OPT_COMPILE_ONLY, OPT_RERUN,
	OPT_RERUN_ALL, OPT_GPUS, OPT_RUNS, OPT_IGNORED, OPT_IGNORED_VALUE,
};

static const struct option explain_options[] = {
	{"chapters", required_argument, NULL, OPT_CHAPTERS},
	{"results", required_argument, NULL, OPT_RESULTS},
	{"no-run", no_argument, NULL, OPT_NO_RUN},
	{"compile-only", no_argument, NULL, OPT_COMPILE_ONLY},
	{"rerun", required_argument, NULL, OPT_RERUN},
	{"rerun-all", no_argument, NULL, OPT_RERUN_ALL},
	{"gpus", required_argument, NULL, OPT_GPUS},
	{"runs", required_argument, NULL, OPT_RUNS},
	/* A build's, which decide nothing explain says. */
	{"site", required_argument, NULL, OPT_IGNORED_VALUE},
	{"templates", required_argument, NULL, OPT_IGNORED_VALUE},
	{"title", required_argument, NULL, OPT_IGNORED_VALUE},
	{"jobs", required_argument, NULL, OPT_IGNORED_VALUE},
	{"timeout", required_argument, NULL, OPT_IGNORED_VALUE},
	{"compile-timeout", required_argument, NULL, OPT_IGNORED_VALUE},
	{"compare", required_argument, NULL, OPT_IGNORED_VALUE},
	{"no-site", no_argument, NULL, OPT_IGNORED},
	{"keep-going", no_argument, NULL, OPT_IGNORED},
	{"strict", no_argument, NULL, OPT_IGNORED},
	{"quiet", no_argument, NULL, OPT_IGNORED},
	{"progress", no_argument, NULL, OPT_IGNORED},
	{"live", no_argument, NULL, OPT_IGNORED},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

int explain_main(int argc, char **argv)
{
	const char *chapters = "chapters", *results = "results/local";
	const char *root = NULL;
	struct run_opts ro = {0};
	int c, chapters_given = 0, rc = 2;
	long n;
	ro.run = 1;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":C:j:h", explain_options, NULL)) != -1) {
		switch (c) {
		case 'C': root = optarg; break;
		case OPT_CHAPTERS: chapters = optarg; chapters_given = 1; break;
		case OPT_RESULTS: results = optarg; break;
		case OPT_NO_RUN: ro.run = 0; break;
		case OPT_COMPILE_ONLY: ro.compile_only = 1; break;
		case OPT_RERUN: *ARRAY_PUSH(ro.rerun, ro.nrerun) = optarg; break;
		case OPT_RERUN_ALL: ro.rerun_all = 1; break;
		case 'j':
		case OPT_IGNORED:
		case OPT_IGNORED_VALUE:
			break;
		case OPT_GPUS:
		case OPT_RUNS:
			if (parse_long(optarg, 1, c == OPT_RUNS ? RUNS_MAX : 1024, &n) != 0) {
				usage_fail("explain ", "%s wants a whole number from 1 to %d, "
				           "not '%s'", c == OPT_RUNS ? "--runs" : "--gpus",
				           c == OPT_RUNS ? RUNS_MAX : 1024, optarg);
				goto out;
			}
			*(c == OPT_RUNS ? &ro.runs : &ro.gpus) = (int)n;
			break;
		case 'h':
			fputs(usage_explain, stdout);
			rc = 0;
			goto out;
		default:
			usage_fail_getopt("explain ", c, argv);
			goto out;
		}
	}
	if (argc - optind != 1) {
		usage_fail("explain ", "explain takes one experiment id; found %d",
		           argc - optind);
		goto out;
	}
	const char *id = argv[optind];
	rc = 1;
	if (root_enter(root, chapters, chapters_given) != 0)
		goto out;
	exec_catch_signals();
	struct book bk;
	if (book_load(chapters, &bk) != 0)
		goto out;
	/* As build says of them: what it would rerun must be there. */
	for (size_t i = 0; i < ro.nrerun; i++)
		if (!book_find(&bk, ro.rerun[i]))
			diag("--rerun %s: no experiment has that id", ro.rerun[i]);
	struct bundle *b = bundle_open(results);
	int explained = book_explain(&bk, b, id, &ro) == 0;
	rc = explained && !diag_count() ? 0 : 1;
	if (exec_stopping())
		rc = 128 + exec_stopping();
	book_free(&bk);
	bundle_free(b);
out:
	free(ro.rerun);
	return rc;
}
