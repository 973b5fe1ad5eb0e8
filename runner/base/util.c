/* util.c - files, hashes and clocks (util.h); util_text.c holds the text
 * helpers, diag.c the diagnostics, path.c the paths. */
#define _GNU_SOURCE
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "base/buf.h"


/* Read fd to its end into b, in one read when its size is known, or until
 * b holds more than cap bytes. 0, or -1 with errno set. */
static int fd_read_all(int fd, struct buf *b, size_t cap)
{
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= cap)
		buf_grow(b, (size_t)st.st_size + 1);
	for (;;) {
		if (b->cap - b->len < 2)
			buf_grow(b, 65536);
		ssize_t n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		b->len += (size_t)n;
		if (b->len > cap)
			return 0;
	}
}

char *file_read(const char *path, size_t *len)
{
	input_note(path);
	/* O_NONBLOCK: a FIFO put where a file was expected does not hang us;
	 * it, a folder or a device is refused. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	int known = fstat(fd, &st) == 0;
	if (!known || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = known && S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	struct buf b = BUF_INIT;
	int rc = fd_read_all(fd, &b, FILE_READ_CAP);
	close(fd);
	if (rc != 0 || b.len > FILE_READ_CAP) {
		buf_free(&b);
		errno = rc != 0 ? EIO : EFBIG;
		return NULL;
	}
	buf_grow(&b, 1);
	b.data[b.len] = '\0';
	if (len)
		*len = b.len;
	return buf_detach(&b);
}

int file_write_atomic_with(const char *path, int (*fill)(int fd, void *arg),
                          void *arg)
{
	char *tmp = file_temp_name(path, -1);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = -1;
	if (fd >= 0 && fill(fd, arg) == 0) {
		rc = close(fd);
		fd = -1;
		if (rc == 0)
			rc = rename(tmp, path);
	}
	if (rc != 0) {
		diag("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp);
	}
	free(tmp);
	return rc ? -1 : 0;
}

char *file_temp_name(const char *path, long n)
{
	if (n < 0)
		return xasprintf("%s.tmp.%ld", path, (long)getpid());
	return xasprintf("%s.tmp.%ld.%ld", path, (long)getpid(), n);
}

/* The process that wrote a temporary file named name, or 0 when the name
 * is not one file_temp_name makes. */
static long temp_owner(const char *name)
{
	const char *at = NULL;
	for (const char *p = strstr(name, ".tmp."); p; p = strstr(p + 1, ".tmp."))
		at = p;
	if (!at || at == name)
		return 0;
	char *end;
	errno = 0;
	long pid = strtol(at + 5, &end, 10);
	if (!isdigit((unsigned char)at[5]) || errno || pid <= 0)
		return 0;
	if (*end == '.' && isdigit((unsigned char)end[1]))
		strtol(end + 1, &end, 10);
	return *end ? 0 : pid;
}

/* Is pid a running labbook (this one included)? A process of another
 * user whose name cannot be read counts as one. */
static int pid_is_labbook(long pid)
{
	if (pid == (long)getpid())
		return 1;
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return 0;
	char path[64], theirs[64] = "", ours[64] = "";
	snprintf(path, sizeof path, "/proc/%ld/comm", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT;
	ssize_t n = read(fd, theirs, sizeof theirs - 1);
	close(fd);
	fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
	ssize_t m = fd >= 0 ? read(fd, ours, sizeof ours - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0) /* it ended meanwhile */
		return 0;
	if (m <= 0) /* no way to tell: keep its files */
		return 1;
	/* A pid used again, by another program, is not labbook (which may
	 * run under another name itself: valgrind). */
	return (n == m && !memcmp(theirs, ours, (size_t)n)) ||
	       !strcmp(theirs, "labbook\n");
}

size_t dir_remove_stale_temps(const char *dir, int depth)
{
	size_t removed = 0;
	DIR *dp = opendir(dir);
	struct dirent *de;
	while (dp && (de = readdir(dp))) {
		const char *name = de->d_name;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		long pid = temp_owner(name);
		int type = de->d_type;
		if (type != DT_DIR && type != DT_UNKNOWN && !pid)
			continue;
		char *path = path_join(dir, name);
		struct stat st;
		if (type == DT_UNKNOWN && lstat(path, &st) == 0)
			type = S_ISDIR(st.st_mode) ? DT_DIR
			       : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
		if (type == DT_DIR && depth > 0)
			removed += dir_remove_stale_temps(path, depth - 1);
		else if (type == DT_REG && pid && !pid_is_labbook(pid) &&
		         unlink(path) == 0)
			removed++;
		free(path);
	}
	if (dp)
		closedir(dp);
	return removed;
}

struct bytes {
	const void *data;
	size_t len;
};

static int bytes_fill(int fd, void *arg)
{
	const struct bytes *b = arg;
	return fd_write_all(fd, b->data, b->len);
}

int file_write_atomic(const char *path, const void *data, size_t len)
{
	struct bytes b = {data, len};
	return file_write_atomic_with(path, bytes_fill, &b);
}

int file_write_if_changed(const char *path, const void *data, size_t len,
                          int *written)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size == len) {
		size_t oldlen;
		char *old = file_read(path, &oldlen);
		int same = old && oldlen == len && !memcmp(old, data, len);
		free(old);
		if (same)
			return 0;
	}
	if (mkdir_parents(path) != 0 || file_write_atomic(path, data, len) != 0)
		return -1;
	if (written)
		(*written)++;
	return 0;
}

