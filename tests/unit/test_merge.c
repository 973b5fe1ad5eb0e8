/* Merging the records of several runs of one experiment. */
#include <stdlib.h>
#include <string.h>

#include "bundle/merge.h"
#include "bundle/results.h"
#include "test.h"

/* Parse each text of runs[] into rows; merge; parse the merged text back. */
static cJSON **merged(const char *const *texts, size_t n, size_t *nout, char **why)
{
	cJSON **rows[8];
	size_t nrows[8];
	char *err = NULL;
	for (size_t i = 0; i < n; i++) {
		rows[i] = NULL;
		nrows[i] = 0;
		if (records_parse(texts[i], &rows[i], &nrows[i], &err) != 0)
			return NULL;
	}
	char *text = records_merge((cJSON **const *)rows, nrows, n, why);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < nrows[i]; j++)
			cJSON_Delete(rows[i][j]);
		free(rows[i]);
	}
	if (!text)
		return NULL;
	cJSON **out = NULL;
	*nout = 0;
	if (records_parse(text, &out, nout, &err) != 0)
		out = NULL;
	free(text);
	return out;
}

static double num(const cJSON *row, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(row, k);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void free_rows(cJSON **rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cJSON_Delete(rows[i]);
	free(rows);
}

/* The run with the median median is kept whole; the extremes widen. */
TEST(test_merge_median_run)
{
	const char *runs[] = {
	    "{\"n\":4,\"gbps\":40,\"gbps_lo\":36,\"gbps_hi\":44,\"reps\":20,"
	    "\"median_ms\":0.1,\"min_ms\":0.09,\"max_ms\":0.111,\"q1_ms\":0.098,"
	    "\"clock_mhz\":1980,\"correct\":true}\n",
	    "{\"n\":4,\"gbps\":50,\"gbps_lo\":45,\"gbps_hi\":55,\"reps\":30,"
	    "\"median_ms\":0.08,\"min_ms\":0.072,\"max_ms\":0.088,\"q1_ms\":0.079,"
	    "\"clock_mhz\":1755,\"correct\":true}\n",
	    "{\"n\":4,\"gbps\":32,\"gbps_lo\":30,\"gbps_hi\":34,\"reps\":25,"
	    "\"median_ms\":0.125,\"min_ms\":0.118,\"max_ms\":0.133,\"q1_ms\":0.12,"
	    "\"clock_mhz\":1600,\"correct\":true}\n",
	};
	size_t n = 0;
	char *why = NULL;
	cJSON **m = merged(runs, 3, &n, &why);
	CHECK(m && n == 1);
	if (!m)
		return;
	CHECK(num(m[0], "median_ms") == 0.1);      /* run 1: the middle one */
	CHECK(num(m[0], "q1_ms") == 0.098);        /* its quartiles stay */
	CHECK(num(m[0], "clock_mhz") == 1980);
	CHECK(num(m[0], "gbps") == 40);
	CHECK(num(m[0], "min_ms") == 0.072);       /* extremes of all runs */
	CHECK(num(m[0], "max_ms") == 0.133);
	CHECK(fabs(num(m[0], "gbps_hi") - 40 * 0.1 / 0.072) < 1e-9);
	CHECK(fabs(num(m[0], "gbps_lo") - 40 * 0.1 / 0.133) < 1e-9);
	CHECK(num(m[0], "reps") == 75);
	CHECK(num(m[0], "runs") == 3);
	CHECK(num(m[0], "run_min_ms") == 0.08);
	CHECK(num(m[0], "run_max_ms") == 0.125);
	CHECK(fabs(num(m[0], "run_spread") - (0.125 - 0.08) / 0.1) < 1e-12);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(m[0], "correct")));
	free_rows(m, n);
}

/* One wrong run makes the point wrong, whichever run is kept. */
TEST(test_merge_wrong_anywhere)
{
	const char *runs[] = {
	    "{\"v\":\"a\",\"median_ms\":1,\"correct\":true,\"throttled\":false}\n"
	    "{\"fact\":\"bw\",\"value\":10}\n{\"part\":\"x\",\"count\":3,\"correct\":true}\n",
	    "{\"v\":\"a\",\"median_ms\":2,\"correct\":true,\"throttled\":true}\n"
	    "{\"fact\":\"bw\",\"value\":30}\n{\"part\":\"x\",\"count\":3,\"correct\":false}\n",
	    "{\"v\":\"a\",\"median_ms\":3,\"correct\":false,\"throttled\":false}\n"
	    "{\"fact\":\"bw\",\"value\":20}\n{\"part\":\"x\",\"count\":3,\"correct\":true}\n",
	};
	size_t n = 0;
	char *why = NULL;
	cJSON **m = merged(runs, 3, &n, &why);
	CHECK(m && n == 3);
	if (!m)
		return;
	CHECK(num(m[0], "median_ms") == 2);
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(m[0], "correct")));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(m[0], "throttled")));
	CHECK(num(m[1], "value") == 20);           /* a fact: the median */
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(m[2], "correct")));
	CHECK(!cJSON_GetObjectItem(m[2], "runs")); /* untimed: nothing added */
	free_rows(m, n);
}

