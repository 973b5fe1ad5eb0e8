/* mem.c - allocation that aborts when memory runs out (mem.h). */
#define _GNU_SOURCE
#include "base/mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void mem_exhausted(void)
{
	fputs("labbook: out of memory\n", stderr);
	abort();
}

/*
 * A large block (a page, a chapter's pieces, the search index) is asked for
 * as transparent huge pages, as the chapter arena is (arena.h): one fault
 * per 2 MiB of it instead of one per 4 KiB. Only whole, aligned huge pages
 * inside the block are advised; the advice changes no contents.
 */
static void *huge_hint(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (n >= 2 * huge) {
		uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
		uintptr_t end = ((uintptr_t)p + n) & ~(huge - 1);
		if (end > start)
			madvise((void *)start, end - start, MADV_HUGEPAGE);
	}
#endif
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		mem_exhausted();
	return huge_hint(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		mem_exhausted();
	return huge_hint(p, n * size);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		mem_exhausted();
	return huge_hint(p, n);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		mem_exhausted();
	char *s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, again);
	va_end(again);
	return s;
}

void *array_grow(void *items, size_t n, size_t size)
{
	/* Full exactly when n is 0 or a power of two. */
	if (n && (n & (n - 1)))
		return items;
	size_t cap = n ? 2 * n : 1;
	if (cap > SIZE_MAX / size)
		mem_exhausted();
	return xrealloc(items, cap * size);
}
