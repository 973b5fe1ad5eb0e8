/* sweep.c - the argument sets of a sweep: option, read and enumerated
 * (sweep.h). */
#define _GNU_SOURCE
#include "book/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exec.h"
#include "base/util.h"

enum sweep_style { SW_TOKEN, SW_FLAG, SW_POS };

struct sweep_group {
	enum sweep_style style;
	char *flag;    /* "-n" (SW_TOKEN, SW_FLAG), else NULL */
	char *name;
	char **values; /* as passed */
	size_t nvalues;
	int line;
	size_t dim;
};

struct sweep {
	struct sweep_group *groups;
	size_t ngroups;
	size_t *dim_len; /* values per dimension; zipped groups share one */
	size_t ndims;
	size_t npos;     /* positional groups so far */
};

struct sweep *sweep_new(void)
{
	return xcalloc(1, sizeof(struct sweep));
}

void sweep_free(struct sweep *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ngroups; i++) {
		free(s->groups[i].flag);
		free(s->groups[i].name);
		for (size_t k = 0; k < s->groups[i].nvalues; k++)
			free(s->groups[i].values[k]);
		free(s->groups[i].values);
	}
	free(s->groups);
	free(s->dim_len);
	free(s);
}

static int is_flag(const char *w)
{
	return w[0] == '-' && (isalpha((unsigned char)w[1]) ||
	                       (w[1] == '-' && isalpha((unsigned char)w[2])));
}

static int is_name(const char *w)
{
	if (!isalpha((unsigned char)*w) && *w != '_')
		return 0;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && *w != '_')
			return 0;
	return 1;
}

/* "1<<20" -> "1048576"; any other value as it is. NULL when empty or an
 * A<<B that does not make a number. */
static char *value_read(const char *v)
{
	const char *shift = strstr(v, "<<");
	if (!*v)
		return NULL;
	if (!shift)
		return xstrdup(v);
	char *a_text = xstrndup(v, (size_t)(shift - v));
	long a, b;
	int ok = parse_long(a_text, -(1L << 40), 1L << 40, &a) == 0 &&
	         parse_long(shift + 2, 0, 62, &b) == 0 &&
	         llabs(a) < (1LL << (62 - b));
	free(a_text);
	return ok ? xasprintf("%lld", (long long)a * (1LL << b)) : NULL;
}

/* Where sweep_add's words had a comma outside quotes, which splits
 * values, they hold this byte; a comma inside quotes is part of a value. */
#define SEP '\x1f'

/* list as written, its separating commas shown as commas (caller frees). */
static char *list_shown(const char *list)
{
	char *t = xstrdup(list);
	for (char *c = t; *c; c++)
		if (*c == SEP)
			*c = ',';
	return t;
}

/* Split list at its separating commas into g's values; 0 or -1 with
 * *why. */
static int values_add(struct sweep_group *g, const char *list, char **why)
{
	const char sep[2] = {SEP, '\0'}, twice[3] = {SEP, SEP, '\0'};
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	size_t n = strlen(copy);
	if (!n || copy[0] == SEP || copy[n - 1] == SEP || strstr(copy, twice)) {
		char *shown = list_shown(list);
		*why = xasprintf("'%s' has an empty value", shown);
		free(shown);
		free(copy);
		return -1;
	}
	for (char *w = strtok_r(copy, sep, &save); w && !rc;
	     w = strtok_r(NULL, sep, &save)) {
		char *v = value_read(w);
		if (!v) {
			*why = xasprintf("'%s' is not a value: A<<B wants two whole "
			                 "numbers that make one under 2^62", w);
			rc = -1;
			break;
		}
		for (size_t k = 0; k < g->nvalues && !rc; k++)
			if (!strcmp(g->values[k], v)) {
				char *shown = list_shown(list);
				*why = xasprintf("'%s' gives the value %s twice, which would "
				                 "run the same set twice", shown, v);
				free(shown);
				rc = -1;
			}
		if (rc) {
			free(v);
			break;
		}
		*ARRAY_PUSH(g->values, g->nvalues) = v;
	}
	free(copy);
	return rc;
}

static struct sweep_group *group_new(struct sweep *s, enum sweep_style style,
                                     const char *flag, int line)
{
	struct sweep_group *g = ARRAY_PUSH(s->groups, s->ngroups);
	memset(g, 0, sizeof *g);
	g->style = style;
	g->line = line;
	if (flag) {
		g->flag = xstrdup(flag);
		const char *p = flag;
		while (*p == '-')
			p++;
		g->name = xstrdup(p);
		for (char *c = g->name; *c; c++)
			if (!isalnum((unsigned char)*c))
				*c = '_';
	} else {
		g->name = xasprintf("arg%zu", ++s->npos);
	}
	return g;
}

