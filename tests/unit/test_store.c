/* The one cache (store.h): entries by key, kept while used, and a file
 * that is not intact trusted for nothing. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/store.h"
#include "base/util.h"
#include "render/piece.h"
#include "test.h"

static const char *K1 = "0123456789abcdef0123456789abcdef";
static const char *K2 = "fedcba9876543210fedcba9876543210";
static const char *K3 = "00000000000000000000000000000003";

static char path[64];

TEST(test_store_round_trip)
{
	struct store *s = store_open(path);
	size_t len = 99;
	CHECK(store_get(s, K1, &len) == NULL);
	store_put(s, K1, "one\nline\n", 9);
	store_put(s, K2, "", 0);
	store_put(s, "not a key", "x", 1);
	CHECK(store_count(s) == 2);
	CHECK(store_close(s) == 0);
	s = store_open(path);
	const char *v = store_get(s, K1, &len);
	CHECK(v && len == 9 && !memcmp(v, "one\nline\n", 9) && v[9] == '\0');
	v = store_get(s, K2, &len);
	CHECK(v && len == 0);
	CHECK(store_get(s, K3, &len) == NULL);
	CHECK(store_close(s) == 0);
}

TEST(test_store_keeps_what_is_used)
{
	/* A build that takes only K1 drops K2 from the file. */
	struct store *s = store_open(path);
	size_t len;
	CHECK(store_get(s, K1, &len) != NULL);
	CHECK(store_close(s) == 0);
	s = store_open(path);
	CHECK(store_count(s) == 1);
	CHECK(store_get(s, K2, &len) == NULL);
	/* Nothing new, all used: the file is not written again. */
	CHECK(store_get(s, K1, &len) != NULL);
	unlink(path);
	CHECK(store_close(s) == 0);
	CHECK(!file_exists(path));
}

TEST(test_store_untrusted)
{
	struct store *s = store_open(path);
	store_put(s, K1, "hello", 5);
	store_put(s, K3, "world", 5);
	CHECK(store_close(s) == 0);
	size_t len;
	char *text = file_read(path, &len);
	CHECK(text != NULL);
	/* Cut at each line end, a byte changed, or a length that lies: empty. */
	for (size_t cut = 1; text && cut < len; cut++) {
		if (text[cut - 1] != '\n')
			continue;
		CHECK(file_write_atomic(path, text, cut) == 0);
		s = store_open(path);
		CHECK(store_count(s) == 0);
		store_close(s);
	}
	char *bad = text ? xstrndup(text, len) : NULL;
	char *p = bad ? strstr(bad, "hello") : NULL;
	if (p) {
		p[0] = 'j';
		CHECK(file_write_atomic(path, bad, len) == 0);
		s = store_open(path);
		CHECK(store_count(s) == 0);
		CHECK(store_get(s, K1, &len) == NULL);
		store_close(s);
	}
	CHECK(file_write_atomic(path, "labbook-store 1\nend 0 zz\n", 25) == 0);
	s = store_open(path);
	CHECK(store_count(s) == 0);
	store_close(s);
	free(bad);
	free(text);
}

TEST(test_piece_untrusted)
{
	/* A piece read back is checked as if it were made: counts out of
	 * range, or no count line, make it no piece. */
	struct store *s = store_open(path);
	struct piece_counts c = {0, 0, 0};
	size_t len;
	store_put(s, K1, "2 1 3\n<p>x</p>", 14);
	const char *html = piece_get(s, K1, &len, &c);
	CHECK(html && len == 8 && !memcmp(html, "<p>x</p>", 8));
	CHECK(c.figures == 2 && c.tables == 1 && c.claims == 3);
	static const char *bad[] = {"-2147483647 0 0\nx", "1 2\nx", "1 2 3 4\nx",
	                            "99999999999 0 0\nx", "no counts", "1 x 2\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		store_put(s, K2, bad[i], strlen(bad[i]));
		CHECK(piece_get(s, K2, &len, &c) == NULL);
	}
	unlink(path);
	store_close(s);
	unlink(path);
}

TEST(test_piece_sums)
{
	/* Pieces each in range whose counts would pass a page's range summed
	 * are not taken: the page makes them again. */
	struct page_ctx c;
	memset(&c, 0, sizeof c);
	struct piece_counts big = {100000, 0, 0};
	struct buf out = BUF_INIT;
	CHECK(piece_take(&c, "<p>a</p>", 8, &big, &out) == 0);
	CHECK(c.figures == 100000 && out.len == 8);
	CHECK(piece_take(&c, "<p>b</p>", 8, &big, &out) != 0);
	CHECK(c.figures == 100000 && out.len == 8);
	struct piece_counts one = {0, 1, 1};
	CHECK(piece_take(&c, "<p>c</p>", 8, &one, &out) == 0);
	CHECK(c.tables == 1 && c.claims == 1);
	buf_free(&out);
}

TEST_MAIN({
	snprintf(path, sizeof path, "/tmp/labbook-store-test.%d", (int)getpid());
	RUN(test_store_round_trip);
	RUN(test_store_keeps_what_is_used);
	RUN(test_store_untrusted);
	RUN(test_piece_untrusted);
	RUN(test_piece_sums);
	unlink(path);
})
