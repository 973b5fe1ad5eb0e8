/*
 * compare.h - two bundles, point by point: the relative difference of the
 * median times of matching records (same experiment, same position, same
 * parameters), judged against the noise of each point.
 *
 * The noise of a point is the largest of, in either bundle, its
 * repetitions' interquartile range and its runs' spread (run_spread),
 * each relative to its median, and, where a repeat of bundle A is given,
 * the difference between A and that repeat. A point differs when its
 * difference is beyond its band, max(COMPARE_NOISE_TIMES x noise,
 * min_diff); a point whose noise is above max_noise is not judged.
 */
#ifndef LB_COMPARE_H
#define LB_COMPARE_H

#include <cjson/cJSON.h>

#include "base/compared.h"
#include "bundle/results.h"

/*
 * The noise of a timed record, relative to its median: the larger of its
 * interquartile range (q1_ms, q3_ms; else its "spread") and its runs'
 * spread (run_spread; else run_max_ms - run_min_ms). 0 when the record
 * holds neither, or has no positive median.
 */
double compare_record_noise(const cJSON *row);

/* The least noise a point is judged to have (a third of compare's
 * default --min-diff 1%): a difference under 1% is never told. */
#define COMPARE_MIN_NOISE (1.0 / 100 / COMPARE_NOISE_TIMES)

/*
 * The noise of record k of experiment id in b, as compare_point_judge
 * takes it for either side: compare_record_noise, or the difference from
 * the same record of repeat (NULL: none) when that is larger.
 */
double compare_point_noise(struct bundle *b, struct bundle *repeat,
                           const char *id, size_t k);

/*
 * The verdict on a point whose median went from a_ms to b_ms (both
 * positive) with relative noise (already the largest of both bundles'
 * and the repeat's), under o's min_diff and max_noise. *band gets the
 * relative difference it was judged against.
 */
enum compare_verdict compare_judge(double a_ms, double b_ms, double noise,
                                   const struct compare_opts *o, double *band);

/*
 * Record k of experiment id in b judged against record k in a, as
 * labbook compare judges it under o (o->repeat included). *p gets the
 * verdict when COMPARE_JUDGED, and the times and diff for COMPARE_SHORT,
 * COMPARE_HOST and COMPARE_THROTTLED too. Median times are taken as they are: compare_bundles
 * checks first that each is a positive number.
 */
enum compare_pair compare_point_judge(struct bundle *a, struct bundle *b,
                                      const char *id, size_t k,
                                      const struct compare_opts *o,
                                      struct compare_point *p);

/* Are the records of experiment id in a and b from one version of its
 * source (no meta.json records another source_key in each)? */
int compare_same_source(struct bundle *a, struct bundle *b, const char *id);

/*
 * The repeat of bundle a_dir to judge with: named (when not NULL; an
 * error, reported, when it is not a bundle), else the folder a_dir
 * followed by "-repeat" when it holds a machine.json and is not b_dir.
 * 0 with *out the bundle or NULL (caller frees), or -1.
 */
int compare_repeat_open(const char *a_dir, const char *b_dir,
                        const char *named, struct bundle **out);

/*
 * Print the comparison. Returns the number of points judged slower
 * beyond noise (with max_diff, the judged points above it), 0 when
 * none, or -1 (reported) when either bundle is missing, has no records,
 * has a malformed records file or machine.json, or a record whose median
 * time is not a positive finite number (named by file and line), or
 * when no point was compared at all (the report says why), or the JSON
 * could not be written.
 */
int compare_bundles(struct bundle *a, struct bundle *b,
                    const struct compare_opts *o);

#endif
