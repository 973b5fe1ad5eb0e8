# allow-error and --keep-going let a build with failures exit 0.
kernel fails <<'C'
int main(void) { return 4; }
C
chapter 01-a.md <<'MD'
# A

```{experiment} fails
source: kernels/fails/fails.c
allow-error: true
```
MD
build
expect_rc 0
expect_html a.html "This experiment failed"
sed -i '/allow-error/d' chapters/01-a.md
build
expect_rc 1
build --keep-going
expect_rc 0
