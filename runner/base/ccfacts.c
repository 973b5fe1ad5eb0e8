/* ccfacts.c - one table of hardware facts per compute capability
 * (ccfacts.h). */
#include "base/ccfacts.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/*
 * Per SM, per clock. Lanes: the CUDA C++ Programming Guide, "Arithmetic
 * Instructions" (throughput of native arithmetic instructions). Limits:
 * its "Technical Specifications per Compute Capability". Tensor cores,
 * dense flops per clock per SM with FP32 accumulate, from NVIDIA's
 * published peaks divided by SMs x boost clock:
 *   7.0 V100 SXM2 FP16 125 TFLOP/s, 80 SMs x 1530 MHz        1024
 *   7.5 T4 FP16 65 TFLOP/s, 40 SMs x 1590 MHz                1024
 *   8.0 A100 BF16 312 TFLOP/s, 108 SMs x 1410 MHz            2048
 *   8.6 RTX 3090 BF16 71 TFLOP/s, 82 SMs x 1695 MHz           512
 *   8.9 RTX 4090 BF16 165 TFLOP/s, 128 SMs x 2520 MHz         512
 *   9.0 H100 SXM BF16 989 TFLOP/s, 132 SMs x 1830 MHz        4096
 *   10.0 B200 BF16 2250 TFLOP/s, 148 SMs x 1860 MHz          8192
 *   12.0 RTX 5090 BF16 209.5 TFLOP/s, 170 SMs x 2407 MHz      512
 * TF32 is half the BF16 rate and FP8 twice it where the card has them.
 * GeForce cards (8.6, 8.9, 12.0) accumulate in FP32 at half the rate of
 * FP16 accumulate; the professional boards of those capabilities (A10,
 * L4, L40) do not halve it and reach twice the figures here. 0: no such
 * unit. Jetson parts (7.2, 8.7) are left out.
 */
static const struct cc_row {
	int cc;
	int fp32, fp64, int32, sfu;
	int blocks, warps, regs, smem_kib;
	int fp16, bf16, tf32, fp8;
} rows[] = {
	{35, 192, 64, 160, 32, 16, 64, 65536, 48, 0, 0, 0, 0},
	{37, 192, 64, 160, 32, 16, 64, 131072, 112, 0, 0, 0, 0},
	{50, 128, 4, 128, 32, 32, 64, 65536, 64, 0, 0, 0, 0},
	{52, 128, 4, 128, 32, 32, 64, 65536, 96, 0, 0, 0, 0},
	{53, 128, 4, 128, 32, 32, 64, 65536, 64, 0, 0, 0, 0},
	{60, 64, 32, 64, 16, 32, 64, 65536, 64, 0, 0, 0, 0},
	{61, 128, 4, 128, 32, 32, 64, 65536, 96, 0, 0, 0, 0},
	{62, 128, 4, 128, 32, 32, 64, 65536, 64, 0, 0, 0, 0},
	{70, 64, 32, 64, 16, 32, 64, 65536, 96, 1024, 0, 0, 0},
	{75, 64, 2, 64, 16, 16, 32, 65536, 64, 1024, 0, 0, 0},
	{80, 64, 32, 64, 16, 32, 64, 65536, 164, 2048, 2048, 1024, 0},
	{86, 128, 2, 64, 16, 16, 48, 65536, 100, 512, 512, 256, 0},
	{89, 128, 2, 64, 16, 24, 48, 65536, 100, 512, 512, 256, 1024},
	{90, 128, 64, 64, 16, 32, 64, 65536, 228, 4096, 4096, 2048, 8192},
	{100, 128, 64, 128, 16, 32, 64, 65536, 228, 8192, 8192, 4096, 16384},
	{120, 128, 2, 128, 16, 24, 48, 65536, 100, 512, 512, 256, 1024},
};

enum col { FP32, FP64, INT32, SFU, BLOCKS, WARPS, THREADS, REGS, SMEM,
           T_FP16, T_BF16, T_TF32, T_FP8 };

static const struct {
	const char *fact; /* the table's figure */
	const char *peak; /* figure x SMs x clock, or NULL */
	enum col col;
	double per_op; /* flops per lane and clock, for the peak */
	int reported;  /* the runtime reports it too */
} names[] = {
	{"fp32_lanes_per_sm", NULL, FP32, 2, 0},
	{"fp64_lanes_per_sm", "peak_fp64_gflops", FP64, 2, 0},
	{"int32_lanes_per_sm", "peak_int32_gops", INT32, 1, 0},
	{"sfu_lanes_per_sm", "peak_sfu_gops", SFU, 1, 0},
	{"max_blocks_per_sm", NULL, BLOCKS, 0, 1},
	{"max_warps_per_sm", NULL, WARPS, 0, 0},
	{"max_threads_per_sm", NULL, THREADS, 0, 1},
	{"regs_per_sm", NULL, REGS, 0, 1},
	{"smem_per_sm_kib", NULL, SMEM, 0, 1},
	{"tensor_fp16_flops_clk_sm", "peak_fp16_gflops", T_FP16, 1, 0},
	{"tensor_bf16_flops_clk_sm", "peak_bf16_gflops", T_BF16, 1, 0},
	{"tensor_tf32_flops_clk_sm", "peak_tf32_gflops", T_TF32, 1, 0},
	{"tensor_fp8_flops_clk_sm", "peak_fp8_gflops", T_FP8, 1, 0},
};
#define NNAMES (sizeof names / sizeof names[0])
#define NROWS (sizeof rows / sizeof rows[0])

