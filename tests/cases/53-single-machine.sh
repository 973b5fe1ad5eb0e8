# Nothing changes for a book rendered from one bundle: a chart's
# machines: option draws the same chart as without it, and there is no
# Machines page or link to one.
records_kernel sq
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
```

Four records {{check count(sq.y) == 4}}.

```{chart} c
data: sq
x: n
y: y
series: s
machines: all
```
MD
build
expect_rc 0
cp site/fig/c.csv with.csv
sed -i '/^machines:/d' chapters/01-squares.md
build --no-run
expect_rc 0
expect_same with.csv site/fig/c.csv
expect_no_file site/machines.html
expect_no_html squares.html "machines.html"
expect_no_html squares.html "Machines overlaid"
expect_html squares.html 'class="check holds" title='
expect_no_html squares.html 'id="claim-'

