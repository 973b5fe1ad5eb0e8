# An unknown directive is reported with file and line; the rest still builds.
records_kernel sq
chapter 01-a.md <<'MD'
# A

Text.

```{frobnicate} x
foo: 1
```
MD
chapter 02-b.md <<'MD'
# B

{{ max(sq.y) }}

```{experiment} sq
source: kernels/sq/sq.c
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:5: error: unknown directive '{frobnicate}'"
expect_html a.html 'class="error-box"'
expect_html a.html "unknown directive"
expect_html b.html "<p>16</p>"
