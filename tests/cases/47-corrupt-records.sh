# A truncated records file: the build says which line is bad and that the
# values use only the lines before it; a run that repairs it exits 0.
records_kernel sq
chapter 01-a.md <<'MD'
# A

There are {{ count(sq.n) }} records.

```{experiment} sq
source: kernels/sq/sq.c
runs: 1
```
MD
build
expect_rc 0
head -c 60 res/sq.jsonl > cut && mv cut res/sq.jsonl
build --no-run
expect_rc 1
expect_err "res/sq.jsonl:line 2: malformed JSON"
expect_err "use only the records before it"
build
expect_rc 0
expect_no_err "malformed"
expect_html a.html "There are 4 records."
build --no-run
expect_rc 0
