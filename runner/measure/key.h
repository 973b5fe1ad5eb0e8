/*
 * key.h - cache keys: when an experiment must run again.
 *
 * An experiment's source key covers its source paths, args, flags, ncu
 * options, env, include folders, capture patterns and sweeps, and the
 * content of every input: the source and each project
 * file it included in its last build (from the compiler's dependency
 * file, kept in meta.json as "inputs"), and, after all of them, of each
 * file its inputs: option names (data its program reads); a run:
 * experiment's command as written in place of its source, and its
 * inputs: files alone in place of its build's. Its key adds the compile command
 * words, the number of runs, the compiler's version and the GPU (name,
 * UUID, driver); for an experiment with gpus: all, every GPU the build
 * measures on (entry, UUID and model of each: toolchain_use), in order.
 * Results whose meta holds the same key are up to date.
 *
 * Inputs are regular files inside the project, each known by its
 * canonical in-project path (util.h, path_resolve: "kernels/a/../c/c.h"
 * is "kernels/c/c.h", a symlink is known by what it resolves to), read
 * with a cap of KEY_INPUT_CAP bytes. Headers outside the project by an
 * absolute path (the system's, the CUDA toolkit's) are not inputs. A
 * meta's entry that is absolute or climbs out with "..", or names a
 * folder, FIFO or device, is refused (reported at the meta file) and never
 * opened for reading; one inside the project that resolves outside it is
 * refused and reported at the experiment's directive (build.c, compile.c).
 */
#ifndef LB_KEY_H
#define LB_KEY_H

#include <stddef.h>

#include "book/book.h"
#include "bundle/results.h"
#include "measure/toolchain.h"

#define KEY_INPUT_CAP (64u << 20)

/*
 * The inputs of e: those of its last build (r's meta), checked as above,
 * else its source. NULL-terminated (caller frees with argv_free); count in
 * *n. An input that now resolves outside the project is left out, and the
 * first such one is described in *escaped ("header 'x' is outside the
 * project (it resolves to ...)"; caller frees; NULL when none) for the
 * caller to report at the experiment's directive. An input the meta names
 * that is no path of the project (absolute, climbing out), or no regular
 * file, is data another machine recorded: left out, and not reported.
 */
char **key_inputs(const struct exper *e, const struct exp_result *r,
                  size_t *n, char **escaped);

/*
 * The prerequisites of a make-style dependency file's text, read as make
 * reads it, for gcc, clang and nvcc alike: a backslash-newline joins
 * lines; "#" starts a comment; each rule's targets (one or several, the
 * colon right after them or after a blank, "main.o : a.cu" as nvcc writes
 * it) are not inputs, nor is a rule without prerequisites (-MP's phony
 * rule for a header); "\ " is a blank inside a path ("sp\ ace/s.c"), a
 * run of 2N backslashes before a blank N backslashes, "\#" and "\:" are
 * "#" and ":", "$$" is "$"; "|" (order-only) is no file. In order, with
 * repeats: NULL-terminated (caller frees with argv_free), count in *n.
 */
char **key_deps_words(const char *text, size_t *n);

/*
 * The project files a make-style dependency file lists (-MD, read by
 * key_deps_words), each by its
 * canonical in-project path, without repeats, the system's headers left
 * out: NULL-terminated (caller frees with argv_free), count in *n; NULL
 * when the file cannot be read (the compiler wrote none). NULL with *why
 * set (caller frees; no report) when a file it lists is outside the
 * project by a relative path or resolves outside it through a symlink:
 * "header 'kernels/c/c.h' is outside the project (it resolves to
 * /tmp/c.h)".
 */
char **key_deps_read(const char *path, size_t *n, char **why);

/*
 * Fill e->source_key from inputs, and e->key unless tc is NULL (a render
 * that runs nothing has no compiler to key on: e->key is then ""). Also
 * e->key_parts (owned by e), what the keys were made of, by name, which
 * meta.json keeps as "key_parts" so that why.h can say which part changed:
 *   sources, include, capture, sweep   arrays of strings
 *   run              the command, for a run: experiment only (sources
 *                    is then empty, and compiler "")
 *   args, flags, ncu, ncu-args, env    strings ("" when not given)
 *   files, data      {path: hash of its content, or "(missing)"}: the
 *                    inputs, and the files of inputs:
 *   runs             number              } only with tc: what e->key
 *   compiler         version string      } adds (the compile command is
 *   gpu              "name;uuid;driver;" } meta.json's compile_argv)
 *   gpus             gpus: all only
 */
void key_compute(struct exper *e, const struct toolchain *tc, char **inputs,
                 size_t ninputs);

#endif
