/*
 * facts.c - the facts the Machines page shows of each machine, each an
 * expression over its bundle, valued by the judge as text (judge.h).
 */
#include "judge/judge.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/expr.h"
#include "book/format.h"

/* The facts shown per machine. The first rows are machine.json's; the
 * others are measured by the book's own experiments, and a row that no
 * machine can evaluate is left out. */
static const struct fact {
	const char *label;
	const char *expr;
	const char *fmt;  /* for a number */
	const char *unit; /* after it */
	int cut;          /* show at most this many characters of a text */
} facts[] = {
	{"GPU", "machine.gpu", NULL, NULL, 0},
	{"GPUs that shared the runs", "machine.gpu_count", "%.0f", NULL, 0},
	{"compute capability", "machine.cc", NULL, NULL, 0},
	{"SMs", "machine.sm_count", "%.0f", NULL, 0},
	{"SM clock", "machine.sm_clock_mhz", "%.0f", "MHz", 0},
	{"memory clock", "machine.mem_clock_mhz", "%.0f", "MHz", 0},
	{"memory", "machine.memory_bytes / 1073741824", "%.0f", "GiB", 0},
	{"L2 cache", "machine.l2_bytes / 1048576", "%.0f", "MiB", 0},
	{"FP32 peak (lanes × 2 × clock)", "machine.peak_fp32_gflops", "%.0f",
	 "GFLOP/s", 0},
	{"DRAM bandwidth (clock × 2 × bus)", "machine.bw_theoretical_gbps", "%.0f",
	 "GB/s", 0},
	{"FP32 peak reached on one SM",
	 "100 * max(ilp.gflops[view=sm]) / machine.peak_fp32_gflops_sm", "%.1f",
	 "%", 0},
	{"FP32 reached on the chip", "max(ilp.gflops[view=chip])", "%.0f",
	 "GFLOP/s", 0},
	{"copy bandwidth", "machine.bw_copy_gbps", "%.0f", "GB/s", 0},
	{"L2 bandwidth", "machine.bw_l2_gbps", "%.0f", "GB/s", 0},
	{"copy, of the DRAM bandwidth",
	 "100 * machine.bw_copy_gbps / machine.bw_theoretical_gbps", "%.0f", "%", 0},
	{"best hand-written reduction", "max(reduce.gbps[variant!=cub])", "%.0f",
	 "GB/s", 0},
	{"CUB reduction", "max(reduce.gbps[variant=cub])", "%.0f", "GB/s", 0},
	{"driver", "machine.driver", NULL, NULL, 0},
	{"CUDA runtime", "machine.cuda_runtime", NULL, NULL, 0},
	{"measured on", "machine.date", NULL, NULL, 0},
	{"commit", "machine.commit", NULL, NULL, 12},
	{"Slurm job", "machine.slurm_job_id", NULL, NULL, 0},
	{"Slurm partition", "machine.slurm_partition", NULL, NULL, 0},
	{"node", "machine.slurm_node", NULL, NULL, 0},
};

#define NFACTS (sizeof facts / sizeof facts[0])

const char *judge_fact_label(size_t i)
{
	return i < NFACTS ? facts[i].label : "";
}

/* Fact f of b as text, or NULL when b has no such fact. */
static char *fact_text(const struct fact *f, struct bundle *b)
{
	struct value v;
	char *err = NULL;
	struct buf t = BUF_INIT;
	char *text = NULL;
	if (expr_eval(f->expr, b, &v, &err) == 0 && value_scalar(&v, &err) == 0 &&
	    value_format(&v, v.type == VAL_NUM ? f->fmt : NULL, 0, &t, &err) == 0) {
		struct buf o = BUF_INIT;
		if (f->cut && t.len > (size_t)f->cut) {
			buf_put(&o, t.data, (size_t)f->cut);
			buf_puts(&o, "…");
		} else {
			buf_puts(&o, t.data);
		}
		if (f->unit && v.type == VAL_NUM)
			buf_printf(&o, "%s%s", strcmp(f->unit, "%") ? " " : "", f->unit);
		text = buf_detach(&o);
	}
	value_free(&v);
	buf_free(&t);
	free(err);
	return text;
}

void judge_facts(struct judged_book *jb, struct bundle *const *bs, size_t nb)
{
	jb->nfacts = NFACTS;
	jb->facts = xcalloc(nb * NFACTS, sizeof *jb->facts);
	for (size_t m = 0; m < nb; m++)
		for (size_t i = 0; i < NFACTS; i++)
			jb->facts[m * NFACTS + i] = fact_text(&facts[i], bs[m]);
}
