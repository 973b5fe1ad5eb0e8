/*
 * fuzz_expr.c - libFuzzer target: the expression language.
 *
 * An input is an expression, optionally followed by a newline and a
 * format, as in "{{ max(ilp.gflops) %.1f }}". The expression is evaluated
 * and formatted, and also parsed as a filter and matched against every
 * record, over a small fixed bundle written once to a temporary folder.
 * Built and run by "make fuzz"; not part of labbook itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "book/expr.h"
#include "book/format.h"
#include "bundle/results.h"
#include "base/util.h"

static const char machine_json[] =
	"{\"gpu\": \"Fuzz GPU <&>\", \"cc\": \"9.0\", \"sm_count\": 132,\n"
	" \"warp_size\": 32, \"max_threads_per_sm\": 2048,\n"
	" \"peak_fp32_gflops\": 66908.2, \"bw_theoretical_gbps\": 3352.3,\n"
	" \"zero\": 0, \"huge\": 1e308, \"tiny\": -1e-308, \"yes\": true,\n"
	" \"nothing\": null, \"list\": [1, 2], \"obj\": {\"a\": 1},\n"
	" \"measured\": {\"bw_copy_gbps\": 2996.9, \"mem_gib\": 79.2,\n"
	"               \"name\": \"%s%n%d\"}}\n";

static const char ilp_jsonl[] =
	"{\"view\":\"latency\",\"cycles\":4.05}\n"
	"{\"view\":\"sm\",\"ilp\":1,\"threads\":32,\"gflops\":31.0,"
	"\"gflops_lo\":30.8,\"gflops_hi\":31.1,\"throttled\":false}\n"
	"{\"view\":\"sm\",\"ilp\":8,\"threads\":1024,\"gflops\":480,"
	"\"gflops_lo\":470,\"gflops_hi\":490,\"throttled\":true}\n"
	"{\"view\":\"chip\",\"ilp\":4,\"threads\":256,\"gflops\":60000.5}\n"
	"{\"view\":\"chip\",\"ilp\":4,\"threads\":512,\"gflops\":null}\n";

static const char reduce_jsonl[] =
	"{\"kernel\":\"r1\",\"n\":1024,\"gbps\":100,\"ms\":0.5,\"correct\":true}\n"
	"{\"kernel\":\"32x16\",\"n\":1048576,\"gbps\":2500.25,\"ms\":0.01,"
	"\"correct\":false,\"note\":null}\n"
	"{\"kernel\":\"sm_90\",\"n\":-1,\"gbps\":0,\"ms\":1e300,\"note\":\"a\"}\n"
	"{\"kernel\":\"\",\"n\":0,\"gbps\":-0.0,\"best\":true}\n";

static char dir[] = "/tmp/labbook-fuzz-expr.XXXXXX";
static struct bundle *bundle;

static void put(const char *name, const char *text)
{
	char *path = path_join(dir, name);
	if (file_write_atomic(path, text, strlen(text)) != 0)
		abort();
	free(path);
}

static void cleanup(void)
{
	static const char *names[] = {"machine.json", "ilp.jsonl",
	                              "reduce.jsonl"};
	bundle_free(bundle);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char *path = path_join(dir, names[i]);
		unlink(path);
		free(path);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	diag_quiet(1);
	if (!mkdtemp(dir))
		abort();
	put("machine.json", machine_json);
	put("ilp.jsonl", ilp_jsonl);
	put("reduce.jsonl", reduce_jsonl);
	bundle = bundle_open(dir);
	atexit(cleanup);
	return 0;
}

static void match_all(const struct filter *f, const char *id)
{
	const struct exp_result *r = bundle_get(bundle, id);
	for (size_t i = 0; i < r->nrows; i++)
		filter_match(f, r->rows[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Every experiment named is remembered; start again now and then. */
	if (bundle->nexps > 64) {
		bundle_free(bundle);
		bundle = bundle_open(dir);
	}
	char *text = xstrndup((const char *)data, size);
	char *nl = strchr(text, '\n');
	const char *fmt = NULL;
	if (nl) {
		*nl = '\0';
		fmt = nl + 1;
	}

	struct value v;
	char *err = NULL;
	struct buf out = BUF_INIT;
	if (expr_eval(text, bundle, &v, &err) == 0) {
		value_format(&v, fmt, 1, &out, &err);
		if (fmt)
			format_valid(fmt);
	}
	value_free(&v);
	free(err);
	buf_free(&out);

	struct filter f;
	err = NULL;
	if (filter_parse(text, bundle, &f, &err) == 0) {
		match_all(&f, "ilp");
		match_all(&f, "reduce");
		filter_free(&f);
	}
	free(err);
	free(text);
	return 0;
}
