/* toolchain.c - the tools a build uses and the GPUs it measures on
 * (toolchain.h). */
#define _GNU_SOURCE
#include "measure/toolchain.h"
#include "measure/run.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "book/book.h"
#include "base/ccfacts.h"
#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

static char *nvcc_find(void)
{
	const char *env = getenv("NVCC");
	if (env && *env)
		return access(env, X_OK) == 0 ? xstrdup(env) : NULL;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : ""), *save = NULL, *found = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = path_join(d, "nvcc");
		if (access(p, X_OK) == 0)
			found = p;
		else
			free(p);
	}
	free(copy);
	if (found)
		return found;
	const char *home = getenv("CUDA_HOME");
	char *p = home ? path_join(home, "bin/nvcc") : NULL;
	if (p && access(p, X_OK) == 0)
		return p;
	free(p);
	if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0)
		return xstrdup("/usr/local/cuda/bin/nvcc");
	return NULL;
}

static char *version_of(const char *tool, const char *marker)
{
	char *argv[] = {(char *)tool, "--version", NULL};
	char *out = exec_capture(argv, 30);
	if (!out)
		return xstrdup("unknown");
	const char *line = marker ? strstr(out, marker) : NULL;
	if (line)
		while (line > out && line[-1] != '\n')
			line--;
	char *v = str_first_line(line ? line : out);
	free(out);
	return v;
}

