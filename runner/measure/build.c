/*
 * build.c - book_run: each experiment checked, keyed, compiled and run as
 * needed (book.h). The stages live in their own files: toolchain.c (tools
 * and GPUs), key.c (cache keys), command.c (command lines), compile.c
 * (the compile scheduler), job.c (runs in rounds), workers.c (several
 * GPUs), machine.c (machine.json).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book.h"
#include "measure/build.h"
#include "measure/command.h"
#include "measure/compile.h"
#include "base/exec.h"
#include "book/sweep.h"
#include "bundle/capture.h"
#include "measure/job.h"
#include "measure/key.h"
#include "measure/machine.h"
#include "measure/toolchain.h"
#include "measure/why.h"
#include "bundle/state.h"
#include "base/util.h"
#include "base/ccfacts.h"
#include "measure/workers.h"

#define DEFAULT_RUNS 3 /* processes per experiment (merge.h says why) */

static const char *meta_str(const cJSON *meta, const char *key)
{
	const cJSON *v = meta ? cJSON_GetObjectItem(meta, key) : NULL;
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int folder_canonical(const char *root, const char *dir, int outside_ok,
                            char **out, char **why);

/*
 * e's flags with each -I folder made canonical ("-Ikernels/a/../common"
 * is "-Ikernels/common"; an absolute one inside the project is made
 * relative, one elsewhere, a library's, stays as it is). A relative folder
 * that leaves the project, or one that resolves outside it, is refused: 0,
 * or -1 with e failed and the problem reported at its line.
 */
static int exper_flags(struct exper *e)
{
	if (!e->flags || !strstr(e->flags, "-I"))
		return 0;
	char root[PATH_MAX];
	if (!getcwd(root, sizeof root)) {
		diag_at(e->ch->path, dir_opt_line(e->dir, "flags"), "experiment "
		        "'%s': the project folder cannot be named: %s", e->id,
		        strerror(errno));
		exper_fail(e, xstrdup("the project folder cannot be named"));
		return -1;
	}
	size_t n = 0;
	char **w = argv_split(e->flags, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		int apart = !strcmp(w[i], "-I") && i + 1 < n;
		if (strncmp(w[i], "-I", 2) || (!w[i][2] && !apart))
			continue;
		char **slot = apart ? &w[++i] : &w[i];
		const char *dir = apart ? *slot : *slot + 2;
		char *canon = NULL, *why = NULL;
		folder_canonical(root, dir, 1, &canon, &why);
		if (why) {
			diag_at(e->ch->path, dir_opt_line(e->dir, "flags"), "experiment "
			        "'%s': include folder '%s' %s", e->id, dir, why);
			exper_fail(e, xasprintf("include folder '%s' %s", dir, why));
			free(why);
			rc = -1;
			continue;
		}
		char *word = apart ? canon : xasprintf("-I%s", canon);
		if (!apart)
			free(canon);
		free(*slot);
		*slot = word;
	}
	if (!rc) {
		e->flags_norm = argv_join(w);
		e->flags = e->flags_norm;
	}
	argv_free(w);
	return rc;
}

/*
 * The files of e's source: option, each a regular file inside the project,
 * by its canonical path: the whole option names one file when it is one
 * ("my kernel.cu"), else its words name one each, in any order. 0, or -1
 * with e failed and the problem reported at its line.
 */
static int exper_sources(struct exper *e)
{
	size_t n = 1;
	char **words = NULL;
	if (strpbrk(e->source, " \t") && !file_exists(e->source))
		words = argv_split(e->source, &n);
	for (size_t i = 0; i < n; i++) {
		const char *w = words ? words[i] : e->source;
		char *norm = NULL, *why = NULL;
		if (path_resolve(w, &norm, &why) == 0 && !file_is_regular(norm))
			why = xstrdup("is not a regular file");
		if (why) {
			diag_at(e->ch->path, dir_opt_line(e->dir, "source"),
			        "experiment '%s': source '%s' %s", e->id, w, why);
			exper_fail(e, xasprintf("source '%s' %s", w, why));
			free(norm);
			free(why);
			argv_free(words);
			return -1;
		}
		*ARRAY_PUSH(e->sources, e->nsources) = norm;
	}
	argv_free(words);
	*ARRAY_PUSH(e->sources, e->nsources) = NULL;
	e->nsources--;
	e->source_norm = xstrdup(e->sources[0]);
	e->source = e->source_norm;
	e->source_ok = 1;
	return 0;
}

/*
 * A folder of include: or of an -I flag made canonical: 0 with *out its
 * path inside the project (or a copy of an absolute one outside it, a
 * library's, when outside_ok); -1 with *why.
 */
static int folder_canonical(const char *root, const char *dir, int outside_ok,
                            char **out, char **why)
{
	char *canon = path_canonical(root, dir);
	*out = NULL;
	if (!canon && dir[0] == '/' && outside_ok) {
		*out = xstrdup(dir);
		return 0;
	}
	if (!canon) {
		*why = xstrdup("is outside the project");
		return -1;
	}
	if (!file_exists(canon)) {
		*out = canon;
		return 0;
	}
	free(canon);
	return path_resolve(dir, out, why);
}

/* e's include: folders, inside the project, each made canonical. 0, or -1
 * with e failed and the problem reported at its line. */
static int exper_includes(struct exper *e)
{
	char root[PATH_MAX];
	size_t n = 0, k = 0;
	struct stat st;
	if (!e->include)
		return 0;
	int line = dir_opt_line(e->dir, "include");
	char **w = argv_split(e->include, &n);
	int rc = getcwd(root, sizeof root) ? 0 : -1;
	for (size_t i = 0; i < n && !rc; i++) {
		char *canon = NULL, *why = NULL;
		if (folder_canonical(root, w[i], 0, &canon, &why) == 0 &&
		    (stat(canon, &st) != 0 || !S_ISDIR(st.st_mode)))
			why = xstrdup("is not a folder");
		if (why) {
			diag_at(e->ch->path, line, "experiment '%s': include folder "
			        "'%s' %s", e->id, w[i], why);
			exper_fail(e, xasprintf("include folder '%s' %s", w[i], why));
			free(why);
			free(canon);
			rc = -1;
			break;
		}
		*ARRAY_PUSH(e->includes, k) = canon;
	}
	argv_free(w);
	if (e->includes)
		*ARRAY_PUSH(e->includes, k) = NULL;
	return rc;
}

/*
 * e's inputs: the files its program reads, each a regular file inside the
 * project, by its canonical path, without repeats. 0, or -1 with e failed
 * and the problem reported at its line.
 */
static int exper_data(struct exper *e)
{
	size_t n = 0, k = 0;
	if (!e->data)
		return 0;
	char **w = argv_split(e->data, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		char *canon = NULL, *why = NULL;
		if (path_resolve(w[i], &canon, &why) == 0 && !file_is_regular(canon))
			why = xstrdup("is not a regular file");
		if (why) {
			diag_at(e->ch->path, dir_opt_line(e->dir, "inputs"), "experiment "
			        "'%s': input '%s' %s", e->id, w[i], why);
			exper_fail(e, xasprintf("input '%s' %s", w[i], why));
			free(why);
			free(canon);
			rc = -1;
			break;
		}
		int seen = 0;
		for (size_t j = 0; j < k; j++)
			seen |= !strcmp(e->data_files[j], canon);
		if (seen)
			free(canon);
		else
			*ARRAY_PUSH(e->data_files, k) = canon;
	}
	argv_free(w);
	*ARRAY_PUSH(e->data_files, k) = NULL;
	return rc;
}

/*
 * A run: experiment's sources, the files the page shows: each inputs:
 * file its command names. A word that names another regular file of
 * the project is refused, since an edit to it would not run e again.
 * 0, or -1 with e failed and the problem reported at its line.
 */
static int exper_run(struct exper *e)
{
	size_t n = 0;
	char **w = argv_split(e->run, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		char *canon = NULL, *why = NULL;
		if (path_resolve(w[i], &canon, &why) != 0 || !file_is_regular(canon)) {
			free(canon);
			free(why);
			continue;
		}
		int listed = 0, seen = 0;
		for (char **f = e->data_files; f && *f; f++)
			listed |= !strcmp(*f, canon);
		for (size_t j = 0; j < e->nsources; j++)
			seen |= !strcmp(e->sources[j], canon);
		if (!listed) {
			diag_at(e->ch->path, dir_opt_line(e->dir, "run"), "experiment "
			        "'%s': run: names %s, a file of the project that "
			        "inputs: does not list; list it there, so that an edit "
			        "to it runs the experiment again", e->id, canon);
			exper_fail(e, xasprintf("run: names %s, which inputs: does not "
			                        "list", canon));
			rc = -1;
		}
		if (rc || seen)
			free(canon);
		else
			*ARRAY_PUSH(e->sources, e->nsources) = canon;
	}
	argv_free(w);
	*ARRAY_PUSH(e->sources, e->nsources) = NULL;
	e->nsources--;
	e->source_ok = !rc;
	return rc;
}

/*
 * e's capture: patterns and sweep: sets, read; a captured field that a
 * sweep also gives is an error at the capture's line. 0, or -1 with e
 * failed and the problem reported at its line.
 */
static int exper_capture(struct exper *e)
{
	const struct directive *d = e->dir;
	int bad = 0;
	/* Every bad line is reported, not only the first. */
	for (size_t i = 0; i < d->nopts; i++) {
		const struct dir_opt *o = &d->opts[i];
		int cap = !strcmp(o->key, "capture");
		if (!cap && strcmp(o->key, "sweep"))
			continue;
		char *why = NULL;
		int rc;
		if (cap) {
			if (!e->capture)
				e->capture = capture_new();
			rc = capture_add(e->capture, o->value, o->line, &why);
		} else {
			if (!e->sweep)
				e->sweep = sweep_new();
			rc = sweep_add(e->sweep, o->value, o->line, &why);
		}
		if (rc != 0) {
			diag_at(e->ch->path, o->line, "experiment '%s': %s: %s", e->id,
			        o->key, why);
			if (!bad)
				exper_fail(e, xasprintf("%s: (line %d) %s", o->key, o->line,
				                        why));
			free(why);
			bad = 1;
		}
	}
	if (bad)
		return -1;
	for (size_t g = 0; g < sweep_groups(e->sweep); g++) {
		const char *name = sweep_name(e->sweep, g);
		int line = capture_field_line(e->capture, name);
		if (!line)
			continue;
		diag_at(e->ch->path, line, "experiment '%s': capture: the field '%s' "
		        "is also the swept argument of line %d; rename the group, or "
		        "the sweep's field with 'as NAME'", e->id, name,
		        sweep_line(e->sweep, g));
		exper_fail(e, xasprintf("capture: the field '%s' is also a swept "
		                        "argument", name));
		return -1;
	}
	return 0;
}

/*
 * The options the chapter parser passed as numbers, held to their limits,
 * the source (a regular file inside the project, by its canonical path;
 * util.h, path_resolve) and the -I folders of its flags. 0, or -1 with e
 * failed and the problem reported at its line.
 */
static int exper_check(struct exper *e, const struct run_opts *o)
{
	const char *runs = dir_opt(e->dir, "runs");
	long n;
	if (runs && parse_long(runs, 1, RUNS_MAX, &n) != 0) {
		diag_at(e->ch->path, dir_opt_line(e->dir, "runs"), "experiment "
		        "'%s': runs: wants a whole number from 1 to %d, not '%s'",
		        e->id, RUNS_MAX, runs);
		exper_fail(e, xasprintf("runs: '%s' is out of range", runs));
		return -1;
	}
	/* An option a directive and the command line both set: the
	 * directive's wins, the command line's is the default (as timeout:). */
	e->runs = runs ? (int)n : o->runs ? o->runs : DEFAULT_RUNS;
	const char *t = dir_opt(e->dir, "timeout");
	double secs;
	if (t && parse_double(t, 0.001, TIMEOUT_MAX, &secs) != 0) {
		diag_at(e->ch->path, dir_opt_line(e->dir, "timeout"), "experiment "
		        "'%s': timeout: wants seconds, more than 0 and at most %.0f, "
		        "not '%s'", e->id, TIMEOUT_MAX, t);
		exper_fail(e, xasprintf("timeout: '%s' is out of range", t));
		return -1;
	}
	e->timeout = t ? secs : 0;

	if ((!e->run && exper_sources(e) != 0) || exper_flags(e) != 0 ||
	    exper_includes(e) != 0 || exper_data(e) != 0 ||
	    (e->run && exper_run(e) != 0))
		return -1;
	return exper_capture(e);
}

/* The commands shown: under --no-run, those the results were made with. */
static void exper_commands(struct exper *e, const struct exp_result *r,
                           const struct toolchain *tc, int recorded)
{
	e->compile_argv = command_compile(e, tc);
	e->run_argv = command_run(e);
	e->env_words = command_env(e);
	const char *c = recorded ? meta_str(r->meta, "compile") : NULL;
	const char *x = recorded ? meta_str(r->meta, "command") : NULL;
	e->compile_cmd = c                      ? xstrdup(c)
	                 : e->run               ? xstrdup(COMMAND_NO_COMPILE)
	                 : command_is_python(e) ? command_python_text(e)
	                                        : argv_join(e->compile_argv);
	e->run_cmd = x ? xstrdup(x) : command_run_text(e);
}

/* The state of e from its recorded results, and whether to run it. */
static int exper_go(struct exper *e, struct bundle *b, const struct exp_result *r,
                    const struct toolchain *tc, const struct run_opts *o)
{
	int building = o->run || o->compile_only;
	const char *old_src = meta_str(r->meta, "source_key");
	e->state = ST_KEPT;
	if (r->meta && old_src && strcmp(old_src, e->source_key))
		e->why = xstrdup("its source, arguments or flags changed since "
		                 "these results were recorded");
	if (!building)
		return 0;
	if (e->cuda && !tc->nvcc) {
		free(e->why);
		e->why = xstrdup("nvcc was not found ($NVCC, PATH, "
		                 "$CUDA_HOME/bin, /usr/local/cuda/bin); install "
		                 "the CUDA toolkit or set NVCC to its path");
		if (o->compile_only) {
			diag_at(e->ch->path, e->dir->line, "experiment '%s': %s",
			        e->id, e->why);
			e->state = ST_FAILED;
		}
		return 0;
	}
	if (e->cuda && !tc->gpu && !o->compile_only)
		return 0;
	return o->compile_only || why_run(e, b, r, tc, o) > 0;
}

/* Should e run in this build? Sets its state and why either way. */
static int exper_plan(struct exper *e, struct bundle *b, const struct toolchain *tc,
                      const struct run_opts *o)
{
	int building = o->run || o->compile_only;
	/* Only a build that may run it asks whether its records are sound. */
	struct exp_result *r = building ? bundle_get(b, e->id)
	                                : bundle_get_meta(b, e->id);
	size_t n;
	char *escaped = NULL;
	char **inputs = key_inputs(e, r, &n, &escaped);
	key_compute(e, building ? tc : NULL, inputs, n);
	argv_free(inputs);
	exper_commands(e, r, tc, !building);
	int go = exper_go(e, b, r, tc, o);
	/* A header that now resolves outside the project: the compile that
	 * follows finds it again, if it is still included, and says so. */
	if (escaped && !go) {
		(e->allow_error ? warn_at : diag_at)(e->ch->path, e->dir->line,
		        "experiment '%s': %s", e->id, escaped);
		free(e->why);
		e->why = escaped;
		escaped = NULL;
	}
	free(escaped);
	return go;
}

int exper_card_lacks(const struct exper *e, const struct toolchain *tc)
{
	int cc = 0;
	const cJSON *pc = tc->probe ? cJSON_GetObjectItemCaseSensitive(tc->probe,
	                                                               "cc")
	                            : NULL;
	return e->need_cc && (!cJSON_IsString(pc) ||
	                      cc_parse(pc->valuestring, &cc) != 0 ||
	                      !cc_meets(cc, e->need_cc));
}

int book_plan_exper(struct exper *e, struct bundle *b,
                    const struct toolchain *tc, const struct run_opts *o)
{
	if (exper_check(e, o) != 0)
		return -1;
	if (o->run && !o->compile_only && exper_card_lacks(e, tc))
		return 0;
	return exper_plan(e, b, tc, o);
}

/* Records that are malformed and were not measured again are an error of
 * the bundle, reported once. */
static void exper_report_records(const struct exper *e, struct bundle *b)
{
	struct exp_result *r = bundle_get(b, e->id);
	if (r->error && e->state != ST_RAN)
		diag("%s; values computed from experiment '%s' use only the "
		     "records before it (run it again to repair)", r->error, e->id);
}

int book_run(struct book *bk, struct bundle *b, const struct run_opts *o)
{
	double t0 = now_seconds();
	struct toolchain tc;
	toolchain_init(&tc, bk, o);
	struct exper **todo = NULL;
	size_t ntodo = 0;
	int failed = 0, building = o->run || o->compile_only;

	bk->gpu = tc.gpu;
	if (o->run && !o->compile_only)
		bundle_run_begin(b);
	if (building && mkdir_p(BUILD_DIR) != 0) {
		toolchain_free(&tc);
		return (int)bk->nexps;
	}
	int workers = o->gpus > 0 ? o->gpus : tc.ngpus;
	if (tc.ndevs && workers > (int)tc.ndevs) {
		warn_at(NULL, 0, "--gpus %d, but %zu GPU%s of one model %s visible; "
		        "running on %zu", workers, tc.ndevs, plural(tc.ndevs),
		        tc.ndevs == 1 ? "is" : "are", tc.ndevs);
		workers = (int)tc.ndevs;
	}
	toolchain_use(&tc, workers);
	for (size_t i = 0; i < bk->nexps; i++)
		if (book_plan_exper(&bk->exps[i], b, &tc, o) > 0)
			*ARRAY_PUSH(todo, ntodo) = &bk->exps[i];
	int cuda = 0;
	for (size_t i = 0; i < ntodo; i++)
		cuda |= command_on_gpu(todo[i], &tc);
	/* GPU results go only into a bundle of this machine's. */
	if (cuda && !o->compile_only && tc.gpu && machine_check(b, &tc) != 0) {
		size_t k = 0;
		for (size_t i = 0; i < ntodo; i++)
			if (command_on_gpu(todo[i], &tc))
				exper_fail(todo[i], xstrdup("the bundle was measured on "
				                            "another GPU"));
			else
				todo[k++] = todo[i];
		ntodo = k;
	}

	struct run_opts co = *o;
	if (co.compile_timeout <= 0)
		co.compile_timeout = COMPILE_TIMEOUT;
	compile_all(todo, ntodo, b, &tc, &co, t0);
	size_t nrun = 0;
	for (size_t i = 0; i < ntodo; i++)
		nrun += todo[i]->state != ST_FAILED;
	if (!o->compile_only && nrun && !exec_stopping()) {
		/* Those that take every GPU run alone, once the share of each
		 * GPU is done. */
		struct exper **list = NULL, **whole = NULL;
		size_t n = 0, nwhole = 0;
		int gpu_work = 0;
		for (size_t i = 0; i < ntodo; i++)
			if (todo[i]->state != ST_FAILED) {
				if (todo[i]->all_gpus)
					*ARRAY_PUSH(whole, nwhole) = todo[i];
				else
					*ARRAY_PUSH(list, n) = todo[i];
				gpu_work |= command_on_gpu(todo[i], &tc);
			}
		int several = workers > 1 && n > 1;
		/* machine.json describes the card these results came from. */
		if (gpu_work || !b->machine)
			machine_write(b, &tc, several || nwhole ? workers : 1);
		if (several) {
			if (o->progress)
				fprintf(stderr, "[%5.1fs] running %zu experiment%s on %d GPUs\n",
				        now_seconds() - t0, n, plural(n), workers);
			workers_run(list, n, workers, b, o, &tc, t0);
		} else if (n) {
			job_run_rounds(list, n, b, o, &tc, t0, JOB_ONE_GPU);
		}
		if (nwhole && !exec_stopping()) {
			if (o->progress)
				fprintf(stderr, "[%5.1fs] running %zu experiment%s alone on "
				        "every GPU (%s)\n", now_seconds() - t0, nwhole,
				        plural(nwhole), tc.all_visible ? tc.all_visible
				                                       : "as inherited");
			job_run_rounds(whole, nwhole, b, o, &tc, t0, JOB_ALL_GPUS);
		}
		free(list);
		free(whole);
	} else if (!o->compile_only && ntodo && !b->machine) {
		machine_write(b, &tc, 1);
	}
	for (size_t i = 0; i < bk->nexps; i++) {
		/* Under --no-run, the pages that read them say so. */
		if (building)
			exper_report_records(&bk->exps[i], b);
		if (bk->exps[i].state == ST_FAILED && !bk->exps[i].allow_error)
			failed++;
	}
	b->here = o->run && !o->compile_only && machine_is_here(b, &tc);
	free(todo);
	toolchain_free(&tc);
	return failed;
}

int book_check_measured(const struct book *bk, struct bundle *b, int strict)
{
	int n = 0;
	for (size_t i = 0; i < bk->nexps; i++) {
		const struct exper *e = &bk->exps[i];
		if (bundle_needs(b, e->id))
			continue;
		enum result_state st = result_state_decide(b, e->id, e->source_key);
		if (st == RESULT_CHANGED) {
			(strict ? diag_at : warn_at)(e->ch->path, e->dir->line,
			        "experiment '%s' changed since its results in %s were "
			        "recorded: its pages show the old numbers; run it "
			        "again (labbook build, or --rerun %s)", e->id, b->dir,
			        e->id);
			n++;
			continue;
		}
		if (!strict || st != RESULT_NONE)
			continue;
		diag_at(e->ch->path, e->dir->line, "experiment '%s' has no results "
		        "in %s%s%s; with --strict every experiment the book uses "
		        "must be measured", e->id, b->dir, e->why ? ": " : "",
		        e->why ? e->why : "");
		n++;
	}
	return n;
}
