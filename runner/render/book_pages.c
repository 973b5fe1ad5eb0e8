/*
 * book_pages.c - the pages about the book rather than of it: where its
 * numbers come from (provenance.html: the bundle in sentences, the card's
 * facts, what the book measured, machine.json in full), the run log
 * (runs.html) and, where other bundles are compared, machines.html.
 */
#include "render/book_pages.h"

#include <stdio.h>
#include <string.h>

#include "render/blocks.h"
#include "render/box.h"
#include "judge/view.h"
#include "render/history_page.h"
#include "render/machines.h"
#include "render/page.h"
#include "base/util.h"

static void machine_table(const cJSON *obj, const char *label, struct buf *out)
{
	table_wrap_open(out, label, NULL);
	buf_puts(out, "<table class=\"records machine\"><tbody>\n");
	const cJSON *f;
	cJSON_ArrayForEach(f, obj)
	{
		if (cJSON_IsObject(f))
			continue;
		buf_puts(out, "<tr><th scope=\"row\"><code>");
		buf_puts_html(out, f->string);
		buf_puts(out, "</code></th><td>");
		cell_html(out, f, NULL);
		buf_puts(out, "</td></tr>\n");
	}
	buf_puts(out, "</tbody></table></div>\n");
}

/* How a fact of machine.json reads for people: its words, the factor that
 * turns it into the unit, the unit and the decimals. */
struct fact_view {
	const char *key, *words;
	double scale;
	const char *unit;
	int decimals;
};

static const struct fact_view card_facts[] = {
	{"cc", "Compute capability", 1, NULL, -1},
	{"sm_count", "Streaming multiprocessors (SMs)", 1, NULL, 0},
	{"sm_clock_mhz", "SM clock, rated", 1, "MHz", 0},
	{"fp32_lanes_per_sm", "FP32 lanes per SM", 1, NULL, 0},
	{"memory_bytes", "Device memory", 1.0 / 1073741824, "GiB", 1},
	{"mem_clock_mhz", "Memory clock", 1, "MHz", 0},
	{"bus_width_bits", "Memory bus", 1, "bits", 0},
	{"l2_bytes", "L2 cache", 1.0 / 1048576, "MiB", 0},
	{"smem_per_sm_bytes", "Shared memory per SM", 1.0 / 1024, "KiB", 0},
	{"regs_per_sm", "32-bit registers per SM", 1, NULL, 0},
	{"max_threads_per_sm", "Threads per SM, at most", 1, NULL, 0},
	{"max_blocks_per_sm", "Blocks per SM, at most", 1, NULL, 0},
	{"peak_fp32_gflops_sm", "FP32 peak of one SM (lanes × 2 × clock)", 1,
	 "GFLOP/s", 1},
	{"peak_fp32_gflops", "FP32 peak of the chip", 1.0 / 1000, "TFLOP/s", 1},
	{"bw_theoretical_gbps", "DRAM bandwidth on paper (clock × 2 × bus)", 1,
	 "GB/s", 0},
	{"power_limit_w", "Power limit", 1, "W", 0},
	{"power_default_limit_w", "Power limit, default", 1, "W", 0},
	{"persistence_mode", "Persistence mode", 1, NULL, -1},
	{"ecc", "ECC", 1, NULL, -1},
	{"mig", "MIG", 1, NULL, -1},
	{NULL, NULL, 0, NULL, 0},
};

static const struct fact_view measured_facts[] = {
	{"bw_copy_gbps", "Device copy, best kernel (read + write)", 1, "GB/s", 0},
	{"bw_memcpy_gbps", "cudaMemcpy device to device", 1, "GB/s", 0},
	{"bw_read_gbps", "DRAM read-only stream", 1, "GB/s", 0},
	{"bw_write_gbps", "DRAM write-only stream", 1, "GB/s", 0},
	{"bw_read2write1_gbps", "DRAM two reads per write (c = a + b)", 1, "GB/s", 0},
	{"dram_latency_ns", "DRAM load latency, idle (pointer chase)", 1, "ns", 0},
	{"bw_l2_gbps", "L2 read bandwidth", 1, "GB/s", 0},
	{"fp64_fma_ratio", "FP32 FMA rate over FP64 FMA rate", 1, NULL, 2},
	{"peak_fp64_gflops", "FP64 peak of the chip", 1.0 / 1000, "TFLOP/s", 1},
	{"peak_sfu_gops", "SFU peak of the chip", 1.0 / 1000, "Top/s", 2},
	{NULL, NULL, 0, NULL, 0},
};

