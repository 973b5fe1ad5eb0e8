/*
 * arena.h - the memory a chapter's cmark tree and its rendered HTML live in.
 *
 * Parsing a chapter makes many small objects that all die together, when
 * the chapter's plan has been copied out: a bump allocator serves them, and
 * arena_reset drops them all at once. Its chunks are kept for the next
 * chapter and are asked for as transparent huge pages (MADV_HUGEPAGE), so a
 * large chapter takes one page fault per 2 MiB instead of one per 4 KiB;
 * where the kernel gives no huge pages, they are ordinary pages.
 *
 * arena_mem() is a cmark_mem: its free does nothing, its realloc grows the
 * latest block in place. Nothing allocated there may outlive arena_reset.
 * Out of memory aborts, as xmalloc does.
 */
#ifndef LB_ARENA_H
#define LB_ARENA_H

#include <cmark-gfm.h>

cmark_mem *arena_mem(void);
/* Forget every block; the chunks stay mapped for the next use. */
void arena_reset(void);
/* Forget every block and unmap every chunk (a process that stays, as
 * labbook watch does, gives the memory back between builds). */
void arena_release(void);

#endif
