/*
 * fuzz_store.c - libFuzzer target: the one cache's file (store.h) read
 * from any bytes. Whatever it holds, an entry is looked up, one is put,
 * and the store is written back and read again; a file that is not
 * intact is an empty store, never an error.
 *
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/store.h"
#include "base/util.h"

static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	snprintf(path, sizeof path, "/tmp/labbook-fuzz-store.%d", (int)getpid());
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char key[] = "0123456789abcdef0123456789abcdef";
	if (file_write_atomic(path, (const char *)data, size) != 0)
		return 0;
	struct store *s = store_open(path);
	size_t len;
	store_get(s, key, &len);
	store_put(s, key, data, size < 64 ? size : 64);
	store_close(s);
	s = store_open(path);
	const char *v = store_get(s, key, &len);
	if (!v)
		abort(); /* what was just written must read back */
	store_close(s);
	unlink(path);
	return 0;
}
