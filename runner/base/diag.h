/*
 * diag.h - diagnostics: the one way the runner reports what went wrong.
 * A function that finds a failure reports it once, here, with the file
 * and line it concerns, and returns -1 (util.h states the convention).
 */
#ifndef LB_DIAG_H
#define LB_DIAG_H

#include <stdarg.h>

/*
 * Diagnostics go to stderr as "file:line: error: message" (line 0: no line)
 * and are counted; diag_count() tells main.c whether to fail.
 */
void diag_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* diag_at with a va_list, and the first such message, "file:line: message",
 * kept in *slot (owned by the caller) for a page to show; a later one
 * leaves *slot as it is. */
void diag_keepv(char **slot, const char *file, int line, const char *fmt,
                va_list ap) __attribute__((format(printf, 4, 0)));
void diag_keep(char **slot, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* diag_at and warn_at with the column too ("file:line:col: ..."; col 0:
 * none). */
void diag_at_col(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void warn_at_col(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* While log is not NULL, append each warning printed to it, as printed
 * (a build that changes nothing says them again: cli/stamp.h). */
struct buf;
void diag_log_warnings(struct buf *log);
int diag_count(void);
int warn_count(void);
/* Silence diag() (tests of expected failures, drafts reported later):
 * what is silenced is neither printed nor counted. */
void diag_quiet(int quiet);

#endif
