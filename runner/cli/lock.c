/* lock.c - the project lock (lock.h). */
#define _GNU_SOURCE
#include "cli/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/exec.h"
#include "base/path.h"
#include "base/util.h"

/* The process id the holder wrote into the lock file, or 0. */
static long lock_holder(int fd)
{
	char text[32];
	ssize_t n = pread(fd, text, sizeof text - 1, 0);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	long pid = strtol(text, NULL, 10);
	return pid > 0 ? pid : 0;
}

/* Take the lock of path, what (held by "this project" or "the bundle
 * DIR") names in messages: a descriptor, or -1. */
static int lock_at(const char *path, const char *what)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	/* A book that cannot be written may still be rendered elsewhere
	 * (--site): a lock needs only a descriptor of the file, and where
	 * there is none, no build can write the book either. */
	if (fd < 0 && (errno == EACCES || errno == EROFS)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			fprintf(stderr, "labbook: %s cannot be written, so the build "
			        "takes no lock (%s)\n", strcmp(what, "this project")
			        ? what : "this folder", path);
			return open("/dev/null", O_RDONLY | O_CLOEXEC);
		}
	}
	if (fd < 0) {
		diag("cannot lock %s: %s: %s", what, path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK)
			goto fail;
		long pid = lock_holder(fd);
		if (pid)
			fprintf(stderr, "labbook: waiting for the build of PID %ld in "
			        "%s (it holds %s)...\n", pid, what, path);
		else
			fprintf(stderr, "labbook: waiting for another build in %s "
			        "(it holds %s)...\n", what, path);
		if (exec_flock_wait(fd) != 0) {
			close(fd);
			return -1;
		}
	}
	/* One width for every pid, so the last holder's is overwritten whole
	 * without truncating the file (which costs more than the write). */
	char text[32];
	int len = snprintf(text, sizeof text, "%-20ld\n", (long)getpid());
	(void)!pwrite(fd, text, (size_t)len, 0);
	return fd;
fail:
	diag("cannot lock %s: %s: %s", what, path, strerror(errno));
	close(fd);
	return -1;
}

int lock_take(const char *bundle)
{
	int fd = lock_at(LOCK_PATH, "this project");
	char *cwd = bundle ? getcwd(NULL, 0) : NULL;
	char *inside = cwd ? path_canonical(cwd, bundle) : NULL;
	if (fd >= 0 && cwd && !inside && mkdir_p(bundle) == 0) {
		/* Held until this process ends: the kernel drops it then. */
		char *path = path_join(bundle, LOCK_PATH);
		char *what = xasprintf("the bundle %s", bundle);
		int bfd = lock_at(path, what);
		free(path);
		free(what);
		if (bfd < 0) {
			close(fd);
			fd = -1;
		}
	}
	free(inside);
	free(cwd);
	return fd;
}