/* Rows for the facts of views that obj holds; 1 when any was written. */
static int fact_rows(const cJSON *obj, const struct fact_view *v,
                     struct buf *out)
{
	int any = 0;
	for (; v->key; v++) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, v->key);
		if (!cJSON_IsNumber(f) && !cJSON_IsString(f) && !cJSON_IsBool(f))
			continue;
		any = 1;
		buf_puts(out, "<tr><th scope=\"row\">");
		buf_puts_html(out, v->words);
		buf_puts(out, "</th><td class=\"num\">");
		if (cJSON_IsBool(f))
			buf_puts(out, cJSON_IsTrue(f) ? "on" : "off");
		else if (cJSON_IsString(f) || v->decimals < 0)
			field_text(out, f);
		else
			buf_printf(out, "%.*f", v->decimals, f->valuedouble * v->scale);
		if (v->unit)
			buf_printf(out, " %s", v->unit);
		buf_puts(out, "</td></tr>\n");
	}
	return any;
}

static void fact_table(const cJSON *obj, const struct fact_view *v,
                       const char *label, struct buf *out)
{
	struct buf rows = BUF_INIT;
	if (fact_rows(obj, v, &rows)) {
		table_wrap_open(out, label, NULL);
		buf_puts(out, "<table class=\"records facts\"><tbody>\n");
		buf_put(out, rows.data, rows.len);
		buf_puts(out, "</tbody></table></div>\n");
	}
	buf_free(&rows);
}

/* "Measured on an NVIDIA H200 on 2026-11-23, …": the bundle in sentences. */
static void machine_sentences(const struct bundle_view *b, struct buf *c)
{
	const char *gpu = machine_str(b, "gpu"), *date = machine_str(b, "date");
	const char *cpu = machine_str(b, "cpu"), *host = machine_str(b, "host");
	const char *os = machine_str(b, "os"), *commit = machine_str(b, "commit");
	const cJSON *count = cJSON_GetObjectItem(view_machine(b), "gpu_count");
	buf_puts(c, "<p>The numbers of this site were measured ");
	if (machine_has_gpu(b)) {
		buf_puts(c, "on <strong>");
		if (cJSON_IsNumber(count) && count->valueint > 1)
			buf_printf(c, "%d × ", count->valueint);
		buf_puts_html(c, gpu);
		buf_puts(c, "</strong>");
	} else {
		buf_puts(c, "with no GPU, on the processor <strong>");
		buf_puts_html(c, cpu ? cpu : host ? host : "unknown");
		buf_puts(c, "</strong>");
	}
	if (date) {
		buf_puts(c, " on ");
		buf_put_html(c, date, strcspn(date, "T"));
	}
	if (host || os) {
		buf_puts(c, ", in a host running ");
		buf_puts_html(c, os ? os : host);
	}
	buf_puts(c, ".");
	if (machine_str(b, "driver") || machine_str(b, "cuda_runtime")) {
		buf_puts(c, " The CUDA driver was ");
		buf_puts_html(c, machine_str(b, "driver") ? machine_str(b, "driver") : "?");
		if (machine_str(b, "cuda_runtime")) {
			buf_puts(c, " (CUDA ");
			buf_puts_html(c, machine_str(b, "cuda_runtime"));
			buf_puts(c, ")");
		}
		if (machine_str(b, "nvcc")) {
			buf_puts(c, ", and the kernels were compiled by ");
			buf_puts_html(c, machine_str(b, "nvcc"));
			if (machine_str(b, "nvcc_flags")) {
				buf_puts(c, " with <code>");
				buf_puts_html(c, machine_str(b, "nvcc_flags"));
				buf_puts(c, "</code>");
			}
		}
		buf_puts(c, ".");
	}
	if (commit) {
		const cJSON *dirty = cJSON_GetObjectItem(view_machine(b), "dirty");
		buf_puts(c, " The book's code was at commit <code>");
		buf_put_html(c, commit, strlen(commit) > 12 ? 12 : strlen(commit));
		buf_puts(c, "</code>");
		if (cJSON_IsTrue(dirty))
			buf_puts(c, ", with local changes");
		buf_puts(c, ".");
	}
	buf_puts(c, " Everything recorded is in the bundle <code>");
	buf_puts_html(c, b->dir);
	buf_puts(c, "</code> (<a href=\"data/machine.json\">machine.json</a>), "
	            "listed in full at the end of this page.</p>\n");
}

/* The state of a row's results, or of their absence, in the words of the
 * experiment's box. */
static void state_cell(const struct exp_view *x, struct buf *out)
{
	const struct result_meta *m = &x->meta;
	if (m->state != RESULT_NONE)
		state_html(out, x);
	else
		buf_puts(out, "no results");
	if (m->failed)
		buf_puts(out, m->state != RESULT_NONE ? "; its last attempt failed"
		                                      : "; it failed");
}

