/* The bundle's helpers: safe text, strict numbers, paths, arrays, records
 * as bytes, the meta read API, commands as argv, the machine check. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book/book.h"
#include "measure/command.h"
#include "base/exec.h"
#include "measure/machine.h"
#include "bundle/results.h"
#include "bundle/state.h"
#include "test.h"
#include "measure/toolchain.h"
#include "base/util.h"

TEST(test_text_make_safe)
{
	size_t n;
	CHECK(text_make_safe("plain\ttext\n", 11, &n) == NULL);
	char *s = text_make_safe("a\0b\x1b[1m\x07\xff\r\n\rz", 13, &n);
	CHECK_STR(s, "a\xe2\x90\x80" "b\xe2\x90\x9b[1m\xe2\x90\x87\xef\xbf\xbd\r\n\xe2\x90\x8dz");
	CHECK(n == strlen(s));
	free(s);
	/* A truncated multi-byte sequence at the end. */
	s = text_make_safe("ok\xe2\x90", 4, &n);
	CHECK_STR(s, "ok\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	CHECK(text_make_safe("caf\xc3\xa9", 5, &n) == NULL);
}

TEST(test_parse_numbers)
{
	long v;
	double d;
	CHECK(parse_long("4", 1, 100, &v) == 0 && v == 4);
	CHECK(parse_long("4x", 1, 100, &v) != 0);
	CHECK(parse_long("", 1, 100, &v) != 0);
	CHECK(parse_long(" 4", 1, 100, &v) != 0);
	CHECK(parse_long("4294967297", 1, 100, &v) != 0);
	CHECK(parse_long("99999999999999999999999", 1, 100, &v) != 0);
	CHECK(parse_long("0", 1, 100, &v) != 0);
	CHECK(parse_double("1.5", 0.001, 10, &d) == 0 && d == 1.5);
	CHECK(parse_double("1e999", 0.001, 1e9, &d) != 0);
	CHECK(parse_double("nan", 0.001, 1e9, &d) != 0);
	CHECK(parse_double("2s", 0.001, 1e9, &d) != 0);
	CHECK_STR(plural(1), "");
	CHECK_STR(plural(0), "s");
}

TEST(test_array_grow)
{
	int *xs = NULL;
	size_t n = 0;
	for (int i = 0; i < 10000; i++)
		*ARRAY_PUSH(xs, n) = i;
	n -= 3;
	*ARRAY_PUSH(xs, n) = -1;
	CHECK(n == 9998 && xs[9996] == 9996 && xs[9997] == -1);
	free(xs);
}

TEST(test_records_bytes)
{
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	static const char text[] = "{\"a\":1}\n{\"a\":2}\0\n{\"a\":3}\n";
	CHECK(records_parse_n(text, sizeof text - 1, &rows, &n, &err) != 0);
	CHECK(n == 1 && err && strstr(err, "line 2: a NUL byte"));
	free(err);
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	rows = NULL;
	n = 0;
	CHECK(records_parse("{\"s\":\"a\\u001bb\"}\n", &rows, &n, &err) == 0);
	CHECK(records_make_safe(rows, n) == 1);
	char *t = records_text(rows, n);
	CHECK_STR(t, "{\"s\":\"a\xe2\x90\x9b" "b\"}\n");
	free(t);
	cJSON_Delete(rows[0]);
	free(rows);
}

static void put(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);
	FILE *f = fopen(p, "w");
	fputs(text, f);
	fclose(f);
	free(p);
}

