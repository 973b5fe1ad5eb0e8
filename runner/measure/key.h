/*
 * key.h - cache keys: when an experiment must run again.
 *
 * An experiment's source key covers its source path, args, flags, ncu
 * options, env and the content of every input: the source and each project
 * file it included in its last build (from the compiler's dependency
 * file, kept in meta.json as "inputs"). Its key adds the compile command
 * words, the number of runs, the compiler's version and the GPU (name,
 * UUID, driver); for an experiment with gpus: all, every GPU the build
 * measures on (entry, UUID and model of each: toolchain_use), in order.
 * Results whose meta holds the same key are up to date.
 *
 * Inputs are regular files inside the project, read with a cap of
 * KEY_INPUT_CAP bytes: an entry that is absolute, climbs out with "..",
 * or names a folder, FIFO or device is refused (reported at the meta
 * file) and never opened for reading.
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
 * *n.
 */
char **key_inputs(const struct exper *e, const struct bundle *b,
                  const struct exp_result *r, size_t *n);

/* The project files a make-style dependency file lists (nvcc -MD), NULL-
 * terminated; NULL when the file cannot be read. */
char **key_deps_read(const char *path, size_t *n);

/* Fill e->source_key from inputs, and e->key unless tc is NULL (a render
 * that runs nothing has no compiler to key on: e->key is then ""). */
void key_compute(struct exper *e, const struct toolchain *tc, char **inputs,
                 size_t ninputs);

#endif
