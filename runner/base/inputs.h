/*
 * inputs.h - the files and folders a build read, or looked for and did not
 * find: the set a stamp (cli/stamp.h) is made from.
 *
 * util.h's readers note each path they read; so does code that lists a
 * folder or looks at a file itself. Nothing is noted outside
 * inputs_begin/inputs_end, and nothing under the build's output folder.
 */
#ifndef LB_INPUTS_H
#define LB_INPUTS_H

#include <stddef.h>

/* Start a new set; paths under outputs (the site folder) are not noted. */
void inputs_begin(const char *outputs);
/* Forget the set and stop noting. */
void inputs_end(void);
/* Note path, once ("./" dropped), while a set is open. */
void input_note(const char *path);
/* Each noted path in turn: start with *it = 0; NULL after the last. */
const char *inputs_next(size_t *it);

#endif
