/*
 * stamp.h - a build that would change nothing is not made.
 *
 * While a --no-run build runs, every file and folder it reads, or looks
 * for and does not find, is noted (util.h's input hook). When it ends
 * clean (exit status 0, nothing reported), it leaves site/.labbook-stamp:
 * the key of its options and of labbook itself, each input as it stood
 * (size, modification and change times, inode, or absence), and each file
 * and folder of the site as written. The next build with the same key,
 * whose inputs and site all still stand as noted, has nothing to do.
 *
 * What is noted is what was read, so an input cannot be forgotten. An
 * input whose times are within two seconds of the stamp's writing could
 * change again without its times showing it (file times are coarse): its
 * content is hashed too, and checked, as git treats a racily clean index.
 * The stamp ends with a checksum of itself: one cut short or changed is
 * no stamp.
 */
#ifndef LB_STAMP_H
#define LB_STAMP_H

#include <stddef.h>

/* Start noting inputs; anything under site (the build's output) is not
 * one. The stamp there is removed: a build that stops half way leaves
 * none. */
void stamp_begin(const char *site);
/* The key of a build: its arguments (but -j, --quiet and --progress,
 * which change nothing in the site), the folder it runs in, the
 * environment it reads, and labbook's own binary. out: 33 bytes. */
void stamp_key(int argc, char **argv, char out[33]);
/* Does site's stamp have key, with every input and output as noted?
 * *checked: the number of files and folders looked at; the warnings the
 * stamped build printed are appended to warnings (when fresh). */
struct buf;
int stamp_fresh(const char *site, const char *key, size_t *checked,
                struct buf *warnings);
/* After a build with no errors: write the stamp (or none, when an input
 * is too new to trust), with the warnings it printed (NULL: none), which
 * a build it spares prints again. Stops noting. 0 or -1; never reported
 * (a missing stamp only costs the next build its shortcut). */
int stamp_write(const char *site, const char *key, const char *warnings);
/* Stop noting without writing. */
void stamp_end(void);

#endif
