/* capture.c - records read from a program's output with PCRE2 patterns,
 * their units converted once (capture.h). */
#define _GNU_SOURCE
#define PCRE2_CODE_UNIT_WIDTH 8
#include "bundle/capture.h"

#include <math.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

struct capture_field {
	char *name;
	int group;    /* its number in the pattern */
	char *unit;   /* the unit it is stored in, or NULL */
	double scale; /* captured value * scale = stored value */
	int time;     /* the unit is a time: median_ms can come from it */
	double ms;    /* stored value * ms = milliseconds */
};

struct capture_pat {
	pcre2_code *re;
	int line;
	int spans; /* matched across lines */
	struct capture_field *fields;
	size_t nfields;
};

struct capture {
	struct capture_pat *pats;
	size_t n;
};

struct capture *capture_new(void)
{
	return xcalloc(1, sizeof(struct capture));
}

void capture_free(struct capture *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		pcre2_code_free(c->pats[i].re);
		for (size_t k = 0; k < c->pats[i].nfields; k++) {
			free(c->pats[i].fields[k].name);
			free(c->pats[i].fields[k].unit);
		}
		free(c->pats[i].fields);
	}
	free(c->pats);
	free(c);
}

size_t capture_count(const struct capture *c)
{
	return c ? c->n : 0;
}

int capture_line(const struct capture *c, size_t i)
{
	return c->pats[i].line;
}

int capture_field_line(const struct capture *c, const char *name)
{
	for (size_t i = 0; c && i < c->n; i++)
		for (size_t k = 0; k < c->pats[i].nfields; k++)
			if (!strcmp(c->pats[i].fields[k].name, name))
				return c->pats[i].line;
	return 0;
}

/* ---- units ------------------------------------------------------------------ */

static const struct {
	const char *p;
	double f;
	const char *decimal; /* a binary prefix's decimal one */
} prefixes[] = {
	{"Ki", 1024.0, "k"}, {"Mi", 1048576.0, "M"}, {"Gi", 1073741824.0, "G"},
	{"Ti", 1099511627776.0, "T"}, {"µ", 1e-6, NULL}, {"k", 1e3, NULL},
	{"K", 1e3, NULL}, {"M", 1e6, NULL}, {"G", 1e9, NULL}, {"T", 1e12, NULL},
	{"P", 1e15, NULL}, {"m", 1e-3, NULL}, {"u", 1e-6, NULL}, {"n", 1e-9, NULL},
};

static const char *const bases[] = {"s", "sec", "B", "B/s", "b", "b/s",
                                    "bit", "bit/s", "Hz", "flop/s", "op/s",
                                    "ops/s", NULL};

struct unit {
	size_t prefix; /* index into prefixes, or (size_t)-1 */
	const char *base;
	double factor;
};

/* "GiB/s" -> Gi and B/s. A prefix counts where what follows it is a known
 * base or starts with a capital ("MPixels/s"), so "Pixels/s" is a base. */
static int unit_parse(const char *text, struct unit *u)
{
	u->prefix = (size_t)-1;
	u->base = text;
	u->factor = 1;
	if (!*text)
		return -1;
	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
		size_t n = strlen(prefixes[i].p);
		const char *rest = text + n;
		if (strncmp(text, prefixes[i].p, n) || !*rest)
			continue;
		int known = rest[0] >= 'A' && rest[0] <= 'Z';
		for (const char *const *b = bases; *b && !known; b++)
			known = !strcmp(rest, *b);
		if (!known)
			continue;
		u->prefix = i;
		u->base = rest;
		u->factor = prefixes[i].f;
		break;
	}
	return 0;
}

static int base_time(const char *b)
{
	return !strcmp(b, "s") || !strcmp(b, "sec");
}

static int bases_same(const char *a, const char *b)
{
	return !strcmp(a, b) || (base_time(a) && base_time(b));
}

/* Field f's unit from its comment "FROM" or "FROM->TO"; 0 or -1 (*why). */
static int field_unit(struct capture_field *f, const char *comment, char **why)
{
	char *text = xstrdup(comment);
	char *arrow = strstr(text, "->");
	char *to = arrow ? str_trim(arrow + 2) : NULL;
	if (arrow)
		*arrow = '\0';
	char *from = str_trim(text);
	struct unit uf, ut;
	int rc = -1;
	if (unit_parse(from, &uf) != 0 || (to && unit_parse(to, &ut) != 0)) {
		*why = xasprintf("field '%s': the unit comment (?#%s) names no unit",
		                 f->name, comment);
		goto out;
	}
	if (to && !bases_same(uf.base, ut.base)) {
		*why = xasprintf("field '%s': %s cannot be converted to %s", f->name,
		                 from, to);
		goto out;
	}
	double stored = uf.factor;
	if (to) {
		f->unit = xstrdup(to);
		stored = ut.factor;
	} else if (uf.prefix != (size_t)-1 && prefixes[uf.prefix].decimal) {
		const char *dec = prefixes[uf.prefix].decimal;
		f->unit = xasprintf("%s%s", dec, uf.base);
		stored = dec[0] == 'k' ? 1e3 : dec[0] == 'M' ? 1e6 : dec[0] == 'G'
		         ? 1e9 : 1e12;
	} else {
		f->unit = xstrdup(from);
	}
	f->scale = uf.factor / stored;
	f->time = base_time(uf.base);
	f->ms = stored * 1e3;
	rc = 0;
out:
	free(text);
	return rc;
}

