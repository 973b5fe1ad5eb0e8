/*
 * fuzz_sweep.c - libFuzzer target: sweep: lines. Each line of the input is
 * one sweep: line added in turn (a refused one leaves the sweep as it
 * was); then every set's words, text and fields are made, up to the
 * limit of sets a sweep may have.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/exec.h"
#include "base/util.h"
#include "book/sweep.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct sweep *s = sweep_new();
	int line = 0;
	for (char *p = text, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		char *why = NULL;
		sweep_add(s, p, ++line, &why);
		free(why);
	}
	size_t sets = sweep_sets(s);
	for (size_t k = 0; k < sets && k < SWEEP_SETS_MAX; k++) {
		char **argv = NULL;
		size_t n = 0;
		sweep_args(s, k, &argv, &n);
		*ARRAY_PUSH(argv, n) = NULL;
		argv_free(argv);
		free(sweep_text(s, k));
		cJSON *row = cJSON_CreateObject();
		sweep_fields(s, k, row);
		cJSON_Delete(row);
	}
	sweep_free(s);
	free(text);
	return 0;
}
