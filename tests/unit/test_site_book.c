/* The one-page book: ids and links of a chapter made to work on one page. */
#include <stdlib.h>

#include "base/buf.h"
#include "render/site_book.h"
#include "test.h"

static struct chapter one = {.name = "one", .href = "one"},
                      two = {.name = "two", .href = "two"};
static struct chapter *chs[] = {&one, &two};
static const struct book bk = {.chs = chs, .nchs = 2};

static char *rewrite(const char *name, const char *html)
{
	struct buf out = BUF_INIT;
	onebook_rewrite(&bk, name, html, &out);
	return buf_detach(&out);
}

#define REWRITES(name, html, want)                  \
	do {                                            \
		char *got_ = rewrite(name, html);           \
		CHECK_STR(got_, want);                      \
		free(got_);                                 \
	} while (0)

TEST(test_ids)
{
	REWRITES("one", "<h2 id=\"results\">Results</h2>",
	         "<h2 id=\"one:results\">Results</h2>");
	REWRITES("two", "<label for=\"q\">Q</label><div aria-labelledby=\"a b\">",
	         "<label for=\"two:q\">Q</label><div aria-labelledby=\"two:a two:b\">");
	/* Text and code are not tags: id="x" there stays as written. */
	REWRITES("one", "<code>id=&quot;x&quot;</code> id=\"y\"",
	         "<code>id=&quot;x&quot;</code> id=\"y\"");
	REWRITES("one", "<!-- <a id=\"c\"> -->", "<!-- <a id=\"c\"> -->");
	REWRITES("one", "a < b <p class=\"x\">", "a < b <p class=\"x\">");
}

TEST(test_links)
{
	REWRITES("one", "<a href=\"#fig-a\">", "<a href=\"#one:fig-a\">");
	REWRITES("one", "<a class=\"k\" href=\"two.html#results\">",
	         "<a class=\"k\" href=\"#two:results\">");
	REWRITES("two", "<a href=\"one.html\">", "<a href=\"#one\">");
	/* Pages and files that are not chapters keep their links. */
	REWRITES("one", "<a href=\"provenance.html\"><img src=\"fig/a.svg\">",
	         "<a href=\"provenance.html\"><img src=\"fig/a.svg\">");
	REWRITES("one", "<a href=\"data/one.html\">", "<a href=\"data/one.html\">");
	REWRITES("one", "<a href=\"https://example.org/two.html\">",
	         "<a href=\"https://example.org/two.html\">");
	REWRITES("one", "<a href=\"#\">", "<a href=\"#\">");
	/* Unquoted and single-quoted values, and attributes without one. */
	REWRITES("one", "<details open><a href='#x' id=y>",
	         "<details open><a href='#one:x' id=one:y>");
}

TEST_MAIN({
	RUN(test_ids);
	RUN(test_links);
})
