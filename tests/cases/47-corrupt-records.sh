# A truncated records file: the build says which line is bad and that the
# values use only the lines before it, the page marks each such value, a
# second build says so again (nothing is taken as up to date), and a run
# that repairs it exits 0. The judge says it once per page, at the first
# line that shows the experiment, however many parts of the page do.
records_kernel sq
chapter 01-a.md <<'MD'
# A

There are {{ count(sq.n) }} records.

```{experiment} sq
source: kernels/sq/sq.c
runs: 1
```

```{chart} c
data: sq
x: n
y: y
```

```{table}
data: sq
columns: n, y
```
MD
build
expect_rc 0
head -c 60 res/sq.jsonl > cut && mv cut res/sq.jsonl
build --no-run
expect_rc 1
expect_err "res/sq.jsonl:line 2: malformed JSON"
expect_err "stands on the records before that line"
expect_html a.html 'class="partial"'
expect_html a.html "Its records file is malformed"
expect_html a.html "This chart stops before a malformed line"
expect_html a.html "These rows stop before a malformed line"
for pass in 1 2; do
	[ "$(printf '%s\n' "$OUT" | grep -c 'stands on the records')" = 1 ] ||
		fail "reported other than once: $OUT"
	expect_err "chapters/01-a.md:3: error: experiment 'sq': res/sq.jsonl:line 2"
	build --no-run
	expect_rc 1
	expect_err "res/sq.jsonl:line 2: malformed JSON"
done
build
expect_rc 0
expect_no_err "malformed"
expect_html a.html "There are 4 records."
expect_no_html a.html 'class="partial"'
build --no-run
expect_rc 0
