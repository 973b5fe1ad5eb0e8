/* root.c - the book's root folder (root.h). */
#include "cli/root.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

int root_enter(const char *dir, const char *chapters, int chapters_given)
{
	if (dir) {
		if (chdir(dir) != 0) {
			diag("-C %s: %s", dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (chapters_given || file_exists(chapters))
		return 0;
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		return 0;
	for (char *slash = strrchr(cwd, '/'); slash && slash > cwd;
	     slash = strrchr(cwd, '/')) {
		*slash = '\0';
		char *p = path_join(cwd, chapters);
		int found = file_exists(p) && !file_is_regular(p);
		free(p);
		if (found) {
			if (chdir(cwd) != 0) {
				diag("%s: %s", cwd, strerror(errno));
				return -1;
			}
			fprintf(stderr, "labbook: the book is in %s\n", cwd);
			return 0;
		}
	}
	return 0;
}
