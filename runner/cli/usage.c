/* usage.c - the help texts of labbook's commands, and what a wrong
 * command line is told (usage.h). */
#include "cli/usage.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char usage_labbook[] =
	"usage: labbook build [options]          run the experiments, then write the site\n"
	"       labbook watch [options]          build, then build again on every save\n"
	"       labbook explain ID [options]     why experiment ID will run on the next\n"
	"                                        build, or why it ran last time\n"
	"       labbook eval [--results DIR] 'EXPR [%fmt]'\n"
	"                                        print the value of an expression\n"
	"       labbook compare A B [options]    compare two results bundles\n"
	"       labbook history BUNDLE [options] a bundle over the commits that\n"
	"                                        recorded it: which points moved, when\n"
	"       labbook claims [options]         every claim: whether it holds, its\n"
	"                                        margin against the noise, its teeth\n"
	"       labbook init [--force] DIR       write a starter book into DIR\n"
	"       labbook COMMAND --help           the options of one command\n"
	"\n"
	"Exit status: 0 success, 1 failures (each reported as file:line), 2 usage,\n"
	"130/143/129 interrupted. The manual (docs/ in labbook's repository) tells\n"
	"how to write chapters, directives and expressions.\n";

const char usage_build[] =
	"usage: labbook build [options]\n"
	"Run the experiments whose inputs changed, then write the site.\n"
	"\n"
	"  -C DIR            work in the book at DIR (default: this folder, or the\n"
	"                    nearest one above it that has a chapters folder)\n"
	"  --chapters DIR    the chapters (default chapters)\n"
	"  --results DIR     the results bundle (default results/local)\n"
	"  --site DIR        where the site goes (default site)\n"
	"  --templates DIR   page template and stylesheet (default: ./templates,\n"
	"                    else those installed with labbook)\n"
	"  --title TEXT      the book's title\n"
	"  --lead TEXT       the line under it on the index and the one-page book\n"
	"                    (default: a line saying how the book checks itself)\n"
	"  --no-run          render from the bundle; run nothing, start no tool;\n"
	"                    a site whose inputs are as the last clean build\n"
	"                    left them is checked and left as it is\n"
	"  --no-site         run, but write no site\n"
	"  --compile-only    compile every experiment, run none (no GPU needed)\n"
	"  --rerun ID        run ID even if its results are up to date (repeatable)\n"
	"  --rerun-all       run everything\n"
	"  --keep-going      exit 0 even when experiments fail (they are still shown)\n"
	"  -j, --jobs N      parallel compiles (default: the number of cores)\n"
	"  --gpus N          run on N GPUs at once, one experiment per GPU\n"
	"                    (default: every visible GPU of one model; an inherited\n"
	"                    CUDA_VISIBLE_DEVICES says which are visible)\n"
	"  --timeout S       default per-run timeout in seconds (default 120)\n"
	"  --compile-timeout S  per-compile timeout in seconds (default 600)\n"
	"  --runs N          run every experiment in N separate processes (1 to 100),\n"
	"                    in rounds, and keep the median run of each point\n"
	"                    (default 3); a directive's runs: wins over it\n"
	"  --compare DIR     put the bundle DIR beside the one rendered: a Machines\n"
	"                    page, the claims on every machine, charts that ask\n"
	"                    for several machines (repeatable)\n"
	"  --strict          a claim that does not hold, cannot fail or is\n"
	"                    fragile (labbook claims), on any bundle, is an error\n"
	"                    (exit 1), not a warning; so is an experiment with no\n"
	"                    results in the bundle, or one changed since they\n"
	"                    were recorded\n"
	"  --stats           say how many expressions were parsed and evaluated\n"
	"  --quiet           no progress lines, and no summary line unless something\n"
	"                    ran or went wrong (without it the summary is printed\n"
	"                    whatever stderr is)\n"
	"  --progress        progress lines even when stderr is not a terminal\n"
	"  --live            pages reload themselves after each build of labbook\n"
	"                    watch, which gives it and prints the summary itself\n"
	"  --link 'URL|TEXT' one more link on the index page, e.g. to a manual\n"
	"                    beside the book (repeatable)\n"
	"  --history BUNDLE  a History page: BUNDLE over its commits (labbook\n"
	"                    history --help)\n";

const char usage_claims[] =
	"usage: labbook claims [options]\n"
	"Judge every claim of the book on a results bundle, and print one line per\n"
	"claim: FILE:LINE, then for each bundle whether it holds and its margin\n"
	"(how many noise bands a change of the data it reads must cross to flip\n"
	"it; (!) under 3: fragile; exact: what flips it has no noise), then its\n"
	"teeth (bites; loose: only a change of 2x or more flips it; cannot-fail:\n"
	"no change of x1/8 to x8 of what it reads does) and what flips it. Static\n"
	"checks, which read only compiler output, are listed apart.\n"
	"\n"
	"  -C DIR            work in the book at DIR\n"
	"  --chapters DIR    the chapters (default chapters)\n"
	"  --results DIR     the results bundle (default results/local)\n"
	"  --compare DIR     judge on the bundle DIR too (repeatable)\n"
	"  --json FILE       write the claims as JSON to FILE (- or no FILE, last\n"
	"                    or before another option: stdout, and the table goes\n"
	"                    to stderr)\n"
	"  --strict          exit 1 when a claim does not hold, is fragile or\n"
	"                    cannot fail on some bundle\n";

