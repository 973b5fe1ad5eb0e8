/*
 * format.h - a value of an expression (expr.h) as the book prints it. Returns
 * 0 on success and -1 on failure with *err set to a message the caller
 * frees.
 */
#ifndef LB_FORMAT_H
#define LB_FORMAT_H

#include "base/buf.h"
#include "book/expr_value.h"

/*
 * Append v formatted with fmt (one printf conversion such as "%.1f"; NULL
 * picks one by magnitude) to out, HTML-escaped when html is set. v is first
 * reduced to one value (value_scalar).
 */
int value_format(struct value *v, const char *fmt, int html, struct buf *out,
                 char **err);

/* Is fmt one printf conversion for a number, with literal text around:
 * 1 or 0. */
int format_valid(const char *fmt);

#endif
