/* stamp.c - a build that would change nothing is not made (stamp.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "cli/stamp.h"
#include "base/util.h"

#define STAMP_FILE ".labbook-stamp"
#define STAMP_MAGIC "labbook-stamp 2"
/* An input whose times are this close to the stamp's writing may change
 * again within one tick of the file-time clock without its times showing
 * it: its content is hashed too (git's racily clean entries). */
#define STAMP_RACY_NS 2000000000LL

void stamp_begin(const char *site)
{
	inputs_begin(site);
	char *path = path_join(site, STAMP_FILE);
	unlink(path);
	free(path);
}

void stamp_end(void)
{
	inputs_end();
}

void stamp_key(int argc, char **argv, char out[33])
{
	struct hasher *h = hasher_new();
	/* Options that change what is shown on the terminal, or how fast,
	 * change nothing in the site. */
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--quiet") || !strcmp(a, "--progress") ||
		    !strncmp(a, "--jobs=", 7) || (!strncmp(a, "-j", 2) && a[2]))
			continue;
		if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
			i++;
			continue;
		}
		hasher_add_str(h, a);
	}
	char cwd[4096];
	hasher_add_str(h, getcwd(cwd, sizeof cwd) ? cwd : "?");
	/* What a build reads of its environment: which gnuplot draws. */
	static const char *env[] = {"LABBOOK_GNUPLOT", "PATH"};
	for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
		const char *v = getenv(env[i]);
		hasher_add_str(h, v ? v : "\x01unset");
	}
	hasher_add_self(h);
	hasher_done(h, out);
}

/* ---- one line per file ------------------------------------------------- */

/* "KIND size msec mnsec csec cnsec ino" of path: KIND is f (file), d
 * (folder), o (anything else) or a (absent). */
static void facts_of(const struct stat *st, int there, struct buf *out)
{
	if (!there) {
		buf_puts(out, "a 0 0 0 0 0 0");
		return;
	}
	char kind = S_ISREG(st->st_mode) ? 'f' : S_ISDIR(st->st_mode) ? 'd' : 'o';
	buf_printf(out, "%c %lld %lld %ld %lld %ld %llu", kind,
	           (long long)st->st_size, (long long)st->st_mtim.tv_sec,
	           st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec,
	           st->st_ctim.tv_nsec, (unsigned long long)st->st_ino);
}

static long long ns_of(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* Is st too recent for its times to tell a later change? now: ns. */
static int racy(const struct stat *st, long long now)
{
	return ns_of(&st->st_mtim) > now - STAMP_RACY_NS ||
	       ns_of(&st->st_ctim) > now - STAMP_RACY_NS;
}

/* The content of path: a file's bytes, or a folder's sorted names. 0 or
 * -1 (unreadable). */
static int content_hash(const char *path, const struct stat *st, char out[33])
{
	struct hasher *h = hasher_new();
	int rc = 0;
	if (S_ISDIR(st->st_mode)) {
		struct dirent **names;
		int n = scandir(path, &names, NULL, alphasort);
		if (n < 0)
			rc = -1;
		for (int i = 0; i < n; i++) {
			hasher_add_str(h, names[i]->d_name);
			free(names[i]);
		}
		if (n >= 0)
			free(names);
	} else {
		size_t len;
		char *text = file_read(path, &len);
		if (text)
			hasher_add(h, text, len);
		else
			rc = -1;
		free(text);
	}
	hasher_done(h, out);
	return rc;
}

/* Every file and folder under dir, as "O facts path" lines. */
static void outputs_walk(const char *dir, struct buf *out, int depth)
{
	DIR *dp = opendir(dir);
	if (!dp || depth > 16) {
		if (dp)
			closedir(dp);
		return;
	}
	struct dirent *de;
	while ((de = readdir(dp))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, STAMP_FILE) ||
		    strchr(n, '\n'))
			continue;
		char *path = path_join(dir, n);
		struct stat st;
		if (lstat(path, &st) == 0) {
			buf_puts(out, "O ");
			facts_of(&st, 1, out);
			buf_printf(out, " - %s\n", path);
			if (S_ISDIR(st.st_mode))
				outputs_walk(path, out, depth + 1);
		}
		free(path);
	}
	closedir(dp);
}

