/*
 * ptxas.h - what the compiler says about each kernel's resources.
 *
 * nvcc -Xptxas=-v prints, per kernel, its registers, shared memory, stack
 * frame and spill traffic. ptxas_parse turns that text into one JSON
 * record per kernel (kernel, symbol, arch, registers, smem_bytes,
 * stack_bytes, spill_store_bytes, spill_load_bytes), as JSON lines; NULL
 * when the text reports no kernel. The caller frees the result. Kernel
 * names are demangled with c++filt when it is there.
 */
#ifndef LB_PTXAS_H
#define LB_PTXAS_H

char *ptxas_parse(const char *text);

#endif
