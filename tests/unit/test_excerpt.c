/* What a printed page shows of a listing: device functions found in a
 * source, the names in prose that name them, the SASS lines kept. */
#include <stdlib.h>

#include "render/excerpt.h"
#include "test.h"

static const char src[] =
    "#include \"lab.h\"\n"                                    /*  1 */
    "#define HD __host__ __device__\n"                         /*  2 */
    "__device__ unsigned hits = 0;\n"                          /*  3 */
    "__device__ int table[2] = {1, 2};\n"                      /*  4 */
    "\n"                                                       /*  5 */
    "/* One tree step. */\n"                                   /*  6 */
    "static __device__ int step(int v) { return v + 1; }\n"    /*  7 */
    "\n"                                                       /*  8 */
    "/* ---- kernels ---- */\n"                                /*  9 */
    "\n"                                                       /* 10 */
    "/* The neighbored pairs, with a\n"                        /* 11 */
    " * brace in a comment: { */\n"                            /* 12 */
    "template <int N>\n"                                       /* 13 */
    "__global__ void __launch_bounds__(256)\n"                 /* 14 */
    "    reduce_neighbored(const int *in, int *out)\n"         /* 15 */
    "{\n"                                                      /* 16 */
    "\tconst char *s = \"}\";\n"                               /* 17 */
    "\tauto f = [] __device__ (int x) { return x; };\n"        /* 18 */
    "\tout[0] = step(in[0]) + f(s[0]);\n"                      /* 19 */
    "}\n"                                                      /* 20 */
    "__global__ void k_decl(int *p);\n"                        /* 21 */
    "namespace {\n"                                            /* 22 */
    "extern \"C\" __global__ void copy_float(float *p) { p[0] = 0; }\n" /* 23 */
    "}\n"                                                      /* 24 */
    "int main(void)\n"                                         /* 25 */
    "{\n"                                                      /* 26 */
    "\treturn 0;\n"                                            /* 27 */
    "}\n";                                                     /* 28 */

TEST(test_device_fns)
{
	struct excerpt_fn *f;
	size_t n = excerpt_device_fns(src, sizeof src - 1, &f);
	CHECK(n == 3);
	if (n != 3) {
		free(f);
		return;
	}
	/* A __device__ function, its comment above it. */
	CHECK(f[0].first == 6 && f[0].last == 7 && !f[0].kernel);
	CHECK(f[0].namelen == 4 && !strncmp(f[0].name, "step", 4));
	/* A kernel: from its comment (the brace in it is no brace) and its
	 * template line to its closing brace, past a string's and a lambda's
	 * braces; __launch_bounds__ is no name. */
	CHECK(f[1].first == 11 && f[1].last == 20 && f[1].kernel);
	CHECK(f[1].namelen == 17 && !strncmp(f[1].name, "reduce_neighbored", 17));
	/* In a namespace, extern "C". */
	CHECK(f[2].first == 23 && f[2].last == 23 && f[2].kernel);
	CHECK(f[2].namelen == 10 && !strncmp(f[2].name, "copy_float", 10));
	free(f);
	CHECK(excerpt_device_fns("int main(void) { return 0; }\n", 29, &f) == 0);
	free(f);
}

TEST(test_names)
{
	struct excerpt_fn k = {1, 2, "reduce_unroll", 13, 1};
	struct excerpt_fn d = {1, 2, "warp_sum", 8, 0};
	CHECK(excerpt_names_fn("reduce_unroll", &k));
	CHECK(excerpt_names_fn("unroll", &k));
	CHECK(excerpt_names_fn("unroll8", &k));
	CHECK(excerpt_names_fn("reduce_unroll16", &k));
	CHECK(!excerpt_names_fn("roll", &k));
	CHECK(!excerpt_names_fn("unroll_warp", &k));
	CHECK(!excerpt_names_fn("reduce", &k));
	/* A __device__ helper only by its whole name. */
	CHECK(excerpt_names_fn("warp_sum", &d));
	CHECK(!excerpt_names_fn("sum", &d));
}

TEST(test_sass_pick)
{
	/* 40 instructions: setup, one marked at 5, a loop of marked ones at
	 * 20..29, and another opcode marked at 35. */
	int kind[40];
	unsigned char keep[40];
	for (int i = 0; i < 40; i++)
		kind[i] = i == 5 || (i >= 20 && i < 30) ? 0 : i == 35 ? 1 : -1;
	size_t kept = excerpt_sass_pick(kind, 40, 24, keep);
	CHECK(keep[3] && keep[5] && keep[13] && !keep[2] && !keep[14]);
	CHECK(keep[18] && keep[20] && keep[28] && !keep[17]);
	CHECK(keep[34] && keep[35] && keep[36] && !keep[37]);
	size_t count = 0;
	for (int i = 0; i < 40; i++)
		count += keep[i];
	CHECK(kept == count && kept <= 30);
	/* Nothing marked: the first cap. */
	for (int i = 0; i < 40; i++)
		kind[i] = -1;
	CHECK(excerpt_sass_pick(kind, 40, 24, keep) == 24 && keep[23] && !keep[24]);
}

TEST_MAIN({
	RUN(test_device_fns);
	RUN(test_names);
	RUN(test_sass_pick);
})
