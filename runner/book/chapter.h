/*
 * chapter.h - a Markdown chapter, parsed into labbook's own structures: the
 * plan of its page.
 *
 * chapter_load reads chapters/NN-name.md and parses it once with cmark-gfm.
 * The result is data, not HTML with markers:
 *
 *   body      the page as a list of pieces: rendered prose (HTML), an
 *             inline value, a directive, or a section heading
 *   sections  each heading: level, line, its inner HTML and plain title
 *             (pieces, since a title may hold a value), and the plain words
 *             of the prose under it, for search
 *   dirs      directives: fenced blocks whose info string starts with "{"
 *   values    inline expressions "{{ ... }}", claims "{{check ...}}" (with
 *             an optional label, "{{check plateau: ...}}") and references
 *             "{{ref fig:ilp-sm}}"
 *   exercises the {exercise} callouts, numbered in the chapter
 *
 * A callout (```{note}, ```{warning}, ```{exercise}) is Markdown inside a
 * fence: its body is parsed as the chapter's own prose, values and all,
 * and wrapped in a box (book/callout.h). One that is malformed becomes a
 * directive whose error the page shows.
 *
 * Inline expressions are recognised by the inline parser, so only in text:
 * never in code spans, indented code or fences. One where a value cannot
 * go (a link destination, an image URL, raw HTML) is an error.
 *
 * Only chapter_parse.c sees cmark. Errors in the chapter are reported with
 * the chapter's path and line (diag_at) and kept on the structure, so the
 * page can show them where they happened.
 */
#ifndef LB_CHAPTER_H
#define LB_CHAPTER_H

#include <stddef.h>

#include "book/directive.h"

struct expr;

struct inline_expr {
	char *text;  /* the expression, without a trailing format; for a
	                reference, its target ("fig:ilp-sm") */
	char *fmt;   /* a printf format such as "%.1f", or NULL */
	char *label; /* a claim's label ({{check LABEL: ...}}), or NULL */
	int check;   /* {{check ...}} */
	int ref;     /* {{ref KIND:LABEL}} */
	int need_cc; /* {{requires sm_90: ...}}: 90; 0 none; -1 wrong */
	int line;
	int col;     /* of text in its source line, from 1; 0 unknown */
	struct expr *tree; /* text parsed at load (expr.h), or NULL: a
	                      reference, or parse_err */
	char *parse_err;   /* why text could not be parsed (reported) */
	char **reads;      /* the experiments tree reads ("machine": a fact
	                      of machine.json), NULL-terminated, or NULL */
	size_t nreads;
};

/* An {exercise} callout: its number in the chapter is its index + 1. */
struct exercise {
	char *label; /* the word after the braces, or NULL */
	int line;
};

enum piece_kind {
	PIECE_TEXT,    /* text: HTML in a body or inner heading, else plain */
	PIECE_VALUE,   /* values[index] */
	PIECE_DIR,     /* dirs[index], a block of its own */
	PIECE_SECTION, /* the heading of sections[index] */
	PIECE_TABLE,   /* the opening of table index's scrolling box and its
	                  <table> (its caption holds the chapter's number,
	                  known when rendered) */
	PIECE_EXERCISE, /* the title of exercises[index] ("Exercise 2.1") */
	PIECE_NAMES,   /* after a block of prose, names[index]: the names in
	                  its code spans (print shows the kernels it names) */
};

struct piece {
	enum piece_kind kind;
	char *text; /* PIECE_TEXT: owned, len bytes (NUL-terminated) */
	size_t len;
	size_t cap;
	size_t index;
};

struct pieces {
	struct piece *v;
	size_t n;
	size_t cap;
};

struct section {
	int level;
	int line;
	struct pieces html;  /* the heading's inner HTML */
	struct pieces title; /* the heading as plain text */
	struct pieces words; /* plain prose up to the next heading; a PIECE_DIR
	                        stands for a directive's caption */
	char *id; /* the heading's id; NULL when its title holds a value */
};

/* The names a block of prose gives in code, each cut at its first
 * character that cannot be in a C name: `reduce_unroll<8>` and
 * `finish()` name reduce_unroll and finish. */
struct code_names {
	char **v; /* NULL-terminated */
	size_t n;
	int section; /* the section the block is in, or -1: the lead */
};