/* Read one group starting at w[*i]; 0 or -1 with *why. */
static int group_read(struct sweep *s, char **w, size_t n, size_t *i, int line,
                      char **why)
{
	const char *t = w[*i];
	if (is_flag(t)) {
		const char *eq = strchr(t, '=');
		if (eq) {
			char *flag = xstrndup(t, (size_t)(eq - t));
			struct sweep_group *g = group_new(s, SW_TOKEN, flag, line);
			free(flag);
			return values_add(g, eq + 1, why);
		}
		if (*i + 1 >= n || !strcmp(w[*i + 1], "as") ||
		    !strcmp(w[*i + 1], "with")) {
			*why = xasprintf("%s has no values: write '%s 1,2,4', or "
			                 "'%s=1,2,4' for a program that reads one word",
			                 t, t, t);
			return -1;
		}
		struct sweep_group *g = group_new(s, SW_FLAG, t, line);
		return values_add(g, w[++*i], why);
	}
	struct sweep_group *g = group_new(s, SW_POS, NULL, line);
	size_t start = *i;
	while (*i + 1 < n && !is_flag(w[*i + 1]) && strcmp(w[*i + 1], "as") &&
	       strcmp(w[*i + 1], "with"))
		++*i;
	if (*i == start)
		return values_add(g, t, why);
	for (size_t k = start; k <= *i; k++) {
		if (strchr(w[k], SEP)) {
			char *shown = list_shown(w[k]);
			*why = xasprintf("positional values are '1024 2048' or "
			                 "'1024,2048', not both ('%s')", shown);
			free(shown);
			return -1;
		}
		if (values_add(g, w[k], why) != 0)
			return -1;
	}
	return 0;
}

/* The number of sets of s, however many (SIZE_MAX past it). */
static size_t sets_count(const struct sweep *s)
{
	size_t n = 1;
	for (size_t i = 0; i < s->ndims; i++) {
		if (s->dim_len[i] && n > SIZE_MAX / s->dim_len[i])
			return SIZE_MAX;
		n *= s->dim_len[i];
	}
	return n;
}

/* Drop the groups from first on, and the dimensions and positional
 * names they added: a line refused leaves s as it was, so that the lines
 * after it are read, and judged, on their own. */
static void sweep_undo(struct sweep *s, size_t first, size_t ndims,
                       size_t npos)
{
	for (size_t i = first; i < s->ngroups; i++) {
		free(s->groups[i].flag);
		free(s->groups[i].name);
		for (size_t k = 0; k < s->groups[i].nvalues; k++)
			free(s->groups[i].values[k]);
		free(s->groups[i].values);
	}
	s->ngroups = first;
	s->ndims = ndims;
	s->npos = npos;
}

