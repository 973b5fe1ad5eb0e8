/* Buffers, records, argument splitting, UTF-8, hashing, escaping. */
#include <stdlib.h>

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

TEST_MAIN({
	RUN(test_buf);
	RUN(test_records);
	RUN(test_argv);
	RUN(test_utf8);
	RUN(test_hash);
	RUN(test_paths);
})