int cc_parse(const char *text, int *cc)
{
	if (!text)
		return -1;
	if (!strncmp(text, "sm_", 3))
		text += 3;
	char *end;
	long major = strtol(text, &end, 10);
	if (end == text || major < 0 || major > 999)
		return -1;
	if (*end == '.') {
		const char *m = end + 1;
		long minor = strtol(m, &end, 10);
		if (end == m || end - m != 1 || *end)
			return -1;
		*cc = (int)(major * 10 + minor);
		return 0;
	}
	if (*end)
		return -1;
	/* "90" and "sm_90" are 9.0; "9" is 9.0 too. */
	*cc = (int)(major >= 30 ? major : major * 10);
	return 0;
}

int cc_requirement(const char *text, int *cc)
{
	while (*text == ' ' || *text == '\t')
		text++;
	if (!strncmp(text, "cc", 2) && text[2] != '_') {
		text += 2;
		while (*text == ' ')
			text++;
		if (strncmp(text, ">=", 2))
			return -1;
		text += 2;
		while (*text == ' ')
			text++;
	}
	size_t n = strlen(text);
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	char word[16];
	if (!n || n >= sizeof word)
		return -1;
	memcpy(word, text, n);
	word[n] = '\0';
	int exact = n > 3 && !strncmp(word, "sm_", 3) && word[n - 1] == 'a';
	if (exact)
		word[n - 1] = '\0';
	if (cc_parse(word, cc) != 0 || *cc < 10)
		return -1;
	if (exact)
		*cc += CC_EXACT;
	return 0;
}

int cc_meets(int cc, int need)
{
	if (need <= 0)
		return 1;
	return need >= CC_EXACT ? cc == need - CC_EXACT : cc >= need;
}

const char *cc_need_words(int need, char *buf, unsigned size)
{
	int c = need >= CC_EXACT ? need - CC_EXACT : need;
	snprintf(buf, size, need >= CC_EXACT ? "%d.%d (sm_%da; no later card)"
	                                     : "%d.%d", c / 10, c % 10, c);
	return buf;
}

static int row_value(const struct cc_row *r, enum col c)
{
	switch (c) {
	case FP32: return r->fp32;
	case FP64: return r->fp64;
	case INT32: return r->int32;
	case SFU: return r->sfu;
	case BLOCKS: return r->blocks;
	case WARPS: return r->warps;
	case THREADS: return r->warps * 32;
	case REGS: return r->regs;
	case SMEM: return r->smem_kib;
	case T_FP16: return r->fp16;
	case T_BF16: return r->bf16;
	case T_TF32: return r->tf32;
	default: return r->fp8;
	}
}

static const struct cc_row *row_find(int cc)
{
	for (size_t i = 0; i < NROWS; i++)
		if (rows[i].cc == cc)
			return &rows[i];
	return NULL;
}

/* The figure of column c for cc, as cc_fact. */
static int col_value(int cc, enum col c, double *out, int *need)
{
	const struct cc_row *r = row_find(cc);
	if (!r)
		return -1;
	*out = row_value(r, c);
	if (*out > 0)
		return 0;
	*need = 0;
	for (size_t i = 0; i < NROWS && !*need; i++)
		if (rows[i].cc > cc && row_value(&rows[i], c) > 0)
			*need = rows[i].cc;
	return 1;
}

int cc_fact(int cc, const char *name, double *out, int *need)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(names[i].fact, name))
			return col_value(cc, names[i].col, out, need);
	return -1;
}

int cc_peak(int cc, const char *name, double sm_count, double clock_mhz,
            double *out, int *need)
{
	for (size_t i = 0; i < NNAMES; i++) {
		if (!names[i].peak || strcmp(names[i].peak, name))
			continue;
		double per_sm;
		int rc = col_value(cc, names[i].col, &per_sm, need);
		if (rc == 0)
			*out = per_sm * names[i].per_op * sm_count * clock_mhz / 1e3;
		return rc;
	}
	return -1;
}

int cc_fact_known(const char *name)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(names[i].fact, name) ||
		    (names[i].peak && !strcmp(names[i].peak, name)))
			return 1 + names[i].reported;
	return 0;
}
