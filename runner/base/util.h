/*
 * util.h - files, hashing, clocks and text; with it come diag.h's
 * diagnostics, path.h's paths and mem.h's allocation.
 *
 * Conventions for the whole runner: a function that can fail returns 0 on
 * success and -1 on failure, after reporting the failure once, where it was
 * found, with diag() or diag_at(). Allocation failures abort (xmalloc), so
 * error paths exist only for real failures. Only main.c exits.
 */
#ifndef LB_UTIL_H
#define LB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/path.h"


/* The readers below note each file they read in inputs.h's set. */
#include "base/inputs.h"

/* Read a whole regular file of at most FILE_READ_CAP bytes; NUL-terminated,
 * length in *len. NULL with errno set (EISDIR, EINVAL for a FIFO or
 * device, EFBIG past the cap). */
#define FILE_READ_CAP (1u << 30)
char *file_read(const char *path, size_t *len);
/*
 * Read a regular file of at most cap bytes; NUL-terminated, length in
 * *len. A folder, FIFO, device or anything but a regular file is refused
 * without being opened for reading, so it cannot block or run without end.
 * NULL with *why set (caller frees): "is a folder", "is larger than ...".
 */
char *file_read_regular(const char *path, size_t cap, size_t *len, char **why);
/* file_read_regular of a file a program wrote for labbook (its records):
 * a symbolic link there is refused too, so what it points to (/etc/passwd)
 * is neither read nor published. */
char *file_read_written(const char *path, size_t cap, size_t *len, char **why);
/* Is path a regular file (symlinks followed)? */
int file_is_regular(const char *path);
/*
 * Write data to path through a temporary file in the same folder
 * (file_temp_name) and a rename, so readers never see half a file. 0 or
 * -1 (reported).
 */
int file_write_atomic(const char *path, const void *data, size_t len);
/* The same, with what fill(fd, arg) writes (0, or -1 with errno set). */
int file_write_atomic_with(const char *path, int (*fill)(int fd, void *arg),
                           void *arg);
/*
 * file_write_atomic, unless path holds data already (a file of another
 * size differs without being read), making the folders above it. Adds 1
 * to *written (unless NULL) when it wrote. 0 or -1 (reported).
 */
int file_write_if_changed(const char *path, const void *data, size_t len,
                          int *written);
/*
 * The temporary name under which this process writes path: "PATH.tmp.PID",
 * or "PATH.tmp.PID.N" for n >= 0 (several at once). Caller frees.
 */
char *file_temp_name(const char *path, long n);
/*
 * Remove from dir, and the folders below it down to depth levels (symlinks
 * not followed), every temporary file (file_temp_name) whose process is
 * not a running labbook: one that was killed before it could rename or
 * remove it. Returns how many were removed.
 */
size_t dir_remove_stale_temps(const char *dir, int depth);
/* Write all len bytes to fd, again after a signal. 0, or -1 with errno. */
int fd_write_all(int fd, const void *data, size_t len);
int file_exists(const char *path);
/* Modification time in nanoseconds, or -1. */
int64_t file_mtime(const char *path);
/* Copy src to dst atomically; 0 or -1 (reported). */
int file_copy(const char *src, const char *dst);
/* mkdir -p; 0 or -1 (reported). */
int mkdir_p(const char *path);
/* Make every folder above path; 0 or -1 (reported). */
int mkdir_parents(const char *path);

/* 128-bit content hash as 32 hex digits, for cache keys. */
struct hasher;
struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
void hasher_add_str(struct hasher *h, const char *s);
/* Writes 33 bytes into out and frees h. */
void hasher_done(struct hasher *h, char out[33]);
/* Add the running labbook's binary (its size, time and inode) to h: a new
 * build of it may parse or write differently. */
void hasher_add_self(struct hasher *h);

/* Wall time in seconds (monotonic). */
double now_seconds(void);
/* Current UTC time as "2026-11-22T10:31:07Z" into out[32]. */
void now_iso(char out[32]);

/* Is s (len bytes) valid UTF-8? If not, *bad_line gets the 1-based line. */
int utf8_valid(const char *s, size_t len, int *bad_line);

/*
 * Bytes made safe to show as text: invalid UTF-8 becomes U+FFFD, and
 * control characters other than newline and tab (NUL, ESC, BEL, a lone
 * CR, DEL) become their visible pictures (U+2400 + c, U+2421 for DEL).
 * The result is valid UTF-8 without NUL; its length in *out_len. Returns
 * NULL when s is already safe (nothing to change). Caller frees.
 */
char *text_make_safe(const char *s, size_t len, size_t *out_len);
/* text_make_safe for Markdown source, where a lone CR ends a line and
 * stays as it is. */
char *source_make_safe(const char *s, size_t len, size_t *out_len);

/*
 * Strict numbers: the whole of s is a decimal number within [min, max]
 * ("4x", "", " 4" and out-of-range values are refused). 0 or -1; no
 * report (the caller knows what the number was for).
 */
int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double min, double max, double *out);

/* "s" unless n is 1, for "%zu chapter%s". */
const char *plural(size_t n);

/* The text of s up to its first newline. Caller frees. */
char *str_first_line(const char *s);

/* Trim spaces and tabs at both ends, in place; returns s. */
char *str_trim(char *s);
/* qsort's comparison of two doubles: the smallest first. */
int cmp_double(const void *a, const void *b);
int str_starts(const char *s, const char *prefix);
/* A hash of s for the slots of a table (FNV-1a). */
uint64_t str_hash(const char *s);
/* The edit distance of a and b (insertions, deletions, substitutions). */
size_t str_distance(const char *a, const char *b);
/* Of the n words, the one nearest to s, when it is near enough to be a
 * slip of the keyboard (a third of s's length, at least one edit); else
 * NULL. Borrowed from words. */
const char *str_nearest(const char *s, const char *const *words, size_t n);

#endif
