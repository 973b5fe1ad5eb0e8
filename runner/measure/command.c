/* command.c - an experiment's command lines as argument arrays: compile,
 * run, profile (command.h). */
#include "measure/command.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"
#include "book/sweep.h"

char *command_bin(const struct exper *e)
{
	return xasprintf(BUILD_DIR "/%s", e->id);
}

char *command_deps(const struct exper *e)
{
	return xasprintf(BUILD_DIR "/%s.d", e->id);
}

char *command_log(const struct exper *e)
{
	return xasprintf(BUILD_DIR "/%s.log", e->id);
}

static void push(char ***argv, size_t *n, const char *word)
{
	*ARRAY_PUSH(*argv, *n) = xstrdup(word);
}

int command_source_first(const struct exper *e, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(e->sources[k], e->sources[i]))
			return 0;
	return 1;
}

/* The compile of every source (only < 0), or the dependency pass of
 * source only into command_deps_of's file. */
static char **compile_argv(const struct exper *e, const struct toolchain *tc,
                           long only)
{
	char **argv = NULL;
	size_t n = 0;
	if (e->cuda) {
		const char *nvcc = tc && tc->nvcc ? tc->nvcc : "nvcc";
		char *arch = xasprintf("-arch=%s", tc && tc->arch ? tc->arch : "sm_90");
		const char *w[] = {nvcc, "-O3", "-std=c++17", arch, "-lineinfo",
		                   "-Xptxas=-v", "-Ikernels"};
		for (size_t i = 0; i < sizeof w / sizeof *w; i++)
			push(&argv, &n, w[i]);
		free(arch);
	} else {
		const char *cc = tc && tc->cc ? tc->cc : getenv("CC");
		const char *w[] = {cc && *cc ? cc : "cc", "-O2", "-std=c11", "-Wall",
		                   "-Ikernels"};
		for (size_t i = 0; i < sizeof w / sizeof *w; i++)
			push(&argv, &n, w[i]);
	}
	if (only >= 0) {
		push(&argv, &n, "-M");
		push(&argv, &n, "-MF");
		*ARRAY_PUSH(argv, n) = xasprintf(BUILD_DIR "/%s.d%ld", e->id, only);
		push(&argv, &n, e->sources[only]);
	} else {
		push(&argv, &n, "-MD");
		push(&argv, &n, "-MF");
		*ARRAY_PUSH(argv, n) = command_deps(e);
		push(&argv, &n, "-o");
		*ARRAY_PUSH(argv, n) = command_bin(e);
		for (size_t i = 0; e->sources && e->sources[i]; i++)
			if (command_source_first(e, i))
				push(&argv, &n, e->sources[i]);
		if (!e->sources)
			push(&argv, &n, e->source);
	}
	for (size_t i = 0; e->includes && e->includes[i]; i++)
		*ARRAY_PUSH(argv, n) = xasprintf("-I%s", e->includes[i]);
	argv_append_split(&argv, &n, e->flags);
	if (!e->cuda && only < 0)
		push(&argv, &n, "-lm");
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char **command_compile(const struct exper *e, const struct toolchain *tc)
{
	return compile_argv(e, tc, -1);
}

char **command_deps_of(const struct exper *e, const struct toolchain *tc,
                       size_t i, char **dep)
{
	*dep = xasprintf(BUILD_DIR "/%s.d%zu", e->id, i);
	return compile_argv(e, tc, (long)i);
}

char **command_run(const struct exper *e)
{
	char **argv = NULL;
	size_t n = 0;
	*ARRAY_PUSH(argv, n) = command_bin(e);
	argv_append_split(&argv, &n, e->args);
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char **command_run_set(const struct exper *e, size_t k)
{
	char **argv = NULL;
	size_t n = 0;
	*ARRAY_PUSH(argv, n) = xstrdup(e->id);
	argv_append_split(&argv, &n, e->args);
	sweep_args(e->sweep, k, &argv, &n);
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char *command_run_text(const struct exper *e)
{
	size_t sets = sweep_sets(e->sweep);
	char *bin = command_bin(e);
	struct buf b = BUF_INIT;
	for (size_t k = 0; k < sets && k < COMMAND_SETS_SHOWN; k++) {
		char **argv = command_run_set(e, k);
		free(argv[0]);
		argv[0] = xstrdup(bin);
		char *line = argv_join(argv);
		buf_printf(&b, "%s%s%s%s", k ? "\n" : "", e->env ? e->env : "",
		           e->env ? " " : "", line);
		free(line);
		argv_free(argv);
	}
	if (sets > COMMAND_SETS_SHOWN)
		buf_printf(&b, "\n# and %zu more sets", sets - COMMAND_SETS_SHOWN);
	free(bin);
	return buf_detach(&b);
}

char **command_ncu(const struct exper *e, const char *ncu, const char *metrics)
{
	char **argv = NULL;
	size_t n = 0;
	const char *w[] = {ncu, "--csv", "--clock-control", "none", "--print-units",
	                   "base", "--print-kernel-base", "demangled", "--metrics",
	                   metrics};
	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		push(&argv, &n, w[i]);
	*ARRAY_PUSH(argv, n) = command_bin(e);
	argv_append_split(&argv, &n, e->ncu_args ? e->ncu_args : e->args);
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char **command_env(const struct exper *e)
{
	return argv_split(e->env ? e->env : "", NULL);
}
