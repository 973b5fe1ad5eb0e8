/*
 * ccfacts.h - the hardware facts of each compute capability, from 3.5 to
 * 12.0, in one table (ccfacts.c): what no runtime call reports (lanes per
 * SM of each pipe, tensor-core rates) and the per-SM limits the CUDA C++
 * Programming Guide tabulates. A bundle's machine.FIELD falls back on them
 * for its card's compute capability (machine_field, results.h).
 *
 *   fp32_lanes_per_sm      32-bit float add, multiply, FMA per clock
 *   fp64_lanes_per_sm      64-bit float add, multiply, FMA per clock
 *   int32_lanes_per_sm     32-bit integer add, subtract, compare per clock
 *   sfu_lanes_per_sm       special functions (__sinf, __expf, rsqrt) per clock
 *   max_blocks_per_sm, max_warps_per_sm, max_threads_per_sm,
 *   regs_per_sm (32-bit), smem_per_sm_kib (the largest carve-out)
 *   tensor_fp16_flops_clk_sm, tensor_bf16_flops_clk_sm,
 *   tensor_tf32_flops_clk_sm, tensor_fp8_flops_clk_sm
 *                          dense tensor-core flops per clock per SM, FP32
 *                          accumulate (GeForce rate where that is half)
 *
 * and, with the bundle's sm_count and sm_clock_mhz, the peaks
 * peak_fp64_gflops, peak_int32_gops, peak_sfu_gops, peak_fp16_gflops,
 * peak_bf16_gflops, peak_tf32_gflops and peak_fp8_gflops.
 */
#ifndef LB_CCFACTS_H
#define LB_CCFACTS_H

/* "9.0", "sm_90", "90" or "9" into 90. 0, or -1 when text is none. */
int cc_parse(const char *text, int *cc);

/* A requirement, "sm_90", "cc >= 9.0" or "9.0", into 90: that capability
 * or a later one; "sm_90a", Hopper's architecture-specific features
 * (wgmma, setmaxnreg) that no later card has, into CC_EXACT + 90: that
 * capability only. 0, or -1 when text is none of these. */
#define CC_EXACT 1000
int cc_requirement(const char *text, int *cc);

/*
 * The table's fact name for the compute capability cc (90 for 9.0) into
 * *out. 0; 1 when the table has the name but cc has no such unit or
 * figure (a T4 has no BF16 tensor cores), with the least compute
 * capability that has it in *need (0 when none); -1 when the table does
 * not know cc or the name.
 */
int cc_fact(int cc, const char *name, double *out, int *need);

/*
 * A peak (peak_bf16_gflops, ...) from the table and a card's SMs and
 * clock, as cc_fact.
 */
int cc_peak(int cc, const char *name, double sm_count, double clock_mhz,
            double *out, int *need);

/* Is name one of the table's facts or peaks: 1, or 2 when the runtime
 * reports it too (blocks, threads, registers, shared memory per SM);
 * 0 when not. */
int cc_fact_known(const char *name);

/* Does a card of capability cc (90) meet requirement need (0: none)? */
int cc_meets(int cc, int need);

/* need as words, "9.0" or "9.0 (sm_90a; no later card)", into buf. */
const char *cc_need_words(int need, char *buf, unsigned size);

#endif
