/* The expression language over a small bundle made in a temporary folder. */
#include <stdlib.h>
#include <unistd.h>

#include "book/expr.h"
#include "book/format.h"
#include "test.h"
#include "base/util.h"

static struct bundle *b;

static char *eval(const char *text, const char *fmt)
{
	struct value v;
	char *err = NULL;
	struct buf out = BUF_INIT;
	if (expr_eval(text, b, &v, &err) != 0 ||
	    value_format(&v, fmt, 0, &out, &err) != 0) {
		value_free(&v);
		buf_free(&out);
		char *e = xasprintf("ERROR: %s", err);
		free(err);
		return e;
	}
	value_free(&v);
	return buf_detach(&out);
}

#define EVAL(text, fmt, want)                  \
	do {                                   \
		char *got_ = eval(text, fmt);  \
		CHECK_STR(got_, want);         \
		free(got_);                    \
	} while (0)

#define EVAL_ERR(text, part)                                            \
	do {                                                            \
		char *got_ = eval(text, NULL);                          \
		if (!strstr(got_, "ERROR") || !strstr(got_, part)) {    \
			fprintf(stderr, "%s:%d: '%s' gave '%s', want an error " \
			        "with '%s'\n", __FILE__, __LINE__, text, got_, part); \
			test_failed_checks++;                           \
		}                                                       \
		free(got_);                                             \
	} while (0)

TEST(test_machine)
{
	EVAL("machine.sm_count", NULL, "132");
	EVAL("machine.gpu", NULL, "Test GPU");
	EVAL("machine.bw_copy_gbps", "%.1f", "2900.5");
	EVAL("machine.peak / 1000", "%.2f", "66.91");
	EVAL_ERR("machine.nope", "machine.json has no field 'nope'");
}

TEST(test_columns)
{
	EVAL("max(ilp.gflops)", NULL, "480");
	EVAL("min(ilp.gflops)", "%.1f", "30.0");
	EVAL("ilp.gflops[ilp=8, threads=1024]", "%.0f", "480");
	EVAL("count(ilp.gflops[ilp=1])", NULL, "2");
	EVAL("mean(ilp.gflops[threads=32])", "%.1f", "64.0");
	EVAL("median(ilp.gflops)", "%.1f", "174.0");
	EVAL("sum(ilp.threads[ilp=8])", NULL, "1056");
	EVAL("argmax(ilp.gflops, ilp)", NULL, "8");
	EVAL("argmin(ilp.gflops, threads)", NULL, "32");
	EVAL("first(ilp.view)", NULL, "sm");
	EVAL("count(ilp.gflops[view=sm, gflops >= 0.5 * max(ilp.gflops)])", NULL, "2");
	EVAL("count(ilp.gflops[view!=sm])", NULL, "0");
	EVAL("ilp.gflops[threads=32, ilp=1] / 10", "%.2f", "3.00");
}

TEST(test_arithmetic_logic)
{
	EVAL("1 + 2 * 3", NULL, "7");
	EVAL("(1 + 2) * 3", NULL, "9");
	EVAL("-2 + 5", NULL, "3");
	EVAL("10 / 4", "%.2f", "2.50");
	EVAL("2 > 1 && 1 >= 1", NULL, "true");
	EVAL("2 < 1 || !(1 == 1)", NULL, "false");
	EVAL("pow(2, 10)", NULL, "1024");
	EVAL("abs(-3.5)", "%.1f", "3.5");
	EVAL("round(2.6)", NULL, "3");
	EVAL("log2(1024)", NULL, "10");
	EVAL("max(1, 5, 3)", NULL, "5");
	EVAL("'a b' == 'a b'", NULL, "true");
}

TEST(test_formats)
{
	EVAL("1234.5678", NULL, "1235");
	EVAL("12.345", NULL, "12.3");
	EVAL("1.2345", NULL, "1.23");
	EVAL("1234.5678", "%.2f", "1234.57");
	EVAL("7.6", "%d", "8");
	EVAL("machine.gpu", "%s", "Test GPU");
	EVAL("0.25 * 100", "%.0f%%", "25%");
	char *g = eval("1", "%s %s");
	CHECK(strstr(g, "ERROR") && strstr(g, "not a format"));
	free(g);
	g = eval("machine.gpu", "%.1f");
	CHECK(strstr(g, "ERROR") && strstr(g, "format it with %s"));
	free(g);
	CHECK(!format_valid("%n"));
	CHECK(!format_valid("%s%s"));
	CHECK(format_valid("%.1f GB/s"));
	CHECK(format_valid("%+8.3e"));
	CHECK(format_valid("%-12s"));
	/* printf spent seconds and gigabytes on these. */
	CHECK(!format_valid("%.999999999f"));
	CHECK(!format_valid("%2147483648f"));
	CHECK(!format_valid("%123d"));
	/* Flags that C leaves undefined for the conversion. */
	CHECK(!format_valid("%#d"));
	CHECK(!format_valid("%05s"));
	/* A long text value is not cut. */
	char text[703], want[701];
	memset(want, 'x', 700);
	want[700] = '\0';
	snprintf(text, sizeof text, "'%s'", want);
	EVAL(text, "%s", want);
}