const char usage_watch[] =
	"usage: labbook watch [options]\n"
	"Build, then build again whenever a chapter, a template, the results bundle\n"
	"or a file an experiment is built from changes, printing one line per\n"
	"build; open pages reload themselves. Ctrl-C stops (exit status 130).\n"
	"\n"
	"The options are those of labbook build (labbook build --help).\n";

const char usage_explain[] =
	"usage: labbook explain ID [the build options]\n"
	"Say what the next labbook build, with the same options, will do with\n"
	"experiment ID, and why. It will run: each input whose part of the cache\n"
	"key changed (the source, a header it includes, a file of its inputs:\n"
	"option, args, flags, runs, the compiler, the GPU or its driver), or why\n"
	"else (no results yet, a failed attempt, --rerun). It is cached: the build\n"
	"and date it ran in, and why it ran then. It cannot run (--no-run, no GPU\n"
	"or no nvcc for a CUDA experiment): its page is rendered from the recorded\n"
	"results, and what changed since they were recorded. A bundle recorded\n"
	"before per-input hashes were kept names the inputs it cannot tell apart.\n"
	"Runs nothing and writes nothing of the bundle.\n"
	"\n"
	"  -C DIR, --chapters DIR, --results DIR    as for labbook build\n"
	"  --no-run, --compile-only, --rerun ID, --rerun-all, --runs N, --gpus N\n"
	"                    as for labbook build: they change what it would do\n"
	"The other build options are taken and change nothing.\n"
	"\n"
	"Exit status: 0 explained, 1 no experiment ID (the nearest ids are named)\n"
	"or a problem reported as file:line, 2 a wrong command line.\n";

const char usage_eval[] =
	"usage: labbook eval [--results DIR] 'EXPR [%fmt]'\n"
	"Print the value of an inline expression over a results bundle\n"
	"(default results/local), as a chapter's {{ EXPR %fmt }} would show it.\n"
	"\n"
	"  machine.sm_count                 a field of machine.json (or its measured facts)\n"
	"  ilp.gflops                       the gflops field of every record of ilp\n"
	"  ilp.gflops[view=sm, ilp=8]       ... of the records matching every condition\n"
	"                                   (OP is = != < <= > >=; a value is a number,\n"
	"                                   a word, a quoted string or an expression)\n"
	"  max min mean median sum count first last      aggregates of a column\n"
	"  argmax(X, field) argmin(X, field)             field of the largest/smallest\n"
	"  abs sqrt log2 log10 pow round                 numbers\n"
	"  + - * /  < <= > >= == !=  && || !  ( )        arithmetic, comparison, logic\n"
	"\n"
	"A column used where one number is needed must select exactly one record.\n"
	"The format is one printf conversion, e.g. %.1f or %d.\n"
	"Example: labbook eval --results results/h200 'max(ilp.gflops[view=sm]) %.0f'\n";

const char usage_compare[] =
	"usage: labbook compare A B [--min-diff PCT] [--max-noise PCT] [--repeat DIR]\n"
	"                           [--no-repeat] [--max-diff PCT] [--min-ms MS]\n"
	"                           [--json FILE] [--all]\n"
	"Compare two results bundles point by point: for each record with a median\n"
	"time, diff = (B - A) / A of the medians, so a positive diff means B took\n"
	"longer (is slower) than A. Each point is judged against its noise: the\n"
	"larger quartile range or run spread of A and B, and A's difference from\n"
	"A-repeat (the folder A followed by -repeat) where that exists. It is\n"
	"slower or faster when |diff| > max(3 x noise, --min-diff), else within noise.\n"
	"\n"
	"  --min-diff PCT    never flag a smaller difference (default 1)\n"
	"  --max-noise PCT   points noisier than this are listed apart, not judged\n"
	"                    (default 10)\n"
	"  --repeat DIR      the repeat of A to take the run-to-run difference from\n"
	"  --no-repeat       use no repeat of A\n"
	"  --max-diff PCT    the flat test instead: points that differ by more fail,\n"
	"                    whatever their noise\n"
	"  --min-ms MS       points faster than this in either bundle are shown but\n"
	"                    not judged (default 0.05)\n"
	"  --json FILE       write the verdicts as JSON to FILE (- or no FILE, last\n"
	"                    or before another option: stdout, and the table to\n"
	"                    stderr)\n"
	"  --all             print every point, not only those flagged\n"
	"\n"
	"Records marked host_bound are listed apart and never fail it. Exit status:\n"
	"0 nothing slower beyond noise, 1 a point slower (with --max-diff: a point\n"
	"over it), 2 nothing could be compared (a bundle missing, empty or corrupt,\n"
	"no point in common) or a wrong command line.\n";

