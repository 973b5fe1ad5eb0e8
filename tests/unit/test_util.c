/* Buffers, records, argument splitting, UTF-8, hashing, escaping, paths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/exec.h"
#include "bundle/results.h"
#include "test.h"
#include "base/util.h"

TEST(test_buf)
{
	struct buf b = BUF_INIT;
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%d,", i);
	CHECK(b.len == strlen(b.data));
	CHECK(!strncmp(b.data, "0,1,2,", 6));
	buf_reset(&b);
	buf_puts_html(&b, "<script>a & 'b' \"c\"</script>");
	CHECK_STR(b.data, "&lt;script&gt;a &amp; &#39;b&#39; &quot;c&quot;&lt;/script&gt;");
	char *d = buf_detach(&b);
	CHECK(b.data == NULL && b.len == 0);
	free(d);
	buf_free(&b);
}

TEST(test_records)
{
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(records_parse("{\"a\":1}\n\n{\"a\":2,\"s\":\"x\"}\n", &rows, &n, &err) == 0);
	CHECK(n == 2);
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	rows = NULL;
	n = 0;
	CHECK(records_parse("{\"a\":1}\n{\"a\":nan}\n", &rows, &n, &err) != 0);
	CHECK(err && strstr(err, "line 2: malformed JSON"));
	CHECK(n == 1);
	free(err);
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	rows = NULL;
	n = 0;
	CHECK(records_parse("{\"a\":[1,2]}\n", &rows, &n, &err) != 0);
	CHECK(err && strstr(err, "line 1: field 'a' is an array"));
	free(err);
	CHECK(records_parse("[1]\n", &rows, &n, &err) != 0);
	CHECK(err && strstr(err, "must be a JSON object"));
	free(err);
	CHECK(records_parse("{\"a\":1e999}\n", &rows, &n, &err) != 0);
	CHECK(err && strstr(err, "not a finite number"));
	free(err);
	free(rows);
}

TEST(test_argv)
{
	size_t n;
	char **a = argv_split("  --ilp 1,2 'two words' \"q\\\"x\" end ", &n);
	CHECK(n == 5);
	CHECK_STR(a[0], "--ilp");
	CHECK_STR(a[2], "two words");
	CHECK_STR(a[3], "q\"x");
	CHECK(a[5] == NULL);
	char *j = argv_join(a);
	CHECK_STR(j, "--ilp 1,2 'two words' 'q\"x' end");
	free(j);
	argv_free(a);
}

TEST(test_utf8)
{
	int line = 0;
	CHECK(utf8_valid("héllo ✓\n", strlen("héllo ✓\n"), &line));
	CHECK(!utf8_valid("ok\nbad \xff\n", 9, &line));
	CHECK(line == 2);
	CHECK(!utf8_valid("\xc0\xaf", 2, &line)); /* overlong */
	CHECK(!utf8_valid("\xed\xa0\x80", 3, &line)); /* surrogate */
	CHECK(!utf8_valid("\xe2\x9c", 2, &line)); /* cut short */
}

TEST(test_hash)
{
	char a[33], b[33], c[33];
	struct hasher *h = hasher_new();
	hasher_add_str(h, "ab");
	hasher_add_str(h, "c");
	hasher_done(h, a);
	h = hasher_new();
	hasher_add_str(h, "a");
	hasher_add_str(h, "bc");
	hasher_done(h, b);
	h = hasher_new();
	hasher_add_str(h, "ab");
	hasher_add_str(h, "c");
	hasher_done(h, c);
	CHECK(strlen(a) == 32);
	CHECK(strcmp(a, b) != 0);
	CHECK(strcmp(a, c) == 0);
}

TEST(test_paths)
{
	char *s = path_stem("kernels/ilp/ilp.cu");
	CHECK_STR(s, "ilp");
	free(s);
	CHECK_STR(path_ext("a/b.c"), ".c");
	char *j = path_join("a/", "b");
	CHECK_STR(j, "a/b");
	free(j);
	j = path_join("a", "/abs");
	CHECK_STR(j, "/abs");
	free(j);
}

