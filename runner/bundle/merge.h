/*
 * merge.h - the records of several runs of one experiment, made one set.
 *
 * An experiment runs in several separate processes, taken in rounds with
 * the other experiments' runs (build.c), so that a disturbance lasting a
 * moment or a minute (a neighbour on the host, a clock transition) or a
 * state fixed for the life of one process moves at most one run's
 * numbers. The runs' records are matched by position. For a
 * timed record (one with median_ms):
 *   - the record of the run whose median is the median of the runs' is
 *     kept whole, so rates the program computed from it stay consistent;
 *   - min_ms and max_ms become the extremes over every run, and each rate
 *     F that has F_lo and F_hi is bounded again by them;
 *   - reps becomes the total; runs, run_min_ms, run_max_ms (the smallest
 *     and largest run median) and run_spread ((run_max_ms - run_min_ms) /
 *     median_ms) are added.
 * Any record: correct is false when any run found it false, throttled true
 * when any run was. A fact ({"fact": name, "value": v}) keeps the median of
 * its runs' values. Any other record (captured without a time unit, or
 * written without median_ms) is the first run's, except that each number
 * that differs between the runs is a measurement (a swept or constant
 * parameter is the same in every run): it becomes the median of the runs'
 * values (the lower of the middle two for an even count), F_lo and F_hi
 * the smallest and largest value of any run (or the widest of the runs'
 * own F_lo and F_hi), and runs their count.
 */
#ifndef LB_MERGE_H
#define LB_MERGE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/*
 * Merge runs[0..nruns) (each an array of nrows[i] records; not changed)
 * into a new records text, one JSON object per line (caller frees). When
 * the runs wrote different records (a count or a timed record's parameters
 * differ), returns NULL with *why saying where (caller frees).
 */
char *records_merge(cJSON **const *runs, const size_t *nrows, size_t nruns,
                    char **why);

#endif
