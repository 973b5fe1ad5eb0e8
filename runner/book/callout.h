/*
 * callout.h - callouts: a note, a warning or an exercise in a box, written
 * as a fenced block whose body is Markdown.
 *
 *   ```{note}                  ```{exercise} label
 *   Markdown, values too.      The question, in Markdown.
 *   ```                        {answer}
 *                              The answer, folded until asked for.
 *                              ```
 *
 * An {exercise} may have one line "{answer}" on its own: what follows is
 * the answer. Only an exercise takes a label (the word after the braces,
 * for references: "ex:label"). This file splits a callout's body and
 * wraps the HTML of its parts; chapter_parse.c parses each part.
 */
#ifndef LB_CALLOUT_H
#define LB_CALLOUT_H

#include <stddef.h>

#include "base/buf.h"

enum callout_kind { CALLOUT_NOTE, CALLOUT_WARNING, CALLOUT_EXERCISE };

/* Is info (a fence's info string) a callout's, "{note}" and the like?
 * 1 with its kind in *kind, else 0. */
int callout_kind_of(const char *info, enum callout_kind *kind);

/* A callout's body, split at its "{answer}" line. */
struct callout_parts {
	char *label;          /* the exercise's label, or NULL; owned */
	const char *question; /* borrowed from the body */
	size_t question_len;
	const char *answer;   /* after the "{answer}" line, or NULL */
	size_t answer_len;
	int answer_line;      /* the chapter's line of the answer's first line */
	char *error;          /* "path:line: why", or NULL; owned */
};

/*
 * Split the body of the callout whose fence (info) opens at line of path.
 * 0, or -1 when it is malformed: the problem is reported (diag_at) and
 * kept in p->error. p is zeroed here; free it with callout_parts_free.
 */
int callout_split(const char *path, int line, const char *info,
                  const char *body, enum callout_kind kind,
                  struct callout_parts *p);
void callout_parts_free(struct callout_parts *p);

/*
 * The box around a callout's parts, whose HTML is already made: title is
 * the HTML that stands for an exercise's title (its number is known only
 * when the page is made), answer NULL when there is none.
 */
void callout_wrap(struct buf *out, enum callout_kind kind, const char *label,
                  const char *title, const char *question,
                  const char *answer);

#endif
