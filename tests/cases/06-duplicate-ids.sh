# Two experiments with one id, in two chapters.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
chapter 02-b.md <<'MD'
# B

```{experiment} sq
source: kernels/sq/sq.c
args: 2
```
MD
build
expect_rc 1
expect_err "chapters/02-b.md:3: error: experiment 'sq' is declared twice; first at chapters/01-a.md:3"
expect_html b.html "declared twice"
expect_html a.html "wrote 4 records"
