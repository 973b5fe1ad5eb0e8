/* nvcc's resource report (a fixture recorded on the H100) into fields. */
#include <stdlib.h>

#include "measure/ncu.h"
#include "bundle/ptxas.h"
#include "bundle/results.h"
#include "test.h"
#include "base/util.h"

static cJSON *find(cJSON **rows, size_t n, const char *kernel)
{
	for (size_t i = 0; i < n; i++) {
		const cJSON *k = cJSON_GetObjectItem(rows[i], "kernel");
		if (cJSON_IsString(k) && !strcmp(k->valuestring, kernel))
			return rows[i];
	}
	return NULL;
}

static double num(const cJSON *row, const char *f)
{
	const cJSON *v = row ? cJSON_GetObjectItem(row, f) : NULL;
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

TEST(test_spill_fixture)
{
	char *text = file_read("tests/fixtures/ptxas-spill.log", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	char *jsonl = ptxas_parse(text);
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0);
	CHECK(n >= 5);
	cJSON *dyn = find(rows, n, "fir_dynamic<32>");
	CHECK(dyn != NULL);
	CHECK(num(dyn, "registers") == 32);
	CHECK(num(dyn, "stack_bytes") == 128);
	CHECK(num(dyn, "spill_store_bytes") == 0);
	cJSON *unr = find(rows, n, "fir_unrolled<32>");
	CHECK(num(unr, "registers") == 39);
	CHECK(num(unr, "stack_bytes") == 0);
	const cJSON *arch = cJSON_GetObjectItem(dyn, "arch");
	CHECK(cJSON_IsString(arch) && !strcmp(arch->valuestring, "sm_90"));
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	free(jsonl);
	free(text);
}

TEST(test_spills_and_smem)
{
	const char *log =
	    "ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_80'\n"
	    "ptxas info    : Function properties for _Z3fooPf\n"
	    "    376 bytes stack frame, 380 bytes spill stores, 372 bytes spill loads\n"
	    "ptxas info    : Used 32 registers, used 1 barriers, 4224 bytes smem, 360 bytes cmem[0]\n";
	char *jsonl = ptxas_parse(log);
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0 && n == 1);
	if (n == 1) {
		CHECK(num(rows[0], "spill_store_bytes") == 380);
		CHECK(num(rows[0], "spill_load_bytes") == 372);
		CHECK(num(rows[0], "smem_bytes") == 4224);
		CHECK(num(rows[0], "registers") == 32);
		const cJSON *k = cJSON_GetObjectItem(rows[0], "kernel");
		CHECK(cJSON_IsString(k) && !strcmp(k->valuestring, "foo"));
		cJSON_Delete(rows[0]);
	}
	free(rows);
	free(jsonl);
	CHECK(ptxas_parse("nothing here\n") == NULL);
}

TEST(test_sass_fixture)
{
	char *text = file_read("tests/fixtures/sass-ilp.txt", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	char *jsonl = sass_parse(text);
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0);
	double ffma = -1, total = -1, probe = -1;
	for (size_t i = 0; i < n; i++) {
		const cJSON *k = cJSON_GetObjectItem(rows[i], "kernel");
		const cJSON *op = cJSON_GetObjectItem(rows[i], "op");
		if (!strcmp(k->valuestring, "fma_chains<8>") &&
		    !strcmp(op->valuestring, "FFMA")) {
			ffma = num(rows[i], "count");
			total = num(rows[i], "total");
		}
		if (!strcmp(k->valuestring, "lab::lab_clock_probe") &&
		    !strcmp(op->valuestring, "CS2R"))
			probe = num(rows[i], "count");
		cJSON_Delete(rows[i]);
	}
	CHECK(ffma == 264);
	CHECK(total == 304);
	CHECK(probe >= 1);
	char *clean = sass_clean(text);
	CHECK(strstr(clean, "/* 0x") == NULL);
	CHECK(strstr(clean, "FFMA R10, R2.reuse, R3.reuse, 1 ;") != NULL);
	free(clean);
	free(rows);
	free(jsonl);
	free(text);
}