/*
 * The comment right after the group opened at pat[open] ("(?<name>...)"),
 * or NULL. Escapes, classes and comments inside the group are skipped.
 */
static char *unit_comment(const char *pat, size_t open)
{
	int depth = 0, in_class = 0;
	for (size_t i = open; pat[i]; i++) {
		char ch = pat[i];
		if (ch == '\\' && pat[i + 1]) {
			i++;
			continue;
		}
		if (in_class) {
			in_class = ch != ']';
			continue;
		}
		if (ch == '[') {
			in_class = 1;
			i += pat[i + 1] == '^';
			i += pat[i + 1] == ']';
		} else if (ch == '(' && !strncmp(pat + i, "(?#", 3)) {
			const char *end = strchr(pat + i, ')');
			if (!end)
				return NULL;
			i = (size_t)(end - pat);
		} else if (ch == '(') {
			depth++;
		} else if (ch == ')' && --depth == 0) {
			if (strncmp(pat + i + 1, "(?#", 3))
				return NULL;
			const char *from = pat + i + 4, *end = strchr(from, ')');
			return end ? xstrndup(from, (size_t)(end - from)) : NULL;
		}
	}
	return NULL;
}

/* Where the group named name opens in pat, or (size_t)-1. */
static size_t group_open(const char *pat, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = pat; (p = strstr(p, "(?")); p++) {
		const char *q = p + 2;
		if (*q == 'P')
			q++;
		if (*q != '<' && *q != '\'')
			continue;
		q++;
		if (!strncmp(q, name, n) && (q[n] == '>' || q[n] == '\'') &&
		    (p == pat || p[-1] != '\\'))
			return (size_t)(p - pat);
	}
	return (size_t)-1;
}

static int cmp_field(const void *a, const void *b)
{
	return ((const struct capture_field *)a)->group -
	       ((const struct capture_field *)b)->group;
}

/*
 * A record has one field of a name: two groups of one name ((?J)), or a
 * group named F_unit beside a unit on F, are refused. 0, or -1 with *why.
 */
static int fields_clash(const struct capture_pat *p, char **why)
{
	for (size_t i = 0; i < p->nfields; i++)
		for (size_t k = 0; k < p->nfields; k++) {
			const struct capture_field *a = &p->fields[i], *b = &p->fields[k];
			if (k > i && !strcmp(a->name, b->name)) {
				*why = xasprintf("two groups are named '%s' (groups %d and "
				                 "%d); a record has one field of a name, so "
				                 "name them apart", a->name, a->group,
				                 b->group);
				return -1;
			}
			char *unit = a->unit ? xasprintf("%s_unit", a->name) : NULL;
			int clash = unit && !strcmp(unit, b->name);
			free(unit);
			if (clash) {
				*why = xasprintf("the group '%s' is also the field that names "
				                 "the unit of '%s' (?#%s); rename the group",
				                 b->name, a->name, a->unit);
				return -1;
			}
		}
	return 0;
}