/* Where each experiment's results come from, as its box says it. */
static void experiment_states(const struct site_ctx *s, struct buf *c)
{
	struct book *bk = s->bk;
	if (!bk->nexps)
		return;
	buf_puts(c, "<h2 id=\"experiments\">Each experiment</h2>\n<p>Whether "
	            "its results were measured in this build (the last that ran "
	            "experiments into the bundle), in an earlier build on this "
	            "machine, recorded on another machine, or changed since they "
	            "were recorded (its source, arguments or flags).</p>\n");
	table_wrap_open(c, "each experiment", NULL);
	buf_puts(c, "<table class=\"records\"><thead><tr><th scope=\"col\">"
	            "experiment</th><th scope=\"col\">chapter</th><th scope="
	            "\"col\">its results</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < bk->nexps; i++) {
		const struct exper *e = &bk->exps[i];
		const struct exp_view *x = view_find(s->v, e->id);
		buf_printf(c, "<tr><td><a href=\"%s.html#exp-%s\">%s</a></td><td>",
		           e->ch->href, e->id, e->id);
		buf_puts_html(c, outline_of(s, e->ch)->title);
		buf_puts(c, "</td><td>");
		state_cell(x, c);
		buf_puts(c, "</td></tr>\n");
	}
	buf_puts(c, "</tbody></table></div>\n");
}

int provenance_page(const struct site_ctx *s)
{
	const struct bundle_view *b = s->v;
	const cJSON *machine = view_machine(b);
	struct buf c = BUF_INIT;
	buf_puts(&c, "<h1 id=\"provenance\">Where these numbers come from</h1>\n");
	if (!machine) {
		buf_puts(&c, "<p>This bundle has no <code>machine.json</code> yet.</p>");
		experiment_states(s, &c);
	} else {
		machine_sentences(b, &c);
		if (machine_has_gpu(b)) {
			buf_puts(&c, "<h2 id=\"card\">The card</h2>\n<p>As the CUDA "
			             "runtime reports it, with the limits that follow "
			             "on paper.</p>\n");
			fact_table(machine, card_facts, "the card", &c);
		}
		const cJSON *m = cJSON_GetObjectItem(machine, "measured");
		if (cJSON_IsObject(m)) {
			buf_puts(&c, "<h2 id=\"measured\">Measured by the book</h2>\n<p>"
			             "Facts the book's experiments measured on this "
			             "machine; the chapters use them as ceilings.</p>\n");
			fact_table(m, measured_facts, "measured facts", &c);
		}
		experiment_states(s, &c);
		buf_puts(&c, "<h2 id=\"recorded\">Everything recorded</h2>\n<p>The "
		             "fields of <code>machine.json</code> as written.</p>\n");
		machine_table(machine, "machine.json fields", &c);
		if (cJSON_IsObject(m))
			machine_table(m, "machine.json measured fields", &c);
	}
	int rc = page_write_book(s, "provenance.html",
	                         "Where these numbers come from", c.data, "", "");
	buf_free(&c);
	return rc;
}

/* machines.html, where other bundles were put beside this one. */
int machines_html_page(const struct site_ctx *s)
{
	struct buf c = BUF_INIT;
	machines_page_html(s->bk, s->o->machines, &c);
	int rc = page_write_book(s, "machines.html", "Machines", c.data, "", "");
	buf_free(&c);
	return rc;
}

/* history.html, where a bundle's history was asked for (--history). */
int history_html_page(const struct site_ctx *s)
{
	struct buf c = BUF_INIT;
	history_page_html(s, &c);
	int rc = page_write_book(s, "history.html", "History", c.data, "", "");
	buf_free(&c);
	return rc;
}

int runs_page(const struct site_ctx *s)
{
	struct book *bk = s->bk;
	struct buf c = BUF_INIT;
	double total = 0;
	buf_puts(&c, "<h1 id=\"runs\">Run log</h1>\n<p>Every experiment of the "
	             "book: when it last ran, how long it took, and where its "
	             "results come from (as on <a href=\"provenance.html#"
	             "experiments\">the provenance page</a>).</p>\n");
	table_wrap_open(&c, "run log", NULL);
	buf_puts(&c, "<table class=\"records\"><thead><tr><th scope=\"col\">"
	             "experiment</th><th scope=\"col\">chapter</th><th scope=\"col\">"
	             "its results</th><th scope=\"col\">seconds</th><th scope=\"col\">"
	             "records</th><th scope=\"col\">ran</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		const struct exp_view *x = view_find(s->v, e->id);
		const struct result_meta *m = &x->meta;
		double sec = x->has_meta ? m->seconds : 0;
		size_t nrows = x->count;
		total += sec;
		buf_printf(&c, "<tr%s><td><a href=\"%s.html#exp-%s\">%s</a></td><td>",
		           m->failed ? " class=\"wrong\"" : "",
		           e->ch->href, e->id, e->id);
		buf_puts_html(&c, outline_of(s, e->ch)->title);
		buf_puts(&c, "</td><td>");
		state_cell(x, &c);
		buf_printf(&c, "</td><td>%.1f</td><td>%zu</td><td>", sec, nrows);
		if (x->has_meta && m->date)
			buf_puts_html(&c, m->date);
		buf_puts(&c, "</td></tr>\n");
	}
	buf_printf(&c, "</tbody></table></div>\n<p>%zu experiments, %.1f s of "
	           "measurement in all.</p>\n", bk->nexps, total);
	int rc = page_write_book(s, "runs.html", "Run log", c.data, "", "");
	buf_free(&c);
	return rc;
}

