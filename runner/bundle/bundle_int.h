/*
 * bundle_int.h - what results.c (reading the bundle) and bundle_write.c
 * (writing it) share, private to the two.
 */
#ifndef LB_BUNDLE_INT_H
#define LB_BUNDLE_INT_H

#include "bundle/results.h"

/* The entry of id already read, or NULL. */
struct exp_result *bundle_index_get(const struct bundle *b, const char *id);
/* Free what r holds (its rows, output, meta and failure), keeping r. */
void bundle_result_clear(struct exp_result *r);

#endif