int capture_add(struct capture *c, const char *pattern, int line, char **why)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	                               PCRE2_UTF, &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		*why = xasprintf("the pattern does not compile: %s, at column %zu of "
		                 "the pattern:\n  %s\n  %*s^", (char *)msg,
		                 (size_t)off + 1, pattern, (int)off, "");
		return -1;
	}
	uint32_t count = 0, size = 0;
	PCRE2_SPTR table = NULL;
	pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
	pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &size);
	pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
	if (!count) {
		*why = xasprintf("the pattern names no field: name the groups to "
		                 "keep, (?<name>...)");
		pcre2_code_free(re);
		return -1;
	}
	/* One that matches no text at all would make a record at every
	 * position of the output. */
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int empty = pcre2_match(re, (PCRE2_SPTR) "", 0, 0, 0, md, NULL) >= 0;
	pcre2_match_data_free(md);
	if (empty) {
		*why = xasprintf("the pattern matches an empty text, so it would "
		                 "make a record at every place of the output; make "
		                 "it need some text (\\d+ rather than \\d*, or a "
		                 "word before the group)");
		pcre2_code_free(re);
		return -1;
	}
	struct capture_pat p = {re, line, strstr(pattern, "\\n") != NULL, NULL, 0};
	for (uint32_t i = 0; i < count; i++) {
		PCRE2_SPTR entry = table + (size_t)i * size;
		struct capture_field *f = ARRAY_PUSH(p.fields, p.nfields);
		memset(f, 0, sizeof *f);
		f->group = (entry[0] << 8) | entry[1];
		f->name = xstrdup((const char *)entry + 2);
		f->scale = 1;
		size_t open = group_open(pattern, f->name);
		char *comment = open != (size_t)-1 ? unit_comment(pattern, open) : NULL;
		if (comment && field_unit(f, comment, why) != 0) {
			free(comment);
			for (size_t k = 0; k < p.nfields; k++) {
				free(p.fields[k].name);
				free(p.fields[k].unit);
			}
			free(p.fields);
			pcre2_code_free(re);
			return -1;
		}
		free(comment);
	}
	qsort(p.fields, p.nfields, sizeof *p.fields, cmp_field);
	if (fields_clash(&p, why) != 0) {
		for (size_t k = 0; k < p.nfields; k++) {
			free(p.fields[k].name);
			free(p.fields[k].unit);
		}
		free(p.fields);
		pcre2_code_free(re);
		return -1;
	}
	*ARRAY_PUSH(c->pats, c->n) = p;
	return 0;
}

/* ---- matching -------------------------------------------------------------- */

struct found {
	size_t at;
	size_t pat;
	cJSON *row;
};

static cJSON *match_row(const struct capture_pat *p, const char *s,
                        const PCRE2_SIZE *ov)
{
	cJSON *row = cJSON_CreateObject();
	double ms = NAN;
	for (size_t k = 0; k < p->nfields; k++) {
		const struct capture_field *f = &p->fields[k];
		PCRE2_SIZE a = ov[2 * f->group], b = ov[2 * f->group + 1];
		if (a == PCRE2_UNSET)
			continue;
		char *text = xstrndup(s + a, b - a);
		char *t = str_trim(text), *end = NULL;
		double v = *t ? strtod(t, &end) : 0;
		if (end && !*end && isfinite(v)) {
			v *= f->scale;
			cJSON_AddNumberToObject(row, f->name, v);
			if (f->time && isnan(ms))
				ms = v * f->ms;
		} else {
			cJSON_AddStringToObject(row, f->name, t);
		}
		if (f->unit) {
			char *key = xasprintf("%s_unit", f->name);
			cJSON_AddStringToObject(row, key, f->unit);
			free(key);
		}
		free(text);
	}
	if (!isnan(ms) && !cJSON_GetObjectItemCaseSensitive(row, "median_ms"))
		cJSON_AddNumberToObject(row, "median_ms", ms);
	return row;
}

/* The start of the UTF-8 character after s[at] (an empty match moves on
 * by one character, never into the middle of one). */
static size_t next_char(const char *s, size_t len, size_t at)
{
	at++;
	while (at < len && ((unsigned char)s[at] & 0xC0) == 0x80)
		at++;
	return at;
}

/*
 * Every match of p in s[0..len), found at base + its offset. 0, or -1
 * when a match failed other than by finding nothing (PCRE2's match or
 * depth limit, a subject that is not UTF-8), with *err the code and *at
 * the offset where the attempt started, or when labbook was asked to stop
 * (*err 0).
 */
static int match_all(const struct capture_pat *p, size_t ip, const char *s,
                     size_t len, size_t base, struct found **out, size_t *n,
                     pcre2_match_data *md, pcre2_match_context *mc, int *err,
                     size_t *at)
{
	PCRE2_SIZE start = 0;
	while (start <= len) {
		if (exec_stopping()) {
			*err = 0;
			*at = base + start;
			return -1;
		}
		/* The text was checked once (capture_records): checked again at
		 * each search, a long output would cost its length per match. */
		int rc = pcre2_match(p->re, (PCRE2_SPTR)s, len, start,
		                     PCRE2_NO_UTF_CHECK, md, mc);
		if (rc == PCRE2_ERROR_NOMATCH)
			break;
		if (rc < 0) {
			*err = rc;
			*at = base + start;
			return -1;
		}
		const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		struct found *f = ARRAY_PUSH(*out, *n);
		f->at = base + ov[0];
		f->pat = ip;
		f->row = match_row(p, s, ov);
		start = ov[1] > ov[0] ? ov[1] : next_char(s, len, ov[0]);
	}
	return 0;
}

