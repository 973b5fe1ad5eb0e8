/* job.c - an experiment's runs, taken in rounds, their records read,
 * captured and merged, and committed to the bundle (job.h). */
#define _GNU_SOURCE
#include "measure/job.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "measure/command.h"
#include "base/exec.h"
#include "base/path.h"
#include "measure/key.h"
#include "measure/machine.h"
#include "book/sweep.h"
#include "bundle/capture.h"
#include "bundle/merge.h"
#include "measure/derived.h"
#include "measure/sweep_echo.h"
#include "base/util.h"

/*
 * The captured text as it is kept: made safe to show (text_make_safe:
 * NUL, ESC and invalid UTF-8 become visible characters, so nothing after
 * them is lost), and marked where it was cut or where a process escaped.
 */
static void output_finish(const struct exper *e, struct run_result *r)
{
	struct buf b = BUF_INIT;
	size_t len;
	char *safe = text_make_safe(r->out, r->out_len, &len);
	if (safe)
		buf_put(&b, safe, len);
	else
		buf_put(&b, r->out, r->out_len);
	free(safe);
	if (r->dropped)
		buf_printf(&b, "\n[output cut: %zu more bytes not kept]\n", r->dropped);
	if (r->escaped) {
		buf_puts(&b, "\n[a process it started left its process group "
		         "(setsid) and was still running when it exited; labbook "
		         "did not stop it]\n");
		warn_at(e->ch->path, e->dir->line, "experiment '%s': a process it "
		        "started left its process group and was still running when "
		        "it exited; it was not stopped", e->id);
	}
	buf_puts(&b, "");
	free(r->out);
	r->out_len = b.len;
	r->out = buf_detach(&b);
}

static cJSON *meta_new(const struct exper *e, const struct run_result *r,
                       char **inputs, size_t ninputs, size_t nrecords)
{
	char date[32];
	now_iso(date);
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "id", e->id);
	cJSON_AddStringToObject(m, "source", e->source);
	cJSON_AddStringToObject(m, "chapter", e->ch->path);
	cJSON_AddStringToObject(m, "compile", e->compile_cmd);
	cJSON_AddStringToObject(m, "command", e->run_cmd);
	const struct {
		const char *key;
		char **argv;
	} arrays[] = {{"compile_argv", e->compile_argv},
	              {"run_argv", e->run_argv},
	              {"env", e->env_words}};
	for (size_t k = 0; k < 3; k++) {
		cJSON *a = cJSON_AddArrayToObject(m, arrays[k].key);
		for (char **w = arrays[k].argv; w && *w; w++)
			cJSON_AddItemToArray(a, cJSON_CreateString(*w));
	}
	cJSON_AddNumberToObject(m, "exit_status", r->exit_code);
	cJSON_AddNumberToObject(m, "seconds", r->seconds);
	cJSON_AddStringToObject(m, "date", date);
	cJSON_AddStringToObject(m, "key", e->key);
	cJSON_AddStringToObject(m, "source_key", e->source_key);
	cJSON *in = cJSON_AddArrayToObject(m, "inputs");
	for (size_t i = 0; i < ninputs; i++)
		cJSON_AddItemToArray(in, cJSON_CreateString(inputs[i]));
	if (e->key_parts)
		cJSON_AddItemToObject(m, "key_parts", cJSON_Duplicate(e->key_parts, 1));
	cJSON *why = cJSON_AddArrayToObject(m, "ran_because");
	for (char **w = e->reasons; w && *w; w++)
		cJSON_AddItemToArray(why, cJSON_CreateString(*w));
	cJSON_AddNumberToObject(m, "records", (double)nrecords);
	cJSON_AddNumberToObject(m, "output_bytes", (double)(r->out_len + r->dropped));
	cJSON_AddBoolToObject(m, "output_cut", r->dropped > 0);
	return m;
}

/* Every GPU a run was given (JOB_ALL_GPUS): how many, and their UUIDs
 * where known. */
