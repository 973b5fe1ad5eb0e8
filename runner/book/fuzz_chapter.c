/*
 * fuzz_chapter.c - libFuzzer target: the chapter parser on any bytes.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <stdint.h>

#include "book/chapter.h"
#include "base/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	chapter_free(chapter_parse_text("chapters/01-fuzz.md",
	                                (const char *)data, size));
	return 0;
}
