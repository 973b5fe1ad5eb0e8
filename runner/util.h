/*
 * util.h - allocation, files, paths, hashing and diagnostics.
 *
 * Conventions for the whole runner: a function that can fail returns 0 on
 * success and -1 on failure, after reporting the failure once, where it was
 * found, with diag() or diag_at(). Allocation failures abort (xmalloc), so
 * error paths exist only for real failures. Only main.c exits.
 */
#ifndef LB_UTIL_H
#define LB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array *items of *n elements by one slot; returns the new slot. */
#define ARRAY_PUSH(items, n) \
	((items) = xrealloc((items), sizeof *(items) * ((n) + 1)), &(items)[(n)++])

/*
 * Diagnostics go to stderr as "file:line: error: message" (line 0: no line)
 * and are counted; diag_count() tells main.c whether to fail.
 */
void diag_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int diag_count(void);
/* Silence output of diag() (tests of expected failures); counting goes on. */
void diag_quiet(int quiet);

/* Read a whole file; NUL-terminated, length in *len. NULL with errno set. */
char *file_read(const char *path, size_t *len);
/*
 * Write data to path through a temporary file in the same folder and a
 * rename, so readers never see half a file. 0 or -1 (reported).
 */
int file_write_atomic(const char *path, const void *data, size_t len);
int file_exists(const char *path);
/* Modification time in nanoseconds, or -1. */
int64_t file_mtime(const char *path);
/* Copy src to dst atomically; 0 or -1 (reported). */
int file_copy(const char *src, const char *dst);
/* mkdir -p; 0 or -1 (reported). */
int mkdir_p(const char *path);
/* Make every folder above path; 0 or -1 (reported). */
int mkdir_parents(const char *path);

/* "a" + "/" + "b" (b used as is when absolute). Caller frees. */
char *path_join(const char *a, const char *b);
/* The last component without its extension ("kernels/ilp/ilp.cu" -> "ilp"). */
char *path_stem(const char *path);
const char *path_ext(const char *path);

/* 128-bit content hash as 32 hex digits, for cache keys. */
struct hasher;
struct hasher *hasher_new(void);
void hasher_add(struct hasher *h, const void *data, size_t len);
void hasher_add_str(struct hasher *h, const char *s);
/* Writes 33 bytes into out and frees h. */
void hasher_done(struct hasher *h, char out[33]);

/* Wall time in seconds (monotonic). */
double now_seconds(void);
/* Current UTC time as "2026-11-22T10:31:07Z" into out[32]. */
void now_iso(char out[32]);

/* Is s (len bytes) valid UTF-8? If not, *bad_line gets the 1-based line. */
int utf8_valid(const char *s, size_t len, int *bad_line);

/* The text of s up to its first newline. Caller frees. */
char *str_first_line(const char *s);

/* Trim spaces and tabs at both ends, in place; returns s. */
char *str_trim(char *s);
int str_starts(const char *s, const char *prefix);

#endif
