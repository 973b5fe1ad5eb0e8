/* command.c - an experiment's command lines as argument arrays: compile,
 * run, profile (command.h). */
#include "measure/command.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/path.h"
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

int command_is_python(const struct exper *e)
{
	return !e->cuda && !e->run && e->source &&
	       !strcmp(path_ext(e->source), ".py");
}

int command_on_gpu(const struct exper *e, const struct toolchain *tc)
{
	return e->cuda || (tc && tc->gpu && (e->run || command_is_python(e)));
}

char *command_python_text(const struct exper *e)
{
	return xasprintf("# %s reads %s and the modules it imports from the "
	                 "book; nothing is compiled", command_python(), e->source);
}

char *command_prog(const struct exper *e)
{
	if (!e->run)
		return command_bin(e);
	char **w = argv_split(e->run, NULL);
	char *prog = xstrdup(w[0] ? w[0] : "");
	argv_free(w);
	return prog;
}

/* The words a run starts with: build/exp/ID (argv[0] is the id), or the
 * whole run: command (argv[0] is its program, as written). */
static void run_words(const struct exper *e, int id0, char ***argv, size_t *n)
{
	if (e->run)
		argv_append_split(argv, n, e->run);
	else
		*ARRAY_PUSH(*argv, *n) = id0 ? xstrdup(e->id) : command_bin(e);
}

const char *command_python(void)
{
	const char *py = getenv("PYTHON");
	return py && *py ? py : "python3";
}

/*
 * A Python program's compile: python3 -c PY_BUILD DEP BIN PATH SOURCES...
 * Each source, and each project module it imports, is parsed (a syntax
 * error fails the compile, with its message in the log); the modules it
 * imports from its own folder or
 * PATH's (kernels, then the include: folders: -Ikernels's match), found
 * by modulefinder on those folders only (never the
 * interpreter's packages, which it would walk for minutes), are written
 * with the sources as a make-style dependency file; and BIN, unless it
 * is "", becomes a launcher that runs the first source under the
 * interpreter that parsed it, with PATH on PYTHONPATH and -B (no
 * __pycache__ in the project).
 */
static const char py_build[] =
    "import modulefinder, os, shlex, sys\n"
    "dep, out, path, srcs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]\n"
    "root = os.getcwd()\n"
    "path = [os.path.abspath(p) for p in path.split(os.pathsep)]\n"
    "files = list(srcs)\n"
    "for s in srcs:\n"
    "    compile(open(s, 'rb').read(), s, 'exec')\n"
    "    f = modulefinder.ModuleFinder([os.path.dirname(os.path.abspath(s))] + path)\n"
    "    f.run_script(s)\n"
    "    for m in f.modules.values():\n"
    "        p = m.__file__ and os.path.abspath(m.__file__)\n"
    "        if p and p.startswith(root + os.sep):\n"
    "            files.append(os.path.relpath(p, root))\n"
    "    for name in f.badmodules:\n"
    "        for d in f.path:\n"
    "            p = os.path.join(d, *name.split('.')) + '.py'\n"
    "            if os.path.isfile(p) and p.startswith(root + os.sep):\n"
    "                compile(open(p, 'rb').read(), os.path.relpath(p, root), 'exec')\n"
    "q = lambda p: p.replace('$', '$$').replace('#', '\\\\#').replace(' ', '\\\\ ')\n"
    "with open(dep, 'w') as d:\n"
    "    d.write((out or 'py') + ' : ' + ' '.join(q(p) for p in dict.fromkeys(files)) + '\\n')\n"
    "if out:\n"
    "    with open(out, 'w') as o:\n"
    "        o.write('#!/bin/sh\\nPYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} exec %s -B %s \"$@\"\\n' % (shlex.quote(sys.argv[3]), shlex.quote(sys.executable), shlex.quote(srcs[0])))\n"
    "    os.chmod(out, 0o755)\n";

/* The compile of every source (only < 0), or the dependency pass of
 * source only into command_deps_of's file. */
static char **compile_argv(const struct exper *e, const struct toolchain *tc,
                           long only)
{
	char **argv = NULL;
	size_t n = 0;
	if (e->run) {
		*ARRAY_PUSH(argv, n) = NULL;
		return argv;
	}
	if (command_is_python(e)) {
		const char *w[] = {command_python(), "-c", py_build};
		struct buf path = BUF_INIT;
		buf_puts(&path, "kernels");
		for (size_t i = 0; e->includes && e->includes[i]; i++)
			buf_printf(&path, ":%s", e->includes[i]);
		for (size_t i = 0; i < sizeof w / sizeof *w; i++)
			push(&argv, &n, w[i]);
		if (only >= 0) {
			*ARRAY_PUSH(argv, n) = xasprintf(BUILD_DIR "/%s.d%ld", e->id, only);
			push(&argv, &n, "");
			*ARRAY_PUSH(argv, n) = buf_detach(&path);
			push(&argv, &n, e->sources[only]);
		} else {
			*ARRAY_PUSH(argv, n) = command_deps(e);
			*ARRAY_PUSH(argv, n) = command_bin(e);
			*ARRAY_PUSH(argv, n) = buf_detach(&path);
			for (size_t i = 0; e->sources && e->sources[i]; i++)
				if (command_source_first(e, i))
					push(&argv, &n, e->sources[i]);
			if (!e->sources)
				push(&argv, &n, e->source);
		}
		*ARRAY_PUSH(argv, n) = NULL;
		return argv;
	}
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
	run_words(e, 0, &argv, &n);
	argv_append_split(&argv, &n, e->args);
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char **command_run_set(const struct exper *e, size_t k)
{
	char **argv = NULL;
	size_t n = 0;
	run_words(e, 1, &argv, &n);
	argv_append_split(&argv, &n, e->args);
	sweep_args(e->sweep, k, &argv, &n);
	*ARRAY_PUSH(argv, n) = NULL;
	return argv;
}

char *command_run_text(const struct exper *e)
{
	size_t sets = sweep_sets(e->sweep);
	char *bin = command_prog(e);
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

char *command_failure(const struct run_result *r, double timeout)
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

char *command_last_line(const struct run_result *r)
{
	size_t end = r->out ? r->out_len : 0;
	while (end && strchr("\n\r\t ", r->out[end - 1]))
		end--;
	size_t start = end;
	while (start && r->out[start - 1] != '\n')
		start--;
	if (end == start)
		return NULL;
	size_t n = end - start > 200 ? 200 : end - start;
	const char *more = end - start > n ? "..." : "";
	char *safe = text_make_safe(r->out + start, n, NULL);
	char *line = safe ? xasprintf("%s%s", safe, more)
	                  : xasprintf("%.*s%s", (int)n, r->out + start, more);
	free(safe);
	return line;
}
