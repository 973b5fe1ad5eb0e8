/*
 * root.h - the book a command works in: the folder it changes into
 * before it reads anything, so every path of the book is relative to it.
 */
#ifndef LB_ROOT_H
#define LB_ROOT_H

/*
 * Change into the book's root: dir (-C DIR) when given, else stay in this
 * folder when it has the chapters folder (or chapters_given: --chapters
 * named one), else go to the nearest folder above it that has one, and say
 * so on stderr. 0, or -1 (reported).
 */
int root_enter(const char *dir, const char *chapters, int chapters_given);

#endif