/* Runs that wrote different records are not merged; the reason says where. */
TEST(test_merge_mismatch)
{
	const char *count[] = {"{\"n\":1,\"median_ms\":1}\n{\"n\":2,\"median_ms\":1}\n",
	                       "{\"n\":1,\"median_ms\":1}\n"};
	size_t n = 0;
	char *why = NULL;
	CHECK(!merged(count, 2, &n, &why));
	CHECK(why && strstr(why, "run 2 wrote 1 records, run 1 2"));
	free(why);
	why = NULL;
	const char *params[] = {"{\"n\":1,\"median_ms\":1}\n{\"n\":2,\"median_ms\":1}\n",
	                        "{\"n\":1,\"median_ms\":1}\n{\"n\":3,\"median_ms\":1}\n"};
	CHECK(!merged(params, 2, &n, &why));
	CHECK(why && strstr(why, "record 2 of run 2") && strstr(why, "n=2"));
	free(why);
	why = NULL;
	/* A measured field that happens to be whole in one run is not a
	 * parameter: the points still match. */
	const char *whole[] = {"{\"n\":1,\"vs\":1.0035,\"median_ms\":1}\n",
	                       "{\"n\":1,\"vs\":1,\"median_ms\":2}\n"};
	cJSON **w = merged(whole, 2, &n, &why);
	CHECK(w && n == 1);
	if (w)
		free_rows(w, n);
	/* One run: the records pass through, marked as one run. */
	const char *one[] = {"{\"n\":1,\"median_ms\":1,\"min_ms\":0.5,\"max_ms\":2}\n"};
	cJSON **m = merged(one, 1, &n, &why);
	CHECK(m && n == 1 && num(m[0], "runs") == 1 && num(m[0], "run_spread") == 0);
	if (m)
		free_rows(m, n);
}

/* The clock's readings differ from run to run (where it was read, why the
 * driver held it down, whether the point was taken twice, the noise of
 * its median): they are measurements, so the runs are still one point, and
 * a point throttled in any run stays throttled. */
TEST(test_merge_clock_fields)
{
	const char *runs[] = {
	    "{\"n\":8,\"median_ms\":1,\"noise\":0.001,\"clock_mhz\":1980,"
	    "\"clock_min_mhz\":1980,\"clock_source\":\"nvml\",\"throttled\":false}\n",
	    "{\"n\":8,\"median_ms\":3,\"noise\":0.004,\"clock_mhz\":1400,"
	    "\"clock_min_mhz\":1300,\"clock_source\":\"nvml\","
	    "\"clock_reasons\":\"sw_power_cap hw_slowdown\",\"throttled\":true,"
	    "\"retried\":true}\n",
	    "{\"n\":8,\"median_ms\":2,\"noise\":0.002,\"clock_mhz\":1970.5,"
	    "\"clock_min_mhz\":1970.5,\"clock_source\":\"gate\",\"throttled\":false}\n",
	};
	size_t n = 0;
	char *why = NULL;
	cJSON **m = merged(runs, 3, &n, &why);
	CHECK(m && n == 1);
	CHECK(!why);
	if (!m)
		return;
	CHECK(num(m[0], "median_ms") == 2);
	CHECK(!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(m[0], "clock_source")),
	              "gate"));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(m[0], "throttled")));
	free_rows(m, n);
	for (const char *const *k = (const char *const[]){"noise", "clock_min_mhz",
	                                                  "clock_source", "clock_reasons",
	                                                  "retried", NULL};
	     *k; k++)
		CHECK(record_is_measurement(*k));
}

/* Records without a time (captured without a unit, or with one that is
 * not a time) merge too: each number that differs between runs gets its
 * median and the runs' extremes; parameters and strings stay. */
TEST(test_merge_untimed)
{
	const char *runs[] = {
	    "{\"n\":8,\"v\":\"a\",\"sec\":0.3,\"bw\":12,\"bw_unit\":\"GB/s\"}\n"
	    "{\"n\":9,\"v\":\"a\",\"sec\":5}\n",
	    "{\"n\":8,\"v\":\"a\",\"sec\":0.1,\"bw\":10,\"bw_unit\":\"GB/s\"}\n"
	    "{\"n\":9,\"v\":\"a\",\"sec\":5}\n",
	    "{\"n\":8,\"v\":\"a\",\"sec\":0.2,\"bw\":11,\"bw_unit\":\"GB/s\"}\n"
	    "{\"n\":9,\"v\":\"a\",\"sec\":5}\n",
	};
	size_t n = 0;
	char *why = NULL;
	cJSON **m = merged(runs, 3, &n, &why);
	CHECK(m && n == 2);
	if (!m)
		return;
	CHECK(num(m[0], "n") == 8);
	CHECK(num(m[0], "sec") == 0.2);
	CHECK(num(m[0], "sec_lo") == 0.1);
	CHECK(num(m[0], "sec_hi") == 0.3);
	CHECK(num(m[0], "bw") == 11);
	CHECK(num(m[0], "bw_lo") == 10 && num(m[0], "bw_hi") == 12);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(m[0], "bw_unit")), "GB/s");
	CHECK(num(m[0], "runs") == 3);
	/* The same in every run: nothing to merge, nothing added. */
	CHECK(num(m[1], "sec") == 5);
	CHECK(!cJSON_GetObjectItem(m[1], "sec_lo"));
	CHECK(!cJSON_GetObjectItem(m[1], "runs"));
	free_rows(m, n);
	/* Two runs: the lower of the middle two; bounds of their own widen. */
	const char *two[] = {"{\"x\":4,\"x_lo\":3,\"x_hi\":5}\n",
	                     "{\"x\":2,\"x_lo\":1.5,\"x_hi\":2.5}\n"};
	m = merged(two, 2, &n, &why);
	CHECK(m && n == 1);
	if (!m)
		return;
	CHECK(num(m[0], "x") == 2);
	CHECK(num(m[0], "x_lo") == 1.5 && num(m[0], "x_hi") == 5);
	free_rows(m, n);
}

TEST_MAIN({
	RUN(test_merge_median_run);
	RUN(test_merge_wrong_anywhere);
	RUN(test_merge_mismatch);
	RUN(test_merge_clock_fields);
	RUN(test_merge_untimed);
})
