/* ncu.c - Nsight Compute's metrics for the experiments that ask (ncu.h). */
#include "measure/ncu.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "bundle/ptxas.h"
#include "base/util.h"

/* nvprof's metrics and their Nsight Compute equivalents (NVIDIA's
 * "Nsight Compute CLI: nvprof transition guide"). */
static const struct {
	const char *nvprof;
	const char *ncu;
} aliases[] = {
	{"branch_efficiency", "smsp__sass_average_branch_targets_threads_uniform.pct"},
	{"warp_execution_efficiency", "smsp__thread_inst_executed_per_inst_executed.ratio"},
	{"achieved_occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active"},
	{"gld_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"},
	{"gst_efficiency", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"},
	{"gld_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
	{"gst_transactions", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"},
	{"gld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
	{"local_load_transactions", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"},
	{"local_store_transactions", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"},
	{"inst_per_warp", "smsp__average_inst_executed_per_warp.ratio"},
	{"inst_executed", "smsp__inst_executed.sum"},
	{"dram_read_bytes", "dram__bytes_read.sum"},
	{"dram_write_bytes", "dram__bytes_write.sum"},
	{"shared_load_bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
};

const char *ncu_metric(const char *name)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcmp(aliases[i].nvprof, name))
			return aliases[i].ncu;
	return name;
}

char *ncu_field(const char *name)
{
	char *f = xstrdup(name);
	for (char *p = f; *p; p++)
		if (*p == '.')
			*p = '_';
	return f;
}

/* Split one CSV line into fields (quotes, "" escapes). */
static char **csv_fields(const char *line, size_t *n)
{
	char **out = NULL;
	*n = 0;
	struct buf f = BUF_INIT;
	const char *p = line;
	for (;;) {
		buf_reset(&f);
		buf_puts(&f, "");
		if (*p == '"') {
			p++;
			while (*p && !(*p == '"' && p[1] != '"')) {
				if (*p == '"')
					p++;
				buf_putc(&f, *p++);
			}
			if (*p == '"')
				p++;
		} else {
			while (*p && *p != ',')
				buf_putc(&f, *p++);
		}
		*ARRAY_PUSH(out, *n) = xstrdup(f.data);
		if (*p != ',')
			break;
		p++;
	}
	buf_free(&f);
	return out;
}

static void fields_free(char **f, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(f[i]);
	free(f);
}

static int col(char **hdr, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return (int)i;
	return -1;
}

static double dims_product(const char *s)
{
	double p = 1;
	int any = 0;
	for (const char *q = s; *q;) {
		if (*q >= '0' && *q <= '9') {
			p *= strtod(q, (char **)&q);
			any = 1;
		} else {
			q++;
		}
	}
	return any ? p : 0;
}

char *ncu_parse(const char *text, const char *asked)
{
	char **hdr = NULL;
	size_t nhdr = 0;
	cJSON **recs = NULL;
	long *ids = NULL;
	size_t nrecs = 0;
	int c_id = -1, c_kernel = -1, c_block = -1, c_grid = -1, c_name = -1,
	    c_value = -1;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		p += len + (p[len] ? 1 : 0);
		size_t L = strlen(line);
		if (L && line[L - 1] == '\r')
			line[L - 1] = '\0';
		if (line[0] != '"') {
			free(line);
			continue;
		}
		size_t nf;
		char **f = csv_fields(line, &nf);
		free(line);
		if (!hdr) {
			hdr = f;
			nhdr = nf;
			c_id = col(hdr, nhdr, "ID");
			c_kernel = col(hdr, nhdr, "Kernel Name");
			c_block = col(hdr, nhdr, "Block Size");
			c_grid = col(hdr, nhdr, "Grid Size");
			c_name = col(hdr, nhdr, "Metric Name");
			c_value = col(hdr, nhdr, "Metric Value");
			continue;
		}
		if (c_id < 0 || c_name < 0 || c_value < 0 || (size_t)c_value >= nf ||
		    (size_t)c_id >= nf) {
			fields_free(f, nf);
			continue;
		}
		long id = atol(f[c_id]);
		size_t r = 0;
		while (r < nrecs && ids[r] != id)
			r++;
		if (r == nrecs) {
			cJSON *rec = cJSON_CreateObject();
			cJSON_AddNumberToObject(rec, "launch", (double)id);
			if (c_kernel >= 0 && (size_t)c_kernel < nf) {
				char *name = kernel_short_name(f[c_kernel]);
				cJSON_AddStringToObject(rec, "kernel", name);
				free(name);
			}
			if (c_block >= 0 && (size_t)c_block < nf) {
				cJSON_AddStringToObject(rec, "block", f[c_block]);
				cJSON_AddNumberToObject(rec, "block_threads",
				                        dims_product(f[c_block]));
			}
			if (c_grid >= 0 && (size_t)c_grid < nf) {
				cJSON_AddStringToObject(rec, "grid", f[c_grid]);
				cJSON_AddNumberToObject(rec, "grid_blocks",
				                        dims_product(f[c_grid]));
			}
			*ARRAY_PUSH(recs, nrecs) = rec;
			nrecs--;
			*ARRAY_PUSH(ids, nrecs) = id;
		}
		/* Store the value under each name it was asked by. */
		char *copy = xstrdup(asked), *save = NULL;
		for (char *w = strtok_r(copy, ", ", &save); w;
		     w = strtok_r(NULL, ", ", &save)) {
			if (strcmp(ncu_metric(w), f[c_name]))
				continue;
			char *clean = xstrdup(f[c_value]);
			size_t k = 0;
			for (char *s = clean; *s; s++)
				if (*s != ',')
					clean[k++] = *s;
			clean[k] = '\0';
			char *end;
			double v = strtod(clean, &end);
			char *field = ncu_field(w);
			cJSON_DeleteItemFromObject(recs[r], field);
			if (end != clean && !*end)
				cJSON_AddNumberToObject(recs[r], field, v);
			else
				cJSON_AddStringToObject(recs[r], field, f[c_value]);
			free(field);
			free(clean);
		}
		free(copy);
		fields_free(f, nf);
	}
	struct buf out = BUF_INIT;
	for (size_t i = 0; i < nrecs; i++) {
		char *t = cJSON_PrintUnformatted(recs[i]);
		buf_printf(&out, "%s\n", t);
		free(t);
		cJSON_Delete(recs[i]);
	}
	free(recs);
	free(ids);
	fields_free(hdr, nhdr);
	if (!out.len) {
		buf_free(&out);
		return NULL;
	}
	return buf_detach(&out);
}
