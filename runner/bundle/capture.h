/*
 * capture.h - records read from what a program prints (PCRE2).
 *
 * An experiment's capture: options are patterns with named groups, e.g.
 * "gpu (?<variant>\w+) +elapsed (?<sec>[0-9.e+-]+)(?#s) sec". Each match
 * is one record: a field per named group that took part in the match, a
 * number where its text parses whole as one, else a string. A pattern is
 * matched within each line of the output, or across lines when its text
 * holds "\n". The records of every pattern come in the order their matches
 * start in the output, so those of several runs line up by position.
 *
 * A unit is named by a comment right after a group: "(?<bw>[0-9.]+)(?#GiB/s)"
 * or "(?<t>[0-9.]+)(?#s->ms)". A unit is a prefix (k K M G T P, Ki Mi Gi
 * Ti, m u µ n) and a base (s, sec, B, B/s, FLOP/s, Pixels/s, ...). The
 * value is converted once, here, to the unit after "->", or, without one,
 * to the same unit with a binary prefix made decimal (GiB/s -> GB/s, a
 * factor 1.073741824) and any other unit kept. The record then holds
 * F_unit, the unit F is in, and F counts as a measurement (results.h). The
 * first field in a time unit (base s) also gives the record median_ms, in
 * milliseconds, unless a group is named median_ms: such records merge runs
 * by their median and compare like lab.h's timed records.
 *
 * A record has one field of a name: two groups of one name ((?J)), or a
 * group named F_unit beside a unit on F, are refused by capture_add.
 *
 * Errors: capture_add and capture_records return 0 or -1 with *why set
 * (caller frees, nothing reported), for the caller to report at the
 * option's line.
 */
#ifndef LB_CAPTURE_H
#define LB_CAPTURE_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct capture;

/* An empty set of patterns. Never NULL; capture_free(NULL) does nothing. */
struct capture *capture_new(void);
void capture_free(struct capture *c);

/*
 * Compile pattern (from the option at line) and add it. -1 with *why: the
 * compiler's message with the column of the pattern where it stopped and
 * the pattern marked there, a pattern without a named group, or a unit
 * that cannot be read or converted.
 */
int capture_add(struct capture *c, const char *pattern, int line, char **why);

/* How many patterns; the line of pattern i. */
size_t capture_count(const struct capture *c);
int capture_line(const struct capture *c, size_t i);
/* The line of the first pattern that gives field name, or 0 when none
 * does. */
int capture_field_line(const struct capture *c, const char *name);

/*
 * Matching is bounded: a line pattern may take CAPTURE_MATCH_LIMIT of
 * PCRE2's steps per search (a pattern across lines ten times as many),
 * and CAPTURE_DEPTH_LIMIT of its backtracking depth, so one search takes
 * some 20 ms at most and a build stopped (SIGINT, SIGTERM) mid-capture
 * stops within one. capture_records reads at most CAPTURE_OUTPUT_CAP bytes
 * of one process's output (job.h): more is an error, not a cut.
 */
#define CAPTURE_MATCH_LIMIT 1000000u
#define CAPTURE_DEPTH_LIMIT 100000u
#define CAPTURE_OUTPUT_CAP (64u << 20)
#define CAPTURE_LINE_SHOWN 120 /* bytes of a line a message quotes */

/*
 * The records the patterns find in text (len bytes, valid UTF-8),
 * appended to *rows (each owned by the caller), and how many matches each
 * pattern found added to counts[0..capture_count) (may be NULL). An empty
 * match moves on by one UTF-8 character. 0, or -1 with nothing appended
 * when a search failed: a pattern reached a limit above, at the output
 * line *why names ("could not match its capture: of line 12 against line
 * 3 of its output (match limit exceeded, ...): 'val 1 aaa...'"; caller
 * frees), *line the pattern's line; or labbook was asked to stop (*why
 * "interrupted").
 */
int capture_records(const struct capture *c, const char *text, size_t len,
                    cJSON ***rows, size_t *nrows, size_t *counts, int *line,
                    char **why);

/*
 * capture_records over one process's output (out, len bytes, any bytes:
 * made safe first, text_make_safe), which was read whole unless dropped
 * bytes past CAPTURE_OUTPUT_CAP were not read: then -1, nothing captured,
 * *why "printed more than the 64 MiB ..." and *line the first pattern's.
 * miss[p] (when not NULL) is set where pattern p matched nothing. 0 or -1
 * as capture_records.
 */
int capture_output(const struct capture *c, const char *out, size_t len,
                   size_t dropped, cJSON ***rows, size_t *nrows, size_t *counts,
                   unsigned char *miss, int *line, char **why);

#endif
