#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "book.h"
#include "buf.h"
#include "exec.h"
#include "machines.h"
#include "merge.h"
#include "ncu.h"
#include "ptxas.h"
#include "util.h"

#define BUILD_DIR "build/exp"
#define DEFAULT_RUNS 3 /* processes per experiment (merge.h says why) */

/* A GPU a build may use: its CUDA_VISIBLE_DEVICES entry and, where
 * nvidia-smi names it, its UUID (else NULL). */
struct visible_gpu {
	char *dev;
	char *uuid;
};

struct toolchain {
	char *nvcc;         /* path, or NULL when not found */
	char *nvcc_version; /* the "release" line */
	char *cc;
	char *cc_version;
	int gpu;            /* a GPU is present and usable */
	int ngpus;          /* identical GPUs visible */
	struct visible_gpu *devs; /* gpus_find */
	size_t ndevs;
	cJSON *probe;       /* the GPU's facts, or NULL */
	char *arch;         /* sm_XX for nvcc */
	char *gpu_id;       /* name, uuid and driver, for cache keys */
	char *cuobjdump;    /* beside nvcc, or NULL */
	char *ncu;          /* Nsight Compute, beside nvcc or on PATH, or NULL */
	char *ncu_version;
};

static char *nvcc_find(void)
{
	const char *env = getenv("NVCC");
	if (env && *env)
		return access(env, X_OK) == 0 ? xstrdup(env) : NULL;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : ""), *save = NULL, *found = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(d, "nvcc");
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	if (found)
		return found;
	const char *home = getenv("CUDA_HOME");
	char *p = home ? path_join(home, "bin/nvcc") : NULL;
	if (p && access(p, X_OK) == 0)
		return p;
	free(p);
	if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
		return xstrdup("/usr/local/cuda/bin/nvcc");
	return NULL;
}

static char *version_of(const char *tool, const char *marker)
{
	char *argv[] = {(char *)tool, "--version", NULL};
	char *out = exec_capture(argv, 30);
	if (!out)
		return xstrdup("unknown");
	const char *line = marker ? strstr(out, marker) : NULL;
	if (line)
		while (line > out && line[-1] != '\n')
			line--;
	char *v = str_first_line(line ? line : out);
	free(out);
	return v;
}

static void free_list(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/*
 * The GPUs a build may use, each as a CUDA_VISIBLE_DEVICES entry and, where
 * nvidia-smi names it, with its UUID: the entries of an inherited
 * CUDA_VISIBLE_DEVICES (a batch system's choice) where it is set, else
 * every GPU nvidia-smi lists. Only GPUs of the first one's model are kept,
 * so that the workers of one build measure the same card. nvidia-smi is
 * asked only when ask is set (the book has CUDA experiments) and
 * LABBOOK_GPU is not 0; the inherited entries count regardless.
 */
static void gpus_find(struct toolchain *tc, int ask)
{
	const char *env = getenv("LABBOOK_GPU");
	int hidden = !ask || (env && !strcmp(env, "0"));
	char *smi[] = {"nvidia-smi", "--query-gpu=index,uuid,name",
	               "--format=csv,noheader", NULL};
	char *out = hidden ? NULL : exec_capture(smi, 30);
	char **rows = NULL; /* index, uuid, name: three per GPU */
	size_t nrows = 0;
	char *save = NULL;
	for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[3] = {l, NULL, NULL};
		for (int k = 1; k < 3 && f[k - 1]; k++) {
			f[k] = strchr(f[k - 1], ',');
			if (f[k])
				*f[k]++ = '\0';
		}
		if (!f[2])
			continue;
		for (int k = 0; k < 3; k++)
			*ARRAY_PUSH(rows, nrows) = xstrdup(str_trim(f[k]));
	}
	free(out);

	/* The entries to consider: the inherited ones, else every GPU's UUID. */
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	char **want = NULL;
	size_t nwant = 0;
	if (vis) {
		char *list = xstrdup(vis);
		for (char *d = strtok_r(list, ",", &save); d;
		     d = strtok_r(NULL, ",", &save)) {
			d = str_trim(d);
			if (!*d || !strcmp(d, "-1"))
				break; /* CUDA stops at an entry it cannot read */
			*ARRAY_PUSH(want, nwant) = xstrdup(d);
		}
		free(list);
	} else {
		for (size_t r = 0; r < nrows; r += 3)
			*ARRAY_PUSH(want, nwant) = xstrdup(rows[r + 1]);
	}
	const char *first_model = NULL;
	for (size_t k = 0; k < nwant; k++) {
		const char *dev = want[k], *uuid = NULL, *model = NULL;
		int index = dev[strspn(dev, "0123456789")] == '\0';
		for (size_t r = 0; r < nrows && !uuid; r += 3)
			if (index ? !strcmp(rows[r], dev)
			          : !strncmp(rows[r + 1], dev, strlen(dev))) {
				uuid = rows[r + 1];
				model = rows[r + 2];
			}
		if (model && !first_model)
			first_model = model;
		if (model && strcmp(model, first_model))
			continue;
		*ARRAY_PUSH(tc->devs, tc->ndevs) =
		    (struct visible_gpu){xstrdup(dev), uuid ? xstrdup(uuid) : NULL};
	}
	free_list(want, nwant);
	free_list(rows, nrows);
	tc->ngpus = hidden || !nrows ? 0 : (int)tc->ndevs;
}