static void meta_add_gpus(cJSON *m, const struct toolchain *tc)
{
	cJSON_AddNumberToObject(m, "gpu_count", tc->nused);
	cJSON *u = cJSON_AddArrayToObject(m, "gpu_uuids");
	for (int k = 0; k < tc->nused && (size_t)k < tc->ndevs; k++)
		if (tc->devs[k].uuid)
			cJSON_AddItemToArray(u, cJSON_CreateString(tc->devs[k].uuid));
}

/*
 * The runs of one experiment. A build takes its runs in rounds: the first
 * run of every experiment, then the second of every experiment, and so on.
 * So the runs of one experiment lie minutes apart, and a slow minute of the
 * host (another tenant's load, a busy bus) falls on one of them, which the
 * merge outvotes, rather than on all of them.
 */
struct job {
	struct exper *e;
	char *tmpdir, *rec_path, *env_rec;
	char **vars, **env, *bin;
	size_t nvars;        /* env is vars, then LAB_RECORDS, then visible */
	size_t nsets;        /* sweep sets: processes per run */
	size_t bad_set;      /* the set whose process failed */
	int capture_miss;    /* the line of a capture that matched nothing */
	char *cap_err;       /* why a capture failed (capture_records) */
	int cap_line;        /* and the line of its pattern */
	double timeout;
	int nruns, ran, ok, rec_bad, rec_unread, unstarted, done;
	char who[24];        /* "GPU n: " where several GPUs run at once */
	const char *uuid;    /* of the GPU it runs on, where known */
	char *visible;       /* "CUDA_VISIBLE_DEVICES=..." for every GPU, or NULL */
	cJSON ***runs;       /* each run's records */
	size_t *nrows;
	char *records;       /* the first run's text, then the merged text */
	char *rec_err;
	struct run_result r; /* the latest run */
	char *first_out;     /* the page shows the first run's output */
	size_t first_len;
	double seconds;
};

static void job_init(struct job *j, struct exper *e, struct bundle *b,
                     const struct run_opts *o, const struct toolchain *tc,
                     int gpu, const char *uuid)
{
	size_t nvars = 0;
	memset(j, 0, sizeof *j);
	j->e = e;
	j->uuid = command_on_gpu(e, tc) ? uuid : NULL;
	if (gpu >= 0)
		snprintf(j->who, sizeof j->who, "GPU %d: ", gpu);
	if (gpu == JOB_ALL_GPUS) {
		snprintf(j->who, sizeof j->who, "all GPUs: ");
		if (tc->all_visible)
			j->visible = xasprintf("CUDA_VISIBLE_DEVICES=%s", tc->all_visible);
	}
	j->tmpdir = bundle_scratch_dir(b);
	j->vars = command_env(e);
	while (j->vars[nvars])
		nvars++;
	j->env = xcalloc(nvars + 3, sizeof *j->env);
	for (size_t i = 0; i < nvars; i++)
		j->env[i] = j->vars[i];
	j->nvars = nvars;
	j->env[nvars + 1] = j->visible;
	j->bin = command_prog(e);
	j->nsets = sweep_sets(e->sweep);
	j->timeout = e->timeout > 0 ? e->timeout : o->timeout;
	j->nruns = e->runs > 0 ? e->runs : 1;
	j->runs = xcalloc((size_t)j->nruns, sizeof *j->runs);
	j->nrows = xcalloc((size_t)j->nruns, sizeof *j->nrows);
	j->ok = 1;
	if (mkdir_p(j->tmpdir) != 0) {
		exper_fail(e, xasprintf("the results folder %s cannot be written",
		                        b->dir));
		j->ok = 0;
		j->done = 1;
	}
}

static void job_free(struct job *j)
{
	for (int i = 0; i < j->nruns; i++) {
		for (size_t k = 0; k < j->nrows[i]; k++)
			cJSON_Delete(j->runs[i][k]);
		free(j->runs[i]);
	}
	free(j->runs);
	free(j->nrows);
	free(j->first_out);
	free(j->rec_err);
	free(j->cap_err);
	free(j->records);
	free(j->r.out);
	free(j->bin);
	argv_free(j->vars);
	free(j->env);
	free(j->env_rec);
	free(j->visible);
	free(j->rec_path);
	free(j->tmpdir);
	memset(j, 0, sizeof *j);
}

