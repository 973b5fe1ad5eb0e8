#include "measure/command.h"

#include <stdlib.h>

#include "base/exec.h"
#include "base/util.h"

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

char **command_compile(const struct exper *e, const struct toolchain *tc)
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
	char *dep = command_deps(e), *bin = command_bin(e);
	push(&argv, &n, "-MD");
	push(&argv, &n, "-MF");
	*ARRAY_PUSH(argv, n) = dep;
	push(&argv, &n, "-o");
	*ARRAY_PUSH(argv, n) = bin;
	push(&argv, &n, e->source);
	argv_append_split(&argv, &n, e->flags);
	if (!e->cuda)
		push(&argv, &n, "-lm");
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
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
