/* slices.c - a book-wide file made of one slice per chapter (slices.h). */
#define _GNU_SOURCE
#include "render/slices.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* A slice's ends are checked before it is copied: its first and last
 * bytes must still be those written, so a record that does not describe
 * the file is caught without reading all of it. */
#define END_BYTES 64

struct range {
	char *page;
	uint64_t off, len;
	char ends[33]; /* hash of the first and last END_BYTES */
	int checked;   /* 1: ends match; -1: they do not */
};

struct slices {
	char *path;
	int intact;        /* the file is as its record describes it */
	struct range *old; /* the last file's slices; none when it changed */
	size_t nold;
	int in;            /* the last file, opened when a slice is copied */
	struct range *now; /* the new file's */
	size_t nnow;
};

/* The identity of the file at path as written: size, inode and time. */
static char *file_identity(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	return xasprintf("%" PRIu64 ":%" PRIu64 ":%lld.%09ld",
	                 (uint64_t)st.st_size, (uint64_t)st.st_ino,
	                 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/* The size in an identity made by file_identity. */
static uint64_t identity_size(const char *id)
{
	return strtoull(id, NULL, 10);
}

static int range_cmp(const void *a, const void *b);

struct slices *slices_open(const char *path, const cJSON *record)
{
	struct slices *sl = xcalloc(1, sizeof *sl);
	sl->path = xstrdup(path);
	sl->in = -1;
	const char *want = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(record, "file"));
	char *id = want ? file_identity(path) : NULL;
	if (!id || strcmp(id, want)) {
		free(id);
		return sl;
	}
	uint64_t size = identity_size(id);
	free(id);
	sl->intact = 1;
	const cJSON *e;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(record, "at"))
	{
		const cJSON *off = cJSON_GetArrayItem(e, 0);
		const cJSON *len = cJSON_GetArrayItem(e, 1);
		/* Written so that NaN, too, is out of range. */
		if (!e->string || !cJSON_IsNumber(off) || !cJSON_IsNumber(len) ||
		    !(off->valuedouble >= 0 && len->valuedouble >= 0 &&
		      off->valuedouble + len->valuedouble <= (double)size))
			continue;
		const char *ends = cJSON_GetStringValue(cJSON_GetArrayItem(e, 2));
		if (!ends || strlen(ends) != 32)
			continue;
		struct range *r = ARRAY_PUSH(sl->old, sl->nold);
		*r = (struct range){xstrdup(e->string), (uint64_t)off->valuedouble,
		                    (uint64_t)len->valuedouble, "", 0};
		memcpy(r->ends, ends, 33);
	}
	if (sl->nold)
		qsort(sl->old, sl->nold, sizeof *sl->old, range_cmp);
	return sl;
}

void slices_free(struct slices *sl)
{
	if (!sl)
		return;
	for (size_t i = 0; i < sl->nold; i++)
		free(sl->old[i].page);
	for (size_t i = 0; i < sl->nnow; i++)
		free(sl->now[i].page);
	free(sl->old);
	free(sl->now);
	if (sl->in >= 0)
		close(sl->in);
	free(sl->path);
	free(sl);
}

static int range_cmp(const void *a, const void *b)
{
	return strcmp(((const struct range *)a)->page,
	              ((const struct range *)b)->page);
}

/* The hash of the ends of len bytes: head (its first bytes) and tail. */
static void ends_hash(const char *head, const char *tail, size_t len,
                      char out[33])
{
	struct hasher *h = hasher_new();
	size_t n = len < END_BYTES ? len : END_BYTES;
	hasher_add(h, &len, sizeof len);
	hasher_add(h, head, n);
	hasher_add(h, tail, n);
	hasher_done(h, out);
}

static int open_last(struct slices *sl)
{
	if (sl->in < 0)
		sl->in = open(sl->path, O_RDONLY | O_CLOEXEC);
	return sl->in;
}

