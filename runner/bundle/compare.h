/*
 * compare.h - two bundles, point by point: the relative difference of the
 * median times of matching records (same experiment, same position, same
 * parameters).
 */
#ifndef LB_COMPARE_H
#define LB_COMPARE_H

#include "bundle/results.h"

struct compare_opts {
	double max_diff; /* percent; points above it fail the comparison */
	double min_ms;   /* points faster than this are shown but not judged */
	int all;         /* print every point, not only the notable ones */
};

/*
 * Print the comparison; returns the number of judged points above
 * max_diff, or -1 (reported) when either bundle is missing, has no
 * records, has a malformed records file or machine.json, or a record
 * whose median time is not a positive finite number (named by file and
 * line), or when no point was compared at all (the report says why).
 */
int compare_bundles(struct bundle *a, struct bundle *b,
                    const struct compare_opts *o);

#endif
