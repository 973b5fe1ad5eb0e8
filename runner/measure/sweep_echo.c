/* sweep_echo.c - the swept values looked for in the outputs of their sets
 * (sweep_echo.h). */
#include "measure/sweep_echo.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "book/sweep.h"
#include "bundle/capture.h"
#include "base/buf.h"
#include "base/util.h"

/* The hash of text with every number that has a fraction (a time, a
 * rate: what differs from run to run) taken out. */
static uint64_t output_shape(const char *text)
{
	struct buf b = BUF_INIT;
	for (const char *p = text; *p;) {
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (q > p && *q == '.' && isdigit((unsigned char)q[1])) {
			q++;
			while (isdigit((unsigned char)*q) || *q == 'e' || *q == 'E' ||
			       ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E')))
				q++;
			buf_putc(&b, '#');
			p = q;
			continue;
		}
		for (; p < q; p++)
			buf_putc(&b, *p);
		if (*p)
			buf_putc(&b, *p++);
	}
	uint64_t h = str_hash(b.data ? b.data : "");
	buf_free(&b);
	return h;
}

/* Do sets j and k of e's sweep differ in group g and in no other? */
static int differ_in_only(const struct exper *e, size_t j, size_t k, size_t g)
{
	for (size_t h = 0; h < sweep_groups(e->sweep); h++)
		if (!strcmp(sweep_value(e->sweep, j, h), sweep_value(e->sweep, k, h)) !=
		    (h != g))
			return 0;
	return 1;
}

void sweep_echo_check(const struct exper *e, char *const *outs)
{
	size_t sets = sweep_sets(e->sweep), groups = sweep_groups(e->sweep);
	uint64_t *shape = xcalloc(sets + 1, sizeof *shape);
	/* A set that printed nothing (a program that writes only records)
	 * says nothing of what it was given. */
	for (size_t k = 0; k < sets; k++)
		shape[k] = outs[k] && outs[k][strspn(outs[k], " \t\r\n")]
		               ? output_shape(outs[k]) : 0;
	/* Each group once: the first two sets that differ in it alone and
	 * printed the same. */
	for (size_t g = 0; g < groups; g++) {
		int told = 0;
		for (size_t k = 1; k < sets && !told; k++)
			for (size_t j = 0; j < k && !told; j++) {
				if (!shape[k] || shape[j] != shape[k] ||
				    !differ_in_only(e, j, k, g))
					continue;
				char *a = sweep_text(e->sweep, j), *b = sweep_text(e->sweep, k);
				warn_at(e->ch->path, sweep_line(e->sweep, g), "experiment '%s': "
				        "the sets '%s' and '%s' printed the same output (its "
				        "numbers with a fraction aside), though they give "
				        "'%s' other values; the program may ignore its swept "
				        "argument (does it read it in another form?)", e->id,
				        a, b, sweep_name(e->sweep, g));
				free(a);
				free(b);
				told = 1;
			}
	}
	free(shape);
}

/* The last line of text that is not blank, at most CAPTURE_LINE_SHOWN
 * bytes of its end. Caller frees. */
static char *last_line(const char *text)
{
	size_t len = text ? strlen(text) : 0;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	size_t from = len;
	while (from && text[from - 1] != '\n')
		from--;
	if (len - from > CAPTURE_LINE_SHOWN) {
		from = len - CAPTURE_LINE_SHOWN;
		while (from < len && ((unsigned char)text[from] & 0xC0) == 0x80)
			from++;
	}
	return xstrndup(text ? text + from : "", len - from);
}

int sweep_miss_check(const struct exper *e, char *const *outs,
                     const unsigned char *miss, const size_t *counts,
                     char **why, int *line)
{
	size_t sets = sweep_sets(e->sweep), npat = capture_count(e->capture);
	for (size_t p = 0; p < npat; p++)
		for (size_t k = 0; k < sets && counts[p]; k++) {
			if (!miss[k * npat + p])
				continue;
			char *set = sweep_text(e->sweep, k), *tail = last_line(outs[k]);
			*why = xasprintf("capture: matched nothing in the output of the "
			                 "sweep set '%s', which would have no records of "
			                 "it; that output ends '%s'", set, tail);
			*line = capture_line(e->capture, p);
			free(set);
			free(tail);
			return -1;
		}
	return 0;
}

int sweep_outputs_check(const struct exper *e, char *const *outs,
                        const unsigned char *miss, const size_t *counts,
                        char **why, int *line)
{
	sweep_echo_check(e, outs);
	return sweep_miss_check(e, outs, miss, counts, why, line);
}
