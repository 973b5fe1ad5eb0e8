/*
 * fuzz_records.c - libFuzzer target: records_parse on any text.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <cjson/cJSON.h>
#include <stdint.h>

#include "results.h"
#include "util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Records text is a C string: what follows a NUL is never seen. */
	char *text = xstrndup((const char *)data, size);
	cJSON **rows = NULL;
	size_t nrows = 0;
	char *err = NULL;
	records_parse(text, &rows, &nrows, &err);
	for (size_t i = 0; i < nrows; i++) {
		char *s = json_print(rows[i]);
		free(s);
		cJSON_Delete(rows[i]);
	}
	free(rows);
	free(err);
	free(text);
	return 0;
}
