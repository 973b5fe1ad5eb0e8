# Without gnuplot the pages still build, with a note where charts would be.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} c
data: sq
x: n
y: y
```
MD
LABBOOK_GNUPLOT=/nonexistent/gnuplot build
expect_rc 0
expect_html a.html "gnuplot is not installed, so this chart was not drawn"
expect_file site/fig/c.gp
expect_file site/fig/c.csv
expect_no_file site/fig/c.svg