/* path_canonical: lexical, against a root, one string per path. */
TEST(test_path_canonical)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
		{"kernels/a/../common/c.h", "kernels/common/c.h"},
		{"kernels/../kernels/a/./a.cu", "kernels/a/a.cu"},
		{"kernels//a///a.cu", "kernels/a/a.cu"},
		{"./kernels/a/", "kernels/a"},
		{"/p/kernels/common/c.h", "kernels/common/c.h"},
		{"/p/kernels/a/../common/c.h", "kernels/common/c.h"},
		{"/p//kernels/./x.h", "kernels/x.h"},
		{"/q/../p/k.h", "k.h"},
		{"/p", "."},
		{"a/..", "."},
		{".", "."},
		{"../a.cu", NULL},
		{"a/../../b", NULL},
		{"kernels/a/../../../p/k.h", NULL},
		{"/etc/passwd", NULL},
		{"/pp/k.h", NULL},
		{"/", NULL},
		{"/p/../etc", NULL},
		{"", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *got = path_canonical("/p", cases[i].path);
		if (cases[i].want)
			CHECK_STR(got, cases[i].want);
		else
			CHECK(got == NULL);
		free(got);
	}
	/* A root written loosely is the same root. */
	char *got = path_canonical("/p/./q/", "/p/q/r.h");
	CHECK_STR(got, "r.h");
	free(got);
	CHECK(path_canonical("relative", "a.h") == NULL);
	CHECK(path_canonical("/p", NULL) == NULL);
}

/* path_resolve: symlinks followed; inside is known by its real path,
 * outside is refused whichever way it was written. */
TEST(test_path_resolve)
{
	char tmpl[] = "/tmp/labbook-unit.XXXXXX", cwd[4096];
	CHECK(mkdtemp(tmpl) != NULL && getcwd(cwd, sizeof cwd) != NULL);
	char *outside = xasprintf("%s/outside.h", tmpl);
	char *proj = xasprintf("%s/proj", tmpl);
	CHECK(mkdir(proj, 0755) == 0 && chdir(proj) == 0);
	FILE *f = fopen(outside, "w");
	CHECK(f != NULL);
	fclose(f);
	CHECK(mkdir("k", 0755) == 0 && mkdir("k/a", 0755) == 0 &&
	      mkdir("k/common", 0755) == 0);
	f = fopen("k/common/c.h", "w");
	CHECK(f != NULL);
	fclose(f);
	CHECK(symlink("../common/c.h", "k/a/in.h") == 0);
	CHECK(symlink(outside, "k/a/out.h") == 0);
	CHECK(symlink(tmpl, "k/up") == 0);
	char *out = NULL, *why = NULL;
	CHECK(path_resolve("k/a/../common/c.h", &out, &why) == 0);
	CHECK_STR(out, "k/common/c.h");
	free(out);
	/* A symlinked file keeps its name; a symlinked folder is resolved. */
	CHECK(path_resolve("k/a/in.h", &out, &why) == 0);
	CHECK_STR(out, "k/a/in.h");
	free(out);
	char *abs = xasprintf("%s/k/a/in.h", proj);
	CHECK(path_resolve(abs, &out, &why) == 0);
	CHECK_STR(out, "k/a/in.h");
	free(out);
	free(abs);
	CHECK(symlink("common", "k/b") == 0);
	CHECK(path_resolve("k/b/c.h", &out, &why) == 0);
	CHECK_STR(out, "k/common/c.h");
	free(out);
	CHECK(path_resolve("k/b/../a/./in.h", &out, &why) == 0);
	CHECK_STR(out, "k/a/in.h");
	free(out);
	CHECK(path_resolve("k/b/", &out, &why) == 0);
	CHECK_STR(out, "k/common");
	free(out);
	CHECK(path_resolve("k/b", &out, &why) == 0);
	CHECK_STR(out, "k/b");
	free(out);
	CHECK(path_resolve("k/a/out.h", &out, &why) == -1 && out == NULL);
	CHECK(why && strstr(why, "is outside the project (it resolves to ") &&
	      strstr(why, "/outside.h)"));
	free(why);
	CHECK(path_resolve("k/up/outside.h", &out, &why) == -1);
	CHECK(why && strstr(why, "is outside the project (it resolves to "));
	free(why);
	CHECK(path_resolve("../outside.h", &out, &why) == -1);
	CHECK_STR(why, "is outside the project");
	free(why);
	CHECK(path_resolve("k/none.h", &out, &why) == -1);
	CHECK_STR(why, "is not found");
	free(why);
	diag_quiet(1);
	CHECK(path_check_inside("k/a/out.h") == -1);
	CHECK(path_check_inside("k/a/in.h") == 0);
	CHECK(path_check_inside(outside) == 0);
	diag_quiet(0);
	CHECK(chdir(cwd) == 0);
	char *rm = xasprintf("rm -rf '%s'", tmpl);
	CHECK(system(rm) == 0);
	free(rm);
	free(outside);
	free(proj);
}

TEST_MAIN({
	RUN(test_buf);
	RUN(test_records);
	RUN(test_argv);
	RUN(test_utf8);
	RUN(test_hash);
	RUN(test_paths);
	RUN(test_path_canonical);
	RUN(test_path_resolve);
})