static cJSON *probe_gpu(const char *nvcc)
{
	const char *src = "tools/probe.cu", *bin = "build/probe";
	if (file_mtime(bin) < file_mtime(src)) {
		char *argv[] = {(char *)nvcc, "-O2", "-o", (char *)bin, (char *)src,
		                NULL};
		struct run_result r;
		if (mkdir_p("build") != 0 || exec_run(argv, NULL, 300, 1 << 20, &r) != 0)
			return NULL;
		if (r.exit_code != 0) {
			diag("cannot build %s:\n%s", src, r.out);
			free(r.out);
			return NULL;
		}
		free(r.out);
	}
	char *argv[] = {(char *)bin, NULL};
	char *out = exec_capture(argv, 60);
	cJSON *m = out ? cJSON_Parse(out) : NULL;
	free(out);
	if (!m) {
		const char *vis = getenv("CUDA_VISIBLE_DEVICES");
		if (vis)
			diag("%s could not read the GPU's properties; check that "
			     "CUDA_VISIBLE_DEVICES=%s names a GPU (nvidia-smi -L lists "
			     "them)", bin, vis);
		else
			diag("%s could not read the GPU's properties", bin);
		return NULL;
	}
	char *smi[] = {"nvidia-smi", "--query-gpu=driver_version",
	               "--format=csv,noheader", "-i", "0", NULL};
	char *drv = exec_capture(smi, 30);
	if (drv) {
		char *line = str_first_line(drv);
		cJSON_AddStringToObject(m, "driver", str_trim(line));
		free(line);
		free(drv);
	}
	return m;
}

static void toolchain_init(struct toolchain *tc, const struct book *bk,
                           const struct run_opts *o)
{
	memset(tc, 0, sizeof *tc);
	int any_cuda = 0, any_c = 0;
	for (size_t i = 0; i < bk->nexps; i++) {
		any_cuda |= bk->exps[i].cuda;
		any_c |= !bk->exps[i].cuda;
	}
	const char *cc = getenv("CC");
	tc->cc = xstrdup(cc && *cc ? cc : "cc");
	if (any_c)
		tc->cc_version = version_of(tc->cc, NULL);
	if (!o->compile_only)
		gpus_find(tc, any_cuda);
	if (!any_cuda)
		return;
	tc->nvcc = nvcc_find();
	if (tc->nvcc) {
		tc->nvcc_version = version_of(tc->nvcc, "release");
		const char *slash = strrchr(tc->nvcc, '/');
		char *dir = slash ? xstrndup(tc->nvcc, (size_t)(slash - tc->nvcc))
		                  : xstrdup(".");
		char *cu = path_join(dir, "cuobjdump");
		if (access(cu, X_OK) == 0)
			tc->cuobjdump = cu;
		else
			free(cu);
		char *ncu = path_join(dir, "ncu");
		if (access(ncu, X_OK) == 0)
			tc->ncu = ncu;
		else
			free(ncu);
		free(dir);
		if (tc->ncu)
			tc->ncu_version = version_of(tc->ncu, "Version");
	}
	tc->gpu = tc->ngpus > 0;
	if (tc->gpu && tc->nvcc)
		tc->probe = probe_gpu(tc->nvcc);
	if (tc->gpu && !tc->probe)
		tc->gpu = 0;
	const cJSON *arch = tc->probe ? cJSON_GetObjectItem(tc->probe, "arch") : NULL;
	const char *env = getenv("NVCC_ARCH");
	tc->arch = xstrdup(cJSON_IsString(arch) ? arch->valuestring
	                   : env && *env ? env : "sm_90");
	if (tc->probe) {
		const char *keys[] = {"gpu", "uuid", "driver"};
		struct buf b = BUF_INIT;
		for (size_t i = 0; i < 3; i++) {
			const cJSON *v = cJSON_GetObjectItem(tc->probe, keys[i]);
			buf_printf(&b, "%s;", cJSON_IsString(v) ? v->valuestring : "");
		}
		tc->gpu_id = buf_detach(&b);
	}
}

static void toolchain_free(struct toolchain *tc)
{
	free(tc->nvcc);
	free(tc->nvcc_version);
	free(tc->cc);
	free(tc->cc_version);
	free(tc->arch);
	free(tc->gpu_id);
	free(tc->cuobjdump);
	free(tc->ncu);
	free(tc->ncu_version);
	cJSON_Delete(tc->probe);
	for (size_t i = 0; i < tc->ndevs; i++) {
		free(tc->devs[i].dev);
		free(tc->devs[i].uuid);
	}
	free(tc->devs);
}

/* ---- one experiment: paths, commands, keys ------------------------------- */

static char *bin_path(const struct exper *e)
{
	return xasprintf(BUILD_DIR "/%s", e->id);
}

