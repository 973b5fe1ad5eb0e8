/* The words and numbers charts are drawn with. */
#include "render/chart.h"
#include "render/plot_words.h"
#include "test.h"
#include "base/util.h"

static void check_text(double v, const char *unit, const char *want)
{
	char *t = plot_value_text(v, unit);
	CHECK_STR(t, want);
	free(t);
}

TEST(test_value_text)
{
	check_text(4194304, "bytes", "4 MiB");
	check_text(1024, "bytes", "1 KiB");
	check_text(1536, "bytes", "1.5 KiB");
	check_text(1073741824.0 * 1024, "bytes", "1 TiB");
	check_text(512, "bytes", "512 B");
	check_text(3352.3, "GB/s", "3352 GB/s");
	check_text(506.88, "GFLOP/s", "507 GFLOP/s");
	check_text(0.85, NULL, "0.85");
	check_text(12.34, NULL, "12.3");
}

TEST(test_nice_step)
{
	CHECK(chart_nice_step(1000, 10) == 100);
	CHECK(chart_nice_step(992, 6) == 200);
	CHECK(chart_nice_step(3.5, 6) == 1);
	CHECK(chart_nice_step(40, 6) == 10);
	CHECK(fabs(chart_axis_t(8, 2) - log(8)) < 1e-12);
	CHECK(chart_axis_t(8, 0) == 8);
}

TEST_MAIN({
	RUN(test_value_text);
	RUN(test_nice_step);
})
