/* compile.c - the experiments compiled in parallel, their failures kept as
 * data (compile.h). */
#define _GNU_SOURCE
#include "measure/compile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "measure/command.h"
#include "base/exec.h"
#include "measure/key.h"
#include "base/util.h"

/* Report e's failure at its directive, with the compiler's log when there
 * is one, and keep it in the bundle beside the good results. */
static void compile_failed(struct bundle *b, struct exper *e, const char *log,
                           const char *why)
{
	char *why_text = NULL;
	char *text = log ? file_read_regular(log, RESULTS_OUTPUT_CAP, NULL,
	                                     &why_text) : NULL;
	free(why_text);
	char *safe = text ? text_make_safe(text, strlen(text), NULL) : NULL;
	const char *shown = safe ? safe : text ? text : "";
	char date[32];
	now_iso(date);
	cJSON *info = cJSON_CreateObject();
	cJSON_AddStringToObject(info, "stage", "compile");
	cJSON_AddStringToObject(info, "why", why);
	cJSON_AddStringToObject(info, "source", e->source);
	cJSON_AddStringToObject(info, "compile", e->compile_cmd);
	cJSON *argv = cJSON_AddArrayToObject(info, "compile_argv");
	for (char **a = e->compile_argv; a && *a; a++)
		cJSON_AddItemToArray(argv, cJSON_CreateString(*a));
	cJSON_AddStringToObject(info, "output", shown);
	cJSON_AddStringToObject(info, "date", date);
	if (log)
		(e->allow_error ? warn_at : diag_at)(e->ch->path, e->dir->line,
		        "experiment '%s': %s %s:\n%s", e->id, e->source, why, shown);
	else
		(e->allow_error ? warn_at : diag_at)(e->ch->path, e->dir->line,
		        "experiment '%s': %s", e->id, why);
	free(text);
	free(safe);
	bundle_fail(b, e->id, info);
	exper_fail(e, xstrdup(!strcmp(why, "failed to compile") ? "compile error"
	                                                        : why));
}

/*
 * The files e was built from, from the compiler's dependency file, into
 * e->inputs (the source alone when it wrote none). A header outside the
 * project fails e: the same error on every build, until it is fixed.
 */
static void compile_inputs(struct bundle *b, struct exper *e,
                           const struct toolchain *tc, double timeout)
{
	char *dep = command_deps(e), *why = NULL;
	size_t n = 0;
	char **inputs = key_deps_read(dep, &n, &why);
	free(dep);
	/* The compile's file lists what its last source read; the others
	 * are listed by a pass each. */
	for (size_t i = 0; inputs && !why && i + 1 < e->nsources; i++) {
		char **argv = command_deps_of(e, tc, i, &dep);
		char *out = exec_capture(argv, timeout);
		size_t m = 0;
		char **more = out ? key_deps_read(dep, &m, &why) : NULL;
		if (!out)
			why = xasprintf("its dependencies could not be listed (%s)",
			                e->sources[i]);
		for (size_t k = 0; k < m; k++) {
			int seen = 0;
			for (size_t j = 0; j < n && !seen; j++)
				seen = !strcmp(inputs[j], more[k]);
			if (!seen) {
				*ARRAY_PUSH(inputs, n) = xstrdup(more[k]);
				*ARRAY_PUSH(inputs, n) = NULL;
				n--;
			}
		}
		argv_free(more);
		argv_free(argv);
		free(out);
		free(dep);
	}
	if (why) {
		compile_failed(b, e, NULL, why);
		free(why);
		return;
	}
	if (!n) {
		argv_free(inputs);
		inputs = NULL;
		for (size_t i = 0; i < (e->sources ? e->nsources : 1); i++)
			*ARRAY_PUSH(inputs, n) = xstrdup(e->sources ? e->sources[i]
			                                            : e->source);
		*ARRAY_PUSH(inputs, n) = NULL;
		n--;
	}
	argv_free(e->inputs);
	e->inputs = inputs;
	e->ninputs = n;
}

/*
 * A source listed twice, by two spellings of one path ("./k/m.c" and
 * "k/m.c"), is compiled once (command.h); say so at the source: option,
 * naming both spellings, rather than let the linker find each symbol
 * twice.
 */
static void sources_twice(const struct exper *e)
{
	size_t n = 0;
	const char *text = dir_opt(e->dir, "source");
	char **words = text ? argv_split(text, &n) : NULL;
	for (size_t i = 0; e->sources && i < e->nsources; i++) {
		if (command_source_first(e, i))
			continue;
		size_t k = 0;
		while (strcmp(e->sources[k], e->sources[i]))
			k++;
		int spelt = n == e->nsources;
		warn_at(e->ch->path, dir_opt_line(e->dir, "source"), "experiment "
		        "'%s': source '%s' is listed twice ('%s' and '%s'); it is "
		        "compiled once", e->id, e->sources[i],
		        spelt ? words[k] : e->sources[k],
		        spelt ? words[i] : e->sources[i]);
	}
	argv_free(words);
}

/* A run: command compiles nothing: its inputs are its inputs: files
 * alone (key.c), and no compiler log of an earlier build is read as its. */
static void compile_none(struct exper *e)
{
	char *log = command_log(e);
	unlink(log);
	free(log);
	argv_free(e->inputs);
	e->inputs = xcalloc(1, sizeof *e->inputs);
	e->ninputs = 0;
}

void compile_all(struct exper **todo, size_t n, struct bundle *b,
                 const struct toolchain *tc, const struct run_opts *o, double t0)
{
	struct exper **cc = xcalloc(n + 1, sizeof *cc);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (todo[i]->run)
			compile_none(todo[i]);
		else
			cc[m++] = todo[i];
	todo = cc;
	n = m;
	size_t slots = o->jobs > 0 ? (size_t)o->jobs : 1;
	if (slots > 64)
		slots = 64;
	struct exec_proc *procs = xcalloc(slots, sizeof *procs);
	struct exper **who = xcalloc(slots, sizeof *who);
	size_t next = 0, running = 0;
	(void)tc;
	for (;;) {
		for (size_t s = 0; s < slots && next < n && !exec_stopping(); s++) {
			if (procs[s].pid)
				continue;
			struct exper *e = todo[next++];
			char *log = command_log(e);
			sources_twice(e);
			if (o->progress)
				fprintf(stderr, "[%5.1fs] compile %s (%s)\n",
				        now_seconds() - t0, e->id, e->source);
			if (exec_start(&procs[s], e->compile_argv, log, o->compile_timeout) != 0)
				compile_failed(b, e, log, "could not be compiled (the "
				               "compiler did not start)");
			else {
				who[s] = e;
				running++;
			}
			free(log);
		}
		if (!running)
			break;
		int k = exec_wait_any(procs, slots);
		if (k < 0)
			break;
		struct exec_proc *p = &procs[k];
		struct exper *e = who[k];
		char *log = command_log(e);
		if (p->interrupted)
			exper_fail(e, xstrdup("interrupted"));
		else if (p->timed_out)
		{
			char *why = xasprintf("was still compiling at the limit of "
			                      "%.0f s, and was stopped", p->timeout);
			compile_failed(b, e, log, why);
			free(why);
		}
		else if (!WIFEXITED(p->status) || WEXITSTATUS(p->status) != 0)
			compile_failed(b, e, log, "failed to compile");
		else
			compile_inputs(b, e, tc, o->compile_timeout);
		free(log);
		exec_proc_close(p);
		running--;
	}
	free(procs);
	free(who);
	free(cc);
}
