/* common.h - what the course's programs share: reading "-n=SIZE". */
#ifndef COMMON_H
#define COMMON_H

#include <stdlib.h>
#include <string.h>

static long arg_size(int argc, char **argv, long fallback)
{
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-n=", 3))
			return atol(argv[i] + 3);
	return fallback;
}

#endif
