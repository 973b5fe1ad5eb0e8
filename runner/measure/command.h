/*
 * command.h - an experiment's command lines, as argv arrays.
 *
 * Every argument is a word of its own: paths (a source named "it's.cu"
 * builds) and tool names are never split or quoted. Only the author's
 * args, flags, ncu-args and env are split into words, with the shell's
 * quoting rules and no shell (exec.h, argv_split). All arrays are
 * NULL-terminated; the caller frees them with argv_free.
 *
 *   compile  nvcc -O3 -std=c++17 -arch=ARCH -lineinfo -Xptxas=-v -Ikernels
 *                 -MD -MF build/exp/ID.d -o build/exp/ID SOURCE FLAGS...
 *            cc -O2 -std=c11 -Wall -Ikernels -MD -MF ... SOURCE FLAGS... -lm
 *   run      build/exp/ID ARGS... SWEEP-SET... (argv[0] is ID)
 *            RUN-WORDS... ARGS... SWEEP-SET...   for run: (no compile)
 *   ncu      ncu --csv --clock-control none ... --metrics M build/exp/ID ARGS
 */
#ifndef LB_COMMAND_H
#define LB_COMMAND_H

#include <stddef.h>

#include "book/book.h"
#include "measure/toolchain.h"

#define BUILD_DIR "build/exp"

/* build/exp/<id>, and its dependency file and compiler log. Caller frees. */
char *command_bin(const struct exper *e);
char *command_deps(const struct exper *e);
char *command_log(const struct exper *e);

/* The compiler, from tc where it was looked for, else the plain name
 * ("nvcc", $CC or "cc"). Each source once: a file listed twice (by two
 * spellings that are one canonical path) is compiled once. A run:
 * experiment compiles nothing: no words, and the page shows
 * COMMAND_NO_COMPILE in their place. */
char **command_compile(const struct exper *e, const struct toolchain *tc);
#define COMMAND_NO_COMPILE "# nothing to compile: run: runs as written"
/* The program a run starts (looked up in PATH): command_bin, or the first
 * word of run:. Caller frees. */
char *command_prog(const struct exper *e);
/* Is e a Python program (its source a .py)? Its "compile" parses it,
 * lists the project's modules it imports as its dependency file, and
 * makes build/exp/<id> a launcher that runs it under python3 ($PYTHON
 * where set; command_python names it). */
int command_is_python(const struct exper *e);
/* 1 if e may use the machine's GPU: a CUDA source always; a Python program
 * or a run: command wherever the machine has one (it cannot be told from
 * outside whether it does). Its key then names the GPU, its meta the card
 * it ran on, and its results go only into this GPU's bundle. */
int command_on_gpu(const struct exper *e, const struct toolchain *tc);
const char *command_python(void);
/* What a Python program's compile is shown as: a comment saying what it
 * does, not the import scanner's script. Caller frees. */
char *command_python_text(const struct exper *e);
/* Is e->sources[i] the first of e's sources with its path (the one that
 * is compiled)? */
int command_source_first(const struct exper *e, size_t i);
/* The compiler writes one dependency file per command, so the files that
 * source i of several includes are listed by a pass of its own ("-M -MF
 * build/exp/ID.dI"): its argv, and that file in *dep (caller frees). */
char **command_deps_of(const struct exper *e, const struct toolchain *tc,
                       size_t i, char **dep);
char **command_run(const struct exper *e);
/* The arguments of the run of sweep set k (0 without a sweep): argv[0] is
 * the experiment's id, so a program that prints its own name prints the
 * same on every machine; command_prog is the program to start. A run:
 * experiment's begin with its command's words, argv[0] its program. */
char **command_run_set(const struct exper *e, size_t k);
/* The runs as printable lines, env in front, one per sweep set (the first
 * COMMAND_SETS_SHOWN, then how many more). Caller frees. */
#define COMMAND_SETS_SHOWN 16
char *command_run_text(const struct exper *e);
/* metrics: the comma-separated Nsight Compute names. */
char **command_ncu(const struct exper *e, const char *ncu, const char *metrics);
/* The experiment's env: words "NAME=value". */
char **command_env(const struct exper *e);

/*
 * Why run r of a program failed, in words: interrupted, killed at timeout
 * seconds or by a signal, or its exit status. command_last_line: the last
 * line it printed (at most 200 bytes, made safe), which says why as a
 * reader would look for it ("ModuleNotFoundError: No module named 'x'"),
 * or NULL. Caller frees.
 */
struct run_result;
char *command_failure(const struct run_result *r, double timeout);
char *command_last_line(const struct run_result *r);

#endif