static char **compile_argv(const struct exper *e, const struct toolchain *tc)
{
	char *bin = bin_path(e);
	char *dep = xasprintf(BUILD_DIR "/%s.d", e->id);
	struct buf cmd = BUF_INIT;
	if (e->cuda)
		buf_printf(&cmd, "'%s' -O3 -std=c++17 -arch=%s -lineinfo "
		           "-Xptxas=-v -Ikernels", tc->nvcc, tc->arch);
	else
		buf_printf(&cmd, "'%s' -O2 -std=c11 -Wall -Ikernels", tc->cc);
	buf_printf(&cmd, " -MD -MF '%s' -o '%s' '%s' %s%s", dep, bin, e->source,
	           e->flags ? e->flags : "", e->cuda ? "" : " -lm");
	char **argv = argv_split(cmd.data, NULL);
	buf_free(&cmd);
	free(bin);
	free(dep);
	return argv;
}

static char **run_argv(const struct exper *e)
{
	char *bin = bin_path(e);
	char *cmd = xasprintf("'%s' %s", bin, e->args ? e->args : "");
	char **argv = argv_split(cmd, NULL);
	free(cmd);
	free(bin);
	return argv;
}

/* Is path inside the project (the current folder), symlinks resolved? */
static int path_inside(const char *path)
{
	char root[PATH_MAX], real[PATH_MAX];
	if (path[0] == '/' || !getcwd(root, sizeof root) || !realpath(path, real))
		return 0;
	size_t n = strlen(root);
	return !strncmp(real, root, n) && real[n] == '/';
}

/* The project files listed in a make-style dependency file. */
static char **deps_read(const char *path, size_t *n)
{
	char *text = file_read(path, NULL);
	char **files = NULL;
	*n = 0;
	if (!text)
		return NULL;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		cwd[0] = '\0';
	size_t ncwd = strlen(cwd);
	for (char *p = text; *p; p++)
		if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
			*p = ' ';
	char *save = NULL;
	for (char *w = strtok_r(text, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		size_t len = strlen(w);
		if (!strcmp(w, ":") && *n) {
			/* "target : deps" (nvcc's spacing): the target is no input. */
			free(files[--*n]);
			continue;
		}
		if (w[len - 1] == ':')
			continue;
		if (w[0] == '/') {
			if (!ncwd || strncmp(w, cwd, ncwd) || w[ncwd] != '/')
				continue;
			w += ncwd + 1;
		}
		int seen = 0;
		for (size_t i = 0; i < *n; i++)
			seen |= !strcmp(files[i], w);
		if (!seen)
			*ARRAY_PUSH(files, *n) = xstrdup(w);
	}
	free(text);
	return files;
}

/* The inputs a key covers: those of the last build, else the source. */
static char **inputs_of(const struct exper *e, const struct exp_result *r,
                        size_t *n)
{
	char **files = NULL;
	*n = 0;
	const cJSON *in = r->meta ? cJSON_GetObjectItem(r->meta, "inputs") : NULL;
	const cJSON *f;
	cJSON_ArrayForEach(f, in)
		if (cJSON_IsString(f))
			*ARRAY_PUSH(files, *n) = xstrdup(f->valuestring);
	if (!*n)
		*ARRAY_PUSH(files, *n) = xstrdup(e->source);
	return files;
}

static void keys_compute(struct exper *e, const struct toolchain *tc,
                         char **inputs, size_t ninputs)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, e->source);
	hasher_add_str(h, e->args ? e->args : "");
	hasher_add_str(h, e->flags ? e->flags : "");
	hasher_add_str(h, e->ncu ? e->ncu : "");
	hasher_add_str(h, e->ncu_args ? e->ncu_args : "");
	hasher_add_str(h, e->env ? e->env : "");
	for (size_t i = 0; i < ninputs; i++) {
		size_t len;
		char *data = file_read(inputs[i], &len);
		hasher_add_str(h, inputs[i]);
		if (data)
			hasher_add(h, data, len);
		else
			hasher_add_str(h, "(missing)");
		free(data);
	}
	hasher_done(h, e->source_key);

	h = hasher_new();
	hasher_add_str(h, e->source_key);
	char **argv = compile_argv(e, tc);
	for (char **a = argv; *a; a++)
		hasher_add_str(h, *a);
	argv_free(argv);
	char runs[16];
	snprintf(runs, sizeof runs, "runs=%d", e->runs);
	hasher_add_str(h, runs);
	hasher_add_str(h, e->cuda ? (tc->nvcc_version ? tc->nvcc_version : "")
	                          : (tc->cc_version ? tc->cc_version : ""));
	hasher_add_str(h, e->cuda && tc->gpu_id ? tc->gpu_id : "");
	hasher_done(h, e->key);
}

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

/* ---- compiling ------------------------------------------------------------ */

struct compile_job {
	struct exper *e;
	pid_t pid;
	char *log;
};

static void compile_failed(struct bundle *b, struct exper *e, const char *log)
{
	char *text = file_read(log, NULL);
	char date[32];
	now_iso(date);
	cJSON *info = cJSON_CreateObject();
	cJSON_AddStringToObject(info, "stage", "compile");
	cJSON_AddStringToObject(info, "command", e->compile_cmd);
	cJSON_AddStringToObject(info, "output", text ? text : "");
	cJSON_AddStringToObject(info, "date", date);
	(e->allow_error ? warn_at : diag_at)(e->ch->path, e->dir->line,
	        "experiment '%s': %s failed to compile:\n%s", e->id, e->source,
	        text ? text : "");
	free(text);
	bundle_fail(b, e->id, info);
	e->state = ST_FAILED;
	free(e->why);
	e->why = xstrdup("compile error");
}

