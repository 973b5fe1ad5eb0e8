# A claim that does not hold is one warning on stderr, naming its file:line
# and the bundle, and the build still succeeds; with --strict it is an
# error and the build fails. A claim that holds says nothing.
records_kernel sq
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
args: 5
```

It holds {{check max(sq.y) > 10}}.
It does not {{check max(sq.y) > 100}}.
MD
build
expect_rc 0
expect_err "chapters/01-squares.md:9: warning: claim does not hold on res: max(sq.y) > 100"
expect_no_err "01-squares.md:8:"
[ "$(printf '%s\n' "$OUT" | grep -c 'claim does not hold')" = 1 ] ||
	fail "want one line for the one false claim: $OUT"
expect_html squares.html '<span class="check fails" title="max(sq.y) &gt; 100 — flips when every sq.y x4.011 (only a change of 2x or more: loose)">✗ does not hold'

build --no-run --strict
expect_rc 1
expect_err "chapters/01-squares.md:9: error: claim does not hold on res: max(sq.y) > 100"
expect_no_err "warning: claim"

# Once the claim holds, --strict passes.
sed -i 's/> 100}}/> 20}}/' chapters/01-squares.md
build --no-run --strict
expect_rc 0
expect_no_err "claim does not hold"
