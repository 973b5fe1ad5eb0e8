/*
 * fuzz_deps.c - libFuzzer target: a compiler's dependency file (make's
 * rules, as gcc, clang and nvcc write them) read from any bytes into the
 * words it names.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/exec.h"
#include "base/util.h"
#include "measure/key.h"

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
	size_t n = 0;
	char **words = key_deps_words(text, &n);
	argv_free(words);
	free(text);
	return 0;
}
