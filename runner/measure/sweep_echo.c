/* sweep_echo.c - the swept values looked for in the outputs of their sets
 * (sweep_echo.h). */
#include "measure/sweep_echo.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "book/sweep.h"
#include "bundle/capture.h"
#include "base/util.h"

/* Does word v stand alone in text (not inside a longer number or word)? */
static int text_has_value(const char *text, const char *v)
{
	size_t n = strlen(v);
	for (const char *p = text; n && (p = strstr(p, v)); p++) {
		int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
		                          p[-1] == '.');
		const char *q = p + n;
		int after = isalnum((unsigned char)*q) || *q == '_' ||
		            (*q == '.' && isdigit((unsigned char)q[1]));
		if (!before && !after)
			return 1;
	}
	return 0;
}

void sweep_echo_check(const struct exper *e, char *const *outs)
{
	size_t sets = sweep_sets(e->sweep), groups = sweep_groups(e->sweep);
	char *seen = xcalloc(sets * groups + 1, 1);
	int any = 0;
	for (size_t k = 0; k < sets; k++)
		for (size_t g = 0; g < groups; g++) {
			seen[k * groups + g] = outs[k] &&
			        text_has_value(outs[k], sweep_value(e->sweep, k, g));
			any |= seen[k * groups + g];
		}
	for (size_t k = 0; k < sets && any; k++)
		for (size_t g = 0; g < groups; g++) {
			if (seen[k * groups + g] || !outs[k])
				continue;
			char *set = sweep_text(e->sweep, k);
			warn_at(e->ch->path, sweep_line(e->sweep, g), "experiment '%s': "
			        "in the set '%s', the value %s of '%s' appears nowhere in "
			        "the output, while other swept values do; the program may "
			        "have ignored it", e->id, set, sweep_value(e->sweep, k, g),
			        sweep_name(e->sweep, g));
			free(set);
		}
	free(seen);
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

void sweep_miss_check(const struct exper *e, char *const *outs,
                      const unsigned char *miss, const size_t *counts)
{
	size_t sets = sweep_sets(e->sweep), npat = capture_count(e->capture);
	for (size_t p = 0; p < npat; p++)
		for (size_t k = 0; k < sets && counts[p]; k++) {
			if (!miss[k * npat + p])
				continue;
			char *set = sweep_text(e->sweep, k), *tail = last_line(outs[k]);
			warn_at(e->ch->path, capture_line(e->capture, p), "experiment "
			        "'%s': capture: matched nothing in the output of the sweep "
			        "set '%s', which has no records of it; that output ends "
			        "'%s'", e->id, set, tail);
			free(set);
			free(tail);
		}
}