/* Merge the runs and keep them in the bundle, or keep the failure. */
static void job_finish(struct job *j, struct bundle *b, const struct run_opts *o,
                       const struct toolchain *tc, double t0)
{
	struct exper *e = j->e;
	struct run_result *r = &j->r;
	size_t ninputs = 0;
	char **inputs = NULL;

	j->done = 1;
	if (j->unstarted) {
		exper_fail(e, xasprintf("%s could not be started", j->bin));
		return;
	}
	if (j->ok) {
		char *why = NULL;
		char *merged = records_merge(j->runs, j->nrows, (size_t)j->nruns, &why);
		if (merged) {
			free(j->records);
			j->records = merged;
		} else {
			warn_at(e->ch->path, e->dir->line,
			        "experiment '%s': its %d runs wrote different records "
			        "(%s); the first run's are kept", e->id, j->nruns, why);
			free(why);
		}
		/* A bundle reads back as many bytes of records, and no more. */
		size_t size = j->records ? strlen(j->records) : 0;
		if (size > RESULTS_RECORDS_CAP) {
			j->ok = 0;
			j->bad_set = (size_t)-1; /* no one set's */
			j->cap_err = xasprintf("made %zu bytes of records, more than the "
			                       "%u MiB a bundle reads back", size,
			                       RESULTS_RECORDS_CAP >> 20);
			j->cap_line = capture_count(e->capture) ? capture_line(e->capture, 0)
			                                        : e->dir->line;
		}
		if (j->first_out) {
			free(r->out);
			r->out = j->first_out;
			r->out_len = j->first_len;
			j->first_out = NULL;
		}
	}
	r->seconds = j->seconds;

	if (e->inputs) {
		inputs = e->inputs;
		ninputs = e->ninputs;
	} else {
		for (size_t i = 0; i < (e->sources ? e->nsources : 1); i++)
			*ARRAY_PUSH(inputs, ninputs) = xstrdup(e->sources ? e->sources[i]
			                                                  : e->source);
		*ARRAY_PUSH(inputs, ninputs) = NULL;
		ninputs--;
	}
	/* The key now covers what this build included, so the next build
	 * computes the same one from the inputs recorded in the meta. */
	key_compute(e, tc, inputs, ninputs);
	e->seconds = j->seconds;
	if (j->ok) {
		cJSON *meta = meta_new(e, r, inputs, ninputs, j->nrows[0]);
		cJSON_AddNumberToObject(meta, "runs", j->ran);
		if (j->uuid)
			cJSON_AddStringToObject(meta, "gpu_uuid", j->uuid);
		char *host = machine_host_words();
		if (host)
			cJSON_AddStringToObject(meta, "host", host);
		free(host);
		if (j->visible)
			meta_add_gpus(meta, tc);
		const char *nothing = records_not_measured(j->runs[0], j->nrows[0]);
		if (nothing)
			cJSON_AddStringToObject(meta, RECORD_NOT_MEASURED, nothing);
		char *listing, *derived[3];
		derived_take(e, tc, o, j->visible, derived, &listing);
		struct result_files f = {j->records, r->out, r->out_len,
		                         {derived[0], derived[1], derived[2]}, listing};
		if (bundle_commit(b, e->id, &f, meta) == 0) {
			/* Its results are now those of its sources as they are. */
			e->state = ST_RAN;
			free(e->why);
			e->why = NULL;
		}
		else
			exper_fail(e, xstrdup("its results could not be saved"));
		free(listing);
		for (int d = 0; d < 3; d++)
			free(derived[d]);
	} else {
		char *why = j->cap_err ? xstrdup(j->cap_err)
		            : j->rec_unread
		                ? xasprintf("wrote records that were not kept: %s",
		                            j->rec_err)
		            : j->rec_bad
		                ? xasprintf("wrote malformed records: %s.jsonl %s",
		                            e->id, j->rec_err ? j->rec_err : "")
		            : j->capture_miss
		                ? xasprintf("matched nothing with its capture: of "
		                            "line %d; its output is on the page",
		                            j->capture_miss)
		                : command_failure(r, j->timeout);
		int line = j->cap_err ? j->cap_line
		           : j->capture_miss ? j->capture_miss : e->dir->line;
		if (j->nsets > 1 && !j->capture_miss && j->bad_set != (size_t)-1) {
			char *set = sweep_text(e->sweep, j->bad_set);
			char *w = xasprintf("%s for the sweep set '%s'", why, set);
			if (!j->cap_err)
				line = sweep_line(e->sweep, 0);
			free(set);
			free(why);
			why = w;
		}
		if (j->nruns > 1) {
			char *w = xasprintf("%s (run %d of %d)", why, j->ran, j->nruns);
			free(why);
			why = w;
		}
		char *last = j->cap_err || j->rec_unread || j->rec_bad ||
		             j->capture_miss ? NULL : command_last_line(r);
		if (last) {
			char *w = xasprintf("%s; it printed last: %s", why, last);
			free(why);
			why = w;
		}
		free(last);
		(e->allow_error ? warn_at : diag_at)(e->ch->path, line,
		                                     "experiment '%s' %s", e->id, why);
		cJSON *info = meta_new(e, r, inputs, ninputs,
		                       j->nrows[j->ran ? j->ran - 1 : 0]);
		cJSON_AddStringToObject(info, "stage", "run");
		if (j->uuid)
			cJSON_AddStringToObject(info, "gpu_uuid", j->uuid);
		if (j->visible)
			meta_add_gpus(info, tc);
		cJSON_AddStringToObject(info, "why", why);
		cJSON_AddStringToObject(info, "output", r->out ? r->out : "");
		bundle_fail(b, e->id, info);
		exper_fail(e, why);
	}
	if (o->progress) {
		char runs[32] = "";
		if (j->ran > 1)
			snprintf(runs, sizeof runs, ", %d runs", j->ran);
		fprintf(stderr, "[%5.1fs] %s%s %s in %.1f s%s\n", now_seconds() - t0,
		        j->who, e->id, j->ok ? "done" : "FAILED", j->seconds, runs);
	}
	if (inputs != e->inputs)
		argv_free(inputs);
}

