/* Dependency files read as make reads them (key_deps_words), in the shapes
 * gcc, clang and nvcc write. */
#include <stdlib.h>
#include <string.h>

#include "base/exec.h"
#include "base/util.h"
#include "book/book.h"
#include "book/directive.h"
#include "measure/key.h"
#include "measure/toolchain.h"
#include "test.h"

/* The words of text joined by '|', for one comparison. */
static char *words_of(const char *text)
{
	size_t n = 0, len = 1;
	char **w = key_deps_words(text, &n);
	for (size_t i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	char *out = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, "|");
		strcat(out, w[i]);
	}
	argv_free(w);
	return out;
}

#define CHECK_WORDS(text, want)                                            \
	do {                                                               \
		char *got_ = words_of(text);                               \
		CHECK_STR(got_, want);                                     \
		free(got_);                                                \
	} while (0)

/* What gcc 12 wrote for -MD -MP (a path with a space, "$" and "#" in
 * names), and clang 14 for the same. */
TEST(test_deps_gcc_clang)
{
	CHECK_WORDS("s.o: sp\\ ace/s.c /usr/include/stdc-predef.h sp\\ ace/h$$x.h \\\n"
	            " sp\\ ace/../k/h\\#1.h\n"
	            "/usr/include/stdc-predef.h:\n"
	            "sp\\ ace/h$$x.h:\n"
	            "sp\\ ace/../k/h\\#1.h:\n",
	            "sp ace/s.c|/usr/include/stdc-predef.h|sp ace/h$x.h|"
	            "sp ace/../k/h#1.h");
	CHECK_WORDS("s.o: sp\\ ace/s.c sp\\ ace/h$$x.h sp\\ ace/../k/h\\#1.h\n\n"
	            "sp\\ ace/h$$x.h:\n\nsp\\ ace/../k/h\\#1.h:\n",
	            "sp ace/s.c|sp ace/h$x.h|sp ace/../k/h#1.h");
	/* Several targets (-MT 'a.o b.o'). */
	CHECK_WORDS("a.o b.o: k/a.c \\\n k/a.h\n", "k/a.c|k/a.h");
}

/* nvcc: a blank before the colon, four-blank continuation lines. */
TEST(test_deps_nvcc)
{
	CHECK_WORDS("main.o : kernels/m/main.cu \\\n"
	            "    /usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_runtime.h \\\n"
	            "    kernels/m/util.cuh \\\n"
	            "    kernels/sp\\ ace/k.cuh\n",
	            "kernels/m/main.cu|"
	            "/usr/local/cuda/bin/../targets/x86_64-linux/include/cuda_runtime.h|"
	            "kernels/m/util.cuh|kernels/sp ace/k.cuh");
	/* Windows line ends, and a rule per source. */
	CHECK_WORDS("a.o : a.cu \\\r\n    a.h\r\nb.o : b.cu\r\n", "a.cu|a.h|b.cu");
}

/* The corners of make's reading: backslashes before a blank, comments,
 * double colons, order-only prerequisites, escaped colons. */
TEST(test_deps_corners)
{
	/* Two backslashes before a blank: one backslash, and the word ends. */
	CHECK_WORDS("t: a\\\\ b\n", "a\\|b");
	/* Three: a backslash and a blank inside the word. */
	CHECK_WORDS("t: a\\\\\\ b\n", "a\\ b");
	/* A backslash elsewhere stays. */
	CHECK_WORDS("t: a\\b.h\n", "a\\b.h");
	CHECK_WORDS("# a comment\nt: a.h # another\n", "a.h");
	CHECK_WORDS("t:: a.h\n", "a.h");
	CHECK_WORDS("t: a.h | order\n", "a.h|order");
	CHECK_WORDS("t\\:x: a\\:b.h\n", "a:b.h");
	CHECK_WORDS("t:a.h\n", "a.h");
	CHECK_WORDS("", "");
	CHECK_WORDS("no colon here\n", "");
	/* A continuation right at the end of the file. */
	CHECK_WORDS("t: a.h \\\n", "a.h");
}

/* Files that the compilers wrote (tests/fixtures/deps): nvcc 13.0 on an
 * H200 host, for -MD -MP of main.cu in a folder with a space, and for one
 * compile of two sources (its file lists the last one's, under the
 * program's name); gcc 12 for -MD -MP. */
TEST(test_deps_fixtures)
{
	static const struct {
		const char *file, *first, *last;
		size_t n;
	} cases[] = {
	    {"nvcc-13.0-MD-MP.d", "kernels/cu da/main.cu", "kernels/cu da/main.cuh", 189},
	    {"nvcc-13.0-two-sources.d", "kernels/cu da/part.cu",
	     "kernels/cu da/part.cuh", 188},
	    {"gcc-12-MD-MP.d", "sp ace/s.c", "sp ace/../k/h#1.h", 4},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char *path = xasprintf("tests/fixtures/deps/%s", cases[c].file);
		char *text = file_read(path, NULL);
		free(path);
		CHECK(text != NULL);
		if (!text)
			continue;
		size_t n = 0;
		char **w = key_deps_words(text, &n);
		CHECK(n == cases[c].n);
		CHECK_STR(n ? w[0] : NULL, cases[c].first);
		CHECK_STR(n ? w[n - 1] : NULL, cases[c].last);
		for (size_t i = 0; i < n; i++) {
			CHECK(!strchr(w[i], ':') && !strchr(w[i], '\\'));
			for (size_t k = 0; k < i; k++)
				CHECK(strcmp(w[i], w[k]));
		}
		argv_free(w);
		free(text);
	}
}

/* A program that may use the GPU (CUDA, Python, a run: command) has a key
 * that names the machine's GPU, so its results are not taken for another
 * card's; a C program's key does not, and none does on a machine with no
 * GPU. */
static void test_key_names_gpu(void)
{
	struct directive d = {0};
	struct toolchain tc = {0};
	tc.cc_version = "cc 1";
	tc.nvcc_version = "nvcc 1";
	struct exper py = {0}, run = {0}, c = {0};
	py.id = "py", py.source = "k/p.py", py.dir = &d, py.runs = 1;
	run.id = "r", run.run = "julia k/x.jl", run.dir = &d, run.runs = 1;
	c.id = "c", c.source = "k/c.c", c.dir = &d, c.runs = 1;
	struct exper *all[] = {&py, &run, &c};
	char before[3][33];
	for (size_t i = 0; i < 3; i++) {
		key_compute(all[i], &tc, NULL, 0);
		memcpy(before[i], all[i]->key, 33);
	}
	tc.gpu = 1;
	tc.gpu_id = "NVIDIA H200;GPU-1;580.1;";
	for (size_t i = 0; i < 3; i++) {
		key_compute(all[i], &tc, NULL, 0);
		const char *gpu = cJSON_GetStringValue(
		    cJSON_GetObjectItem(all[i]->key_parts, "gpu"));
		CHECK_STR(gpu, i < 2 ? tc.gpu_id : "");
		CHECK((strcmp(before[i], all[i]->key) != 0) == (i < 2));
	}
	char one[33];
	memcpy(one, py.key, 33);
	tc.gpu_id = "NVIDIA H200;GPU-2;580.1;";
	key_compute(&py, &tc, NULL, 0);
	CHECK(strcmp(one, py.key) != 0);
	for (size_t i = 0; i < 3; i++)
		cJSON_Delete(all[i]->key_parts);
}

TEST_MAIN({
	RUN(test_key_names_gpu);
	RUN(test_deps_gcc_clang);
	RUN(test_deps_nvcc);
	RUN(test_deps_corners);
	RUN(test_deps_fixtures);
})