static void compile_all(struct exper **todo, size_t n, struct bundle *b,
                        const struct toolchain *tc, const struct run_opts *o,
                        double t0)
{
	struct compile_job *jobs = xcalloc((size_t)(o->jobs > 0 ? o->jobs : 1),
	                                   sizeof *jobs);
	size_t next = 0, running = 0, done = 0;
	int slots = o->jobs > 0 ? o->jobs : 1;
	while (done < n) {
		while (running < (size_t)slots && next < n && !exec_stopping()) {
			struct exper *e = todo[next++];
			char **argv = compile_argv(e, tc);
			char *log = xasprintf(BUILD_DIR "/%s.log", e->id);
			if (o->progress)
				fprintf(stderr, "[%5.1fs] compile %s (%s)\n",
				        now_seconds() - t0, e->id, e->source);
			pid_t pid = exec_spawn(argv, log);
			argv_free(argv);
			if (pid < 0) {
				compile_failed(b, e, log);
				free(log);
				done++;
				continue;
			}
			for (int s = 0; s < slots; s++)
				if (!jobs[s].pid) {
					jobs[s] = (struct compile_job){e, pid, log};
					break;
				}
			running++;
		}
		if (!running)
			break;
		int status;
		pid_t pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int s = 0; s < slots; s++) {
			if (jobs[s].pid != pid)
				continue;
			struct exper *e = jobs[s].e;
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				compile_failed(b, e, jobs[s].log);
			free(jobs[s].log);
			jobs[s].pid = 0;
			running--;
			done++;
		}
	}
	free(jobs);
}

/* ---- running -------------------------------------------------------------- */

static char *failure_summary(const struct run_result *r, double timeout)
{
	if (r->interrupted)
		return xstrdup("interrupted");
	if (r->timed_out)
		return xasprintf("killed at its timeout of %.0f s", timeout);
	if (r->signal)
		return xasprintf("killed by signal %d (%s)", r->signal,
		                 strsignal(r->signal));
	return xasprintf("exited with status %d", r->exit_code);
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
	cJSON_AddNumberToObject(m, "exit_status", r->exit_code);
	cJSON_AddNumberToObject(m, "seconds", r->seconds);
	cJSON_AddStringToObject(m, "date", date);
	cJSON_AddStringToObject(m, "key", e->key);
	cJSON_AddStringToObject(m, "source_key", e->source_key);
	cJSON *in = cJSON_AddArrayToObject(m, "inputs");
	for (size_t i = 0; i < ninputs; i++)
		cJSON_AddItemToArray(in, cJSON_CreateString(inputs[i]));
	cJSON_AddNumberToObject(m, "records", (double)nrecords);
	cJSON_AddNumberToObject(m, "output_bytes", (double)(r->out_len + r->dropped));
	cJSON_AddBoolToObject(m, "output_cut", r->dropped > 0);
	return m;
}

/* Mark e failed for the reason why, which it takes (an earlier one is freed). */
static void exper_fail(struct exper *e, char *why)
{
	e->state = ST_FAILED;
	free(e->why);
	e->why = why;
}

/* Keep records derived from a tool's output as experiment <id>_<suffix>;
 * takes text (may be NULL: nothing to keep). Returns whether it kept any. */
static int derived_put(struct bundle *b, const struct exper *e,
                       const char *suffix, char *text)
{
	if (!text)
		return 0;
	char *name = xasprintf("%s_%s", e->id, suffix);
	bundle_put_records(b, name, text);
	free(name);
	free(text);
	return 1;
}

/*
 * Run the experiment once more under Nsight Compute for the metrics it
 * asks for, and keep one record per profiled launch as <id>_ncu. A failure
 * here is reported as a warning: the timed results stand.
 */
static void ncu_record(struct bundle *b, const struct exper *e,
                       const struct toolchain *tc, const struct run_opts *o)
{
	struct buf metrics = BUF_INIT;
	char *copy = xstrdup(e->ncu), *save = NULL;
	for (char *w = strtok_r(copy, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save))
		buf_printf(&metrics, "%s%s", metrics.len ? "," : "", ncu_metric(w));
	free(copy);
	char *bin = bin_path(e);
	char *cmd = xasprintf("'%s' --csv --clock-control none --print-units base "
	                      "--print-kernel-base demangled "
	                      "--metrics %s '%s' %s",
	                      tc->ncu, metrics.data, bin,
	                      e->ncu_args ? e->ncu_args : e->args ? e->args : "");
	char **argv = argv_split(cmd, NULL);
	char *env[] = {"LAB_PROFILE=1", "LAB_RECORDS=/dev/null", NULL};
	struct run_result r;
	double timeout = 4 * (e->timeout > 0 ? e->timeout : o->timeout);
	if (o->progress)
		fprintf(stderr, "          profile %s with ncu (%s)\n", e->id, e->ncu);
	if (exec_run(argv, env, timeout, 64 << 20, &r) == 0) {
		/* ncu exits non-zero when a launch of the program fails, which
		 * an experiment may do on purpose; what it measured still counts. */
		if (!derived_put(b, e, "ncu", ncu_parse(r.out, e->ncu)))
			warn_at(e->ch->path, e->dir->line, "experiment '%s': ncu gave "
			        "no metrics (exit status %d):\n%.2000s", e->id,
			        r.exit_code, r.out);
		free(r.out);
	}
	argv_free(argv);
	free(cmd);
	free(bin);
	buf_free(&metrics);
}

