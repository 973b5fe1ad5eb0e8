/*
 * build.c - book_run: each experiment checked, keyed, compiled and run as
 * needed (book.h). The stages live in their own files: toolchain.c (tools
 * and GPUs), key.c (cache keys), command.c (command lines), compile.c
 * (the compile scheduler), job.c (runs in rounds), workers.c (several
 * GPUs), machine.c (machine.json).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/book.h"
#include "measure/build.h"
#include "measure/command.h"
#include "measure/compile.h"
#include "base/exec.h"
#include "measure/job.h"
#include "measure/key.h"
#include "measure/machine.h"
#include "measure/toolchain.h"
#include "base/util.h"
#include "measure/workers.h"

#define DEFAULT_RUNS 3 /* processes per experiment (merge.h says why) */

static const char *meta_str(const cJSON *meta, const char *key)
{
	const cJSON *v = meta ? cJSON_GetObjectItem(meta, key) : NULL;
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int wants_rerun(const struct exper *e, const struct run_opts *o)
{
	if (o->rerun_all)
		return 1;
	for (size_t i = 0; i < o->nrerun; i++)
		if (!strcmp(o->rerun[i], e->id))
			return 1;
	return 0;
}

/*
 * The options the chapter parser passed as numbers, held to their limits,
 * and the source: a regular file inside the project, by a normalized
 * path. 0, or -1 with e failed and the problem reported at its line.
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
	e->runs = o->runs ? o->runs : runs ? (int)n : DEFAULT_RUNS;
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

	const char *what = NULL;
	char *norm = path_normalize(e->source);
	if (!norm)
		what = "outside the project; experiments must live inside it";
	else if (!file_exists(norm))
		what = "not found";
	else if (!path_in_project(norm))
		what = "outside the project; experiments must live inside it";
	else if (!file_is_regular(norm))
		what = "not a regular file";
	if (what) {
		diag_at(e->ch->path, dir_opt_line(e->dir, "source"),
		        "experiment '%s': source '%s' is %s", e->id, e->source, what);
		exper_fail(e, xasprintf("source '%s' is %s", e->source, what));
		free(norm);
		return -1;
	}
	e->source_norm = norm;
	e->source = norm;
	e->source_ok = 1;
	return 0;
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
	e->compile_cmd = c ? xstrdup(c) : argv_join(e->compile_argv);
	if (x) {
		e->run_cmd = xstrdup(x);
	} else {
		char *run = argv_join(e->run_argv);
		e->run_cmd = e->env ? xasprintf("%s %s", e->env, run) : xstrdup(run);
		free(run);
	}
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
	char **inputs = key_inputs(e, b, r, &n);
	key_compute(e, building ? tc : NULL, inputs, n);
	argv_free(inputs);
	exper_commands(e, r, tc, !building);

	const char *old_key = meta_str(r->meta, "key");
	const char *old_src = meta_str(r->meta, "source_key");
	e->state = r->meta ? ST_RECORDED : ST_MISSING;
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
	/* Without machine.json, nothing says where the results came from:
	 * they are measured again. */
	if (!o->compile_only && !wants_rerun(e, o) && old_key &&
	    !strcmp(old_key, e->key) && !r->failure && !r->error && b->machine) {
		e->state = ST_CACHED;
		bundle_set_state(b, e->id, "cached");
		return 0;
	}
	return 1;
}

/* Records that are malformed and were not measured again are an error of
 * the bundle, reported once. */
static void exper_report_records(const struct exper *e, struct bundle *b)
{
	struct exp_result *r = bundle_get(b, e->id);
	if (r->error && e->state != ST_FRESH)
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
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		if (exper_check(e, o) != 0)
			continue;
		if (exper_plan(e, b, &tc, o))
			*ARRAY_PUSH(todo, ntodo) = e;
	}
	int cuda = 0;
	for (size_t i = 0; i < ntodo; i++)
		cuda |= todo[i]->cuda;
	/* GPU results go only into a bundle of this machine's. */
	if (cuda && !o->compile_only && tc.gpu && machine_check(b, &tc) != 0) {
		size_t k = 0;
		for (size_t i = 0; i < ntodo; i++)
			if (todo[i]->cuda)
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
				gpu_work |= todo[i]->cuda;
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
	free(todo);
	toolchain_free(&tc);
	return failed;
}
