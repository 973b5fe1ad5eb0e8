# What a reader and a command line are told. A chapter with one claim says
# "the one claim ... holds"; a book measured without a GPU has no "(none)"
# in its captions; y-scale: draws a field in another unit (its limits too)
# while the CSV keeps the field's values, and a bad one is an error; a
# misspelled chart or table field names the nearest and lists the fields;
# --link is in the bar on top of every page. On the command line: --json
# with no value writes to stdout, an unknown option or command names the
# nearest, and the summary line is printed when stderr is not a terminal,
# unless --quiet.
mkdir -p res kernels/e chapters
echo 'int main(void) { return 0; }' > kernels/e/e.c
python3 - <<'PY'
import json
date = "2026-01-02T03:04:05Z"
json.dump({"gpu": "none", "date": date}, open("res/machine.json", "w"))
with open("res/e.jsonl", "w") as f:
    for k, n in enumerate((1, 2, 3)):
        g = 1000.0 * (k + 1)
        f.write(json.dumps({"n": n, "gflops": g, "gflops_lo": g - 100,
                            "gflops_hi": g + 100}) + "\n")
open("res/e.out", "w").write("ok\n")
json.dump({"id": "e", "source": "kernels/e/e.c", "exit_status": 0,
           "seconds": 0.01, "date": date, "records": 3},
          open("res/e.meta.json", "w"))
PY
chapter 01-words.md <<'MD'
# Words

```{experiment} e
source: kernels/e/e.c
```

It reaches {{ max(e.gflops) %.0f }} GFLOP/s {{check max(e.gflops) > 2500}}.

```{chart} t
data: e
x: n
y: gflops
y-scale: 0.001
y-unit: TFLOP/s
limit: 2500 | roof
caption: In TFLOP/s.
```
MD
build --no-run --link 'other/index.html|The other book'
expect_rc 0
expect_html words.html 'The one claim this chapter makes holds on the machine these numbers come from.'
expect_no_html words.html '(none)'
expect_html words.html 'bundle res.'
expect_html words.html '<title>n 3, 3 TFLOP/s (2.9–3.1)</title>'
expect_html words.html '<td class="num">3 TFLOP/s</td>'
grep -q "roof 2.5 TFLOP/s" site/fig/t.gp || fail "the limit is not scaled: $(grep -i roof site/fig/t.gp)"
grep -q '^,3,3000,2900,3100$\|^gflops,3,3000,2900,3100$' site/fig/t.csv || fail "the CSV is scaled: $(cat site/fig/t.csv)"
for p in words index runs; do
	expect_html $p.html '<nav class="top-links" aria-label="Other books"><a href="other/index.html">The other book</a></nav>'
done

# A bad scale; a misspelled field names the nearest and lists them all.
sed -i 's/^y-scale: 0.001/y-scale: -2/' chapters/01-words.md
build --no-run
expect_rc 1
expect_err "chapters/01-words.md:13: error: chart 't': y-scale: '-2' is not a number from 1e-30 to 1e30"
sed -i 's/^y-scale: -2/y-scale: 0.001/; s/^y: gflops/y: gflop/' chapters/01-words.md
cat >> chapters/01-words.md <<'MD'

```{table}
data: e
columns: n, gflps
```
MD
build --no-run
expect_rc 1
expect_err "error: chart 't': experiment 'e' has no field 'gflop' (option y); did you mean 'gflops'? Its fields: n, gflops, gflops_lo, gflops_hi"
expect_err "error: table: experiment 'e' has no field 'gflps'; did you mean 'gflops'? Its fields: n, gflops, gflops_lo, gflops_hi"

# The command line.
OUT=$(lb build --reslts res 2>&1); RC=$?
expect_rc 2
expect_err "unknown option '--reslts'; did you mean '--results'?"
OUT=$(lb biuld 2>&1); RC=$?
expect_rc 2
expect_err "unknown command 'biuld' (did you mean 'build'?)"
mkdir timed
cp "$ROOT/results/h200/machine.json" "$ROOT/results/h200/reduce.jsonl" "$ROOT/results/h200/reduce.meta.json" timed/
OUT=$(lb compare timed timed --json 2>/dev/null); RC=$?
expect_rc 0
printf '%s' "$OUT" | python3 -c 'import json, sys; json.load(sys.stdin)' ||
	fail "compare --json with no value writes no JSON to stdout: $OUT"
OUT=$(lb compare --json --all timed timed 2>/dev/null); RC=$?
printf '%s' "$OUT" | python3 -c 'import json, sys; json.load(sys.stdin)' ||
	fail "compare --json before another option writes no JSON to stdout: $OUT"
sed -i 's/^y: gflop$/y: gflops/; s/gflps/gflops/' chapters/01-words.md
# stderr is a pipe here, not a terminal: the summary is printed all the same.
OUT=$(lb build --no-run --results res --site site --templates "$ROOT/templates" 2>&1 >/dev/null); RC=$?
expect_rc 0
expect_err "labbook: 1 chapter, 1 experiment (0 ran, 0 failed), 1 claim (0 do not hold)"
OUT=$(lb build --no-run --results res --site site --templates "$ROOT/templates" 2>&1 >/dev/null); RC=$?
expect_err "labbook: site is up to date"
OUT=$(lb build --no-run --results res --site site --templates "$ROOT/templates" --quiet 2>&1); RC=$?
expect_rc 0
[ -z "$OUT" ] || fail "--quiet says: $OUT"
# A word near no option is suggested none: the dashes every option has
# do not make '--bogus' near '--gpus' or '--jobs'.
OUT=$(lb build --bogus 2>&1); RC=$?
expect_rc 2
expect_err "unknown option '--bogus'"
expect_no_err "did you mean"
OUT=$(lb explain x --bogus 2>&1); RC=$?
expect_no_err "did you mean"
# explain --rerun of an id the book lacks is an error, as build's is.
OUT=$(lb explain x --rerun nope 2>&1); RC=$?
expect_rc 1
expect_err "--rerun nope: no experiment has that id"
# An option after eval's expression: say that options come first.
OUT=$(lb eval '1+1' --results res 2>&1); RC=$?
expect_rc 2
expect_err "options come first: labbook eval --results ... 'EXPR'"