/* Add the records text of one process (len bytes, at the job's records
 * path) to *rows; 0, or -1 with the job's rec_err, rec_bad and rec_unread
 * set. */
static int job_records_read(struct job *j, cJSON ***rows, size_t *nrows)
{
	size_t len = 0;
	char *why = NULL;
	char *text = file_exists(j->rec_path)
	                 ? file_read_written(j->rec_path, RESULTS_RECORDS_CAP, &len,
	                                     &why)
	                 : xstrdup("");
	path_remove(j->rec_path);
	free(j->rec_err);
	j->rec_err = NULL;
	j->rec_unread = !text;
	if (!text) {
		j->rec_bad = 1;
		j->rec_err = xasprintf("the records file %s", why);
	} else {
		/* A NUL or an escape inside a string is kept, as a visible
		 * character; outside one, its line is malformed, and says so. */
		size_t n = len, k = *nrows;
		char *safe = text_make_safe(text, len, &n);
		const char *t = safe ? safe : text;
		j->rec_bad = records_parse_n(t, n, rows, nrows, &j->rec_err) ||
		             records_fields_once(t, n, *rows + k, *nrows - k,
		                                 &j->rec_err);
		free(safe);
	}
	free(why);
	free(text);
	return j->rec_bad ? -1 : 0;
}

/* The capture: patterns over the whole of one process's output r, into
 * run i's records (capture_output); 0, or -1 with the job's cap_err and
 * cap_line, or r->interrupted where labbook was asked to stop meanwhile. */
