# A course's own lab programs, as they are (tests/course): they include
# "../common/common.h", take their sizes from argv in three styles (-n=V,
# a flag and a value, positional), print their timings as text, and a
# chapter is named in Chinese with a space. capture: turns what they print
# into records that prose, a chart, a table, a claim and compare read;
# sweep: runs each once per argument set. Re-runs are told by each meta's
# state, never by clocks.
cp -r "$ROOT/tests/course/." .
build_of() { sed -n 's/.*"build":[[:space:]]*"\([^"]*\)".*/\1/p' "res/$1.meta.json"; }
page='矩阵 sum.html'

build --progress
expect_rc 0
expect_err "(3 ran, 0 failed)"
expect_err "reduce, run 1 of 3, set -n=4096"
expect_err "summatrix, run 1 of 3, set -dimX 16 -dimY 16"
expect_no_err "warning"

# The numbers the programs printed, with the sweep's fields.
[ "$(lb eval --results res 'reduce.sec[variant=Interleaved, n=16384] %.6f')" = 0.000164 ] ||
	fail "the captured time of -n=16384: $(lb eval --results res 'reduce.sec[variant=Interleaved, n=16384]' 2>&1)"
# Two patterns give records with other fields: each field selects its own.
[ "$(lb eval --results res 'count(reduce.sec)')" = 9 ] || fail "reduce.sec selects $(lb eval --results res 'count(reduce.sec)') records, want 9"
[ "$(lb eval --results res 'count(reduce.sum)')" = 6 ] || fail "reduce.sum selects $(lb eval --results res 'count(reduce.sum)') records, want 6"
# A record over several lines, with a zip: -dimX and -dimY change together.
[ "$(lb eval --results res 'count(summatrix.gx)')" = 3 ] || fail "summatrix has $(lb eval --results res 'count(summatrix.gx)') records, want 3 (a zip, not a product)"
[ "$(lb eval --results res 'summatrix.gx[dimX=16, dimY=16]')" = 64 ] || fail "the zipped set 16,16 did not give grid 64"
# MiB/s converted once to GB/s: 1200000.86 MiB/s... is 1.2 GB/s at 8x8.
[ "$(lb eval --results res 'summatrix.bw[dimX=8] %.4f')" = 1.2000 ] ||
	fail "MiB/s not converted to GB/s: $(lb eval --results res 'summatrix.bw[dimX=8]')"
grep -q '"bw_unit":"GB/s"' res/summatrix.jsonl || fail "the record does not name bw's unit"
# Positional values named with 'as', two sources (wrapped), include: folder.
[ "$(lb eval --results res 'transpose.rows[size=512]')" = 512 ] || fail "transpose did not take its positional size"
[ "$(lb eval --results res 'transpose.rate[size=1024] %.4f')" = 0.2667 ] || fail "MB/s not converted to GB/s"
# A time unit gives median_ms, so the runs merge by median.
grep -q '"runs":3' res/transpose.jsonl || fail "transpose's runs were not merged: $(head -1 res/transpose.jsonl)"
expect_html "$page" "Source: <code>chapter05/transpose_kernel.c</code>"
expect_html "$page" "Source: <code>chapter05/transpose.c</code>"
expect_file site/src/chapter05/transpose_kernel.c
# argv[0] is the experiment's id: no path of this machine on the page.
grep -q '^reduce starting reduction at size 1024$' res/reduce.out || fail "argv[0] is not the id: $(head -3 res/reduce.out)"
grep -q "build/exp\|$PWD" res/reduce.out && fail "the output names a path of the machine"