static void free_list(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

/*
 * The GPUs a build may use, each as a CUDA_VISIBLE_DEVICES entry and, where
 * nvidia-smi names it, with its UUID: the entries of an inherited
 * CUDA_VISIBLE_DEVICES (a batch system's choice) where it is set, else
 * every GPU nvidia-smi lists. Only GPUs of the first one's model are kept,
 * so that the workers of one build measure the same card. nvidia-smi is
 * asked only when ask is set (the book has CUDA experiments) and
 * LABBOOK_GPU is not 0; the inherited entries count regardless.
 */
static void gpus_find(struct toolchain *tc, int ask)
{
	const char *env = getenv("LABBOOK_GPU");
	int hidden = !ask || (env && !strcmp(env, "0"));
	char *smi[] = {"nvidia-smi", "--query-gpu=index,uuid,name",
	               "--format=csv,noheader", NULL};
	char *out = hidden ? NULL : exec_capture(smi, 30);
	char **rows = NULL; /* index, uuid, name: three per GPU */
	size_t nrows = 0;
	char *save = NULL;
	for (char *l = out ? strtok_r(out, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[3] = {l, NULL, NULL};
		for (int k = 1; k < 3 && f[k - 1]; k++) {
			f[k] = strchr(f[k - 1], ',');
			if (f[k])
				*f[k]++ = '\0';
		}
		if (!f[2])
			continue;
		for (int k = 0; k < 3; k++)
			*ARRAY_PUSH(rows, nrows) = xstrdup(str_trim(f[k]));
	}
	free(out);

	/* The entries to consider: the inherited ones, else every GPU's UUID. */
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	char **want = NULL;
	size_t nwant = 0;
	if (vis) {
		char *list = xstrdup(vis);
		for (char *d = strtok_r(list, ",", &save); d;
		     d = strtok_r(NULL, ",", &save)) {
			d = str_trim(d);
			if (!*d || !strcmp(d, "-1"))
				break; /* CUDA stops at an entry it cannot read */
			*ARRAY_PUSH(want, nwant) = xstrdup(d);
		}
		free(list);
	} else {
		for (size_t r = 0; r < nrows; r += 3)
			*ARRAY_PUSH(want, nwant) = xstrdup(rows[r + 1]);
	}
	const char *first_model = NULL;
	for (size_t k = 0; k < nwant; k++) {
		const char *dev = want[k], *uuid = NULL, *model = NULL;
		int index = dev[strspn(dev, "0123456789")] == '\0';
		for (size_t r = 0; r < nrows && !uuid; r += 3)
			if (index ? !strcmp(rows[r], dev)
			          : !strncmp(rows[r + 1], dev, strlen(dev))) {
				uuid = rows[r + 1];
				model = rows[r + 2];
			}
		if (model && !first_model)
			first_model = model;
		if (model && strcmp(model, first_model))
			continue;
		*ARRAY_PUSH(tc->devs, tc->ndevs) =
		    (struct visible_gpu){xstrdup(dev), uuid ? xstrdup(uuid) : NULL,
		                         model ? xstrdup(model) : NULL};
	}
	free_list(want, nwant);
	free_list(rows, nrows);
	tc->ngpus = hidden || !nrows ? 0 : (int)tc->ndevs;
}

/* tools/probe.cu, as labbook was built with it. */
static const char probe_cu[] =
#include "gen/probe_cu.h"
	;

/* The FP32 lanes per SM and the FP32 peaks come from the facts table, as
 * every other figure that follows from the compute capability; a card the
 * table does not know gets none. */
static void probe_add_fp32(cJSON *m)
{
	const cJSON *c = cJSON_GetObjectItem(m, "cc");
	const cJSON *sms = cJSON_GetObjectItem(m, "sm_count");
	const cJSON *mhz = cJSON_GetObjectItem(m, "sm_clock_mhz");
	int cc, need;
	double lanes;
	if (!cJSON_IsString(c) || !cJSON_IsNumber(sms) || !cJSON_IsNumber(mhz) ||
	    cc_parse(c->valuestring, &cc) != 0 ||
	    cc_fact(cc, "fp32_lanes_per_sm", &lanes, &need) != 0)
		return;
	double sm = lanes * 2 * mhz->valuedouble / 1e3;
	cJSON_AddNumberToObject(m, "fp32_lanes_per_sm", lanes);
	cJSON_AddNumberToObject(m, "peak_fp32_gflops_sm", sm);
	cJSON_AddNumberToObject(m, "peak_fp32_gflops", sm * sms->valuedouble);
}

static cJSON *probe_gpu(const char *nvcc)
{
	/* The probe's source is written into the book's build folder, so a
	 * book anywhere can measure, and compiled when it changed. */
	const char *src = "build/probe.cu", *bin = "build/probe";
	int written = 0;
	if (mkdir_p("build") != 0 ||
	    file_write_if_changed(src, probe_cu, sizeof probe_cu - 1, &written))
		return NULL;
	if (written || file_mtime(bin) < file_mtime(src)) {
		char *argv[] = {(char *)nvcc, "-O2", "-o", (char *)bin, (char *)src,
		                NULL};
		struct run_result r;
		if (mkdir_p("build") != 0 || exec_run(argv, NULL, 300, 1 << 20, &r) != 0)
			return NULL;
		if (r.exit_code != 0) {
			diag("cannot build %s:\n%s", src, r.out);
			free(r.out);
			return NULL;
		}
		free(r.out);
	}
	char *argv[] = {(char *)bin, NULL};
	char *out = exec_capture(argv, 60);
	cJSON *m = out ? cJSON_Parse(out) : NULL;
	free(out);
	if (!m) {
		const char *vis = getenv("CUDA_VISIBLE_DEVICES");
		if (vis)
			diag("%s could not read the GPU's properties; check that "
			     "CUDA_VISIBLE_DEVICES=%s names a GPU (nvidia-smi -L lists "
			     "them)", bin, vis);
		else
			diag("%s could not read the GPU's properties", bin);
		return NULL;
	}
	probe_add_fp32(m);
	char *smi[] = {"nvidia-smi", "--query-gpu=driver_version",
	               "--format=csv,noheader", "-i", "0", NULL};
	char *drv = exec_capture(smi, 30);
	if (drv) {
		char *line = str_first_line(drv);
		cJSON_AddStringToObject(m, "driver", str_trim(line));
		free(line);
		free(drv);
	}
	return m;
}

void toolchain_init(struct toolchain *tc, const struct book *bk,
                    const struct run_opts *o)
{
	memset(tc, 0, sizeof *tc);
	int any_cuda = 0, any_c = 0;
	for (size_t i = 0; i < bk->nexps; i++) {
		any_cuda |= bk->exps[i].cuda;
		any_c |= !bk->exps[i].cuda;
	}
	const char *cc = getenv("CC");
	tc->cc = xstrdup(cc && *cc ? cc : "cc");
	const char *env = getenv("NVCC_ARCH");
	tc->arch = xstrdup(env && *env ? env : "sm_90");
	/* Rendering from the bundle needs no tool and no GPU. */
	if (!o->run && !o->compile_only)
		return;
	if (any_c)
		tc->cc_version = version_of(tc->cc, NULL);
	if (!o->compile_only)
		gpus_find(tc, any_cuda);
	if (!any_cuda)
		return;
	tc->nvcc = nvcc_find();
	if (tc->nvcc) {
		tc->nvcc_version = version_of(tc->nvcc, "release");
		const char *slash = strrchr(tc->nvcc, '/');
		char *dir = slash ? xstrndup(tc->nvcc, (size_t)(slash - tc->nvcc))
		                  : xstrdup(".");
		char *cu = path_join(dir, "cuobjdump");
		if (access(cu, X_OK) == 0)
			tc->cuobjdump = cu;
		else
			free(cu);
		char *ncu = path_join(dir, "ncu");
		if (access(ncu, X_OK) == 0)
			tc->ncu = ncu;
		else
			free(ncu);
		free(dir);
		if (tc->ncu)
			tc->ncu_version = version_of(tc->ncu, "Version");
	}
	tc->gpu = tc->ngpus > 0;
	if (tc->gpu && tc->nvcc)
		tc->probe = probe_gpu(tc->nvcc);
	if (tc->gpu && !tc->probe)
		tc->gpu = 0;
	const cJSON *arch = tc->probe ? cJSON_GetObjectItem(tc->probe, "arch") : NULL;
	if (cJSON_IsString(arch)) {
		free(tc->arch);
		tc->arch = xstrdup(arch->valuestring);
	}
	if (tc->probe) {
		const char *keys[] = {"gpu", "uuid", "driver"};
		struct buf b = BUF_INIT;
		for (size_t i = 0; i < 3; i++) {
			const cJSON *v = cJSON_GetObjectItem(tc->probe, keys[i]);
			buf_printf(&b, "%s;", cJSON_IsString(v) ? v->valuestring : "");
		}
		tc->gpu_id = buf_detach(&b);
	}
}

void toolchain_use(struct toolchain *tc, int n)
{
	struct buf vis = BUF_INIT, id = BUF_INIT;
	if (n <= 0)
		n = (int)tc->ndevs;
	for (int k = 0; k < n; k++) {
		const struct visible_gpu *g = (size_t)k < tc->ndevs ? &tc->devs[k]
		                                                    : NULL;
		char index[16];
		snprintf(index, sizeof index, "%d", k);
		const char *dev = g ? g->dev : index;
		buf_printf(&vis, "%s%s", k ? "," : "", dev);
		buf_printf(&id, "%s;%s;%s|", dev, g && g->uuid ? g->uuid : "",
		           g && g->name ? g->name : "");
	}
	free(tc->all_visible);
	free(tc->all_id);
	tc->nused = n;
	tc->all_visible = n ? buf_detach(&vis) : NULL;
	tc->all_id = n ? buf_detach(&id) : NULL;
	buf_free(&vis);
	buf_free(&id);
}

void toolchain_free(struct toolchain *tc)
{
	if (!tc)
		return;
	free(tc->nvcc);
	free(tc->nvcc_version);
	free(tc->cc);
	free(tc->cc_version);
	free(tc->arch);
	free(tc->gpu_id);
	free(tc->cuobjdump);
	free(tc->ncu);
	free(tc->ncu_version);
	cJSON_Delete(tc->probe);
	free(tc->all_visible);
	free(tc->all_id);
	for (size_t i = 0; i < tc->ndevs; i++) {
		free(tc->devs[i].dev);
		free(tc->devs[i].uuid);
		free(tc->devs[i].name);
	}
	free(tc->devs);
	memset(tc, 0, sizeof *tc);
}

