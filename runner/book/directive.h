/*
 * directive.h - a directive: a fenced block whose info string starts with
 * "{" ("```{chart} id"), its options one "key: value" per line.
 *
 *   {experiment} ID   source args flags timeout allow-error show ncu
 *                     ncu-args env runs include capture sweep gpus
 *                     inputs run (source: or run:, not both; run: takes
 *                     no flags: or include:)
 *   {chart} ID        data x y series where logx logy limit xlabel ylabel
 *                     title caption
 *   {table}           data columns where sort caption
 *   {sass}            experiment kernel mark caption
 *
 * An indented line that does not start with an option's name continues the
 * option before it, joined with one space (a long source: list).
 *
 * Problems are reported with the chapter's path and line (diag_at); the
 * first is kept on the directive, which the page then shows instead.
 */
#ifndef LB_DIRECTIVE_H
#define LB_DIRECTIVE_H

#include <stddef.h>

enum dir_kind { DIR_EXPERIMENT, DIR_CHART, DIR_TABLE, DIR_SASS };

struct expr;

struct dir_opt {
	char *key;
	char *value;
	int line;
	struct expr *tree; /* a where: or limit: expression parsed (expr.h),
	                      else NULL */
	char **reads;      /* the experiments tree reads, as an inline
	                      value's (chapter.h), or NULL */
	size_t nreads;
};

struct directive {
	enum dir_kind kind;
	char *id;   /* the word after the braces; NULL when absent */
	int line;   /* the opening fence */
	struct dir_opt *opts;
	size_t nopts;
	char *error; /* why this directive is unusable; NULL when fine */
};

/*
 * Parse the directive whose fence starts at d->line (set by the caller),
 * from its info string and body, into d (zeroed by the caller; freed by
 * the chapter that holds it).
 */
void directive_parse(const char *path, struct directive *d, const char *info,
                     const char *body);
/* Report a problem of d at line, and keep it on d when it is the first. */
void dir_fail(const char *path, struct directive *d, int line,
              const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The value of the first option named key, or NULL. */
const char *dir_opt(const struct directive *d, const char *key);
/* The line of the first option named key, or the directive's line. */
int dir_opt_line(const struct directive *d, const char *key);
const char *dir_kind_name(enum dir_kind k);

#endif