int stamp_write(const char *site, const char *key, const char *warnings)
{
	struct buf s = BUF_INIT;
	int rc = -1;
	/* Made first, so that the site's folder is noted as it stays. */
	char *path = path_join(site, STAMP_FILE);
	FILE *f = fopen(path, "w");
	if (!f)
		goto out;
	buf_printf(&s, "%s %s\n", STAMP_MAGIC, key);
	for (const char *w = warnings; w && *w;) {
		const char *nl = strchr(w, '\n');
		size_t n = nl ? (size_t)(nl - w) : strlen(w);
		buf_printf(&s, "W %.*s\n", (int)n, w);
		w += n + (nl != NULL);
	}
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	long long now = ns_of(&t);
	const char *p;
	for (size_t it = 0; (p = inputs_next(&it));) {
		if (strchr(p, '\n'))
			goto out;
		struct stat st;
		int there = stat(p, &st) == 0;
		if (!there && errno != ENOENT && errno != ENOTDIR)
			goto out;
		char hash[33] = "-";
		if (there && racy(&st, now) && content_hash(p, &st, hash))
			goto out;
		buf_puts(&s, "I ");
		facts_of(&st, there, &s);
		buf_printf(&s, " %s %s\n", hash, p);
	}
	struct stat st;
	if (stat(site, &st) != 0)
		goto out;
	buf_puts(&s, "O ");
	facts_of(&st, 1, &s);
	buf_printf(&s, " - %s\n", site);
	outputs_walk(site, &s, 0);
	/* The end, with a checksum of all before it: a stamp cut short or
	 * changed is no stamp. */
	char sum[33];
	struct hasher *h = hasher_new();
	hasher_add(h, s.data, s.len);
	hasher_done(h, sum);
	buf_printf(&s, "end %s\n", sum);
	rc = fwrite(s.data, 1, s.len, f) == s.len ? 0 : -1;
out:
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc && f)
		unlink(path);
	free(path);
	buf_free(&s);
	stamp_end();
	return rc;
}

int stamp_fresh(const char *site, const char *key, size_t *checked,
                struct buf *warnings)
{
	*checked = 0;
	size_t warned = warnings->len;
	char *path = path_join(site, STAMP_FILE);
	size_t len;
	char *text = file_read(path, &len);
	free(path);
	if (!text)
		return 0;
	int fresh = 0;
	struct buf now = BUF_INIT;
	/* The last line is "end SUM", SUM over every byte before it. */
	char *end = len >= 38 ? text + len - 33 : NULL;
	if (!end || end[-5] != '\n' || strncmp(end - 4, "end ", 4) ||
	    text[len - 1] != '\n' || memchr(text, '\0', len))
		goto out;
	char sum[33];
	struct hasher *h = hasher_new();
	hasher_add(h, text, (size_t)(end - 4 - text));
	hasher_done(h, sum);
	if (strncmp(end, sum, 32))
		goto out;
	end[-4] = '\0';
	char *line = text, *nl = strchr(line, '\n');
	size_t magic = strlen(STAMP_MAGIC);
	if (!nl || (size_t)(nl - line) != magic + 1 + 32 ||
	    strncmp(line, STAMP_MAGIC, magic) || strncmp(line + magic + 1, key, 32))
		goto out;
	for (line = nl + 1; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl && line[0] == 'W' && line[1] == ' ') {
			buf_put(warnings, line + 2, (size_t)(nl + 1 - (line + 2)));
			continue;
		}
		if (!nl || nl - line < 16 || line[1] != ' ' ||
		    (line[0] != 'I' && line[0] != 'O'))
			goto out;
		/* The content hash follows the eighth space, the path it. */
		const char *p = line, *hash = NULL;
		for (int k = 0; k < 9 && p && p < nl; k++) {
			p = memchr(p, ' ', (size_t)(nl - p));
			p = p ? p + 1 : NULL;
			if (k == 7)
				hash = p;
		}
		if (!p || p >= nl || !hash || p - hash < 2)
			goto out;
		*nl = '\0';
		struct stat st;
		int there = (line[0] == 'O' ? lstat(p, &st) : stat(p, &st)) == 0;
		now.len = 0;
		facts_of(&st, there, &now);
		(*checked)++;
		if (now.len != (size_t)(hash - 1 - (line + 2)) ||
		    memcmp(now.data, line + 2, now.len))
			goto out;
		char got[33];
		if (hash[0] != '-' &&
		    (p - hash != 33 || content_hash(p, &st, got) ||
		     memcmp(got, hash, 32)))
			goto out;
	}
	fresh = 1;
out:
	if (!fresh)
		warnings->len = warned;
	buf_free(&now);
	free(text);
	return fresh;
}
