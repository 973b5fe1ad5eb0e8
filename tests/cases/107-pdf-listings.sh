# make pdf prints a course, not its listings: a long source stays folded
# on paper, the kernel its prose names prints after the paragraph that names
# it, a long output its first lines; every listing is whole in the listings
# volume, book-listings.pdf, under the number the book gives it. Then the
# shipped book, from the recorded bundle: at most 120 A4 pages, and not one
# page only a listing (tools/pdf-pages, by the share of monospaced
# characters), every chart; and both in one pair of faces, DejaVu Sans and
# DejaVu Sans Mono. Needs Debian's chromium and poppler-utils.
if type need > /dev/null 2>&1; then
	need chromium:"${CHROMIUM:-/usr/bin/chromium}" poppler-utils:pdfinfo \
		poppler-utils:pdftohtml poppler-utils:pdftotext poppler-utils:pdffonts
elif [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ] || ! command -v pdftohtml > /dev/null; then
	echo "  $CASE: not run: no chromium or poppler-utils (make pdf installs them)" >&2
	return 0 2>/dev/null || exit 0
fi

# A source of 400 lines, nearly all host code, with one kernel the prose
# names and one it does not; a program that prints 60 lines.
mkdir -p kernels/long
{
	echo '#include <stdio.h>'
	echo '/* The kernel the chapter names. */'
	echo '__global__ void scale_named(float *x, float k) { x[0] *= k; /* KERNEL-NAMED */ }'
	echo '__global__ void never_named(float *x) { x[0] = 0; /* KERNEL-UNNAMED */ }'
	for i in $(seq 1 150); do
		printf 'static int host_%d(int v) { return v + %d; }\n\n' "$i" "$i"
	done
	printf 'int main(void)\n{\n'
	for i in $(seq 1 60); do
		printf '\tprintf("output line %d\\n");\n' "$i"
	done
	printf '\treturn 0; /* HOST-LAST-LINE */\n}\n'
} > kernels/long/long.cu
[ "$(wc -l < kernels/long/long.cu)" -gt 300 ] || fail "the source is short"
mkdir res
for i in $(seq 1 60); do echo "output line $i"; done > res/long.out
printf '{"n":1,"y":1}\n{"n":2,"y":4}\n' > res/long.jsonl
cat > res/long.meta.json <<'JSON'
{"id": "long", "source": "kernels/long/long.cu", "command": "build/exp/long",
 "exit_status": 0, "seconds": 0.1, "date": "2026-01-02T03:04:05Z",
 "records": 2, "runs": 1}
JSON
chapter 01-one.md <<'MD'
# One

The kernel `scale_named` multiplies by a constant.

```{experiment} long
source: kernels/long/long.cu
```

```{chart} squares
data: long
x: n
y: y
caption: Squares.
```
MD
build --no-run --title 'A Test Book'
expect_rc 0
expect_html one.html 'class="print-only excerpt kernels"'
OUT=$("$ROOT/tools/pdf" site 2>&1) || fail "tools/pdf failed: $OUT"
expect_file site/book.pdf
expect_file site/book-listings.pdf
pages=$(pdfinfo site/book.pdf | sed -n 's/^Pages: *//p')
# The title page, and the chapter on one page or two; its source open
# would be five more.
[ "${pages:-0}" -le 3 ] || fail "book.pdf has $pages pages, want at most 3"
sum=$("$ROOT/tools/pdf-pages" --summary site/book.pdf)
case $sum in *" listing 0 "*) ;; *) fail "a page of book.pdf is only a listing: $sum" ;; esac
pdftotext site/book.pdf book.txt
grep -q 'KERNEL-NAMED' book.txt || fail "book.pdf lacks the kernel the prose names"
grep -q 'KERNEL-UNNAMED\|HOST-LAST-LINE\|output line 11$' book.txt &&
	fail "book.pdf prints code the prose does not name, or a long output whole"
grep -q 'Listing 1.1. Source: kernels/long/long.cu' book.txt ||
	fail "book.pdf does not number the source's fold"
grep -q 'Figure 1.1' book.txt || fail "book.pdf lacks the chart"
# faces PDF: the families of the fonts a PDF embeds, one a line.
faces() { pdffonts "$1" | awk 'NR > 2 { print $1 }' | sed 's/^[A-Z]*+//; s/-.*//' | sort -u | tr '\n' ' '; }
[ "$(faces site/book.pdf)" = "DejaVuSans DejaVuSansMono " ] ||
	fail "book.pdf is set in more than one pairing: $(faces site/book.pdf)"
pdftotext site/book-listings.pdf listings.txt
grep -q 'Listing 1.1. Source: kernels/long/long.cu' listings.txt ||
	fail "the listings volume does not number the source as the book does"
grep -q 'HOST-LAST-LINE' listings.txt || fail "the listings volume lacks the source's end"
grep -q 'output line 60' listings.txt || fail "the listings volume lacks the output's end"
grep -q 'Figure 1.1' listings.txt && fail "the listings volume prints the chart"

# The shipped book: every chapter, chart, table and sentence within the
# budget, no page only a listing.
mkdir book
cp -r "$ROOT/chapters" "$ROOT/kernels" book/
(cd book && lb build --no-run --results "$ROOT/results/h200" --site site \
	--templates "$ROOT/templates" --title 'The book' --quiet -j 2 > ../build.log 2>&1) ||
	fail "the shipped book did not build: $(tail -n 5 build.log)"
OUT=$("$ROOT/tools/pdf" book/site a4 book 2>&1) || fail "tools/pdf failed on the book: $OUT"
pages=$(pdfinfo book/site/book.pdf | sed -n 's/^Pages: *//p')
[ "${pages:-999}" -le 120 ] || fail "the book's PDF has $pages pages, want at most 120"
sum=$("$ROOT/tools/pdf-pages" --summary book/site/book.pdf)
case $sum in *" listing 0 "*) ;; *) fail "pages of the book's PDF are only listings: $sum" ;; esac
figures=$(grep -c '<figure class="chart"' book/site/book.html)
pdftotext book/site/book.pdf book.txt
printed=$(grep -o 'Figure [0-9]*\.[0-9]*\.' book.txt | sort -u | wc -l)
[ "$printed" = "$figures" ] || fail "the book's PDF prints $printed of its $figures charts"
[ "$(faces book/site/book.pdf)" = "DejaVuSans DejaVuSansMono " ] ||
	fail "the book's PDF is set in more than one pairing: $(faces book/site/book.pdf)"
