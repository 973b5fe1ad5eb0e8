# Missing sources and sources outside the project are refused.
mkdir -p outside && ln -s /etc kernels-link 2>/dev/null
mkdir -p kernels && ln -s /etc/hostname kernels/escape.c
chapter 01-a.md <<'MD'
# A

```{experiment} missing
source: kernels/none/none.c
```

```{experiment} up
source: ../../etc/passwd
```

```{experiment} abs
source: /etc/passwd
```

```{experiment} link
source: kernels/escape.c
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:4: error: experiment 'missing': source 'kernels/none/none.c' is not found"
expect_err "chapters/01-a.md:8: error: experiment 'up': source '../../etc/passwd' is outside the project"
expect_err "chapters/01-a.md:12: error: experiment 'abs': source '/etc/passwd' is outside the project"
expect_err "chapters/01-a.md:16: error: experiment 'link': source 'kernels/escape.c' is outside the project"
expect_no_file site/src/etc
expect_html a.html "This experiment failed"
