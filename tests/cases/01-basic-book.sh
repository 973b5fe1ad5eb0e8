# A chapter with an experiment, a chart, a table, inline values and claims.
records_kernel sq
chapter 01-squares.md <<'MD'
# Squares

The largest square is {{ max(sq.y) }}; the square of 3 is {{ sq.y[n=3] %.1f }}.
It holds {{check max(sq.y) > 10}}. It does not {{check max(sq.y) > 100}}.

```{experiment} sq
source: kernels/sq/sq.c
args: 5
```

```{chart} sq-chart
data: sq
x: n
y: y
series: s
limit: 20 | twenty
caption: Squares.
```

```{table}
data: sq
columns: n, y %.2f, s
sort: y desc
```
MD
build
expect_rc 0
expect_html squares.html "The largest square is 25; the square of 3 is 9.0."
expect_html squares.html 'class="check holds"'
expect_html squares.html 'class="check fails"'
expect_html squares.html "1 of the 2 claims this chapter makes does not hold on the machine these numbers come from; it is marked"
expect_html squares.html '<img src="fig/sq-chart.svg"'
expect_html squares.html "<td class=\"num\">25.00</td>"
expect_html squares.html "wrote 5 records"
expect_html squares.html 'href="fig/sq-chart.csv"'
expect_html index.html 'href="squares.html"'
expect_html runs.html "sq"
expect_file site/fig/sq-chart.svg
expect_file site/fig/sq-chart.gp
expect_file res/sq.jsonl
expect_file res/sq.meta.json
expect_file res/sq.out
expect_file res/machine.json
grep -q "yerrorlines" site/fig/sq-chart.gp || fail "no error bars in the chart"
grep -q "twenty" site/fig/sq-chart.svg || fail "the limit line is not in the SVG"
[ "$(lb eval --results res 'sum(sq.y)')" = 55 ] || fail "eval sum(sq.y) is not 55"
