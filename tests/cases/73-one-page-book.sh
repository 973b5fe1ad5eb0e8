# book.html: every chapter in order on one page, a contents list, ids made
# unique per chapter, cross-references that land on the same page, figures
# numbered by chapter; the index links it, and the PDF once there is one.
records_kernel a
chapter 01-one.md <<'MD'
# One

See [the second chapter](two.html) and [its results](two.html#results).

## Results

```{experiment} a
source: kernels/a/a.c
runs: 1
```

```{chart} squares
data: a
x: n
y: y
caption: Squares.
```

Back to [the chart](#fig-squares) and [this section](#results).

| a | b |
|---|---|
| 1 | 2 |
MD
chapter 02-two.md <<'MD'
# Two

## Results

| a | b |
|---|---|
| 1 | 2 |

```{chart} squares-again
data: a
x: n
y: y
caption: The same squares.
```

The [machine](provenance.html) and [the first chapter](one.html#results).
MD
build
expect_rc 0
expect_file site/book.html
b=site/book.html
# Order, contents and sections.
grep -n 'class="book-chapter" id="' $b | sed 's/.*id="\([^"]*\)".*/\1/' | tr '\n' ' ' > order
[ "$(cat order)" = "one two " ] || fail "chapters in book.html: $(cat order)"
expect_html book.html '<nav class="book-contents"'
expect_html book.html '<a href="#one"><span class="num">1</span> One</a>'
expect_html book.html '<a href="#two:results">Results</a>'
# Ids are unique and every link into the page lands on one.
dups=$(grep -o ' id="[^"]*"' $b | sort | uniq -d)
[ -z "$dups" ] || fail "ids twice in book.html: $dups"
for h in $(grep -o 'href="#[^"]*"' $b | sed 's/href="#\(.*\)"/\1/' | sort -u); do
	grep -q " id=\"$h\"" $b || fail "book.html links #$h, which is not there"
done
expect_html book.html 'id="one:results"'
expect_html book.html 'id="two:results"'
expect_html book.html 'href="#two">the second chapter</a>'
expect_html book.html 'href="#two:results">its results</a>'
expect_html book.html 'href="#one:fig-squares">the chart</a>'
expect_html book.html 'href="#one:results">the first chapter</a>'
expect_html book.html 'href="provenance.html">machine</a>'
expect_no_html book.html 'href="one.html'
expect_no_html book.html 'href="two.html'
# Every labelled region is named once on the page: tables are numbered by
# chapter, as figures are.
dups=$(grep -o 'role="region" aria-label="[^"]*"' $b | sort | uniq -d)
[ -z "$dups" ] || fail "regions named twice in book.html: $dups"
# Figures keep their chapter's numbers.
expect_html book.html 'Figure 1.1.</a> Squares.'
expect_html book.html 'Figure 2.1.</a> The same squares.'
# The provenance banner heads the title page; print styles come with it.
grep -q '<div class="banner"' $b || fail "book.html has no banner"
expect_html book.html 'href="print.css" media="print"'
expect_file site/print.css
# The chapter pages are unchanged by it.
expect_html two.html 'href="one.html#results"'
# The index links the one page, and the PDF only once it exists.
expect_html index.html 'href="book.html"'
expect_no_html index.html 'href="book.pdf"'
echo pdf > site/book.pdf
build
expect_html index.html 'href="book.pdf"'
expect_html book.html 'href="book.pdf"'
# The page is labbook's own: no chapter may take its name.
chapter 03-book.md <<'MD'
# Book
MD
build
expect_rc 1
expect_err "chapters/03-book.md: error: the page book.html is labbook's own"
rm chapters/03-book.md
# same_as_full HOW: book.html and search-index.js, as the last build made
# them (HOW), are those a build from nothing makes (with the same PDF).
same_as_full() {
	cp site/book.html book.incremental
	cp site/search-index.js search.incremental
	rm -rf site
	mkdir site
	echo pdf > site/book.pdf
	build
	cmp -s site/book.html book.incremental ||
		fail "book.html $1 differs from one made in full"
	cmp -s site/search-index.js search.incremental ||
		fail "search-index.js $1 differs from one made in full"
}
# A build that makes one page again copies the other chapter into the one
# page from the last one: the page is the one a build from nothing makes.
printf '\nA new paragraph.\n' >> chapters/02-two.md
build
expect_rc 0
expect_html book.html 'A new paragraph.'
same_as_full "made in part"
# No copy of the book is kept beside it.
[ -z "$(find site -name '*.part')" ] || fail "chapter parts kept: $(find site -name '*.part')"
# A cache changed by one byte (a chapter's part of the one page) fails its
# checksum and is trusted for nothing: the pages are made again, and the
# one page is still right.
grep -q 'book-chapter\|<h1' site/.labbook-cache || fail "no chapter part in the cache"
sed -i '0,/<h1/s/<h1/<h2/' site/.labbook-cache
printf '\nOne more.\n' >> chapters/02-two.md
build
expect_rc 0
same_as_full "from moved ranges"
# book.html changed by hand is not trusted: every chapter is made again.
sed -i 's/Squares\./Cubes./' site/book.html
printf '\nMore.\n' >> chapters/02-two.md
build
expect_rc 0
expect_html book.html 'Figure 1.1.</a> Squares.'
expect_no_html book.html 'Cubes.'
# So is a search index changed by hand.
printf '%s\n' 'var LABBOOK_INDEX = [];' > site/search-index.js
printf '\nMore again.\n' >> chapters/02-two.md
build
expect_rc 0
grep -q '"u":"one.html"' site/search-index.js || fail "the search index lost chapter one"
# A chapter that leaves the book takes its part of the one page with it.
rm chapters/02-two.md
build
expect_html book.html 'Figure 1.1.</a> Squares.'
expect_no_html book.html 'The same squares.'
if grep -q '"u":"two.html' site/search-index.js; then
	fail "the search index keeps a chapter that left"
fi