TEST(test_ncu_fixture)
{
	char *text = file_read("tests/fixtures/ncu-constructed.csv", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	char *jsonl = ncu_parse(text, "branch_efficiency, inst_per_warp");
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0 && n == 2);
	if (n == 2) {
		CHECK_STR(cJSON_GetObjectItem(rows[0], "kernel")->valuestring,
		          "split<true, 2>");
		CHECK(num(rows[0], "branch_efficiency") == 100);
		CHECK(num(rows[0], "inst_per_warp") == 3109.5);
		CHECK(num(rows[1], "branch_efficiency") == 85.71);
		CHECK(num(rows[1], "block_threads") == 256);
		CHECK(num(rows[1], "grid_blocks") == 16384);
		CHECK(num(rows[1], "launch") == 1);
	}
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	free(jsonl);
	free(text);
	CHECK_STR(ncu_metric("achieved_occupancy"),
	          "sm__warps_active.avg.pct_of_peak_sustained_active");
	CHECK_STR(ncu_metric("dram__bytes_read.sum"), "dram__bytes_read.sum");
	char *f = ncu_field("dram__bytes_read.sum");
	CHECK_STR(f, "dram__bytes_read_sum");
	free(f);
}

/* Recorded on the H100 (ncu 2025.3.1): the occupancy experiment, whose
 * deliberate oversized launch makes ncu report errors among the rows. */
TEST(test_ncu_recorded)
{
	char *text = file_read("tests/fixtures/ncu-occupancy.csv", NULL);
	CHECK(text != NULL);
	if (!text)
		return;
	char *jsonl = ncu_parse(text, "achieved_occupancy");
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0 && n == 6);
	if (n == 6) {
		CHECK_STR(cJSON_GetObjectItem(rows[0], "kernel")->valuestring, "light");
		CHECK(num(rows[0], "block_threads") == 32);
		CHECK(num(rows[0], "grid_blocks") == 4224);
		CHECK(num(rows[0], "achieved_occupancy") == 48.60);
		CHECK(num(rows[2], "block_threads") == 64);
		CHECK(num(rows[2], "achieved_occupancy") == 94.70);
		CHECK(num(rows[5], "launch") == 5);
	}
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
	free(jsonl);
	free(text);
}


/* With -rdc, ptxas reports a device function's frame after an entry's: it
 * is not the entry's, and the entry's record names each field once. */
TEST(test_device_function_frame)
{
	const char *log =
	    "ptxas info    : Compiling entry function '_Z4stepi' for 'sm_90'\n"
	    "ptxas info    : Function properties for _Z4stepi\n"
	    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	    "ptxas info    : Used 24 registers, used 1 barriers\n"
	    "ptxas info    : Function properties for _Z4bodyi\n"
	    "    48 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n";
	char *jsonl = ptxas_parse(log);
	cJSON **rows = NULL;
	size_t n = 0;
	char *err = NULL;
	CHECK(jsonl && records_parse(jsonl, &rows, &n, &err) == 0 && n == 1);
	CHECK(jsonl && records_fields_once(jsonl, strlen(jsonl), rows, n,
	                                   &err) == 0);
	if (n == 1) {
		CHECK(num(rows[0], "stack_bytes") == 0);
		CHECK(num(rows[0], "spill_store_bytes") == 0);
		CHECK(num(rows[0], "registers") == 24);
		cJSON_Delete(rows[0]);
	}
	free(err);
	free(rows);
	free(jsonl);
}

TEST_MAIN({
	RUN(test_ncu_recorded);
	RUN(test_ncu_fixture);
	RUN(test_sass_fixture);
	RUN(test_spill_fixture);
	RUN(test_spills_and_smem);
	RUN(test_device_function_frame);
})
