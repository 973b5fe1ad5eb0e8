/*
 * records.c - the record schema and records text (results.h, "records").
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/diag.h"
#include "bundle/results.h"
#include "base/util.h"

static int row_check(const cJSON *row, char **why)
{
	if (!cJSON_IsObject(row)) {
		*why = xstrdup("a record must be a JSON object");
		return -1;
	}
	const cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (cJSON_IsArray(f) || cJSON_IsObject(f)) {
			*why = xasprintf("field '%s' is %s; records hold numbers, "
			                 "strings, booleans and null", f->string,
			                 cJSON_IsArray(f) ? "an array" : "an object");
			return -1;
		}
		if (cJSON_IsNumber(f) && !isfinite(f->valuedouble)) {
			*why = xasprintf("field '%s' is not a finite number", f->string);
			return -1;
		}
	}
	return 0;
}

/* A copy of the n bytes at l in which each escaped NUL (\u0000) of a
 * string is an escaped U+2400, which shows it (␀), or NULL when l holds
 * none: a C string ends at a NUL, and all after it would be lost. */
static char *nul_escapes_shown(const char *l, size_t n)
{
	if (!memchr(l, '\\', n))
		return NULL;
	char *c = NULL;
	for (size_t i = 0; i + 1 < n; i++) {
		if (l[i] != '\\')
			continue;
		if (i + 5 < n && !memcmp(l + i + 1, "u0000", 5)) {
			if (!c)
				c = xstrndup(l, n);
			memcpy(c + i + 1, "u2400", 5);
		}
		i++; /* the escaped character: \\u0000 is a backslash, then text */
	}
	return c;
}

int records_parse_n(const char *text, size_t len, cJSON ***rows, size_t *nrows,
                    char **err)
{
	int line = 0;
	*err = NULL;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *l = p, *lend = p + n;
		p += n + (nl ? 1 : 0);
		line++;
		char *why = NULL, *shown = nul_escapes_shown(l, n);
		cJSON *row = NULL;
		if (shown) {
			l = shown;
			lend = shown + n;
		}
		const char *s = l;
		while (s < lend && isspace((unsigned char)*s))
			s++;
		if (memchr(l, '\0', n)) {
			why = xstrdup("a NUL byte in the line");
		} else if (s == lend) {
			continue;
		} else {
			/* Parsed in place: one value, then nothing but spaces. */
			const char *stop = NULL;
			row = cJSON_ParseWithLengthOpts(s, (size_t)(lend - s), &stop, 0);
			if (row && stop)
				while (stop < lend && isspace((unsigned char)*stop))
					stop++;
			if (row && stop != lend) {
				cJSON_Delete(row);
				row = NULL;
			}
			if (!row) {
				const char *at = stop && stop < lend ? stop : s;
				size_t k = 0;
				/* Quote at most 20 characters, never half of one. */
				while (at + k < lend && k < 20)
					k++;
				while (at + k < lend && ((unsigned char)at[k] & 0xc0) == 0x80)
					k++;
				why = xasprintf("malformed JSON near '%.*s'", (int)k, at);
			} else {
				row_check(row, &why);
			}
		}
		free(shown);
		if (why) {
			cJSON_Delete(row);
			*err = xasprintf("line %d: %s", line, why);
			free(why);
			return -1;
		}
		*ARRAY_PUSH(*rows, *nrows) = row;
	}
	return 0;
}

int records_fields_once(const char *text, size_t len, cJSON *const *rows,
                        size_t n, char **err)
{
	for (size_t i = 0; i < n; i++)
		for (const cJSON *f = rows[i]->child; f; f = f->next)
			for (const cJSON *g = rows[i]->child; g != f; g = g->next)
				if (!strcmp(g->string, f->string)) {
					*err = xasprintf("line %d: field '%s' appears twice",
					                 records_line_of(text, len, i),
					                 f->string);
					return -1;
				}
	return 0;
}

int records_line_of(const char *text, size_t len, size_t k)
{
	int line = 0;
	size_t seen = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *s = p, *lend = p + n;
		p += n + (nl ? 1 : 0);
		line++;
		while (s < lend && isspace((unsigned char)*s))
			s++;
		/* Blank lines hold no record, as in records_parse_n. */
		if (s == lend && !memchr(lend - n, '\0', n))
			continue;
		if (seen++ == k)
			return line;
	}
	return 0;
}

int records_parse(const char *text, cJSON ***rows, size_t *nrows, char **err)
{
	return records_parse_n(text, strlen(text), rows, nrows, err);
}

size_t records_make_safe(cJSON **rows, size_t n)
{
	size_t changed = 0;
	for (size_t i = 0; i < n; i++) {
		cJSON *f;
		cJSON_ArrayForEach(f, rows[i])
		{
			if (!cJSON_IsString(f))
				continue;
			char *safe = text_make_safe(f->valuestring,
			                            strlen(f->valuestring), NULL);
			if (safe) {
				cJSON_SetValuestring(f, safe);
				free(safe);
				changed++;
			}
		}
	}
	return changed;
}

char *records_text(cJSON *const *rows, size_t n)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		char *t = cJSON_PrintUnformatted(rows[i]);
		if (!t) {
			fputs("labbook: out of memory\n", stderr);
			abort();
		}
		buf_printf(&b, "%s\n", t);
		free(t);
	}
	return buf_detach(&b);
}

/* A rate with bounds (F, F_lo, F_hi) is measured, and so is a value with
 * a unit (F, F_unit: captured, capture.h). */
