/*
 * test.h - a four-macro harness. Each TEST is a function; CHECK records a
 * failure with its line and goes on. main() runs the tests and prints
 * "N passed, N failed".
 */
#ifndef LB_TEST_H
#define LB_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_failed_checks;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			        __LINE__, #cond);                          \
			test_failed_checks++;                              \
		}                                                          \
	} while (0)

#define CHECK_STR(got, want)                                               \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		if (!g_ || strcmp(g_, w_)) {                               \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n",       \
			        __FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
			test_failed_checks++;                              \
		}                                                          \
	} while (0)

#define TEST(name) static void name(void)

#define RUN(name)                                                          \
	do {                                                               \
		int before_ = test_failed_checks;                          \
		name();                                                    \
		if (test_failed_checks == before_)                         \
			passed_++;                                         \
		else {                                                     \
			failed_++;                                         \
			fprintf(stderr, "FAIL %s\n", #name);              \
		}                                                          \
	} while (0)

#define TEST_MAIN(body)                                                    \
	int main(void)                                                     \
	{                                                                  \
		int passed_ = 0, failed_ = 0;                              \
		body;                                                      \
		printf("%d passed, %d failed\n", passed_, failed_);        \
		return failed_ ? 1 : 0;                                    \
	}

#endif
