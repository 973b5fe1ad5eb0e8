/* path.c - paths (path.h): joined, taken apart, made canonical against the
 * project's root, and resolved by the one symlink rule. */
#define _GNU_SOURCE
#include "base/path.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/inputs.h"
#include "base/mem.h"


char *path_join(const char *a, const char *b)
{
	if (b[0] == '/' || !a[0])
		return xstrdup(b);
	size_t la = strlen(a);
	return xasprintf("%s%s%s", a, a[la - 1] == '/' ? "" : "/", b);
}

char *path_stem(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	return xstrndup(base, dot ? (size_t)(dot - base) : strlen(base));
}

const char *path_ext(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot ? dot : "";
}

/*
 * The components of path (modified in place) with "." and empty ones left
 * out and "dir/.." taken out, in *parts. A ".." above the start is kept
 * off the stack and counted in *above.
 */
static void path_parts(char *path, char ***parts, size_t *n, size_t *above)
{
	char *save = NULL;
	*parts = NULL;
	*n = *above = 0;
	for (char *w = strtok_r(path, "/", &save); w;
	     w = strtok_r(NULL, "/", &save)) {
		if (!strcmp(w, "."))
			continue;
		if (!strcmp(w, "..")) {
			if (*n)
				(*n)--;
			else
				(*above)++;
			continue;
		}
		*ARRAY_PUSH(*parts, *n) = w;
	}
}

char *path_canonical(const char *root, const char *path)
{
	if (!root || root[0] != '/' || !path || !*path)
		return NULL;
	char *rcopy = xstrdup(root), *copy = xstrdup(path), *out = NULL;
	char **rparts = NULL, **parts = NULL;
	size_t nr, n, rabove, above, skip = 0;
	path_parts(rcopy, &rparts, &nr, &rabove);
	path_parts(copy, &parts, &n, &above);
	if (path[0] == '/') {
		/* "/.." is "/": what climbs above the file system's root stays. */
		if (n < nr)
			goto out;
		for (; skip < nr; skip++)
			if (strcmp(parts[skip], rparts[skip]))
				goto out;
	} else if (above) {
		goto out;
	}
	struct buf b = BUF_INIT;
	for (size_t i = skip; i < n; i++)
		buf_printf(&b, "%s%s", i > skip ? "/" : "", parts[i]);
	out = b.len ? buf_detach(&b) : xstrdup(".");
	buf_free(&b);
out:
	free(rparts);
	free(parts);
	free(rcopy);
	free(copy);
	return out;
}

int path_resolve(const char *path, char **out, char **why)
{
	char root[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
	*out = NULL;
	*why = NULL;
	if (!getcwd(root, sizeof root)) {
		*why = xasprintf("cannot be looked at: %s", strerror(errno));
		return -1;
	}
	char *written = path_canonical(root, path), *name = NULL;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	/* The folder is resolved; the file keeps its own name, so a symlink
	 * pointed elsewhere later is seen under the name it was known by. */
	char *folder = slash ? xstrndup(path, (size_t)(slash - path + 1))
	                     : xstrdup(".");
	int whole = !*base || !strcmp(base, ".") || !strcmp(base, "..");
	if (!realpath(whole ? path : folder, dir) || !realpath(path, real)) {
		*why = !written ? xstrdup("is outside the project")
		       : errno == ENOENT || errno == ENOTDIR
		           ? xstrdup("is not found")
		           : xasprintf("cannot be looked at: %s", strerror(errno));
		goto out;
	}
	name = whole ? xstrdup(dir) : xasprintf("%s/%s", dir, base);
	char *in_real = path_canonical(root, real);
	*out = in_real ? path_canonical(root, name) : NULL;
	if (!*out)
		*why = written ? xasprintf("is outside the project (it resolves to "
		                           "%s)", real)
		               : xstrdup("is outside the project");
	free(in_real);
out:
	free(name);
	free(folder);
	free(written);
	return *out ? 0 : -1;
}

int path_check_inside(const char *path)
{
	char root[PATH_MAX];
	struct stat st;
	if (!getcwd(root, sizeof root))
		return 0;
	input_note(path);
	if (stat(path, &st) != 0)
		return 0;
	char *written = path_canonical(root, path), *out = NULL, *why = NULL;
	int rc = 0;
	if (written && path_resolve(path, &out, &why) != 0) {
		diag_at(path, 0, "%s; a file the book reads must be inside it", why);
		rc = -1;
	}
	free(written);
	free(out);
	free(why);
	return rc;
}

int path_remove(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *dir = opendir(path);
	int rc = dir ? 0 : -1;
	for (struct dirent *e; dir && (e = readdir(dir));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *sub = path_join(path, e->d_name);
		rc |= path_remove(sub);
		free(sub);
	}
	if (dir)
		closedir(dir);
	return rmdir(path) == 0 ? rc : -1;
}