int fd_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int file_exists(const char *path)
{
	struct stat st;
	input_note(path);
	return stat(path, &st) == 0;
}

int64_t file_mtime(const char *path)
{
	struct stat st;
	input_note(path);
	if (stat(path, &st) != 0)
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

int file_copy(const char *src, const char *dst)
{
	size_t len;
	char *data = file_read(src, &len);
	if (!data) {
		diag("cannot read %s: %s", src, strerror(errno));
		return -1;
	}
	int rc = file_write_atomic(dst, data, len);
	free(data);
	return rc;
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) != 0 && errno != EEXIST) {
			diag("cannot create folder %s: %s", p, strerror(errno));
			rc = -1;
			break;
		}
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return rc;
}

int mkdir_parents(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return 0;
	char *dir = xstrndup(path, (size_t)(slash - path));
	int rc = mkdir_p(dir);
	free(dir);
	return rc;
}

struct hasher {
	XXH3_state_t *st;
};

struct hasher *hasher_new(void)
{
	struct hasher *h = xmalloc(sizeof *h);
	h->st = XXH3_createState();
	if (!h->st)
		mem_exhausted();
	XXH3_128bits_reset(h->st);
	return h;
}

void hasher_add(struct hasher *h, const void *data, size_t len)
{
	XXH3_128bits_update(h->st, data, len);
}

void hasher_add_str(struct hasher *h, const char *s)
{
	/* The terminating NUL separates fields: "ab"+"c" differs from "a"+"bc". */
	hasher_add(h, s, strlen(s) + 1);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add path's size, time and inode to h. */
static void hasher_add_file(struct hasher *h, const char *path)
{
	struct stat st;
	long long facts[4] = {0};
	if (stat(path, &st) == 0) {
		facts[0] = (long long)st.st_size;
		facts[1] = (long long)st.st_mtim.tv_sec;
		facts[2] = (long long)st.st_mtim.tv_nsec;
		facts[3] = (long long)st.st_ino;
	}
	hasher_add_str(h, path);
	hasher_add(h, facts, sizeof facts);
}

void hasher_add_self(struct hasher *h)
{
	/* The binary and the libraries it runs with (cmark-gfm, cJSON, libc):
	 * a new cmark renders differently though labbook did not change. */
	static char self[33];
	if (!*self) {
		struct hasher *s = hasher_new();
		hasher_add_file(s, "/proc/self/exe");
		/* Each library's code, once, in name order (addresses vary). */
		char *maps = file_read("/proc/self/maps", NULL);
		char **libs = NULL;
		size_t n = 0;
		for (char *line = maps, *nl; line && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			const char *path = strchr(line, '/');
			if (path && strstr(line, " r-xp ") && strstr(path, ".so"))
				*ARRAY_PUSH(libs, n) = xstrdup(path);
			if (!nl)
				break;
		}
		free(maps);
		if (n)
			qsort(libs, n, sizeof *libs, str_cmp);
		for (size_t i = 0; i < n; i++) {
			if (!i || strcmp(libs[i], libs[i - 1]))
				hasher_add_file(s, libs[i]);
		}
		for (size_t i = 0; i < n; i++)
			free(libs[i]);
		free(libs);
		hasher_done(s, self);
	}
	hasher_add_str(h, self);
}

void hasher_done(struct hasher *h, char out[33])
{
	XXH128_hash_t v = XXH3_128bits_digest(h->st);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)v.high64,
	         (unsigned long long)v.low64);
	XXH3_freeState(h->st);
	free(h);
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void now_iso(char out[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}


int file_is_regular(const char *path)
{
	struct stat st;
	input_note(path);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *file_read_written(const char *path, size_t cap, size_t *len, char **why)
{
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		*why = xstrdup("is a symbolic link, not a file the program wrote");
		return NULL;
	}
	return file_read_regular(path, cap, len, why);
}

char *file_read_regular(const char *path, size_t cap, size_t *len, char **why)
{
	struct stat st;
	*why = NULL;
	input_note(path);
	if (stat(path, &st) != 0) {
		*why = xasprintf("cannot be read: %s", strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = xstrdup(S_ISDIR(st.st_mode)    ? "is a folder, not a file"
		               : S_ISFIFO(st.st_mode) ? "is a FIFO, not a regular file"
		               : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
		                   ? "is a device, not a regular file"
		                   : "is not a regular file");
		return NULL;
	}
	if ((uint64_t)st.st_size > cap) {
		*why = xasprintf("is %lld bytes, more than the limit of %zu",
		                 (long long)st.st_size, cap);
		return NULL;
	}
	/* O_NONBLOCK: should it have become a FIFO since, open does not wait. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		*why = xasprintf("cannot be read: %s",
		                 fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct buf b = BUF_INIT;
	if (fd_read_all(fd, &b, cap) != 0)
		*why = xasprintf("cannot be read: %s", strerror(errno));
	else if (b.len > cap)
		*why = xasprintf("is more than the limit of %zu bytes", cap);
	close(fd);
	if (*why) {
		buf_free(&b);
		return NULL;
	}
	buf_grow(&b, 1);
	b.data[b.len] = '\0';
	if (len)
		*len = b.len;
	return buf_detach(&b);
}
