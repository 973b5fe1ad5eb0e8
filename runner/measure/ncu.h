/*
 * ncu.h - hardware counters from Nsight Compute.
 *
 * An experiment asks for metrics with "ncu: branch_efficiency, ..." (the
 * nvprof-era names the seeds use, or Nsight Compute's own). labbook runs
 * the program once more under ncu, with LAB_PROFILE set so lab.h launches
 * each point once, and keeps one record per profiled launch: kernel, block,
 * grid, and each metric under the name it was asked by.
 */
#ifndef LB_NCU_H
#define LB_NCU_H

/* Nsight Compute's name for a metric: an nvprof-era alias is translated,
 * any other name is returned as it is. Borrowed string. */
const char *ncu_metric(const char *name);

/* The record field for a metric asked as name: "." becomes "_". Caller frees. */
char *ncu_field(const char *name);

/*
 * Parse ncu --csv output (other lines are skipped). asked is the
 * comma-separated list from the experiment. Returns JSON lines, or NULL
 * when no launch was profiled. Caller frees.
 */
char *ncu_parse(const char *text, const char *asked);

#endif