TEST(test_meta_load)
{
	char tmpl[] = "/tmp/labbook-unit.XXXXXX";
	char *dir = mkdtemp(tmpl);
	/* An older bundle: no state, commands as strings only. */
	put(dir, "old.meta.json", "{\"id\":\"old\",\"date\":\"2026-01-01T00:00:00Z\","
	    "\"compile\":\"cc -o build/exp/old 'it s.c'\",\"command\":\"build/exp/old -n 2\"}");
	put(dir, "new.meta.json", "{\"id\":\"new\",\"state\":\"cached\",\"runs\":3,"
	    "\"compile_argv\":[\"cc\",\"it's.c\"],\"run_argv\":[\"build/exp/new\"],"
	    "\"env\":[\"A=1\"],\"compile\":\"cc 'it'\\\\''s.c'\",\"command\":\"A=1 build/exp/new\"}");
	put(dir, "bad.error.json", "{\"stage\":\"compile\",\"output\":\"oops\",\"date\":\"d\"}");
	struct bundle *b = bundle_open(dir);
	struct result_meta m;
	results_meta_load(b, "old", NULL, &m);
	CHECK(m.state == RESULT_ELSEWHERE && m.runs == 1);
	CHECK_STR(m.date, "2026-01-01T00:00:00Z");
	CHECK(m.compile_argv[0] && !strcmp(m.compile_argv[3], "it s.c"));
	CHECK_STR(m.run_cmd, "build/exp/old -n 2");
	results_meta_free(&m);
	results_meta_load(b, "new", NULL, &m);
	CHECK(m.state == RESULT_ELSEWHERE && m.runs == 3);
	CHECK_STR(m.compile_argv[1], "it's.c");
	CHECK_STR(m.env[0], "A=1");
	results_meta_free(&m);
	results_meta_load(b, "bad", NULL, &m);
	CHECK(m.state == RESULT_NONE && m.failed);
	CHECK_STR(m.why, "compile error");
	CHECK_STR(m.failed_output, "oops");
	results_meta_free(&m);
	results_meta_load(b, "none", NULL, &m);
	CHECK(m.state == RESULT_NONE && !m.failed && m.compile_argv &&
	      !m.compile_argv[0]);
	results_meta_free(&m);
	results_meta_free(NULL);
	char *p = bundle_path(b, "ilp", BF_LISTING);
	CHECK(strstr(p, "/ilp.sass") != NULL);
	free(p);
	p = derived_id("ilp", DERIVED_PTXAS);
	CHECK_STR(p, "ilp_ptxas");
	free(p);
	char **ids;
	size_t n;
	CHECK(bundle_list(b, &ids, &n) == 0 && n == 0 && ids[0] == NULL);
	argv_free(ids);
	bundle_free(b);
	bundle_free(NULL);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
}

/* The one decision of what a page says of an experiment's results. */
TEST(test_state_decide)
{
	char tmpl[] = "/tmp/labbook-unit.XXXXXX";
	char *dir = mkdtemp(tmpl);
	put(dir, "machine.json", "{\"gpu\":\"none\",\"host\":\"Linux 1 x\"}");
	put(dir, "old.meta.json", "{\"source_key\":\"k1\"}");
	put(dir, "a.meta.json", "{\"source_key\":\"k1\",\"build\":"
	    "\"2026-01-01T00:00:00.000001Z\"}");
	put(dir, "b.meta.json", "{\"source_key\":\"k1\",\"build\":"
	    "\"2026-01-01T00:00:00.000002Z\"}");
	struct bundle *b = bundle_open(dir);
	/* Not this machine's, or a build that runs nothing. */
	CHECK(result_state_decide(b, "b", "k1") == RESULT_ELSEWHERE);
	CHECK(result_state_decide(b, "b", "k2") == RESULT_CHANGED);
	CHECK(result_state_decide(b, "gone", "k1") == RESULT_NONE);
	char *where = result_state_machine(b, NULL);
	CHECK_STR(where, "no GPU, host Linux 1 x");
	free(where);
	/* Run on the bundle's host, or on another. */
	where = result_state_machine(b, "Linux 1 x");
	CHECK_STR(where, "no GPU, host Linux 1 x");
	free(where);
	where = result_state_machine(b, "Linux 2 y");
	CHECK_STR(where, "host Linux 2 y");
	free(where);
	b->here = 1;
	CHECK(result_state_decide(b, "b", "k1") == RESULT_THIS_BUILD);
	CHECK(result_state_decide(b, "a", "k1") == RESULT_EARLIER);
	CHECK(result_state_decide(b, "old", NULL) == RESULT_EARLIER);
	CHECK(result_state_decide(b, "a", "k2") == RESULT_CHANGED);
	CHECK_STR(result_state_name(RESULT_EARLIER),
	          "measured in an earlier build here");
	bundle_free(b);
	/* A failure newer than every good run: that build measured nothing
	 * that stands. */
	put(dir, "c.error.json", "{\"build\":\"2026-01-01T00:00:00.000003Z\"}");
	b = bundle_open(dir);
	b->here = 1;
	CHECK(result_state_decide(b, "b", "k1") == RESULT_EARLIER);
	/* A rendering writes nothing: a failure stays in memory, a commit is
	 * refused, and the folder is as it was. */
	diag_quiet(1);
	CHECK(bundle_fail(b, "d", cJSON_CreateObject()) == 0);
	CHECK(bundle_get_meta(b, "d")->failure != NULL);
	struct result_files f = {"{\"n\":1}\n", NULL, 0, {NULL}, NULL};
	CHECK(bundle_commit(b, "e", &f, cJSON_CreateObject()) != 0);
	CHECK(bundle_set_machine(b, cJSON_CreateObject()) != 0);
	diag_quiet(0);
	char *p = bundle_path(b, "d", BF_ERROR);
	CHECK(access(p, F_OK) != 0);
	free(p);
	p = bundle_path(b, "e", BF_RECORDS);
	CHECK(access(p, F_OK) != 0);
	free(p);
	/* A build that runs writes, and its id is then the newest. */
	bundle_run_begin(b);
	CHECK(bundle_commit(b, "e", &f, cJSON_CreateObject()) == 0);
	CHECK(result_state_decide(b, "e", NULL) == RESULT_THIS_BUILD);
	CHECK(result_state_decide(b, "b", "k1") == RESULT_EARLIER);
	bundle_free(b);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
}

