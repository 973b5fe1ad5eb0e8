# A chart whose column does not exist, or whose filter selects nothing.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} c1
data: sq
x: n
y: gflops
```

```{chart} c2
data: sq
x: n
y: y
where: n>100
```

```{chart} c3
data: sq
x: n
y: y
limit: sq.nope | bad
```

```{table}
data: sq
columns: n, zz
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:10: error: chart 'c1': experiment 'sq' has no field 'gflops' (option y)"
expect_err "chapters/01-a.md:13: error: chart 'c2': no records of 'sq' to draw (check its where:)"
expect_err "chapters/01-a.md:24: error: chart 'c3': limit: experiment 'sq' has no field 'nope'"
expect_err "chapters/01-a.md:29: error: table: experiment 'sq' has no field 'zz'"
expect_html a.html "This chart could not be drawn"
expect_html a.html "This table could not be made"
