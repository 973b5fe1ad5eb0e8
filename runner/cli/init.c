/* init.c - labbook init: a new book in a new or empty folder (init.h). */
#include "cli/init.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

static const char chapter_md[] =
	"# A first experiment\n"
	"\n"
	"How fast does this machine add up an array of doubles? The program below sums\n"
	"arrays from 1 KiB, which fits in any cache, to 64 MiB, which fits in few, and\n"
	"reports how many bytes per second it read. It is plain C, built with cc, so it\n"
	"needs no GPU; a `.cu` file next to it would be built with nvcc.\n"
	"\n"
	"```{experiment} sum\n"
	"source: kernels/sum/sum.c\n"
	"args: --max-bytes 67108864\n"
	"```\n"
	"\n"
	"```{chart} sum-bandwidth\n"
	"data: sum\n"
	"x: bytes\n"
	"y: gbps\n"
	"logx: 2\n"
	"x-unit: bytes\n"
	"y-unit: GB/s\n"
	"limit: max(sum.gbps) | fastest\n"
	"xlabel: array size\n"
	"ylabel: GB/s read\n"
	"caption: Read bandwidth of a plain sum against the size of the array; the "
	"fastest of many passes.\n"
	"```\n"
	"\n"
	"The fastest sum read {{ max(sum.gbps) %.1f }} GB/s, with an array of\n"
	"{{ argmax(sum.gbps, bytes) / 1024 %.0f }} KiB; the largest array, which fits in\n"
	"few caches, read at {{ sum.gbps[bytes=67108864] %.1f }} GB/s. Every sum came out\n"
	"exact {{check count(sum.bytes[correct=true]) == count(sum.bytes)}}: a claim\n"
	"that one wrong result would make fail.\n"
	"\n"
	"Every number on this page is computed from the results of the last build, and\n"
	"the mark after a claim says whether it held. Edit `kernels/sum/sum.c` or this\n"
	"chapter and run `make` again: only what changed runs again.\n";

static const char sum_c[] =
	"/* sum.c - read bandwidth of a plain sum over arrays of growing size. */\n"
	"#define _POSIX_C_SOURCE 200809L\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <time.h>\n"
	"\n"
	"/* Seen from outside, so the compiler cannot sum once for all passes. */\n"
	"double *volatile lab_keep;\n"
	"\n"
	"static double now(void)\n"
	"{\n"
	"\tstruct timespec t;\n"
	"\tclock_gettime(CLOCK_MONOTONIC, &t);\n"
	"\treturn (double)t.tv_sec + (double)t.tv_nsec * 1e-9;\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tsize_t max_bytes = (size_t)1 << 26;\n"
	"\tfor (int i = 1; i + 1 < argc; i++)\n"
	"\t\tif (!strcmp(argv[i], \"--max-bytes\"))\n"
	"\t\t\tmax_bytes = strtoull(argv[i + 1], NULL, 10);\n"
	"\n"
	"\t/* Records go to $LAB_RECORDS, one JSON object per line. */\n"
	"\tconst char *path = getenv(\"LAB_RECORDS\");\n"
	"\tFILE *rec = path ? fopen(path, \"a\") : stdout;\n"
	"\tdouble *a = malloc(max_bytes);\n"
	"\tif (!rec || !a) {\n"
	"\t\tperror(path ? path : \"malloc\");\n"
	"\t\treturn 1;\n"
	"\t}\n"
	"\tlab_keep = a;\n"
	"\tfor (size_t i = 0; i < max_bytes / sizeof *a; i++)\n"
	"\t\ta[i] = (double)(i % 1000);\n"
	"\n"
	"\tfor (size_t bytes = 1024; bytes <= max_bytes; bytes *= 4) {\n"
	"\t\tsize_t n = bytes / sizeof *a;\n"
	"\t\tdouble expect = 0;\n"
	"\t\tfor (size_t i = 0; i < n; i++)\n"
	"\t\t\texpect += (double)(i % 1000);\n"
	"\t\t/* Passes for at least 20 ms; the fastest one counts. */\n"
	"\t\tdouble best = 1e30, sum = 0, start = now();\n"
	"\t\tint passes = 0;\n"
	"\t\tdo {\n"
	"\t\t\tdouble *p = lab_keep, s = 0, t0 = now();\n"
	"\t\t\tfor (size_t i = 0; i < n; i++)\n"
	"\t\t\t\ts += p[i];\n"
	"\t\t\tdouble t = now() - t0;\n"
	"\t\t\tbest = t < best ? t : best;\n"
	"\t\t\tsum = s;\n"
	"\t\t\tpasses++;\n"
	"\t\t} while (now() - start < 0.02 || passes < 3);\n"
	"\t\tfprintf(rec, \"%s{\\\"bytes\\\":%zu,\\\"ms\\\":%.6f,\\\"gbps\\\":%.3f,\"\n"
	"\t\t        \"\\\"passes\\\":%d,\\\"correct\\\":%s}\\n\", path ? \"\" : \"record: \",\n"
	"\t\t        bytes, best * 1e3, (double)bytes / best / 1e9, passes,\n"
	"\t\t        sum == expect ? \"true\" : \"false\");\n"
	"\t\tprintf(\"%9zu bytes: %7.2f GB/s over %d passes\\n\", bytes,\n"
	"\t\t       (double)bytes / best / 1e9, passes);\n"
	"\t}\n"
	"\tfree(a);\n"
	"\treturn path ? fclose(rec) != 0 : 0;\n"
	"}\n";