TEST(test_commands)
{
	struct chapter ch = {0};
	struct directive d = {0};
	struct exper e = {0};
	e.id = "q";
	e.ch = &ch;
	e.dir = &d;
	e.source = "kernels/q/it's.c";
	e.flags = "-DX='a b' -O1";
	e.args = "--n \"1 2\" x";
	char **argv = command_compile(&e, NULL);
	size_t n = 0;
	while (argv[n])
		n++;
	CHECK_STR(argv[n - 4], "kernels/q/it's.c");
	CHECK_STR(argv[n - 3], "-DX=a b");
	CHECK_STR(argv[n - 2], "-O1");
	CHECK_STR(argv[n - 1], "-lm");
	argv_free(argv);
	argv = command_run(&e);
	CHECK_STR(argv[0], "build/exp/q");
	CHECK_STR(argv[2], "1 2");
	CHECK(argv[4] == NULL);
	argv_free(argv);
}

TEST(test_machine_check)
{
	struct toolchain tc = {0};
	struct bundle b = {0};
	b.dir = "res";
	tc.probe = cJSON_Parse("{\"gpu\":\"H200\",\"uuid\":\"GPU-b\"}");
	CHECK(machine_check(&b, &tc) == 0); /* no machine.json yet */
	b.machine = cJSON_Parse("{\"gpu\":\"H100\",\"uuid\":\"GPU-a\"}");
	diag_quiet(1);
	CHECK(machine_check(&b, &tc) != 0);
	diag_quiet(0);
	cJSON_Delete(b.machine);
	b.machine = cJSON_Parse("{\"gpu\":\"H200\",\"uuid\":\"GPU-a\","
	                        "\"gpu_uuids\":[\"GPU-a\",\"GPU-b\"]}");
	CHECK(machine_check(&b, &tc) == 0);
	cJSON_Delete(b.machine);
	/* This machine: its host's words and its GPU, by UUID. */
	setenv("LABBOOK_COMMIT", "0123", 1);
	b.machine = cJSON_Parse("{\"gpu\":\"H200\",\"uuid\":\"GPU-b\"}");
	machine_add_host(b.machine);
	CHECK(machine_is_here(&b, &tc) == 1);
	cJSON_ReplaceItemInObject(b.machine, "uuid", cJSON_CreateString("GPU-c"));
	CHECK(machine_is_here(&b, &tc) == 0);
	cJSON_Delete(tc.probe);
	tc.probe = NULL;
	CHECK(machine_is_here(&b, &tc) == 0); /* no GPU here */
	cJSON_ReplaceItemInObject(b.machine, "gpu", cJSON_CreateString("none"));
	CHECK(machine_is_here(&b, &tc) == 1);
	cJSON_ReplaceItemInObject(b.machine, "host", cJSON_CreateString("Plan 9"));
	CHECK(machine_is_here(&b, &tc) == 0);
	cJSON_Delete(b.machine);
	unsetenv("LABBOOK_COMMIT");
	tc.probe = NULL;
	toolchain_free(&tc);
	toolchain_free(NULL);
}

TEST_MAIN({
	RUN(test_text_make_safe);
	RUN(test_parse_numbers);
	RUN(test_array_grow);
	RUN(test_records_bytes);
	RUN(test_meta_load);
	RUN(test_state_decide);
	RUN(test_commands);
	RUN(test_machine_check);
})
