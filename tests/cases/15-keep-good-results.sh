# After a good run, a failing run keeps the good results and says so.
records_kernel sq
chapter 01-a.md <<'MD'
# A

{{ max(sq.y) }}

```{experiment} sq
source: kernels/sq/sq.c
args: 3
```
MD
build
expect_rc 0
cp res/sq.jsonl good.jsonl
cp res/sq.meta.json good.meta.json
cat >> kernels/sq/sq.c <<'C'
int broken_on_purpose = ;
C
build
expect_rc 1
expect_same res/sq.jsonl good.jsonl
expect_same res/sq.meta.json good.meta.json
expect_file res/sq.error.json
expect_html a.html "The results below are from the last good run."
expect_html a.html "<p>9</p>"
ls res | grep -q '\.tmp\.' && fail "a temporary file was left in the bundle"
true