static int job_capture(struct job *j, int i, struct run_result *r,
                       size_t *counts, unsigned char *miss)
{
	char *why = NULL;
	int line = 0;
	if (capture_output(j->e->capture, r->out, r->out_len, r->dropped,
	                   &j->runs[i], &j->nrows[i], counts, miss, &line,
	                   &why) == 0)
		return 0;
	if (!strcmp(why, "interrupted")) {
		r->interrupted = 1;
		free(why);
		return -1;
	}
	free(j->cap_err);
	j->cap_err = why;
	j->cap_line = line;
	return -1;
}

/*
 * One process of the job's run: sweep set k. Its output is added to out,
 * its records (written, then captured, each with the set's fields) to the
 * run's. 0, or -1 when it failed (j->ok cleared, j->bad_set k) or could not
 * start (j->unstarted).
 */
static int job_set(struct job *j, struct bundle *b, const struct run_opts *o,
                   size_t k, struct buf *out, size_t *counts,
                   unsigned char *miss, char **kept)
{
	struct exper *e = j->e;
	struct run_result r;
	int i = j->ran;
	char **argv = command_run_set(e, k);
	size_t used = out->len < o->output_cap ? out->len : o->output_cap;
	/* What is kept is capped; what capture: reads is all of it. */
	size_t keep = o->output_cap - used;
	size_t cap = e->capture && keep < CAPTURE_OUTPUT_CAP ? CAPTURE_OUTPUT_CAP
	                                                    : keep;

	/* A file of this process's own: a process of an earlier run that is
	 * still writing (a build killed with it running) writes elsewhere. */
	free(j->rec_path);
	free(j->env_rec);
	j->rec_path = bundle_scratch_new(b, e->id);
	j->env_rec = xasprintf("LAB_RECORDS=%s", j->rec_path ? j->rec_path : "");
	j->env[j->nvars] = j->env_rec;
	if (!j->rec_path) {
		argv_free(argv);
		exper_fail(e, xasprintf("the results folder %s cannot be written",
		                        b->dir));
		j->ok = 0;
		j->done = 1;
		return -1;
	}
	int rc = exec_run_as(j->bin, argv, j->env, j->timeout, cap, &r);
	argv_free(argv);
	if (rc != 0) {
		path_remove(j->rec_path);
		j->ok = 0;
		j->unstarted = 1;
		return -1;
	}
	size_t first = j->nrows[i];
	job_records_read(j, &j->runs[i], &j->nrows[i]);
	int captured = job_capture(j, i, &r, counts, miss) == 0;
	if (r.out_len > keep) {
		r.dropped += r.out_len - keep;
		r.out_len = keep;
	}
	output_finish(e, &r);
	if (j->nsets > 1) {
		char *set = sweep_text(e->sweep, k);
		buf_printf(out, "%s[set %zu of %zu: %s]\n", out->len ? "\n" : "",
		           k + 1, j->nsets, set);
		free(set);
	}
	buf_put(out, r.out, r.out_len);
	for (size_t m = first; m < j->nrows[i]; m++)
		sweep_fields(e->sweep, k, j->runs[i][m]);
	records_make_safe(j->runs[i] + first, j->nrows[i] - first);

	j->seconds += r.seconds;
	j->r.seconds += r.seconds;
	j->r.dropped += r.dropped;
	j->r.escaped |= r.escaped;
	j->r.exit_code = r.exit_code;
	j->r.signal = r.signal;
	j->r.timed_out = r.timed_out;
	j->r.interrupted = r.interrupted;
	int ok = r.exit_code == 0 && !r.signal && !r.timed_out && !r.interrupted &&
	         !j->rec_bad && captured;
	if (kept)
		*kept = r.out;
	else
		free(r.out);
	if (!ok) {
		j->ok = 0;
		j->bad_set = k;
		return -1;
	}
	return 0;
}

/* Take the job's next run: a process of its own per sweep set; the first
 * failure ends the job. */