/* The SASS of the experiment's kernels, and their instruction counts. */
static void sass_record(struct bundle *b, const struct exper *e,
                        const struct toolchain *tc)
{
	char *bin = bin_path(e);
	char *argv[] = {tc->cuobjdump, "-sass", bin, NULL};
	char *dump = exec_capture(argv, 120);
	if (dump) {
		char *clean = sass_clean(dump);
		char *path = xasprintf("%s/%s.sass", b->dir, e->id);
		file_write_atomic(path, clean, strlen(clean));
		derived_put(b, e, "sass", sass_parse(dump));
		free(path);
		free(clean);
		free(dump);
	}
	free(bin);
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
	char *tmpdir, *rec_path, *env_rec, *dep;
	char **vars, **env, **argv;
	double timeout;
	int nruns, ran, ok, rec_bad, unstarted, done;
	char who[24];        /* "GPU n: " where several GPUs run at once */
	const char *uuid;    /* of the GPU it runs on, where known */
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
                     const struct run_opts *o, int gpu, const char *uuid)
{
	size_t nvars = 0;
	memset(j, 0, sizeof *j);
	j->e = e;
	j->uuid = e->cuda ? uuid : NULL;
	if (gpu >= 0)
		snprintf(j->who, sizeof j->who, "GPU %d: ", gpu);
	j->tmpdir = path_join(b->dir, ".tmp");
	j->rec_path = xasprintf("%s/%s.jsonl", j->tmpdir, e->id);
	j->env_rec = xasprintf("LAB_RECORDS=%s", j->rec_path);
	j->dep = xasprintf(BUILD_DIR "/%s.d", e->id);
	j->vars = argv_split(e->env ? e->env : "", &nvars);
	j->env = xcalloc(nvars + 2, sizeof *j->env);
	for (size_t i = 0; i < nvars; i++)
		j->env[i] = j->vars[i];
	j->env[nvars] = j->env_rec;
	j->argv = run_argv(e);
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
	free(j->records);
	free(j->r.out);
	argv_free(j->argv);
	argv_free(j->vars);
	free(j->env);
	free(j->dep);
	free(j->env_rec);
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
		exper_fail(e, xasprintf("%s could not be started", j->argv[0]));
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
		if (j->first_out) {
			free(r->out);
			r->out = j->first_out;
			r->out_len = j->first_len;
			j->first_out = NULL;
		}
	}
	r->seconds = j->seconds;

	inputs = deps_read(j->dep, &ninputs);
	if (!ninputs)
		*ARRAY_PUSH(inputs, ninputs) = xstrdup(e->source);
	/* The key now covers what this build included, so the next build
	 * computes the same one from the inputs recorded in the meta. */
	keys_compute(e, tc, inputs, ninputs);
	e->seconds = j->seconds;
	if (j->ok) {
		cJSON *meta = meta_new(e, r, inputs, ninputs, j->nrows[0]);
		cJSON_AddNumberToObject(meta, "runs", j->ran);
		if (j->uuid)
			cJSON_AddStringToObject(meta, "gpu_uuid", j->uuid);
		if (e->cuda && tc->cuobjdump)
			sass_record(b, e, tc);
		if (e->cuda && e->ncu && tc->ncu && tc->gpu)
			ncu_record(b, e, tc, o);
		char *log = xasprintf(BUILD_DIR "/%s.log", e->id);
		char *text = file_read(log, NULL);
		derived_put(b, e, "ptxas", text ? ptxas_parse(text) : NULL);
		free(text);
		free(log);
		if (bundle_commit(b, e->id, j->records, r->out, r->out_len, meta) == 0)
			e->state = ST_FRESH;
		else
			exper_fail(e, xstrdup("its results could not be written"));
	} else {
		char *why = j->rec_bad
		                ? xasprintf("its records are malformed: %s.jsonl %s",
		                            e->id, j->rec_err)
		                : failure_summary(r, j->timeout);
		if (j->nruns > 1) {
			char *w = xasprintf("%s (run %d of %d)", why, j->ran, j->nruns);
			free(why);
			why = w;
		}
		(e->allow_error ? warn_at : diag_at)(e->ch->path, e->dir->line,
		                                     "experiment '%s' %s", e->id, why);
		cJSON *info = meta_new(e, r, inputs, ninputs,
		                       j->nrows[j->ran ? j->ran - 1 : 0]);
		cJSON_AddStringToObject(info, "stage", "run");
		if (j->uuid)
			cJSON_AddStringToObject(info, "gpu_uuid", j->uuid);
		cJSON_AddStringToObject(info, "why", why);
		cJSON_AddStringToObject(info, "output", r->out);
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
	free_list(inputs, ninputs);
}

/* Take the job's next run, in a process of its own; the first failure
 * ends the job. */
