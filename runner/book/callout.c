/* callout.c - a callout's body split at its answer, and its box
 * (callout.h). */
#include "book/callout.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static const char *const names[] = {"note", "warning", "exercise"};
static const char *const titles[] = {"Note", "Warning", NULL};

int callout_kind_of(const char *info, enum callout_kind *kind)
{
	if (!info || *info != '{')
		return 0;
	size_t n = strcspn(info + 1, "}");
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strlen(names[k]) == n && !strncmp(info + 1, names[k], n) &&
		    info[n + 1] == '}') {
			*kind = (enum callout_kind)k;
			return 1;
		}
	return 0;
}

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Is the line of n bytes at s "{answer}", spaces around it allowed? */
static int answer_line(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n == 8 && !strncmp(s, "{answer}", 8);
}

/* A fence line of n bytes at s: its character (` or ~) and length in *c
 * and *len, and its info string's start in *info; 0 when it is none. */
static int fence_line(const char *s, size_t n, char *c, size_t *len,
                      const char **info)
{
	size_t i = 0;
	while (i < n && i < 3 && s[i] == ' ')
		i++;
	size_t k = i;
	while (k < n && (s[k] == '`' || s[k] == '~') && s[k] == s[i])
		k++;
	if (k - i < 3)
		return 0;
	*c = s[i];
	*len = k - i;
	*info = s + k;
	return 1;
}

/* The label after the braces: letters, digits, '_' and '-'. */
static int label_ok(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

int callout_split(const char *path, int line, const char *info,
                  const char *body, enum callout_kind kind,
                  struct callout_parts *p)
{
	memset(p, 0, sizeof *p);
	const char *name = names[kind];
	char **err = &p->error;
	char *rest = xstrdup(strchr(info, '}') + 1);
	char *word = str_trim(rest);
	if (*word && kind != CALLOUT_EXERCISE)
		diag_keep(err, path, line, "{%s} takes nothing after its braces, "
		          "not '%s' (only an {exercise} has a label)", name, word);
	else if (*word && !label_ok(word))
		diag_keep(err, path, line, "'%s' is not a valid label: use "
		          "letters, digits, _ and -", word);
	else if (*word)
		p->label = xstrdup(word);
	free(rest);

	p->question = body;
	p->question_len = strlen(body);
	int at = line, first = 0;
	char fc = 0;
	size_t flen = 0;
	for (const char *s = body, *next; *s; s = next) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		next = s + n + (nl ? 1 : 0);
		at++;
		/* What a fence inside holds is its own: an {answer} there is
		 * not this callout's, and an exercise cannot hold another. */
		char c;
		size_t len;
		const char *info;
		if (fence_line(s, n, &c, &len, &info)) {
			if (!fc) {
				fc = c;
				flen = len;
				while (*info == ' ')
					info++;
				if (kind == CALLOUT_EXERCISE && !strncmp(info, "{exercise}", 10))
					diag_keep(err, path, at, "an {exercise} inside an "
					          "{exercise}: exercises do not nest; close "
					          "this one before the next opens");
			} else if (c == fc && len >= flen) {
				fc = 0;
			}
			continue;
		}
		if (fc || !answer_line(s, n))
			continue;
		if (kind != CALLOUT_EXERCISE)
			diag_keep(err, path, at, "{answer} belongs in an {exercise}, "
			          "not a {%s}", name);
		else if (first)
			diag_keep(err, path, at, "a second {answer} in this exercise "
			          "(the first is at line %d)", first);
		else {
			first = at;
			p->question_len = (size_t)(s - body);
			p->answer = nl ? nl + 1 : s + n;
			p->answer_len = strlen(p->answer);
			p->answer_line = at + 1;
		}
	}
	if (blank(p->question, p->question_len) && p->answer)
		diag_keep(err, path, line, "this {exercise} has an answer but no "
		          "question; write the question above the {answer} line");
	else if (blank(p->question, p->question_len))
		diag_keep(err, path, line, "this {%s} is empty; write its text "
		          "between the fences", name);
	if (p->answer && blank(p->answer, p->answer_len))
		diag_keep(err, path, first, "this {answer} is empty; write the "
		          "answer below it, or leave the line out");
	return p->error ? -1 : 0;
}

void callout_parts_free(struct callout_parts *p)
{
	free(p->label);
	free(p->error);
	memset(p, 0, sizeof *p);
}

void callout_wrap(struct buf *out, enum callout_kind kind, const char *label,
                  const char *title, const char *question,
                  const char *answer)
{
	buf_printf(out, "<div class=\"callout %s\"", names[kind]);
	if (kind != CALLOUT_EXERCISE)
		buf_puts(out, " role=\"note\"");
	if (label)
		buf_printf(out, " id=\"ex-%s\"", label);
	buf_puts(out, ">\n");
	if (titles[kind])
		buf_printf(out, "<p class=\"callout-title\">%s</p>\n", titles[kind]);
	else
		buf_puts(out, title);
	buf_puts(out, question);
	if (answer) {
		buf_puts(out, "<details class=\"answer\"><summary>Answer</summary>\n");
		buf_puts(out, answer);
		buf_puts(out, "</details>\n");
	}
	buf_puts(out, "</div>\n");
}
