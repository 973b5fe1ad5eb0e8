#include "base/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define FIRST_CHUNK ((size_t)8 << 20)
#define ALIGN 16

/*
 * A chunk is one mapping, HUGE_PAGE aligned, with this header at its start.
 * Bytes below dirty have been used since the mapping was made, so calloc
 * must clear them; the rest is still the kernel's zeroes.
 */
struct chunk {
	struct chunk *next;
	size_t size; /* of the whole mapping */
	size_t used; /* offset of the first free byte */
	size_t dirty;
};

/* Each block starts with its size, so realloc knows how much to copy. */
struct block {
	size_t size;
	size_t pad;
};

#define HEAD_SIZE (((sizeof(struct chunk) + ALIGN - 1) / ALIGN) * ALIGN)

static struct chunk *first, *cur;
static char *last; /* the latest block's data, which realloc grows in place */

static _Noreturn void arena_oom(size_t n)
{
	fprintf(stderr, "labbook: out of memory (%zu bytes for a chapter's "
	                "tree)\n", n);
	abort();
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

static struct chunk *chunk_map(size_t size)
{
	/* Map a huge page more, then trim both ends to a HUGE_PAGE boundary. */
	char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		arena_oom(size);
	char *start = (char *)round_up((uintptr_t)p, HUGE_PAGE);
	if (start > p)
		munmap(p, (size_t)(start - p));
	if (start + size < p + size + HUGE_PAGE)
		munmap(start + size, (size_t)(p + size + HUGE_PAGE - (start + size)));
#ifdef MADV_HUGEPAGE
	madvise(start, size, MADV_HUGEPAGE);
#endif
	struct chunk *c = (struct chunk *)start;
	c->next = NULL;
	c->size = size;
	c->used = HEAD_SIZE;
	c->dirty = HEAD_SIZE;
	return c;
}

/* A chunk with room for need bytes: the current one, a kept one, or new. */
static struct chunk *chunk_for(size_t need)
{
	if (cur && cur->size - cur->used >= need)
		return cur;
	struct chunk *prev = cur;
	for (struct chunk *c = cur ? cur->next : NULL; c; prev = c, c = c->next)
		if (c->size - c->used >= need) {
			cur = c;
			return c;
		}
	size_t size = cur ? cur->size * 2 : FIRST_CHUNK;
	if (size < need + HEAD_SIZE)
		size = round_up(need + HEAD_SIZE, HUGE_PAGE);
	struct chunk *c = chunk_map(size);
	if (prev)
		prev->next = c;
	else
		first = c;
	cur = c;
	return c;
}

static void *block_new(size_t size, int zero)
{
	if (size > SIZE_MAX / 2)
		arena_oom(size);
	size = round_up(size ? size : 1, ALIGN);
	struct chunk *c = chunk_for(size + sizeof(struct block));
	struct block *b = (struct block *)((char *)c + c->used);
	b->size = size;
	char *data = (char *)(b + 1);
	size_t off = c->used + sizeof(struct block);
	c->used = off + size;
	if (zero && off < c->dirty)
		memset(data, 0, (c->dirty < c->used ? c->dirty : c->used) - off);
	last = data;
	return data;
}

static void *arena_calloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / 2 / size)
		arena_oom(SIZE_MAX);
	return block_new(n * size, 1);
}

static void *arena_realloc(void *p, size_t size)
{
	if (!p)
		return block_new(size, 0);
	struct block *b = (struct block *)p - 1;
	if (size <= b->size)
		return p;
	size_t grown = round_up(size, ALIGN);
	if (p == last && cur->size - cur->used >= grown - b->size) {
		cur->used += grown - b->size;
		b->size = grown;
		return p;
	}
	void *q = block_new(size, 0);
	memcpy(q, p, b->size);
	return q;
}

static void arena_free(void *p)
{
	(void)p;
}

cmark_mem *arena_mem(void)
{
	static cmark_mem mem = {arena_calloc, arena_realloc, arena_free};
	return &mem;
}

void arena_release(void)
{
	while (first) {
		struct chunk *next = first->next;
		munmap(first, first->size);
		first = next;
	}
	cur = NULL;
	last = NULL;
}

void arena_reset(void)
{
	for (struct chunk *c = first; c; c = c->next) {
		if (c->used > c->dirty)
			c->dirty = c->used;
		c->used = HEAD_SIZE;
	}
	cur = first;
	last = NULL;
}
