/*
 * mem.h - allocation. Out of memory aborts with a message, so callers need
 * no error path for it (cmark's allocator does the same). Every other
 * runner file reaches these through util.h.
 */
#ifndef LB_MEM_H
#define LB_MEM_H

#include <stddef.h>

/* Say "out of memory" and abort. */
void mem_exhausted(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grow an array *items of *n elements by one slot; returns the new slot.
 * The capacity is implied: n rounded up to a power of two, so the array
 * grows geometrically. An array given to ARRAY_PUSH must have been built by
 * ARRAY_PUSH from NULL and 0 (n may be lowered in between).
 */
#define ARRAY_PUSH(items, n) \
	((items) = array_grow((items), (n), sizeof *(items)), &(items)[(n)++])
void *array_grow(void *items, size_t n, size_t size);

#endif
