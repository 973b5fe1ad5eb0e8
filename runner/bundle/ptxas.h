/*
 * ptxas.h - what the compiler says about each kernel: resources, SASS.
 *
 * nvcc -Xptxas=-v prints, per kernel, its registers, shared memory, stack
 * frame and spill traffic. ptxas_parse turns that text into one JSON
 * record per kernel (kernel, symbol, arch, registers, smem_bytes,
 * stack_bytes, spill_store_bytes, spill_load_bytes), as JSON lines; NULL
 * when the text reports no kernel. The caller frees the result. Kernel
 * names are demangled in-process (libiberty), so no tool runs.
 */
#ifndef LB_PTXAS_H
#define LB_PTXAS_H

char *ptxas_parse(const char *text);

/* "_Z10fma_chainsILi8EEvPfffi" -> "fma_chains<8>". Caller frees. */
char *kernel_name(const char *mangled);
/* "_Z10fma_chainsILi8EEvPfffi" -> "void fma_chains<8>(float*, float,
 * float, int)"; a name that is not mangled comes back as it is. */
char *kernel_demangle(const char *mangled);

/* "void fma_chains<8>(float*, float)" -> "fma_chains<8>": no return type,
 * no parameters. Caller frees. */
char *kernel_short_name(const char *demangled);

/*
 * cuobjdump -sass output: sass_parse counts each kernel's instructions by
 * mnemonic, as JSON lines {kernel, op, count, total}; sass_clean drops the
 * binary encodings, leaving the listing a reader wants, and follows each
 * "Function : MANGLED" line with "Demangled : NAME" (indented alike), so
 * the listing is read without a demangler. Caller frees.
 */
#define SASS_DEMANGLED "Demangled : "
char *sass_parse(const char *dump);
char *sass_clean(const char *dump);

#endif