struct chapter {
	char *path;  /* as given */
	char *name;  /* "ilp" for chapters/02-ilp.md: the page is ilp.html */
	char *href;  /* name percent-encoded (buf_puts_url), for links */
	char *title; /* plain text of the first level-1 heading, or the name;
	                "" pieces of value are left out (see sections) */
	int title_section; /* the section of that heading, or -1 */
	struct pieces body;
	struct pieces lead; /* plain prose before the first heading */
	struct directive *dirs;
	size_t ndirs;
	struct inline_expr *values;
	size_t nvalues;
	struct section *sections;
	size_t nsections;
	size_t ntables; /* Markdown tables in body (PIECE_TABLE) */
	struct exercise *exercises;
	size_t nexercises;
	struct code_names *names; /* per block of prose that names any */
	size_t nnames;
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

/*
 * chapter_parse.c: the Markdown src (len bytes, its controls already shown
 * as pictures: source_make_safe) parsed with cmark-gfm into the plan of
 * ch, a chapter with nothing parsed yet. Problems are reported and kept on
 * ch, as chapter_load's are.
 */
void chapter_parse_markdown(struct chapter *ch, const char *src, size_t len);


/*
 * plan.c: the inside of "{{ ... }}" (n bytes at s, on line) into e,
 * zeroed by the caller: "check", a claim's "LABEL:", "ref", a trailing
 * printf format. Problems are left for the page to report.
 */
void inline_expr_parse(struct inline_expr *e, const char *s, size_t n,
                       int line);
/*
 * plan.c: report what inline_expr_parse found wrong with e, and parse
 * its text into e->tree, at load, or report why it cannot be (at path:line:col, the column found in the source line of e, one of
 * lines[0..nlines), the last ending at src_end, that holds "{{raw}}") and
 * keep the reason in e->parse_err.
 */
void inline_expr_check(struct inline_expr *e, const char *path,
                       const char *const *lines, size_t nlines,
                       const char *src_end, const char *raw);

/* plan.c: of the source lines[0..nlines), the last ending at end: is
 * every line after line (1-based) blank? */
int source_rest_blank(const char *const *lines, size_t nlines,
                      const char *end, int line);

/*
 * While a chapter is parsed, the nodes that stand for its values,
 * sections, directives, tables and exercise titles are raw HTML holding a
 * token (plan.c): STX, a kind letter (V D S T X N), an index, ETX, and a
 * newline when block. The rendered HTML is cut at each one into pieces
 * (pieces_split); a token whose index is out of ch's range stays text.
 */
char *plan_token(char kind, size_t index, int block);
/* Is lit one of the tokens? Its kind, with its index in *index, or 0. */
char plan_token_kind(const char *lit, size_t *index);
void pieces_split(struct pieces *out, const char *html, size_t len,
                  const struct chapter *ch);
/* The title of ch (its first level-1 heading) and, when no title holds a
 * value, each section's id; the others' ids are made when rendered. */
void chapter_titles_settle(struct chapter *ch);

/* plan.c: add the name code span lit begins with, if it does, to the
 * last of ch->names, or to a new one (group set) of the block's section
 * (the last of ch->sections): 1, or 0 when lit begins with no name. */
int code_names_add(struct chapter *ch, int group, const char *lit);

/* Pieces (plan.c): a new last piece; text appended to the last text piece
 * or a new one; all freed. Arrays and text grow geometrically. */
struct piece *pieces_push(struct pieces *p, enum piece_kind kind);
void pieces_text(struct pieces *p, const char *s, size_t n);
void pieces_free(struct pieces *p);
/* The text pieces of p as one string, trimmed, values left out. Caller frees. */
char *pieces_plain(const struct pieces *p);
/* Does p hold only text? */
int pieces_static(const struct pieces *p);

/*
 * Ids for the sections of ch, given each section's plain title (n =
 * ch->nsections): a slug of the title, made unique with -2, -3, ... and
 * never one of the page's own ids (main, exp-*, fig-*, tab-*,
 * claim-*, ex-*). Caller frees each
 * and the array.
 */
char **chapter_section_ids(const struct chapter *ch, char *const *titles);

#endif
