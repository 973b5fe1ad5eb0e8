# A compile error is shown with the compiler's output; others still run.
kernel broken <<'C'
int main(void) { return undeclared_thing; }
C
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} broken
source: kernels/broken/broken.c
```

```{experiment} sq
source: kernels/sq/sq.c
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:3: error: experiment 'broken': kernels/broken/broken.c failed to compile"
expect_err "undeclared_thing"
expect_html a.html "compile error"
expect_html a.html "undeclared_thing"
expect_html a.html "wrote 4 records"
expect_file res/broken.error.json
