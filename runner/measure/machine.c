/* machine.c - machine.json: the GPU, its limits and the toolchain, as this
 * build found them (machine.h). */
#define _GNU_SOURCE
#include "measure/machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/exec.h"
#include "base/util.h"

char *machine_host_words(void)
{
	struct utsname u;
	if (uname(&u) != 0)
		return NULL;
	return xasprintf("%s %s %s", u.sysname, u.release, u.machine);
}

void machine_add_host(cJSON *m)
{
	char date[32];
	now_iso(date);
	cJSON_DeleteItemFromObject(m, "date");
	cJSON_AddStringToObject(m, "date", date);
	char *host = machine_host_words();
	if (host) {
		cJSON_DeleteItemFromObject(m, "host");
		cJSON_AddStringToObject(m, "host", host);
		free(host);
	}
	/* The processor, which a book without a GPU measures. */
	char *info = file_read("/proc/cpuinfo", NULL);
	const char *mn = info ? strstr(info, "model name") : NULL;
	if (mn && (mn = strchr(mn, ':'))) {
		char *line = str_first_line(mn + 1);
		cJSON_DeleteItemFromObject(m, "cpu");
		cJSON_AddStringToObject(m, "cpu", str_trim(line));
		free(line);
	}
	free(info);
	char *os = file_read("/etc/os-release", NULL);
	const char *pn = os ? strstr(os, "PRETTY_NAME=") : NULL;
	if (pn) {
		char *line = str_first_line(pn + 12);
		char *v = line;
		if (*v == '"') {
			v++;
			v[strcspn(v, "\"")] = '\0';
		}
		cJSON_DeleteItemFromObject(m, "os");
		cJSON_AddStringToObject(m, "os", v);
		free(line);
	}
	free(os);
	/* LABBOOK_COMMIT (and LABBOOK_DIRTY, 0 or 1) name the project's state
	 * where the tree's own .git is missing or not the one it came from,
	 * as on a cluster node or a machine that got a copy of the tree. */
	const char *env = getenv("LABBOOK_COMMIT");
	char *git[] = {"git", "rev-parse", "HEAD", NULL};
	char *commit = env && *env ? NULL : exec_capture(git, 10);
	cJSON_DeleteItemFromObject(m, "commit");
	cJSON_DeleteItemFromObject(m, "dirty");
	if (commit) {
		char *c = str_first_line(commit);
		cJSON_AddStringToObject(m, "commit", c);
		free(c);
		char *st[] = {"git", "status", "--porcelain", "--untracked-files=no",
		              "--", "kernels", "tools", "runner", NULL};
		char *status = exec_capture(st, 10);
		cJSON_AddBoolToObject(m, "dirty", status && *status);
		free(status);
	} else {
		cJSON_AddStringToObject(m, "commit", env && *env ? env : "unknown");
		const char *dirty = getenv("LABBOOK_DIRTY");
		if (dirty && (!strcmp(dirty, "0") || !strcmp(dirty, "1")))
			cJSON_AddBoolToObject(m, "dirty", *dirty == '1');
	}
	free(commit);
	/* The batch job that measured, so a cluster's bundles say where. */
	static const char *const batch[][2] = {
		{"SLURM_JOB_ID", "slurm_job_id"},
		{"SLURM_JOB_PARTITION", "slurm_partition"},
		{"SLURMD_NODENAME", "slurm_node"},
		{"SLURM_CLUSTER_NAME", "slurm_cluster"},
	};
	for (size_t i = 0; i < sizeof batch / sizeof batch[0]; i++) {
		const char *v = getenv(batch[i][0]);
		cJSON_DeleteItemFromObject(m, batch[i][1]);
		if (v && *v)
			cJSON_AddStringToObject(m, batch[i][1], v);
	}
}

int machine_write(struct bundle *b, const struct toolchain *tc, int workers)
{
	cJSON *m = tc->probe ? cJSON_Duplicate(tc->probe, 1) : cJSON_CreateObject();
	if (!tc->probe)
		cJSON_AddStringToObject(m, "gpu", "none");
	/* Several GPUs of the model above shared the experiments. */
	if (tc->probe && workers > 1) {
		cJSON_AddNumberToObject(m, "gpu_count", workers);
		cJSON *u = cJSON_AddArrayToObject(m, "gpu_uuids");
		for (int w = 0; w < workers && (size_t)w < tc->ndevs; w++)
			if (tc->devs[w].uuid)
				cJSON_AddItemToArray(u, cJSON_CreateString(tc->devs[w].uuid));
	}
	/* Facts measured by experiments stay until they are measured again. */
	const cJSON *old = b->machine ? cJSON_GetObjectItem(b->machine, "measured")
	                              : NULL;
	if (cJSON_IsObject(old))
		cJSON_AddItemToObject(m, "measured", cJSON_Duplicate(old, 1));
	if (tc->nvcc_version) {
		cJSON_AddStringToObject(m, "nvcc", tc->nvcc_version);
		cJSON_AddStringToObject(m, "nvcc_flags", "-O3 -std=c++17 -lineinfo");
	}
	if (tc->cc_version)
		cJSON_AddStringToObject(m, "c_compiler", tc->cc_version);
	if (tc->ncu_version)
		cJSON_AddStringToObject(m, "ncu", tc->ncu_version);
	machine_add_host(m);
	return bundle_set_machine(b, m);
}

static const char *str_field(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* Does b's machine.json name tc's GPU: by UUID (one of gpu_uuids too),
 * by name where either lacks one? */
static int gpu_named(const struct bundle *b, const struct toolchain *tc)
{
	const char *uuid = str_field(tc->probe, "uuid");
	const char *had = str_field(b->machine, "uuid");
	const char *gpu = str_field(b->machine, "gpu");
	if (uuid && had) {
		if (!strcmp(uuid, had))
			return 1;
		const cJSON *u;
		cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(b->machine,
		                                                       "gpu_uuids"))
			if (cJSON_IsString(u) && !strcmp(u->valuestring, uuid))
				return 1;
		return 0;
	}
	const char *name = str_field(tc->probe, "gpu");
	return name && gpu && !strcmp(name, gpu);
}

int machine_is_here(const struct bundle *b, const struct toolchain *tc)
{
	if (!b->machine)
		return 0;
	const char *host = str_field(b->machine, "host");
	const char *gpu = str_field(b->machine, "gpu");
	char *mine = machine_host_words();
	int here = host && mine && !strcmp(host, mine);
	free(mine);
	if (here && tc->probe)
		here = gpu_named(b, tc);
	else if (here)
		here = gpu && !strcmp(gpu, "none");
	return here;
}

int machine_check(const struct bundle *b, const struct toolchain *tc)
{
	if (!b->machine || !tc->probe)
		return 0;
	const char *uuid = str_field(tc->probe, "uuid");
	const char *had = str_field(b->machine, "uuid");
	const char *gpu = str_field(b->machine, "gpu");
	if (gpu && !strcmp(gpu, "none"))
		return 0; /* only CPU experiments were measured here before */
	if (gpu_named(b, tc))
		return 0;
	char *path = bundle_machine_path(b);
	diag_at(path, 0, "these results were measured on another GPU (%s%s%s), "
	        "and this machine has %s (%s); numbers measured here would be "
	        "credited to that one. Start a bundle of this machine's own: "
	        "labbook build --results %s-%s",
	        gpu ? gpu : "unknown", had ? ", " : "", had ? had : "",
	        str_field(tc->probe, "gpu") ? str_field(tc->probe, "gpu") : "a GPU",
	        uuid ? uuid : "no UUID", b->dir, "local");
	free(path);
	return -1;
}

