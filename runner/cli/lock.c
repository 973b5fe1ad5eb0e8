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

int lock_take(void)
{
	int fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	/* A book that cannot be written may still be rendered elsewhere
	 * (--site): a lock needs only a descriptor of the file, and where
	 * there is none, no build can write the book either. */
	if (fd < 0 && (errno == EACCES || errno == EROFS)) {
		fd = open(LOCK_PATH, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			fprintf(stderr, "labbook: this folder cannot be written, so "
			        "the build takes no lock (%s)\n", LOCK_PATH);
			return open("/dev/null", O_RDONLY | O_CLOEXEC);
		}
	}
	if (fd < 0) {
		diag("cannot lock the project: %s: %s", LOCK_PATH, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno != EWOULDBLOCK)
			goto fail;
		long pid = lock_holder(fd);
		if (pid)
			fprintf(stderr, "labbook: waiting for the build of PID %ld in "
			        "this project (it holds %s)...\n", pid, LOCK_PATH);
		else
			fprintf(stderr, "labbook: waiting for another build in this "
			        "project (it holds %s)...\n", LOCK_PATH);
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
	diag("cannot lock the project: %s: %s", LOCK_PATH, strerror(errno));
	close(fd);
	return -1;
}
