/*
 * slices.h - a book-wide file made of one slice per chapter.
 *
 * book.html and search-index.js hold every chapter, each in one unbroken
 * run of bytes (its slice), between text of the file's own. A build that
 * makes some chapters again takes the slices of the others from the file
 * the last build wrote, by their byte ranges, copied in the kernel
 * (copy_file_range): no copy of the book is kept beside it, and none is
 * read into memory.
 *
 * The ranges are trusted only while the file is the one written: its
 * record (the manifest keeps it) holds its size, modification time and
 * inode as written, and the range of each chapter's slice. A file changed
 * or replaced since gives no slices, and every chapter is made again.
 */
#ifndef LB_SLICES_H
#define LB_SLICES_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct slices;

/*
 * The file at path, as the last build's record (borrowed; NULL: none)
 * describes it. Never NULL.
 */
struct slices *slices_open(const char *path, const cJSON *record);
/* NULL-safe. */
void slices_free(struct slices *sl);

/* Is the file there as its record describes it? */
int slices_intact(const struct slices *sl);
/* Can the last file give page's slice? */
int slices_has(struct slices *sl, const char *page);
/* The length of that slice (0 when there is none). */
size_t slices_len(struct slices *sl, const char *page);

/*
 * While the new file is written to fd, in order: page's slice, either
 * data (len bytes) or, when data is NULL, the last file's slice of page.
 * Its range is noted for the new record. 0, or -1 with errno set.
 */
int slices_put(struct slices *sl, int fd, const char *page, const char *data,
               size_t len);

/*
 * The record of the file now at path, written with the slices put since
 * slices_open, for the manifest (the caller owns it); NULL when it cannot
 * be described.
 */
cJSON *slices_record(const struct slices *sl);

#endif
