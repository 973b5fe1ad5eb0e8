/*
 * excerpt.h - what a printed page shows of a listing. The site shows every
 * listing whole, in a fold; on paper a long one stays folded, and these
 * stand for it, in "print-only" boxes (print.css shows them, style.css
 * hides them on screen):
 *
 *   a kernel        after the block of prose that names it in code
 *                   (`reduce_unroll<8>`), the function whole, numbered as
 *                   in its file;
 *   a source file   a line saying where the whole file is;
 *   a SASS listing  the instructions its marks point at, with a little
 *                   context, a few dozen at most;
 *   an output       its first lines.
 *
 * Each says where the whole is: the listings volume (tools/pdf prints it
 * beside the book, from the same page, with the listings numbered alike;
 * its words are in an "in-volume" span that only that printing shows) and
 * the site.
 */
#ifndef LB_EXCERPT_H
#define LB_EXCERPT_H

#include <stddef.h>

#include "base/buf.h"
#include "render/render.h"

/* A function of a source file that runs on the device. */
struct excerpt_fn {
	int first, last;  /* its lines, from 1: from the comment and the
	                     declaration lines right above it to its brace */
	const char *name; /* in the source, namelen bytes */
	size_t namelen;
	int kernel;       /* declared __global__ (else __device__) */
};

/* A source a page's excerpts read: its text and its device functions. */
struct excerpt_src {
	char *path;
	char *src;        /* NULL when it cannot be read */
	size_t len;
	struct excerpt_fn *fns;
	size_t n;
};
/* Free the sources page c read (c->sources). */
void excerpt_sources_free(struct page_ctx *c);

/*
 * The functions of the C, C++ or CUDA source src (len bytes) declared
 * __global__ or __device__ (a variable so declared is not one), at file
 * or namespace scope, in order. Returns how many; *fns (caller frees;
 * names point into src) is NULL when there are none.
 */
size_t excerpt_device_fns(const char *src, size_t len,
                          struct excerpt_fn **fns);

/*
 * Does code name f? A name in code is f's name; or, f a kernel, the end
 * of its name after an underscore (`neighbored` for reduce_neighbored);
 * either with its trailing digits dropped (`unroll8` for reduce_unroll).
 */
int excerpt_names_fn(const char *name, const struct excerpt_fn *f);

/* After block k of chapter c->ch's prose (PIECE_NAMES k), print-only:
 * each device function of the chapter's experiments' sources that prints
 * there, the first block to name it in a section whose heading names it
 * too ("Step 5: wgmma fed by TMA"), else the first block to name it. */
void excerpt_names_html(struct page_ctx *c, size_t k, struct buf *out);

/* The print-only line after a long source file's fold: where the whole
 * file is (path, and src/PATH on the site). */
void excerpt_source_html(struct buf *out, const char *path);

/*
 * Which of a SASS listing's n instructions print: kind[i] is -1 for an
 * instruction not marked, else the same number for each marked instruction
 * of one opcode (with its modifiers). Sets keep[i] for the instructions
 * around the first marked one, the longest run of marked ones (a loop's
 * body) and the first of each other opcode marked: about cap in all, or
 * the first cap when none is marked. Returns how many are kept.
 */
size_t excerpt_sass_pick(const int *kind, size_t n, size_t cap,
                         unsigned char *keep);

/* About how many instructions of a SASS listing print. */
#define EXCERPT_SASS_CAP 24

/* The note under a SASS listing's excerpt: kept of its n instructions. */
void excerpt_sass_note(struct buf *out, size_t kept, size_t n);

/* An output of this many lines prints whole; a longer one only its first
 * EXCERPT_OUTPUT_HEAD lines. */
#define EXCERPT_OUTPUT_WHOLE 16
#define EXCERPT_OUTPUT_HEAD 10

/* The note under a program's output cut to its first `shown` of `lines`
 * lines (print-only). */
void excerpt_output_note(struct buf *out, int shown, int lines);

#endif