/* Why matching stopped at text[at] (match_all), for the caller. */
static char *match_failed(const struct capture_pat *p, const char *text,
                          size_t len, size_t at, int err)
{
	if (!err)
		return xstrdup("interrupted");
	size_t line = 1, from = 0;
	for (size_t i = 0; i < at && i < len; i++)
		if (text[i] == '\n') {
			line++;
			from = i + 1;
		}
	const char *nl = memchr(text + from, '\n', len - from);
	size_t end = nl ? (size_t)(nl - text) : len, shown = end - from;
	if (shown > CAPTURE_LINE_SHOWN) {
		shown = CAPTURE_LINE_SHOWN;
		while (shown && ((unsigned char)text[from + shown] & 0xC0) == 0x80)
			shown--;
	}
	PCRE2_UCHAR msg[256];
	pcre2_get_error_message(err, msg, sizeof msg);
	int limit = err == PCRE2_ERROR_MATCHLIMIT || err == PCRE2_ERROR_DEPTHLIMIT ||
	            err == PCRE2_ERROR_HEAPLIMIT;
	return xasprintf("could not match its capture: of line %d against line "
	                 "%zu of its output (%s%s): '%.*s%s'%s", p->line, line,
	                 (char *)msg, limit ? ", a limit that keeps a build "
	                 "answering Ctrl-C" : "", (int)shown, text + from,
	                 shown < end - from ? "..." : "",
	                 limit ? "; make it backtrack less, with an atomic group "
	                 "(?>...) or a possessive quantifier (a*+)" : "");
}

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->pat < y->pat ? -1 : x->pat > y->pat;
}

int capture_records(const struct capture *c, const char *text, size_t len,
                    cJSON ***rows, size_t *nrows, size_t *counts, int *line,
                    char **why)
{
	struct found *found = NULL;
	size_t n = 0, at = 0;
	int rc = 0, err = 0, bad_line = 0;
	if (!utf8_valid(text, len, &bad_line)) {
		*line = c && c->n ? c->pats[0].line : 0;
		*why = xasprintf("printed a line that is not UTF-8 (line %d of its "
		                 "output), which capture: cannot read", bad_line);
		return -1;
	}
	pcre2_match_context *mc = pcre2_match_context_create(NULL);
	for (size_t i = 0; c && i < c->n && !rc; i++) {
		const struct capture_pat *p = &c->pats[i];
		pcre2_match_data *md = pcre2_match_data_create_from_pattern(p->re, NULL);
		size_t before = n;
		pcre2_set_match_limit(mc, p->spans ? CAPTURE_MATCH_LIMIT * 10
		                                   : CAPTURE_MATCH_LIMIT);
		pcre2_set_depth_limit(mc, CAPTURE_DEPTH_LIMIT);
		if (p->spans) {
			rc = match_all(p, i, text, len, 0, &found, &n, md, mc, &err, &at);
		} else {
			for (size_t from = 0; from < len && !rc;) {
				const char *nl = memchr(text + from, '\n', len - from);
				size_t end = nl ? (size_t)(nl - text) : len;
				rc = match_all(p, i, text + from, end - from, from, &found, &n,
				               md, mc, &err, &at);
				from = end + 1;
			}
		}
		if (rc) {
			*line = p->line;
			*why = match_failed(p, text, len, at, err);
		}
		if (counts)
			counts[i] += n - before;
		pcre2_match_data_free(md);
	}
	pcre2_match_context_free(mc);
	if (n)
		qsort(found, n, sizeof *found, cmp_found);
	for (size_t i = 0; i < n; i++) {
		if (rc)
			cJSON_Delete(found[i].row);
		else
			*ARRAY_PUSH(*rows, *nrows) = found[i].row;
	}
	free(found);
	return rc;
}

int capture_output(const struct capture *c, const char *out, size_t len,
                   size_t dropped, cJSON ***rows, size_t *nrows, size_t *counts,
                   unsigned char *miss, int *line, char **why)
{
	size_t npat = capture_count(c), safe_len;
	if (!npat)
		return 0;
	if (dropped) {
		*why = xasprintf("printed more than the %u MiB of output that "
		                 "capture: reads (%zu bytes more, not read), so its "
		                 "records would be cut short",
		                 CAPTURE_OUTPUT_CAP >> 20, dropped);
		*line = capture_line(c, 0);
		return -1;
	}
	char *safe = text_make_safe(out, len, &safe_len);
	size_t *mine = xcalloc(npat, sizeof *mine);
	int rc = capture_records(c, safe ? safe : out, safe ? safe_len : len, rows,
	                         nrows, mine, line, why);
	for (size_t p = 0; p < npat; p++) {
		if (counts)
			counts[p] += mine[p];
		if (miss)
			miss[p] = !mine[p];
	}
	free(mine);
	free(safe);
	return rc;
}