/* Are r's ends in the last file those it was written with? */
static int ends_match(struct slices *sl, struct range *r)
{
	if (!r->checked) {
		char head[END_BYTES], tail[END_BYTES], got[33];
		size_t n = r->len < END_BYTES ? (size_t)r->len : END_BYTES;
		r->checked = -1;
		if (open_last(sl) >= 0 &&
		    pread(sl->in, head, n, (off_t)r->off) == (ssize_t)n &&
		    pread(sl->in, tail, n, (off_t)(r->off + r->len - n)) == (ssize_t)n) {
			ends_hash(head, tail, (size_t)r->len, got);
			if (!strcmp(got, r->ends))
				r->checked = 1;
		}
	}
	return r->checked == 1;
}

static struct range *old_range(struct slices *sl, const char *page)
{
	struct range want = {(char *)page, 0, 0, "", 0};
	struct range *r = sl->nold ? bsearch(&want, sl->old, sl->nold,
	                                     sizeof *sl->old, range_cmp)
	                           : NULL;
	return r && ends_match(sl, r) ? r : NULL;
}

int slices_intact(const struct slices *sl)
{
	return sl->intact;
}

int slices_has(struct slices *sl, const char *page)
{
	return old_range(sl, page) != NULL;
}

size_t slices_len(struct slices *sl, const char *page)
{
	const struct range *r = old_range(sl, page);
	return r ? (size_t)r->len : 0;
}

/* Copy len bytes at off of the last file to fd, in the kernel where it can. */
static int copy_range(struct slices *sl, int fd, uint64_t off, uint64_t len)
{
	if (open_last(sl) < 0)
		return -1;
	loff_t at = (loff_t)off;
	while (len) {
		ssize_t n = copy_file_range(sl->in, &at, fd, NULL, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EXDEV && errno != EINVAL && errno != ENOSYS &&
		    errno != EOPNOTSUPP)
			return -1;
		if (n < 0) {
			/* Not across these file systems: through a buffer. */
			char chunk[65536];
			n = pread(sl->in, chunk, len < sizeof chunk ? len : sizeof chunk,
			          at);
			if (n < 0 && errno == EINTR)
				continue;
			if (n > 0 && fd_write_all(fd, chunk, (size_t)n) != 0)
				return -1;
			if (n > 0)
				at += n;
		}
		if (n == 0)
			errno = EIO; /* the file is shorter than it was written */
		if (n <= 0)
			return -1;
		len -= (uint64_t)n;
	}
	return 0;
}

int slices_put(struct slices *sl, int fd, const char *page, const char *data,
               size_t len)
{
	off_t start = lseek(fd, 0, SEEK_CUR);
	if (start < 0)
		return -1;
	const struct range *r = data ? NULL : old_range(sl, page);
	if (!data && !r) {
		errno = ENOENT;
		return -1;
	}
	if (data ? fd_write_all(fd, data, len) != 0
	         : copy_range(sl, fd, r->off, r->len) != 0)
		return -1;
	struct range *now = ARRAY_PUSH(sl->now, sl->nnow);
	*now = (struct range){xstrdup(page), (uint64_t)start,
	                      data ? len : r->len, "", 1};
	if (data)
		ends_hash(data, data + len - (len < END_BYTES ? len : END_BYTES), len,
		          now->ends);
	else
		memcpy(now->ends, r->ends, 33);
	return 0;
}

cJSON *slices_record(const struct slices *sl)
{
	char *id = file_identity(sl->path);
	if (!id)
		return NULL;
	cJSON *rec = cJSON_CreateObject();
	cJSON_AddStringToObject(rec, "file", id);
	cJSON *at = cJSON_AddObjectToObject(rec, "at");
	for (size_t i = 0; i < sl->nnow; i++) {
		cJSON *r = cJSON_CreateArray();
		cJSON_AddItemToArray(r, cJSON_CreateNumber((double)sl->now[i].off));
		cJSON_AddItemToArray(r, cJSON_CreateNumber((double)sl->now[i].len));
		cJSON_AddItemToArray(r, cJSON_CreateString(sl->now[i].ends));
		cJSON_AddItemToObject(at, sl->now[i].page, r);
	}
	free(id);
	return rec;
}