static const char makefile[] =
	"# make: run the experiments that changed, then write the site into site/.\n"
	"LABBOOK = labbook\n"
	"TITLE   = A lab notebook\n"
	"# $(call quote,TEXT): TEXT as one shell word, quotes and spaces included.\n"
	"quote   = '$(subst ','\\'',$(1))'\n"
	"\n"
	"site:\n"
	"\t$(call quote,$(LABBOOK)) build --title $(call quote,$(TITLE))\n"
	"\t@echo \"open site/index.html\"\n"
	"\n"
	"clean:\n"
	"\trm -rf build site\n"
	"\n"
	".PHONY: site clean\n";

static const char gitignore[] = "/build/\n/site/\n/.labbook.lock\n";

/* The folder of the running labbook, or NULL. Caller frees. */
static char *exe_dir(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	if (n <= 0)
		return NULL;
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(path);
}

/* The first of an installed labbook's files that exists, or NULL. */
static char *installed_find(const char *installed, const char *in_tree)
{
	char *dir = exe_dir();
	if (!dir)
		return NULL;
	char *p = xasprintf("%s/../share/labbook/%s", dir, installed);
	if (!file_exists(p)) {
		free(p);
		p = xasprintf("%s/../%s", dir, in_tree);
		if (!file_exists(p)) {
			free(p);
			p = NULL;
		}
	}
	free(dir);
	return p;
}

char *init_templates_find(void)
{
	if (file_exists("templates/page.html"))
		return xstrdup("templates");
	char *page = installed_find("templates/page.html", "templates/page.html");
	if (!page)
		return xstrdup("templates");
	page[strlen(page) - strlen("/page.html")] = '\0';
	return page;
}

/* The files of a new book, under the book's folder. */
enum { INIT_CHAPTER, INIT_SOURCE, INIT_MAKEFILE, INIT_GITIGNORE, INIT_LABH,
       INIT_LABPY, INIT_FILES };
static const char *const init_names[INIT_FILES] = {
	"chapters/01-first.md", "kernels/sum/sum.c", "Makefile", ".gitignore",
	"kernels/lab.h", "kernels/lab.py",
};
/* The files copied from labbook's own, and the experiments they serve. */
static const char *const init_for[INIT_FILES] = {
	[INIT_LABH] = "CUDA", [INIT_LABPY] = "Python",
};