# Prose, claims, a chart and a table on the captured numbers.
expect_html reduce.html "0.164 ms"
expect_html reduce.html "134209536"
expect_html "$page" "2.40"
expect_html "$page" "GB/s."
expect_no_html reduce.html "does not hold"
expect_no_html "$page" "does not hold"
expect_file site/fig/reduce-times.svg
expect_html reduce.html "<td>Interleaved</td>"
# The chapter named in Chinese with a space: its page keeps the name, and
# every link to it is percent-encoded.
expect_file "site/$page"
expect_html index.html 'href="%E7%9F%A9%E9%98%B5%20sum.html"'
expect_html reduce.html 'href="%E7%9F%A9%E9%98%B5%20sum.html"'
grep -l 'href="矩阵' site/*.html && fail "a link carries the name unencoded: $(grep -o 'href="矩阵[^"]*"' site/*.html | head -3)"

# Built twice: nothing runs, nothing is said to have changed.
for k in reduce summatrix transpose; do eval "ran_$k=\$(build_of $k)"; done
build --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"
for k in reduce summatrix transpose; do
	[ "$(build_of $k)" = "$(eval echo \$ran_$k)" ] || fail "$k ran again though nothing changed"
done
expect_no_html reduce.html "changed since"
expect_no_html "$page" "changed since"

# The shared header, edited (same size, same time): the programs that
# include it run again; editing one source runs only its experiment.
sed -i 's/NS_PER_ELEMENT 10.0/NS_PER_ELEMENT 20.0/' common/common.h
touch -d '2020-01-01 00:00:00' common/common.h
build --progress
expect_rc 0
expect_err "(3 ran, 0 failed)"
[ "$(lb eval --results res 'reduce.sec[variant=Interleaved, n=16384] %.6f')" = 0.000328 ] || fail "reduce's record is stale"
ran_transpose=$(build_of transpose) ran_reduce=$(build_of reduce)
echo '/* edited */' >> chapter05/transpose_kernel.c
build --progress
expect_err "(1 ran, 0 failed)"
[ "$(build_of transpose)" != "$ran_transpose" ] || fail "transpose did not run after its kernel changed"
[ "$(build_of reduce)" = "$ran_reduce" ] || fail "reduce ran though its sources did not change"

# compare reads the captured records like any other: matched by their
# captured and swept fields, judged on the median_ms their time gave.
cp -r res res2
sed -i 's/"median_ms":0.328,/"median_ms":0.5,/' res2/reduce.jsonl
OUT=$(lb compare res res2 2>&1); RC=$?
expect_rc 1
expect_err "dev=gpu variant=Interleaved sec_unit=s n=16384"
expect_err "+52.44%"

# A hostile chapter: a pattern that does not compile, one that matches
# nothing, a sweep value the program rejects, a swept value it ignores,
# a captured field that a sweep gives too, a zip of unequal lists.
cp -r res res.good
cat > chapters/03-bad.md <<'MD'
# Bad

```{experiment} nocompile
source: chapter03/reduceInteger.c
capture: gpu (?<variant>\w+ elapsed
```

```{experiment} nomatch
source: chapter03/reduceInteger.c
capture: tpu (?<variant>\w+) elapsed
```

```{experiment} rejected
source: chapter03/reduceInteger.c
sweep: -n=1024,99999999
capture: gpu (?<variant>\w+) +elapsed (?<sec>[0-9.]+)(?#s) sec
```

```{experiment} ignored
source: chapter03/reduceInteger.c
sweep: -n 1024,2048
capture: size (?<size>\d+)
```

```{experiment} collide
source: chapter03/reduceInteger.c
sweep: -n=1024,2048
capture: at size (?<n>\d+)
```

```{experiment} unzipped
source: chapter04/sumMatrix.c
sweep: -dimX 8,16 with -dimY 8,16,32
capture: elapsed (?<sec>[0-9.]+)
```

```{experiment} everywhere
source: chapter03/reduceInteger.c
capture: (?<e>x*)
```
MD
line() { grep -n -- "$1" chapters/03-bad.md | head -1 | cut -d: -f1; }
build
expect_rc 1
expect_err "chapters/03-bad.md:$(line 'w+ elapsed'): error: experiment 'nocompile': capture: the pattern does not compile: missing closing parenthesis, at column"
expect_err "chapters/03-bad.md:$(line 'tpu'): error: experiment 'nomatch' matched nothing with its capture: of line $(line 'tpu')"
expect_err "chapters/03-bad.md:$(line '99999999'): error: experiment 'rejected' exited with status 1 for the sweep set '-n=99999999'"
expect_err "chapters/03-bad.md:$(line 'n 1024,2048'): warning: experiment 'ignored': the sets '-n 1024' and '-n 2048' printed the same output (its numbers with a fraction aside), though they give 'n' other values; the program may ignore its swept argument"
[ "$(printf '%s\n' "$OUT" | grep -c "experiment 'ignored': the sets")" = 1 ] ||
	fail "the ignored argument is not told once: $OUT"
expect_err "chapters/03-bad.md:$(line '(?<n>'): error: experiment 'collide': capture: the field 'n' is also the swept argument of line $(line 'n=1024,2048$' | tail -1)"
expect_err "chapters/03-bad.md:$(line 'dimY 8,16,32'): error: experiment 'unzipped': sweep: -dimX has 2 values and -dimY 3"
expect_err "chapters/03-bad.md:$(line 'x\*'): error: experiment 'everywhere': capture: the pattern matches an empty text"
# The rest of the book builds, and its results are kept.
expect_html reduce.html "0.328 ms"
expect_file site/bad.html
expect_same res/reduce.jsonl res.good/reduce.jsonl
expect_file res/rejected.error.json
expect_no_file res/rejected.jsonl
