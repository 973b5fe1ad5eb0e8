/*
 * highlight.h - C and CUDA source to HTML at build time: escaped, one
 * span per line (numbered by the stylesheet), with comments, strings,
 * numbers, keywords and preprocessor lines marked by class.
 */
#ifndef LB_HIGHLIGHT_H
#define LB_HIGHLIGHT_H

#include <stddef.h>

#include "base/buf.h"

void highlight_c(struct buf *out, const char *src, size_t len);

/* Is lang (a fence's info word) one highlight_c reads: C, C++ or CUDA? */
int highlight_is_c(const char *lang);

#endif