static int init_skip_dots(const struct dirent *d)
{
	return strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

/*
 * What dir holds, as "a, b and 3 more", into *held (caller frees; NULL
 * when dir is missing or empty). 0, or -1 when dir cannot be read
 * (reported).
 */
static int init_dir_held(const char *dir, char **held)
{
	struct dirent **names = NULL;
	*held = NULL;
	int n = scandir(dir, &names, init_skip_dots, alphasort);
	if (n < 0) {
		if (errno == ENOENT)
			return 0;
		diag("%s: %s", dir, strerror(errno));
		return -1;
	}
	struct buf b = BUF_INIT;
	for (int i = 0; i < n; i++) {
		if (i < 8)
			buf_printf(&b, "%s%s", i ? ", " : "", names[i]->d_name);
		free(names[i]);
	}
	if (n > 8)
		buf_printf(&b, " and %d more", n - 8);
	free(names);
	*held = n ? buf_detach(&b) : NULL;
	if (!n)
		buf_free(&b);
	return 0;
}

/*
 * May path be written? Sets *replaces when a file is there, which only
 * force may replace; anything but a regular file is never replaced.
 * 0, or -1 (reported).
 */
static int init_check(const char *path, int force, int *replaces)
{
	struct stat st;
	*replaces = 0;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		/* Said before any file is written: no half a book. */
		diag("%s cannot be written: %s", path, errno == ENOTDIR
		     ? "a folder above it is a file" : strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		diag("%s is there and is not a file; labbook init replaces only "
		     "files (with --force)", path);
		return -1;
	}
	if (!force) {
		diag("%s is there; labbook init replaces a file only with --force",
		     path);
		return -1;
	}
	*replaces = 1;
	return 0;
}

static int init_write(const char *path, const char *text, const char *src,
                      const char *what, int replaces)
{
	int rc = mkdir_parents(path);
	if (rc == 0)
		rc = src ? file_copy(src, path)
		         : file_write_atomic(path, text, strlen(text));
	if (rc == 0 && src)
		printf("  %s (for %s experiments%s)\n", path, what,
		       replaces ? "; replaced the file that was there" : "");
	else if (rc == 0)
		printf("  %s%s\n", path,
		       replaces ? " (replaced the file that was there)" : "");
	return rc;
}

int init_book(const char *dir, int force)
{
	static const char *const texts[INIT_FILES] = {
		chapter_md, sum_c, makefile, gitignore, NULL, NULL,
	};
	char *paths[INIT_FILES] = {NULL}, *copies[INIT_FILES] = {NULL};
	int replaces[INIT_FILES] = {0};
	char *held = NULL;
	int rc = -1;
	struct stat st;

	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		diag("%s is there and is not a folder; labbook init writes a new "
		     "book into a folder", dir);
		goto out;
	}
	if (init_dir_held(dir, &held) != 0)
		goto out;
	if (held && !force) {
		diag("%s is not empty: it holds %s; labbook init writes a new book "
		     "into a new or empty folder (with --force it writes beside "
		     "what is there, and names each file it replaces)", dir, held);
		goto out;
	}
	copies[INIT_LABH] = installed_find("lab.h", "kernels/lab.h");
	copies[INIT_LABPY] = installed_find("lab.py", "kernels/lab.py");
	/* Every file is checked before the first is written. */
	for (int i = 0; i < INIT_FILES; i++) {
		if (init_for[i] && !copies[i])
			continue;
		paths[i] = path_join(dir, init_names[i]);
		if (init_check(paths[i], force, &replaces[i]) != 0)
			goto out;
	}
	if (mkdir_p(dir) != 0)
		goto out;
	printf("labbook: writing a new book into %s\n", dir);
	for (int i = 0; i < INIT_FILES; i++)
		if (paths[i] && init_write(paths[i], texts[i], copies[i],
		                           init_for[i], replaces[i]) != 0)
			goto out;
	char *word[] = {(char *)dir, NULL};
	char *cd = argv_join(word);
	printf("Build it: cd %s && make (or labbook build), then open "
	       "site/index.html\n", cd);
	free(cd);
	rc = 0;
out:
	for (int i = 0; i < INIT_FILES; i++) {
		free(paths[i]);
		free(copies[i]);
	}
	free(held);
	return rc;
}