static int is_rate(const cJSON *row, const char *name)
{
	char *lo = record_bound_name(name, 0);
	char *unit = xasprintf("%s_unit", name);
	int rate = cJSON_GetObjectItemCaseSensitive(row, lo) != NULL ||
	           cJSON_GetObjectItemCaseSensitive(row, unit) != NULL;
	free(lo);
	free(unit);
	return rate;
}

int record_is_measurement(const char *k)
{
	static const char *names[] = {"median_ms", "min_ms", "max_ms", "q1_ms",
	                              "q3_ms", "mean_ms", "spread", "reps",
	                              "clock_mhz", "throttled", "batch", "ms",
	                              "noise", "clock_min_mhz", "clock_source",
	                              "clock_reasons", "retried",
	                              "correct", "runs", "run_min_ms", "run_max_ms",
	                              "run_spread", "host_bound", NULL};
	for (const char **n = names; *n; n++)
		if (!strcmp(k, *n))
			return 1;
	size_t len = strlen(k);
	return len > 3 && (!strcmp(k + len - 3, "_lo") || !strcmp(k + len - 3, "_hi"));
}

int record_field_measured(const cJSON *row, const char *field)
{
	return record_is_measurement(field) || is_rate(row, field);
}

char *record_bound_name(const char *field, int hi)
{
	return xasprintf("%s%s", field, hi ? "_hi" : "_lo");
}

int record_wrong(const cJSON *row)
{
	return cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(row, RECORD_CORRECT));
}

int record_flag(const cJSON *row, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, key));
}

int record_host_bound(const cJSON *row)
{
	return record_flag(row, RECORD_HOST_BOUND);
}

const char *records_not_measured(cJSON *const *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(rows[i],
		                                                    RECORD_NOT_MEASURED);
		if (cJSON_IsString(why))
			return why->valuestring;
	}
	return NULL;
}

static int whole(const cJSON *f)
{
	return cJSON_IsNumber(f) && f->valuedouble == floor(f->valuedouble) &&
	       fabs(f->valuedouble) < 1e15;
}

char *record_params(const cJSON *row)
{
	struct buf b = BUF_INIT;
	const cJSON *f;
	cJSON_ArrayForEach(f, row)
	{
		if (record_is_measurement(f->string) || is_rate(row, f->string))
			continue;
		if (cJSON_IsString(f))
			buf_printf(&b, "%s%s=%s", b.len ? " " : "", f->string, f->valuestring);
		else if (whole(f))
			buf_printf(&b, "%s%s=%.0f", b.len ? " " : "", f->string, f->valuedouble);
	}
	return buf_detach(&b);
}

int record_same_point(const cJSON *a, const cJSON *b)
{
	const cJSON *f;
	cJSON_ArrayForEach(f, a)
	{
		if (record_is_measurement(f->string) || is_rate(a, f->string))
			continue;
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(b, f->string);
		if (cJSON_IsString(f) &&
		    (!cJSON_IsString(g) || strcmp(f->valuestring, g->valuestring)))
			return 0;
		/* A measured value can be whole in one run and not in the
		 * next: only two whole numbers that differ tell points apart. */
		if (whole(f) && whole(g) && f->valuedouble != g->valuedouble)
			return 0;
	}
	return 1;
}

/* s made valid UTF-8 (caller frees), or NULL when it is already. */
static char *utf8_fixed(const char *s)
{
	int line;
	size_t n = strlen(s), len;
	return utf8_valid(s, n, &line) ? NULL : text_make_safe(s, n, &len);
}

void json_utf8_fix(cJSON *item)
{
	for (; item; item = item->next) {
		char *k = item->string ? utf8_fixed(item->string) : NULL;
		if (k && !(item->type & cJSON_StringIsConst)) {
			free(item->string);
			item->string = k;
		} else {
			free(k);
		}
		char *v = cJSON_IsString(item) && item->valuestring
		              ? utf8_fixed(item->valuestring) : NULL;
		if (v) {
			free(item->valuestring);
			item->valuestring = v;
		}
		json_utf8_fix(item->child);
	}
}

int json_write_out(cJSON *doc, const char *path, const char *opt)
{
	const char *bad = NULL;
	if (strcmp(path, "-")) {
		struct stat st;
		size_t n = strlen(path);
		int there = stat(path, &st) == 0;
		char *dir = xstrdup(path), *slash = strrchr(dir, '/');
		if (slash)
			slash[1] = '\0';
		char *machine = xasprintf("%smachine.json", slash ? dir : "");
		bad = there && !S_ISREG(st.st_mode) ? "not a file"
		      : there && (n < 5 || strcmp(path + n - 5, ".json"))
		          ? "a file that is not .json"
		      : file_exists(machine) ? "in a bundle's folder" : NULL;
		free(machine);
		free(dir);
	}
	if (bad) {
		diag("%s %s: not written: it is %s; name a new file, a .json file "
		     "outside a bundle, or - for the standard output", opt, path,
		     bad);
		return -1;
	}
	json_utf8_fix(doc);
	char *text = cJSON_Print(doc);
	int rc = 0;
	if (!strcmp(path, "-")) {
		if (fputs(text, stdout) < 0 || putchar('\n') == EOF ||
		    fflush(stdout) != 0) {
			diag("%s -: cannot write: %s", opt, strerror(errno));
			rc = -1;
		}
	} else {
		struct buf b = BUF_INIT;
		buf_printf(&b, "%s\n", text);
		rc = file_write_atomic(path, b.data, b.len);
		buf_free(&b);
	}
	free(text);
	return rc;
}