static void job_step(struct job *j, struct bundle *b, const struct run_opts *o,
                     const struct toolchain *tc, size_t k, size_t n, double t0)
{
	struct exper *e = j->e;
	struct run_result *r = &j->r;
	int i = j->ran;
	struct buf out = BUF_INIT;
	size_t npat = capture_count(e->capture);
	size_t *counts = xcalloc(npat + 1, sizeof *counts);
	/* The first run's outputs per set, to see which values were echoed. */
	char **outs = i == 0 && j->nsets > 1 ? xcalloc(j->nsets, sizeof *outs)
	                                     : NULL;
	unsigned char *miss = outs ? xcalloc(j->nsets * npat + 1, 1) : NULL;

	if (i == 1) {
		j->first_out = r->out;
		j->first_len = r->out_len;
	} else {
		free(r->out);
	}
	memset(r, 0, sizeof *r);
	for (size_t s = 0; s < j->nsets && !exec_stopping(); s++) {
		if (o->progress) {
			char which[32] = "", *set = NULL;
			if (j->nsets > 1)
				set = sweep_text(e->sweep, s);
			if (j->nruns > 1)
				snprintf(which, sizeof which, ", run %d of %d", i + 1, j->nruns);
			fprintf(stderr, "[%5.1fs] %s%zu/%zu %s%s%s%s%s\n",
			        now_seconds() - t0, j->who, k, n, e->id,
			        e->cuda ? " (GPU)" : "", which, set ? ", set " : "",
			        set ? set : "");
			free(set);
		}
		if (job_set(j, b, o, s, &out, counts, miss ? miss + s * npat : NULL,
		            outs ? &outs[s] : NULL) != 0)
			break;
	}
	r->out_len = out.len;
	buf_puts(&out, "");
	r->out = buf_detach(&out);
	if (j->done || j->unstarted) {
		free(counts);
		free(outs);
		free(miss);
		if (!j->done)
			job_finish(j, b, o, tc, t0);
		return;
	}
	j->ran++;
	for (size_t p = 0; j->ok && p < npat; p++)
		if (!counts[p]) {
			j->ok = 0;
			j->capture_miss = capture_line(e->capture, p);
		}
	if (outs && j->ok && !j->cap_err &&
	    sweep_outputs_check(e, outs, miss, counts, &j->cap_err, &j->cap_line)) {
		j->ok = 0;
		j->bad_set = (size_t)-1; /* the message names the set */
	}
	free(miss);
	for (size_t s = 0; outs && s < j->nsets; s++)
		free(outs[s]);
	free(outs);
	free(counts);
	if (i == 0) {
		free(j->records);
		j->records = records_text(j->runs[0], j->nrows[0]);
	}
	if (!j->ok || j->ran == j->nruns)
		job_finish(j, b, o, tc, t0);
}

void job_run_rounds(struct exper **list, size_t n, struct bundle *b,
                    const struct run_opts *o, const struct toolchain *tc,
                    double t0, int gpu)
{
	struct job *jobs = xcalloc(n, sizeof *jobs);
	size_t total = 0, k = 0;
	int rounds = 0;
	const cJSON *probed = cJSON_GetObjectItem(tc->probe, "uuid");
	const char *uuid = gpu == JOB_ONE_GPU ? cJSON_GetStringValue(probed)
	                   : gpu >= 0 && (size_t)gpu < tc->ndevs ? tc->devs[gpu].uuid
	                                                         : NULL;
	for (size_t i = 0; i < n; i++) {
		job_init(&jobs[i], list[i], b, o, tc, gpu, uuid);
		total += (size_t)jobs[i].nruns;
		if (jobs[i].nruns > rounds)
			rounds = jobs[i].nruns;
	}
	for (int round = 0; round < rounds; round++)
		for (size_t i = 0; i < n && !exec_stopping(); i++) {
			if (jobs[i].done) {
				k += round < jobs[i].nruns;
				continue;
			}
			job_step(&jobs[i], b, o, tc, ++k, total, t0);
		}
	for (size_t i = 0; i < n; i++)
		job_free(&jobs[i]);
	free(jobs);
}

