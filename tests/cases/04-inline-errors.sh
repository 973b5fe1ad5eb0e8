# Inline expressions that do not parse, name unknown things or select nothing.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

Parse: {{ max(sq.y }}.
Experiment: {{ nope.y }}.
Field: {{ sq.why }}.
Nothing: {{ sq.y[n=99] }}.
Many: {{ sq.y }}.
Format: {{ sq.y[n=2] %q }}.
Open: {{ never closed
Escaped: \{{ not an expression }}.
Good: {{ sq.y[n=2] }}.
MD
build
expect_rc 1
# A mistake of syntax is found when the chapter loads, at its line and
# column in the source.
expect_err "chapters/01-a.md:7:19: error: {{ max(sq.y }}: expected ')' or ',' at column 9"
expect_err "chapters/01-a.md:8: error: {{ nope.y }}: no results for experiment 'nope'"
expect_err "chapters/01-a.md:9: error: {{ sq.why }}: experiment 'sq' has no field 'why'; its fields: n, y, s, y_lo, y_hi"
expect_err "chapters/01-a.md:10: error: {{ sq.y[n=99] }}: sq.y[n=99] selects no records"
expect_err "chapters/01-a.md:11: error: {{ sq.y }}: sq.y selects 4 records"
expect_err "chapters/01-a.md:12: error: {{ sq.y[n=2] }}: '%q' is not a format"
expect_err "chapters/01-a.md:13: error: '{{' without a closing '}}'"
expect_html a.html 'class="inline-error"'
expect_html a.html "Escaped: {{ not an expression }}."
expect_html a.html "Good: 4."

# Every command that loads chapters finds it, though it renders nothing.
build --no-site
expect_rc 1
expect_err "chapters/01-a.md:7:19: error: {{ max(sq.y }}: expected ')' or ','"
build --compile-only
expect_rc 1
expect_err "chapters/01-a.md:7:19: error: {{ max(sq.y }}: expected ')' or ','"
# An empty value, claim or reference: each said once, at its line, with
# how to write it.
chapter 01-a.md <<'MD'
# A

Empty {{check}}, {{ref}} and {{ }}.
MD
build --no-run
expect_rc 1
expect_err "chapters/01-a.md:3: error: {{check}} holds no claim: write {{check EXPR}}"
expect_err "chapters/01-a.md:3: error: {{ref}} names nothing: write {{ref fig:ID}}"
expect_err "chapters/01-a.md:3: error: empty '{{ }}'"
[ "$(printf '%s\n' "$OUT" | grep -c 'chapters/01-a.md:3')" = 3 ] ||
	fail "not each once: $OUT"
