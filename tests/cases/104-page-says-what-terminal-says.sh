# What the terminal calls an error, the page never calls a holding claim
# or a plain value; a heading's text reads the same everywhere it is used;
# and what the site once made is never removed through a link out of it.
records_kernel sq
chapter 01-a.md <<'MD'
# A and {{ref ch:b}}

```{experiment} sq
source: kernels/sq/sq.c
```

One {{check requires sm_abc: max(sq.y) > 10}}, and a value
{{requires cc >= 1e400: max(sq.y) %.0f}}.

## Part of {{ref ch:b}}

More.
MD
chapter 02-b.md <<'MD'
# Bee

Text.
MD
build
expect_rc 1
[ "$(printf '%s\n' "$OUT" | grep -c "01-a.md:[78]: error: 'requires' names no compute capability")" = 2 ] ||
	fail "each wrong 'requires' is not an error at its line: $OUT"
expect_no_html a.html 'class="check holds"'
[ "$(grep -o 'class="inline-error"' site/a.html | wc -l)" = 2 ] ||
	fail "the page does not show both errors: $(grep -o 'One.*' site/a.html)"
# The heading's reference reads "Chapter 2" in the title, the contents,
# the index, the search index and the one-page book, as on the page.
for f in a.html index.html search-index.js book.html; do
	grep -q 'A and ch:b' "site/$f" && fail "site/$f reads the reference as written"
done
expect_html a.html '<title>A and Chapter 2'
grep -q 'A and Chapter 2' site/search-index.js || fail "search reads no resolved title"
grep -q 'Part of Chapter 2' site/search-index.js || fail "search reads no resolved section"

# A link inside the site to the bundle: when the book stops using an
# experiment, the site forgets its copy, and the bundle keeps its file.
sed -i 's/requires sm_abc: //; s/requires cc >= 1e400: //' chapters/01-a.md
records_kernel sq2
cat >> chapters/02-b.md <<'MD'

```{experiment} sq2
source: kernels/sq2/sq2.c
```
MD
build
expect_rc 0
expect_file res/sq2.jsonl
expect_file site/data/sq2.jsonl
rm -rf site/data && ln -s ../res site/data
build
head -n 4 chapters/02-b.md > b && mv b chapters/02-b.md
build
expect_rc 0
expect_file res/sq2.jsonl
expect_file res/sq2.meta.json

# A table whose where: meets no record says so, at that line, as a chart
# does; it is not shown empty.
cat >> chapters/01-a.md <<'MD'

```{table}
data: sq
columns: n, y
where: n > 100
```
MD
build
expect_rc 1
line=$(grep -n 'where: n > 100' chapters/01-a.md | cut -d: -f1)
expect_err "chapters/01-a.md:$line: error: table: no records of 'sq' meet its where: (n > 100)"
expect_html a.html 'This table could not be made:'
