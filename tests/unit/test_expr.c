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
	/* The whole text is parsed before anything is looked up: a mistake
	 * of syntax is told before a missing experiment, and otherwise the
	 * first problem found is the one told. */
	EVAL_ERR("nosuch.x[ilp 8]", "expected a comparison (= != < <= > >=) at column 14");
	EVAL_ERR("max(1, nosuch.x) + frobnicate(1)", "no results for experiment");
	EVAL_ERR("ilp.gflop[ilp=8", "expected ']'");
	EVAL_ERR("pow(2, machine.gpu)", "pow needs a number, not a string");
}

/* What a message of a step that fails holds; frees it. */
static int err_has(char *err, const char *part)
{
	int ok = err && strstr(err, part);
	if (!ok)
		fprintf(stderr, "got '%s', want a message with '%s'\n",
		        err ? err : "(none)", part);
	free(err);
	return ok;
}

/* The functions and references take values already read: no text. */
TEST(test_func_value)
{
	struct value args[3] = {{0}}, out = {0};
	char *err = NULL;
	value_set_num(&args[0], 3);
	value_set_num(&args[1], 1);
	value_set_bool(&args[2], 1);
	CHECK(func_call("median", args, 3, &out, &err) == 0 && out.num == 1);
	CHECK(func_call("sum", args, 3, &out, &err) == 0 && out.num == 5);
	CHECK(func_call("pow", args, 1, &out, &err) != 0 &&
	      err_has(err, "pow() takes 2 arguments"));
	CHECK(func_call("max", args, 0, &out, &err) != 0 &&
	      err_has(err, "max() needs an argument"));
	CHECK(func_call("argmax", args, 2, &out, &err) != 0 &&
	      err_has(err, "wants a column and a field name"));
	CHECK(func_call("nope", args, 1, &out, &err) != 0 &&
	      err_has(err, "unknown function 'nope'"));
	/* A result that is not finite fails and leaves out as it was. */
	value_set_num(&out, 7);
	value_set_num(&args[0], 0);
	CHECK(func_call("log2", args, 1, &out, &err) != 0 &&
	      err_has(err, "log2 is not a finite number (infinite)") &&
	      out.type == VAL_NUM && out.num == 7);
	CHECK(value_set_finite(&out, NAN, "a sum", &err) != 0 &&
	      err_has(err, "a sum is not a finite number (undefined)"));
	args[0].type = VAL_STR;
	args[0].str = xstrdup("x");
	CHECK(func_call("abs", args, 1, &out, &err) != 0 &&
	      err_has(err, "abs needs a number, not a string ('x')"));
	CHECK(func_word_arg("argmin", 1) && !func_word_arg("argmin", 0) &&
	      !func_word_arg("max", 1));

	struct eval_facts facts = {0};
	struct exp_result *r = NULL;
	CHECK(ref_records(b, "nosuch", &facts, &r, &err) != 0 &&
	      err_has(err, "no results for experiment 'nosuch'"));
	CHECK(ref_records(b, "ilp", &facts, &r, &err) == 0 && r->nrows == 4);
	struct filter f = {0};
	struct value rhs = {0};
	value_set_num(&rhs, 8);
	filter_add(&f, xstrdup("ilp"), OP_EQ, &rhs);
	CHECK(rhs.type == VAL_NONE);
	CHECK(ref_column(r, "gflops", &f, "ilp.gflops[ilp=8]", &out, &err) == 0 &&
	      out.type == VAL_COL && out.col.n == 2 &&
	      !strcmp(out.col.expr, "ilp.gflops[ilp=8]"));
	CHECK(ref_column(r, "gflop", &f, "ilp.gflop", &out, &err) != 0 &&
	      err_has(err, "experiment 'ilp' has no field 'gflop'; its fields: "
	              "view, ilp, threads, gflops"));
	filter_free(&f);
	CHECK(f.n == 0 && filter_match(&f, r->rows[0]));
	CHECK(ref_machine(b, "sm_count", &facts, &out, &err) == 0 &&
	      out.type == VAL_NUM && out.num == 132);
	CHECK(ref_machine(b, "nope", &facts, &out, &err) != 0 &&
	      err_has(err, "machine.json has no field 'nope'"));
	for (size_t i = 0; i < 3; i++)
		value_free(&args[i]);
	value_free(&out);
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

/* A tree is made once, with no bundle, and evaluated as often as wanted;
 * a mistake of syntax is found with its column; the reads name what was
 * read. */
TEST(test_tree)
{
	struct expr *x = NULL;
	char *err = NULL;
	size_t col = 0;
	CHECK(expr_parse("max(ilp.gflops[view=sm]) / 2 > 100", &x, &err, &col) == 0);
	struct value v;
	struct eval_reads reads = {0};
	struct eval_facts f = {0};
	f.reads = &reads;
	for (int i = 0; i < 2; i++) {
		CHECK(expr_eval_tree(x, b, &v, &err, i ? &f : NULL) == 0);
		CHECK(v.type == VAL_BOOL && v.num == 1);
		value_free(&v);
	}
	CHECK(reads.n == 1 && !strcmp(reads.v[0].id, "ilp") &&
	      !strcmp(reads.v[0].field, "gflops") && reads.v[0].n == 4);
	eval_reads_free(&reads);
	expr_free(x);
	CHECK(expr_parse("max(ilp.gflops", &x, &err, &col) != 0 && !x);
	CHECK(col == 15);
	CHECK_STR(err, "expected ')' or ',' at column 15");
	free(err);
	err = NULL;
	CHECK(expr_parse("1 +* 2", &x, &err, &col) != 0 && col == 4);
	free(err);
	err = NULL;
	CHECK(conds_parse("view=sm, ilp>=", &x, &err, &col) != 0);
	free(err);
	err = NULL;
	/* A reference to an experiment that is not there parses: whether it
	 * is there is the bundle's to say. */
	CHECK(expr_parse("nosuch.x", &x, &err, &col) == 0);
	CHECK(expr_eval_tree(x, b, &v, &err, NULL) != 0);
	CHECK(err && strstr(err, "no results for experiment 'nosuch'"));
	free(err);
	expr_free(x);
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
	RUN(test_func_value);
	RUN(test_tree);
	bundle_free(b);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(cmd);
})
