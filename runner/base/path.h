/*
 * path.h - paths joined and taken apart, and the project's files known
 * by one canonical name each. Failures are reported with diag.h.
 */
#ifndef LB_PATH_H
#define LB_PATH_H

/*
 * Paths are made canonical where they enter the program (a directive's
 * source, the compiler's dependency file, -I folders, the files of the
 * chapters and templates folders), so the rest of it compares strings.
 *
 * path_canonical: path relative to root (an absolute folder), written the
 * one way, lexically: "." and empty components left out, "dir/.." taken
 * out, an absolute path under root made relative. With root "/p":
 * "kernels/a/../common/c.h" and "/p/kernels/common/c.h" are both
 * "kernels/common/c.h"; root itself is ".". Symlinks are not looked at.
 * NULL when path is empty or leaves root (a relative path that climbs
 * above it, an absolute one elsewhere). Caller frees.
 */
char *path_canonical(const char *root, const char *path);
/*
 * The one symlink rule. A file of the project is known by its canonical
 * path (path_canonical against the current folder, the project's root)
 * with its folder resolved, symlinks followed, and its own name kept: a
 * symlink kernels/a/c.h to ../common/c.h stays kernels/a/c.h, so what it
 * points to is looked at again on every build; kernels/a/../common/c.h
 * is kernels/common/c.h. 0 with *out set. -1 with *why set ("is not
 * found", "is outside the project", "is outside the project (it resolves
 * to /etc/hostname)") when it does not exist, or it or what it points to
 * is outside the project, however it was written. No report; the caller
 * frees *out and *why.
 */
int path_resolve(const char *path, char **out, char **why);
/*
 * The same rule for a file the book finds in one of its folders (a
 * chapter, a template): 0 when path is written outside the project (an
 * installed template), resolves inside it or does not exist (its reader
 * says so); -1, reported at path, when it is written inside the project
 * and resolves outside it.
 */
int path_check_inside(const char *path);
/* "a" + "/" + "b" (b used as is when absolute). Caller frees. */
char *path_join(const char *a, const char *b);
/* The last component without its extension ("kernels/ilp/ilp.cu" -> "ilp"). */
char *path_stem(const char *path);
const char *path_ext(const char *path);
/* Remove path, whatever it is: a file, a link (not what it points to), or
 * a folder with all it holds. Quiet; 0, or -1 where something stayed. */
int path_remove(const char *path);

#endif
