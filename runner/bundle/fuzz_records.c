/*
 * fuzz_records.c - libFuzzer target: records made safe and parsed from
 * any bytes (NULs included), then records_merge over three runs: the
 * bytes before a form feed, the bytes after it (the same bytes when there
 * is none), and the first again.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bundle/merge.h"
#include "bundle/results.h"
#include "base/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

/* As a run's records are read: made safe, parsed as bytes. */
static int parse(const char *text, size_t len, cJSON ***rows, size_t *nrows)
{
	char *err = NULL;
	size_t safe_len;
	char *safe = text_make_safe(text, len, &safe_len);
	int rc = records_parse_n(safe ? safe : text, safe ? safe_len : len, rows,
	                         nrows, &err);
	records_make_safe(*rows, *nrows);
	free(err);
	free(safe);
	return rc;
}

static void drop(cJSON **rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	const char *ff = memchr(text, '\f', size);
	size_t len = ff ? (size_t)(ff - text) : size;
	const char *second = ff ? ff + 1 : text;
	size_t len2 = ff ? size - len - 1 : size;
	cJSON **runs[3] = {NULL, NULL, NULL};
	size_t nrows[3] = {0, 0, 0};
	int ok = parse(text, len, &runs[0], &nrows[0]) == 0;
	for (size_t i = 0; i < nrows[0]; i++) {
		char *s = json_print(runs[0][i]);
		free(s);
	}
	ok &= parse(second, len2, &runs[1], &nrows[1]) == 0;
	ok &= parse(text, len, &runs[2], &nrows[2]) == 0;
	if (ok) {
		char *why = NULL;
		char *merged = records_merge(runs, nrows, 3, &why);
		free(merged);
		free(why);
	}
	for (int i = 0; i < 3; i++)
		drop(runs[i], nrows[i]);
	return 0;
}
