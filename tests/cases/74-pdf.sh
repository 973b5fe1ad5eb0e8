# tools/pdf (make pdf) prints the one-page book: a title page, then each
# chapter from the top of a page, on A4 or Letter. Needs Debian's chromium
# (to print; make pdf installs it) and poppler-utils (pdfinfo and pdftotext,
# to read the PDF back); without them the case is skipped.
need chromium:"${CHROMIUM:-/usr/bin/chromium}" poppler-utils:pdfinfo poppler-utils:pdftotext
records_kernel a
chapter 01-one.md <<'MD'
# One

A short chapter.

```{experiment} a
source: kernels/a/a.c
runs: 1
```
MD
chapter 02-two.md <<'MD'
# Two

```{chart} squares
data: a
x: n
y: y
caption: Squares.
```
MD
build --title 'A Test Book'
expect_rc 0
OUT=$("$ROOT/tools/pdf" site 2>&1) || fail "tools/pdf failed: $OUT"
expect_file site/book.pdf
pdfinfo site/book.pdf | grep -q 'Page size:.*(A4)' || fail "not A4: $(pdfinfo site/book.pdf)"
pages=$(pdfinfo site/book.pdf | sed -n 's/^Pages: *//p')
[ "${pages:-0}" -ge 3 ] || fail "$pages pages, want a title page and a page per chapter"
pdftotext -f 1 -l 1 site/book.pdf - | grep -q 'A Test Book' || fail "page 1 lacks the title"
pdftotext -f 1 -l 1 site/book.pdf - | grep -q 'Results measured\|No results bundle' ||
	fail "page 1 lacks the provenance banner"
# Each chapter starts a page: its first line is its number.
for n in 1 2; do
	found=0
	for p in $(seq 2 "$pages"); do
		pdftotext -f "$p" -l "$p" site/book.pdf - | head -n 1 | grep -qi "^chapter $n$" && found=1
	done
	[ $found = 1 ] || fail "no page starts with chapter $n"
done
ls -a site | grep -q 'book-print' && fail "tools/pdf left its copy of the page"
OUT=$("$ROOT/tools/pdf" site letter 2>&1) || fail "tools/pdf letter failed: $OUT"
pdfinfo site/book.pdf | grep -q 'Page size:.*(letter)' || fail "not Letter: $(pdfinfo site/book.pdf | grep size)"
# Now that the PDF is there, the site links it.
build --title 'A Test Book'
expect_html index.html 'href="book.pdf"'
