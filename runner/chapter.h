/*
 * chapter.h - a Markdown chapter, parsed into labbook's own structures.
 *
 * chapter_load reads chapters/NN-name.md, finds its directives (fenced
 * blocks whose info string starts with "{") and inline expressions
 * ("{{ ... }}" in prose), and renders the rest to HTML once, through
 * cmark-gfm, leaving markers where generated content goes:
 *
 *   MARK_OPEN "B" n MARK_CLOSE   directive n (a block of its own)
 *   MARK_OPEN "I" n MARK_CLOSE   inline expression n
 *
 * Only chapter.c sees cmark. Errors in the chapter are reported with the
 * chapter's path and line and kept on the structure, so the page can show
 * them where they happened.
 */
#ifndef LB_CHAPTER_H
#define LB_CHAPTER_H

#include <stddef.h>

/* U+E000 and U+E001, private-use characters, delimit markers. */
#define MARK_OPEN "\xee\x80\x80"
#define MARK_CLOSE "\xee\x80\x81"

enum dir_kind { DIR_EXPERIMENT, DIR_CHART, DIR_TABLE, DIR_SASS };

struct dir_opt {
	char *key;
	char *value;
	int line;
};

struct directive {
	enum dir_kind kind;
	char *id;   /* the word after the braces; NULL when absent */
	int line;   /* the opening fence */
	struct dir_opt *opts;
	size_t nopts;
	char *error; /* why this directive is unusable; NULL when fine */
};

struct inline_expr {
	char *text; /* the expression, without a trailing format */
	char *fmt;  /* a printf format such as "%.1f", or NULL */
	int check;  /* {{check ...}} */
	int line;
};

struct heading {
	int level;
	char *id;
	char *text;
};

struct chapter {
	char *path;  /* as given */
	char *name;  /* "ilp" for chapters/02-ilp.md: the page is ilp.html */
	char *title; /* text of the first level-1 heading, or the name */
	char *html;  /* the body, with markers */
	struct directive *dirs;
	size_t ndirs;
	struct inline_expr *inl;
	size_t ninl;
	struct heading *heads;
	size_t nheads;
	char *error; /* the chapter could not be read or parsed at all */
	char hash[33]; /* of the source bytes */
};

/*
 * Read and parse one chapter. Always returns a chapter (the caller frees
 * it with chapter_free); problems are reported and recorded on it, and
 * counted by diag_count().
 */
struct chapter *chapter_load(const char *path);
/*
 * The same for len bytes of Markdown already in memory (need not end in a
 * NUL); path names the chapter in messages and gives its name.
 */
struct chapter *chapter_parse_text(const char *path, const char *src,
                                   size_t len);
void chapter_free(struct chapter *ch);

/* The value of the first option named key, or NULL. */
const char *dir_opt(const struct directive *d, const char *key);
/* The line of the first option named key, or the directive's line. */
int dir_opt_line(const struct directive *d, const char *key);
const char *dir_kind_name(enum dir_kind k);

#endif