TEST(test_errors)
{
	EVAL_ERR("ilp.gflops", "selects 4 records");
	EVAL_ERR("ilp.gflops[ilp=16]", "selects no records");
	EVAL_ERR("max(ilp.gflops[ilp=16])", "selects no records");
	EVAL_ERR("ilp.gflop", "has no field 'gflop'; its fields: view, ilp, threads, gflops");
	EVAL_ERR("nosuch.x", "no results for experiment 'nosuch'");
	EVAL_ERR("frobnicate(1)", "unknown function 'frobnicate'");
	EVAL_ERR("1 +", "ends too early");
	EVAL_ERR("(1 + 2", "expected ')'");
	EVAL_ERR("1 2", "unexpected '2'");
	EVAL_ERR("gflops", "unknown name 'gflops'");
	EVAL_ERR("max(ilp.view)", "holds text");
	EVAL_ERR("machine.gpu + 1", "needs a number");
	EVAL_ERR("machine.gpu > 1", "cannot compare");
	EVAL_ERR("ilp.gflops[ilp 8]", "expected a comparison");
	EVAL_ERR("'open", "unterminated string");
	/* A null picked by argmax() crashed a filter (strcmp on NULL). */
	EVAL_ERR("count(nul.g[k=argmax(nul.g, note)])", "'note' is null");
	EVAL_ERR("argmax(nul.g, note) == 1", "'note' is null");
	EVAL("argmax(nul.g, k)", NULL, "b");
}

/* Deep nesting overflowed the stack. */
TEST(test_nesting)
{
	static char deep[100002];
	memset(deep, '(', 100000);
	deep[100000] = '1';
	EVAL_ERR(deep, "nests more than 200 deep");
	memset(deep, '-', 100000);
	EVAL_ERR(deep, "nests more than 200 deep");
	memset(deep, '!', 100000);
	EVAL_ERR(deep, "nests more than 200 deep");
	memcpy(deep, "max(", 4);
	EVAL_ERR(deep, "nests more than 200 deep");
	EVAL("((((((((((1))))))))))", NULL, "1");
	EVAL("- - - - 2", NULL, "2");
	struct filter f;
	char *err = NULL;
	memset(deep, '(', 100000);
	memcpy(deep, "ilp=", 4);
	CHECK(filter_parse(deep, b, &f, &err) != 0 && strstr(err, "nests"));
	free(err);
}

TEST(test_filter)
{
	struct filter f;
	char *err = NULL;
	CHECK(filter_parse("view=sm, ilp>=2", b, &f, &err) == 0);
	struct exp_result *r = bundle_get(b, "ilp");
	int n = 0;
	for (size_t i = 0; i < r->nrows; i++)
		n += filter_match(&f, r->rows[i]);
	CHECK(n == 2);
	filter_free(&f);
	CHECK(filter_parse("shape=32x16", b, &f, &err) == 0);
	filter_free(&f);
	CHECK(filter_parse("view=", b, &f, &err) != 0);
	free(err);
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);
	file_write_atomic(p, text, strlen(text));
	free(p);
}

TEST_MAIN({
	char tmpl[] = "/tmp/labbook-expr-XXXXXX";
	char *dir = mkdtemp(tmpl);
	put_file(dir, "machine.json",
	      "{\"gpu\":\"Test GPU\",\"sm_count\":132,\"peak\":66908.2,"
	      "\"measured\":{\"bw_copy_gbps\":2900.5}}");
	put_file(dir, "ilp.jsonl",
	      "{\"view\":\"sm\",\"ilp\":1,\"threads\":32,\"gflops\":30}\n"
	      "{\"view\":\"sm\",\"ilp\":1,\"threads\":1024,\"gflops\":250}\n"
	      "\n"
	      "{\"view\":\"sm\",\"ilp\":8,\"threads\":32,\"gflops\":98}\n"
	      "{\"view\":\"sm\",\"ilp\":8,\"threads\":1024,\"gflops\":480}\n");
	put_file(dir, "nul.jsonl",
	      "{\"k\":\"a\",\"g\":1,\"note\":null}\n"
	      "{\"k\":\"b\",\"g\":2,\"note\":null}\n");
	b = bundle_open(dir);
	RUN(test_machine);
	RUN(test_columns);
	RUN(test_arithmetic_logic);
	RUN(test_formats);
	RUN(test_errors);
	RUN(test_nesting);
	RUN(test_filter);
	bundle_free(b);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
})
