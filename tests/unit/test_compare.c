/* The verdict of labbook compare on synthetic points: set noise, set
 * shifts. */
#include <stdlib.h>

#include "bundle/compare.h"
#include "test.h"

static const struct compare_opts defaults = {-1, 1.0, 10.0, 0.05, 0, NULL, NULL};

/* The verdict on a point of median 1 ms moved by shift (relative), with
 * the given noise. */
static enum compare_verdict judge(double shift, double noise,
                                  const struct compare_opts *o)
{
	double band;
	return compare_judge(1.0, 1.0 + shift, noise, o, &band);
}

/* A record with quartiles and runs as merge.c writes them. */
static cJSON *record(const char *text)
{
	cJSON *row = cJSON_Parse(text);
	CHECK(row != NULL);
	return row;
}

TEST(quiet_point_shifted_2_percent_is_slower)
{
	CHECK(judge(0.02, 0.002, &defaults) == COMPARE_SLOWER);
	CHECK(judge(-0.02, 0.002, &defaults) == COMPARE_FASTER);
}

TEST(noisy_point_shifted_10_percent_is_not_slower)
{
	/* 20% noise: above the default --max-noise, not judged at all... */
	CHECK(judge(0.10, 0.20, &defaults) == COMPARE_NOISY);
	/* ... and with the ceiling lifted, within its noise. */
	struct compare_opts o = defaults;
	o.max_noise = 100;
	CHECK(judge(0.10, 0.20, &o) == COMPARE_WITHIN);
	CHECK(judge(-0.10, 0.20, &o) == COMPARE_WITHIN);
	/* Beyond three times its noise it does differ. */
	CHECK(judge(0.61, 0.20, &o) == COMPARE_SLOWER);
}

TEST(unchanged_point_is_within_noise)
{
	CHECK(judge(0, 0, &defaults) == COMPARE_WITHIN);
	CHECK(judge(0, 0.05, &defaults) == COMPARE_WITHIN);
}

TEST(band_is_three_times_the_noise)
{
	double band;
	CHECK(compare_judge(1.0, 1.05, 0.02, &defaults, &band) == COMPARE_WITHIN);
	CHECK(fabs(band - 0.06) < 1e-12);
	CHECK(compare_judge(1.0, 1.07, 0.02, &defaults, &band) == COMPARE_SLOWER);
	CHECK(compare_judge(1.0, 0.93, 0.02, &defaults, &band) == COMPARE_FASTER);
}

TEST(min_diff_is_a_floor)
{
	/* No noise at all: the floor alone decides, and a difference equal
	 * to it is not flagged. */
	double band;
	CHECK(compare_judge(1.0, 1.01, 0, &defaults, &band) == COMPARE_WITHIN);
	CHECK(fabs(band - 0.01) < 1e-12);
	CHECK(compare_judge(1.0, 1.011, 0, &defaults, &band) == COMPARE_SLOWER);
	struct compare_opts o = defaults;
	o.min_diff = 5;
	CHECK(judge(0.04, 0.001, &o) == COMPARE_WITHIN);
	CHECK(judge(0.051, 0.001, &o) == COMPARE_SLOWER);
	o.min_diff = 0;
	CHECK(judge(0.004, 0.001, &o) == COMPARE_SLOWER);
	CHECK(judge(0.002, 0.001, &o) == COMPARE_WITHIN);
}

TEST(max_noise_is_a_ceiling)
{
	struct compare_opts o = defaults;
	o.max_noise = 1;
	CHECK(judge(0.5, 0.011, &o) == COMPARE_NOISY);
	CHECK(judge(0.5, 0.009, &o) == COMPARE_SLOWER);
}

TEST(noise_of_a_record)
{
	/* Quartile range 2%, runs 1% apart: the larger. */
	cJSON *r = record("{\"median_ms\":1,\"q1_ms\":0.99,\"q3_ms\":1.01,"
	                  "\"run_min_ms\":0.995,\"run_max_ms\":1.005,"
	                  "\"run_spread\":0.01}");
	CHECK(fabs(compare_record_noise(r) - 0.02) < 1e-9);
	cJSON_Delete(r);
	/* Runs 4% apart, quartiles tight. */
	r = record("{\"median_ms\":2,\"q1_ms\":1.999,\"q3_ms\":2.001,"
	           "\"run_spread\":0.04}");
	CHECK(fabs(compare_record_noise(r) - 0.04) < 1e-9);
	cJSON_Delete(r);
	/* run_spread missing: from the runs' extremes; quartiles missing:
	 * from spread. */
	r = record("{\"median_ms\":2,\"spread\":0.001,\"run_min_ms\":1.9,"
	           "\"run_max_ms\":2.1}");
	CHECK(fabs(compare_record_noise(r) - 0.1) < 1e-9);
	cJSON_Delete(r);
	/* Nothing to tell the noise by, or no median. */
	r = record("{\"median_ms\":2}");
	CHECK(compare_record_noise(r) == 0);
	cJSON_Delete(r);
	r = record("{\"q1_ms\":1,\"q3_ms\":2}");
	CHECK(compare_record_noise(r) == 0);
	cJSON_Delete(r);
}

TEST(verdict_names)
{
	CHECK_STR(compare_verdict_name(COMPARE_WITHIN), "within noise");
	CHECK_STR(compare_verdict_name(COMPARE_SLOWER), "slower");
	CHECK_STR(compare_verdict_name(COMPARE_FASTER), "faster");
	CHECK_STR(compare_verdict_name(COMPARE_NOISY), "too noisy");
}

TEST_MAIN({
	RUN(quiet_point_shifted_2_percent_is_slower);
	RUN(noisy_point_shifted_10_percent_is_not_slower);
	RUN(unchanged_point_is_within_noise);
	RUN(band_is_three_times_the_noise);
	RUN(min_diff_is_a_floor);
	RUN(max_noise_is_a_ceiling);
	RUN(noise_of_a_record);
	RUN(verdict_names);
})
