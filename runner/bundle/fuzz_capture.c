/*
 * fuzz_capture.c - libFuzzer target: a capture: pattern and a program's
 * output. The input's first line is the pattern, the rest the output (any
 * bytes, made safe as a run's output is); the records it finds are made,
 * written as JSON and freed. A pattern that does not compile is refused.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bundle/capture.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t plen = nl ? (size_t)(nl - (const char *)data) : size;
	char *pattern = xstrndup((const char *)data, plen);
	const char *out = nl ? nl + 1 : (const char *)data + size;
	size_t olen = size - (size_t)(out - (const char *)data);
	struct capture *c = capture_new();
	char *why = NULL;
	if (capture_add(c, pattern, 1, &why) == 0) {
		cJSON **rows = NULL;
		size_t nrows = 0, counts[1] = {0};
		unsigned char miss[1] = {0};
		int line = 0;
		if (capture_output(c, out, olen, 0, &rows, &nrows, counts, miss,
		                   &line, &why) == 0)
			for (size_t i = 0; i < nrows; i++) {
				char *text = cJSON_PrintUnformatted(rows[i]);
				free(text);
			}
		for (size_t i = 0; i < nrows; i++)
			cJSON_Delete(rows[i]);
		free(rows);
	}
	free(why);
	capture_free(c);
	free(pattern);
	return 0;
}