const char usage_history[] =
	"usage: labbook history BUNDLE [--check] [--json FILE] [--all]\n"
	"                              [--min-diff PCT] [--max-noise PCT] [--min-ms MS]\n"
	"The bundle as each commit that changed it left it (git log -- BUNDLE; git\n"
	"is the store, nothing is copied), and the working tree where it has changes\n"
	"not committed. Each recording is judged against the one before, point by\n"
	"point, as labbook compare judges two bundles: a point is a step when\n"
	"|diff| > max(3 x noise, --min-diff). Each step is named with its commit and\n"
	"what changed between the two recordings: the experiment's sources, lab.h,\n"
	"flags, arguments, the toolkit, the driver, the card. A change of card or\n"
	"driver is a change of machine: its steps are counted, not listed (--all\n"
	"lists them), and never fail --check.\n"
	"\n"
	"  --check           exit 1 when the latest recording is slower beyond noise\n"
	"                    than the one before it on the same card and driver\n"
	"  --json FILE       write the recordings, steps and check as JSON to FILE\n"
	"                    (- or no FILE, last or before another option: stdout,\n"
	"                    and the text to stderr)\n"
	"  --all             list the steps across a change of machine too\n"
	"  --min-diff PCT    never call a smaller difference a step (default 1)\n"
	"  --max-noise PCT   points noisier than this are not judged (default 10)\n"
	"  --min-ms MS       points faster than this are not judged (default 0.05)\n"
	"\n"
	"Exit status: 0, or 1 when --check finds a point slower; 2 a wrong command\n"
	"line, or a bundle with no records now or in any commit, or git failed.\n";

const char usage_init[] =
	"usage: labbook init [--force] DIR\n"
	"Write a starter book into DIR: a chapter, an experiment in C that needs\n"
	"no GPU, a chart, a claim and a Makefile. It builds as it is: cd DIR && make\n"
	"DIR must be new or empty; --force writes into a folder that holds\n"
	"something, and names each file it replaces.\n";

int usage_fail(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "labbook: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nRun 'labbook %s--help' for the options.\n", cmd);
	return 2;
}

/* The help text of cmd ("build ", "" for labbook itself). */
static const char *usage_of(const char *cmd)
{
	static const struct {
		const char *cmd, *text;
	} all[] = {
		{"build ", usage_build},     {"watch ", usage_watch},
		{"explain ", usage_explain}, {"eval ", usage_eval},
		{"compare ", usage_compare}, {"history ", usage_history},
		{"claims ", usage_claims},   {"init ", usage_init},
	};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!strcmp(all[i].cmd, cmd))
			return all[i].text;
	return usage_labbook;
}

/* The long option of cmd's help nearest to opt ("--resluts=x"), when one
 * is a slip away; NULL otherwise. Caller frees. */
static char *nearest_option(const char *cmd, const char *opt)
{
	const char *text = usage_of(cmd), **names = NULL;
	char *want = xstrndup(opt, strcspn(opt, "=")), *found = NULL;
	size_t n = 0;
	/* Compared without their dashes, which every option shares. */
	for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--")) {
		size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
		if (len > 1)
			*ARRAY_PUSH(names, n) = xstrndup(p + 2, len);
	}
	const char *bare = want + strspn(want, "-");
	const char *near = str_nearest(bare, names, n);
	if (near && strcmp(near, bare))
		found = xasprintf("--%s", near);
	for (size_t i = 0; i < n; i++)
		free((char *)names[i]);
	free(names);
	free(want);
	return found;
}

int usage_fail_getopt(const char *cmd, int c, char **argv)
{
	char shortopt[3] = {'-', (char)optopt, '\0'};
	/* A long option's optopt is its code (256 and up), or 0. */
	const char *opt = optopt > 0 && optopt < 256 ? shortopt : argv[optind - 1];
	if (c == ':')
		return usage_fail(cmd, "%s needs a value", opt);
	char *near = !strncmp(opt, "--", 2) ? nearest_option(cmd, opt) : NULL;
	int rc = near ? usage_fail(cmd, "unknown option '%s'; did you mean '%s'?",
	                           opt, near)
	              : usage_fail(cmd, "unknown option '%s'", opt);
	free(near);
	return rc;
}

void usage_json_alone(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json") &&
		    (i + 1 == argc || (argv[i + 1][0] == '-' && argv[i + 1][1])))
			argv[i] = "--json=-";
}

int usage_fail_command(const char *cmd)
{
	static const char *const cmds[] = {"build", "watch", "explain", "eval",
	                                   "compare", "history", "claims", "init"};
	const char *near = str_nearest(cmd, cmds, sizeof cmds / sizeof *cmds);
	return usage_fail("", "unknown command '%s'%s%s%s; commands: build, watch, "
	                  "explain, eval, compare, history, claims, init", cmd,
	                  near ? " (did you mean '" : "", near ? near : "",
	                  near ? "'?)" : "");
}