static void job_step(struct job *j, struct bundle *b, const struct run_opts *o,
                     const struct toolchain *tc, size_t k, size_t n, double t0)
{
	struct exper *e = j->e;
	struct run_result *r = &j->r;
	int i = j->ran;

	if (o->progress) {
		char which[32] = "";
		if (j->nruns > 1)
			snprintf(which, sizeof which, ", run %d of %d", i + 1, j->nruns);
		fprintf(stderr, "[%5.1fs] %s%zu/%zu %s%s%s\n", now_seconds() - t0,
		        j->who, k, n, e->id, e->cuda ? " (GPU)" : "", which);
	}
	if (i == 1) {
		j->first_out = r->out;
		j->first_len = r->out_len;
	} else {
		free(r->out);
	}
	memset(r, 0, sizeof *r);
	unlink(j->rec_path);
	if (exec_run(j->argv, j->env, j->timeout, o->output_cap, r) != 0) {
		j->ok = 0;
		j->unstarted = 1;
		job_finish(j, b, o, tc, t0);
		return;
	}
	j->ran++;
	j->seconds += r->seconds;
	if (r->dropped) {
		struct buf b2 = BUF_INIT;
		buf_put(&b2, r->out, r->out_len);
		buf_printf(&b2, "\n[output cut: %zu more bytes not kept]\n",
		           r->dropped);
		free(r->out);
		r->out_len = b2.len;
		r->out = buf_detach(&b2);
	}
	char *text = file_read(j->rec_path, NULL);
	unlink(j->rec_path);
	j->rec_bad = records_parse(text ? text : "", &j->runs[i], &j->nrows[i],
	                           &j->rec_err) != 0;
	j->ok = r->exit_code == 0 && !r->signal && !r->timed_out &&
	        !r->interrupted && !j->rec_bad;
	if (i == 0)
		j->records = text ? text : xstrdup("");
	else
		free(text);
	if (!j->ok || j->ran == j->nruns)
		job_finish(j, b, o, tc, t0);
}

/*
 * Run the experiments of list in rounds (struct job says why), on the one
 * GPU visible or, where several run at once, on GPU gpu. An interrupted
 * build keeps what it had for the experiments it did not finish.
 */