int sweep_add(struct sweep *s, const char *text, int line, char **why)
{
	size_t n = 0, first = s->ngroups, ndims = s->ndims, npos = s->npos;
	if (argv_quotes_closed(text, why) != 0)
		return -1;
	/* Mark the commas outside quotes, as argv_split reads quotes. */
	char *marked = xstrdup(text), quote = 0;
	for (char *c = marked; *c; c++) {
		if (quote != '\'' && *c == '\\' && c[1]) {
			c++;
		} else if (quote) {
			quote = *c == quote ? 0 : quote;
		} else if (*c == '\'' || *c == '"') {
			quote = *c;
		} else if (*c == ',') {
			*c = SEP;
		}
	}
	char **w = argv_split(marked, &n);
	free(marked);
	int rc = -1, zip = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(w[i], "as") || !strcmp(w[i], "with")) {
			if (s->ngroups == first || zip) {
				*why = xasprintf("'%s' follows no group of arguments", w[i]);
				goto out;
			}
			if (!strcmp(w[i], "with")) {
				zip = 1;
				continue;
			}
			if (i + 1 >= n || !is_name(w[i + 1])) {
				*why = xasprintf("'as' wants a field name (letters, digits "
				                 "and _) after it");
				goto out;
			}
			struct sweep_group *g = &s->groups[s->ngroups - 1];
			free(g->name);
			g->name = xstrdup(w[++i]);
			continue;
		}
		if (group_read(s, w, n, &i, line, why) != 0)
			goto out;
		struct sweep_group *g = &s->groups[s->ngroups - 1];
		if (zip) {
			const struct sweep_group *prev = &s->groups[s->ngroups - 2];
			g->dim = prev->dim;
			if (g->nvalues != s->dim_len[g->dim]) {
				*why = xasprintf("%s has %zu values and %s %zu; arguments "
				                 "that change together (with) need as many",
				                 prev->flag ? prev->flag : prev->name,
				                 s->dim_len[g->dim], g->flag ? g->flag : g->name,
				                 g->nvalues);
				goto out;
			}
			zip = 0;
		} else {
			g->dim = s->ndims;
			*ARRAY_PUSH(s->dim_len, s->ndims) = g->nvalues;
		}
	}
	if (zip) {
		*why = xasprintf("'with' ends the line; it joins two groups");
		goto out;
	}
	if (s->ngroups == first) {
		*why = xasprintf("no arguments to sweep");
		goto out;
	}
	for (size_t i = first; i < s->ngroups; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(s->groups[i].name, s->groups[k].name)) {
				*why = xasprintf("two groups give the field '%s'; name one "
				                 "with 'as NAME'", s->groups[i].name);
				goto out;
			}
	size_t sets = sets_count(s);
	if (sets > SWEEP_SETS_MAX) {
		char many[32];
		snprintf(many, sizeof many, sets == SIZE_MAX ? "more than %zu" : "%zu",
		         sets);
		*why = xasprintf("%s sets; a sweep runs at most %d (its sets are the "
		                 "product of the values of its groups and lines)",
		                 many, SWEEP_SETS_MAX);
		goto out;
	}
	rc = 0;
out:
	argv_free(w);
	if (rc)
		sweep_undo(s, first, ndims, npos);
	return rc;
}

size_t sweep_sets(const struct sweep *s)
{
	return s ? sets_count(s) : 1;
}

size_t sweep_groups(const struct sweep *s)
{
	return s ? s->ngroups : 0;
}

const char *sweep_name(const struct sweep *s, size_t g)
{
	return s->groups[g].name;
}

int sweep_line(const struct sweep *s, size_t g)
{
	return s->groups[g].line;
}

int sweep_field_line(const struct sweep *s, const char *name)
{
	for (size_t i = 0; s && i < s->ngroups; i++)
		if (!strcmp(s->groups[i].name, name))
			return s->groups[i].line;
	return 0;
}

/* The index of dimension d's value in set k: the first dimension changes
 * slowest. */
static size_t dim_index(const struct sweep *s, size_t k, size_t d)
{
	for (size_t i = s->ndims; i-- > d + 1;)
		k /= s->dim_len[i];
	return k % s->dim_len[d];
}

const char *sweep_value(const struct sweep *s, size_t k, size_t g)
{
	const struct sweep_group *gr = &s->groups[g];
	return gr->values[dim_index(s, k, gr->dim)];
}

void sweep_args(const struct sweep *s, size_t k, char ***argv, size_t *n)
{
	for (size_t g = 0; s && g < s->ngroups; g++) {
		const struct sweep_group *gr = &s->groups[g];
		const char *v = sweep_value(s, k, g);
		if (gr->style == SW_TOKEN) {
			*ARRAY_PUSH(*argv, *n) = xasprintf("%s=%s", gr->flag, v);
			continue;
		}
		if (gr->style == SW_FLAG)
			*ARRAY_PUSH(*argv, *n) = xstrdup(gr->flag);
		*ARRAY_PUSH(*argv, *n) = xstrdup(v);
	}
}

char *sweep_text(const struct sweep *s, size_t k)
{
	char **argv = NULL;
	size_t n = 0;
	sweep_args(s, k, &argv, &n);
	*ARRAY_PUSH(argv, n) = NULL;
	char *text = argv_join(argv);
	argv_free(argv);
	return text;
}

void sweep_fields(const struct sweep *s, size_t k, cJSON *row)
{
	for (size_t g = 0; s && g < s->ngroups; g++) {
		const char *name = s->groups[g].name, *v = sweep_value(s, k, g);
		if (cJSON_GetObjectItemCaseSensitive(row, name))
			continue;
		char *end;
		errno = 0;
		double x = strtod(v, &end);
		if (!*end && end != v && isfinite(x) && !errno)
			cJSON_AddNumberToObject(row, name, x);
		else
			cJSON_AddStringToObject(row, name, v);
	}
}
