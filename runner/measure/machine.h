/*
 * machine.h - the facts of the machine a bundle was measured on, kept in
 * its machine.json: the GPU's facts from tools/probe.cu (name, UUID,
 * compute capability, SMs, clocks, memory, driver, derived limits), the
 * GPUs shared out when several ran at once (gpu_count, gpu_uuids), the
 * toolchain (nvcc and its flags, the C compiler, ncu), the host (OS,
 * kernel), the date, the project's commit and whether it was dirty, and
 * the Slurm job that measured (slurm_job_id, slurm_partition, slurm_node,
 * slurm_cluster) when there was one.
 * Facts that experiments measured ("measured") stay until measured again.
 */
#ifndef LB_MACHINE_H
#define LB_MACHINE_H

#include <cjson/cJSON.h>

#include "bundle/results.h"
#include "measure/toolchain.h"

/* This host in machine.json's words: "Linux 6.8.0 x86_64", or NULL.
 * Caller frees. */
char *machine_host_words(void);

/* Set the facts of m that need no GPU (host, OS, date, commit, Slurm
 * job). Runs git unless LABBOOK_COMMIT names the commit. */
void machine_add_host(cJSON *m);

/* Write b's machine.json for a build on tc with workers GPUs. 0 or -1. */
int machine_write(struct bundle *b, const struct toolchain *tc, int workers);

/*
 * May GPU results measured on tc go into b? Yes when b has no
 * machine.json yet, or it names this GPU (by UUID; by name and driver
 * where it has no UUID). Otherwise -1, reported with the command that
 * starts a new bundle.
 */
int machine_check(const struct bundle *b, const struct toolchain *tc);

/*
 * Is b's machine.json this machine's, as a build on tc would write it: the
 * same host (machine_add_host's words) and GPU (by UUID, else by name;
 * "none" where tc found no GPU)? 1 or 0.
 */
int machine_is_here(const struct bundle *b, const struct toolchain *tc);

#endif