static void run_rounds(struct exper **list, size_t n, struct bundle *b,
                       const struct run_opts *o, const struct toolchain *tc,
                       double t0, int gpu)
{
	struct job *jobs = xcalloc(n, sizeof *jobs);
	size_t total = 0, k = 0;
	int rounds = 0;
	const cJSON *probed = cJSON_GetObjectItem(tc->probe, "uuid");
	const char *uuid = gpu < 0 ? cJSON_GetStringValue(probed)
	                   : (size_t)gpu < tc->ndevs ? tc->devs[gpu].uuid : NULL;
	for (size_t i = 0; i < n; i++) {
		job_init(&jobs[i], list[i], b, o, gpu, uuid);
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

/* Estimated seconds of a run: its last duration, else a minute. */
static double run_estimate(struct bundle *b, const struct exper *e)
{
	struct exp_result *r = bundle_get(b, e->id);
	const cJSON *s = r->meta ? cJSON_GetObjectItem(r->meta, "seconds") : NULL;
	return cJSON_IsNumber(s) ? s->valuedouble : 60;
}

/*
 * Several GPUs: one worker process per GPU, with CUDA_VISIBLE_DEVICES set,
 * runs its share of the experiments in rounds (the longest are spread
 * first). Each outcome comes back on a pipe; the results are on disk.
 */
static void run_parallel(struct exper **list, size_t n, int workers,
                         struct bundle *b, const struct run_opts *o,
                         const struct toolchain *tc, double t0)
{
	int *owner = xcalloc(n, sizeof *owner);
	double *load = xcalloc((size_t)workers, sizeof *load);
	int *taken = xcalloc(n, sizeof *taken);
	double *est = xcalloc(n, sizeof *est);
	for (size_t i = 0; i < n; i++)
		est[i] = run_estimate(b, list[i]);
	for (size_t done = 0; done < n; done++) {
		size_t pick = 0;
		double longest = -1;
		for (size_t i = 0; i < n; i++)
			if (!taken[i] && est[i] > longest) {
				longest = est[i];
				pick = i;
			}
		int w = 0;
		for (int k = 1; k < workers; k++)
			if (load[k] < load[w])
				w = k;
		taken[pick] = 1;
		owner[pick] = w;
		load[w] += longest;
	}
	int fds[2];
	pid_t *pids = xcalloc((size_t)workers, sizeof *pids);
	if (pipe(fds) != 0) {
		diag("cannot start the GPU workers: %s", strerror(errno));
		goto out;
	}
	for (int w = 0; w < workers; w++) {
		pids[w] = fork();
		if (pids[w] < 0) {
			diag("cannot start a GPU worker: %s", strerror(errno));
			continue;
		}
		if (pids[w] > 0)
			continue;
		close(fds[0]);
		char dev[16];
		snprintf(dev, sizeof dev, "%d", w);
		setenv("CUDA_VISIBLE_DEVICES",
		       (size_t)w < tc->ndevs ? tc->devs[w].dev : dev, 1);
		struct exper **mine = NULL;
		size_t nmine = 0;
		for (size_t i = 0; i < n; i++)
			if (owner[i] == w)
				*ARRAY_PUSH(mine, nmine) = list[i];
		run_rounds(mine, nmine, b, o, tc, t0, w);
		free(mine);
		for (size_t i = 0; i < n; i++) {
			struct exper *e = list[i];
			if (owner[i] != w)
				continue;
			char *why = xstrdup(e->why ? e->why : "");
			for (char *c = why; *c; c++)
				if (*c == '\n' || *c == '\t')
					*c = ' ';
			dprintf(fds[1], "%zu\t%d\t%.6f\t%s\n", i, (int)e->state,
			        e->seconds, why);
			free(why);
		}
		_exit(0);
	}
	close(fds[1]);
	struct buf msgs = BUF_INIT;
	char chunk[4096];
	ssize_t got;
	while ((got = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			break;
		buf_put(&msgs, chunk, (size_t)got);
	}
	close(fds[0]);
	for (int w = 0; w < workers; w++)
		if (pids[w] > 0)
			while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
				;
	bundle_reload(b);
	char *save = NULL;
	for (char *l = msgs.data ? strtok_r(msgs.data, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[4] = {l, NULL, NULL, NULL};
		for (int k = 1; k < 4; k++) {
			f[k] = strchr(f[k - 1], '\t');
			if (!f[k])
				break;
			*f[k]++ = '\0';
		}
		size_t i = strtoul(f[0], NULL, 10);
		if (!f[3] || i >= n)
			continue;
		list[i]->state = (enum exp_state)atoi(f[1]);
		list[i]->seconds = atof(f[2]);
		free(list[i]->why);
		list[i]->why = *f[3] ? xstrdup(f[3]) : NULL;
	}
	buf_free(&msgs);
out:
	free(pids);
	free(owner);
	free(load);
	free(taken);
	free(est);
}

void machine_add_host(cJSON *m)
{
	char date[32];
	now_iso(date);
	struct utsname u;
	cJSON_DeleteItemFromObject(m, "date");
	cJSON_AddStringToObject(m, "date", date);
	if (uname(&u) == 0) {
		char *host = xasprintf("%s %s %s", u.sysname, u.release, u.machine);
		cJSON_DeleteItemFromObject(m, "host");
		cJSON_AddStringToObject(m, "host", host);
		free(host);
	}
	char *os = file_read("/etc/os-release", NULL);
	const char *pn = os ? strstr(os, "PRETTY_NAME=") : NULL;
	if (pn) {
		char *line = str_first_line(pn + 12);
		char *v = line;
		if (*v == '"') {
			v++;
			v[strcspn(v, "\"")] = '\0';
		}
		cJSON_DeleteItemFromObject(m, "os");
		cJSON_AddStringToObject(m, "os", v);
		free(line);
	}
	free(os);
	/* LABBOOK_COMMIT (and LABBOOK_DIRTY, 0 or 1) name the project's state
	 * where the tree's own .git is missing or not the one it came from,
	 * as on a cluster node or a machine that got a copy of the tree. */
	const char *env = getenv("LABBOOK_COMMIT");
	char *git[] = {"git", "rev-parse", "HEAD", NULL};
	char *commit = env && *env ? NULL : exec_capture(git, 10);
	cJSON_DeleteItemFromObject(m, "commit");
	cJSON_DeleteItemFromObject(m, "dirty");
	if (commit) {
		char *c = str_first_line(commit);
		cJSON_AddStringToObject(m, "commit", c);
		free(c);
		char *st[] = {"git", "status", "--porcelain", "--untracked-files=no",
		              "--", "kernels", "tools", "runner", NULL};
		char *status = exec_capture(st, 10);
		cJSON_AddBoolToObject(m, "dirty", status && *status);
		free(status);
	} else {
		cJSON_AddStringToObject(m, "commit", env && *env ? env : "unknown");
		const char *dirty = getenv("LABBOOK_DIRTY");
		if (dirty && (!strcmp(dirty, "0") || !strcmp(dirty, "1")))
			cJSON_AddBoolToObject(m, "dirty", *dirty == '1');
	}
	free(commit);
	machines_batch_facts(m);
}

static void machine_write(struct bundle *b, const struct toolchain *tc,
                          int workers)
{
	cJSON *m = tc->probe ? cJSON_Duplicate(tc->probe, 1) : cJSON_CreateObject();
	if (!tc->probe)
		cJSON_AddStringToObject(m, "gpu", "none");
	/* Several GPUs of the model above shared the experiments. */
	if (tc->probe && workers > 1) {
		cJSON_AddNumberToObject(m, "gpu_count", workers);
		cJSON *u = cJSON_AddArrayToObject(m, "gpu_uuids");
		for (int w = 0; w < workers && (size_t)w < tc->ndevs; w++)
			if (tc->devs[w].uuid)
				cJSON_AddItemToArray(u, cJSON_CreateString(tc->devs[w].uuid));
	}
	/* Facts measured by experiments stay until they are measured again. */
	const cJSON *old = b->machine ? cJSON_GetObjectItem(b->machine, "measured")
	                              : NULL;
	if (cJSON_IsObject(old))
		cJSON_AddItemToObject(m, "measured", cJSON_Duplicate(old, 1));
	if (tc->nvcc_version) {
		cJSON_AddStringToObject(m, "nvcc", tc->nvcc_version);
		cJSON_AddStringToObject(m, "nvcc_flags", "-O3 -std=c++17 -lineinfo");
	}
	if (tc->cc_version)
		cJSON_AddStringToObject(m, "c_compiler", tc->cc_version);
	if (tc->ncu_version)
		cJSON_AddStringToObject(m, "ncu", tc->ncu_version);
	machine_add_host(m);
	bundle_set_machine(b, m);
}

int book_run(struct book *bk, struct bundle *b, const struct run_opts *o)
{
	double t0 = now_seconds();
	struct toolchain tc;
	toolchain_init(&tc, bk, o);
	struct exper **todo = NULL;
	size_t ntodo = 0;
	int failed = 0;

	bk->gpu = tc.gpu;
	if (mkdir_p(BUILD_DIR) != 0) {
		toolchain_free(&tc);
		return (int)bk->nexps;
	}
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		struct exp_result *r = bundle_get(b, e->id);
		size_t n;
		if (o->runs)
			e->runs = o->runs;
		else if (!e->runs)
			e->runs = DEFAULT_RUNS;
		char **inputs = inputs_of(e, r, &n);
		keys_compute(e, &tc, inputs, n);
		free_list(inputs, n);
		char **ca = compile_argv(e, &tc), **ra = run_argv(e);
		e->compile_cmd = argv_join(ca);
		char *run = argv_join(ra);
		e->run_cmd = e->env ? xasprintf("%s %s", e->env, run) : xstrdup(run);
		free(run);
		argv_free(ca);
		argv_free(ra);

		const char *old_key = meta_str(r->meta, "key");
		const char *old_src = meta_str(r->meta, "source_key");
		e->state = r->meta ? ST_RECORDED : ST_MISSING;
		if (r->meta && old_src && strcmp(old_src, e->source_key))
			e->why = xstrdup("its source, arguments or flags changed since "
			                 "these results were recorded");

		if (!file_exists(e->source) || !path_inside(e->source)) {
			const char *what = !file_exists(e->source)
			                       ? "not found"
			                       : "outside the project; experiments must "
			                         "live inside it";
			diag_at(e->ch->path, dir_opt_line(e->dir, "source"),
			        "experiment '%s': source '%s' is %s", e->id, e->source, what);
			e->state = ST_FAILED;
			free(e->why);
			e->why = xasprintf("source '%s' is %s", e->source, what);
			continue;
		}
		e->source_ok = 1;
		if (!o->run && !o->compile_only)
			continue;
		if (e->cuda && !tc.nvcc) {
			free(e->why);
			e->why = xstrdup("nvcc was not found ($NVCC, PATH, "
			                 "$CUDA_HOME/bin, /usr/local/cuda/bin); install "
			                 "the CUDA toolkit or set NVCC to its path");
			if (o->compile_only) {
				diag_at(e->ch->path, e->dir->line, "experiment '%s': %s",
				        e->id, e->why);
				e->state = ST_FAILED;
			}
			continue;
		}
		if (e->cuda && !tc.gpu && !o->compile_only)
			continue;
		if (!o->compile_only && !wants_rerun(e, o) && old_key &&
		    !strcmp(old_key, e->key) && !r->failure && !r->error) {
			e->state = ST_CACHED;
			continue;
		}
		*ARRAY_PUSH(todo, ntodo) = e;
	}

	compile_all(todo, ntodo, b, &tc, o, t0);
	size_t nrun = 0;
	for (size_t i = 0; i < ntodo; i++)
		nrun += todo[i]->state != ST_FAILED;
	int workers = o->gpus > 0 ? o->gpus : tc.ngpus;
	if (tc.ndevs && workers > (int)tc.ndevs) {
		warn_at(NULL, 0, "--gpus %d, but %zu GPU%s of one model %s visible; "
		        "running on %zu", workers, tc.ndevs, tc.ndevs == 1 ? "" : "s",
		        tc.ndevs == 1 ? "is" : "are", tc.ndevs);
		workers = (int)tc.ndevs;
	}
	if (!o->compile_only && nrun) {
		struct exper **list = NULL;
		size_t n = 0;
		int cuda = 0;
		for (size_t i = 0; i < ntodo; i++)
			if (todo[i]->state != ST_FAILED) {
				*ARRAY_PUSH(list, n) = todo[i];
				cuda |= todo[i]->cuda;
			}
		int several = workers > 1 && n > 1;
		/* machine.json describes the card these results came from. */
		if (cuda || !b->machine)
			machine_write(b, &tc, several ? workers : 1);
		if (several) {
			if (o->progress)
				fprintf(stderr, "[%5.1fs] running %zu experiments on %d GPUs\n",
				        now_seconds() - t0, n, workers);
			run_parallel(list, n, workers, b, o, &tc, t0);
		} else {
			run_rounds(list, n, b, o, &tc, t0, -1);
		}
		free(list);
	} else if (!o->compile_only && ntodo && !b->machine) {
		machine_write(b, &tc, 1);
	}
	for (size_t i = 0; i < bk->nexps; i++)
		if (bk->exps[i].state == ST_FAILED && !bk->exps[i].allow_error)
			failed++;
	free(todo);
	toolchain_free(&tc);
	return failed;
}
