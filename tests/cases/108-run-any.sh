# Programs in any language. A run: command runs as written, compiling
# nothing, with its files listed in inputs:: a shell script whose records
# go to $LAB_RECORDS, swept and captured like any program. A Python
# program that imports kernels/lab.py times itself by lab.h's method and
# writes lab.h's fields (median_ms and the rest), which merge over runs
# and chart. A second build runs nothing; an edit to an inputs: file runs
# its experiment again, and only it, as an edit to lab.py runs the
# programs that import it; a changed command runs it again, and explain
# says so. A bad run: line is an error at its line, and the rest of the
# book builds with its earlier results kept.
ran_of() { sed -n 's/.*"build":[[:space:]]*"\([^"]*\)".*/\1/p' "res/$1.meta.json"; }

mkdir -p kernels/gen kernels/pysum
cp "$ROOT/kernels/lab.py" kernels/lab.py
cat > kernels/gen/gen.sh <<'SH'
# Writes a record per size, scaled by the number in scale.txt.
scale=$(cat kernels/gen/scale.txt)
for arg in "$@"; do
	n=${arg#-n=}
	printf '{"y":%d}\n' $((n * scale)) >> "$LAB_RECORDS"
	echo "size $n: $((n * n)) squares"
done
SH
echo 3 > kernels/gen/scale.txt
cat > kernels/pysum/pysum.py <<'PY'
import argparse
import lab

p = argparse.ArgumentParser()
p.add_argument("--n", type=int, default=100)
n = p.parse_args().n
xs = list(range(n))
st = lab.time(sum, xs)
print(f"summed {n}: {sum(xs)}")
lab.record(n=n, **st.rate("madds", n / 1e6), **st)
PY
chapter 01-run.md <<'MD'
# Run

```{experiment} gen
run: sh kernels/gen/gen.sh
inputs: kernels/gen/gen.sh kernels/gen/scale.txt
sweep: -n=2,4
capture: size (?<size>\d+): (?<squares>\d+) squares
runs: 2
```

```{experiment} pysum
source: kernels/pysum/pysum.py
sweep: --n 100,1000
runs: 2
```

```{chart} pysum-time
data: pysum
x: n
y: median_ms
```

Largest {{ max(gen.y) }}, squares {{ gen.squares[size=4] }}; median {{ pysum.median_ms[n=1000] %.6f }}.
MD
build --progress
expect_rc 0
expect_err "(2 ran, 0 failed)"
expect_no_err "compile gen"
expect_html run.html "Largest 12, squares 16;"
expect_file site/fig/pysum-time.svg
# Nothing was compiled: the page says so where the compile would be, shows
# the command as it ran, and the script as its source.
expect_html run.html '<code># nothing to compile: run: runs as written</code>'
expect_html run.html '<code>sh kernels/gen/gen.sh -n=2'
expect_html run.html 'Source: <code>kernels/gen/gen.sh</code>'
expect_no_file build/exp/gen
grep -q '"y":6,"n":2' res/gen.jsonl || fail "gen's records lack the set's n: $(cat res/gen.jsonl)"
grep -q '"run":[[:space:]]*"sh kernels/gen/gen.sh"' res/gen.meta.json ||
	fail "gen's key does not hold its command"
# lab.py's records: lab.h's fields, ordered statistics, merged over runs.
python3 - res/pysum.jsonl <<'PY' || fail "pysum's records are not lab.h's: $(cat res/pysum.jsonl)"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert [r["n"] for r in rows] == [100, 1000], rows
for r in rows:
    for k in ("reps", "median_ms", "min_ms", "max_ms", "q1_ms", "q3_ms",
              "spread", "noise", "madds", "madds_lo", "madds_hi", "runs"):
        assert k in r, k
    assert r["timer"] == "perf_counter" and r["runs"] == 2
    assert r["min_ms"] <= r["q1_ms"] <= r["median_ms"] <= r["q3_ms"] <= r["max_ms"]
    assert r["reps"] >= 40  # at least 20 a run
PY
grep -q '"kernels/lab.py"' res/pysum.meta.json || fail "lab.py is not an input of pysum"
[ -d kernels/__pycache__ ] && fail "importing lab left __pycache__ in kernels/"

# Run by hand, lab.py prints its records.
out=$(PYTHONPATH=kernels python3 kernels/pysum/pysum.py --n 10)
printf '%s\n' "$out" | grep -q '^record: {"n":10,"madds":' || fail "by hand, pysum printed: $out"
# Its pieces: lab.h's quantiles, the cap on repetitions, the time budget,
# a record's values (NaN is null, order kept) and a clear refusal.
PYTHONPATH=kernels python3 - <<'PY' || fail "lab.py's pieces"
import json, os, tempfile, time
import lab
assert lab._quantile([1.0, 2.0, 3.0, 4.0], 0.25) == 1.75
st = lab.time(lambda: None, max_reps=5, min_reps=3)
assert st.reps <= 5, st
st = lab.time(time.sleep, 0.002, min_reps=3, min_time_ms=0, budget_ms=20,
              target_noise=0)
assert 3 <= st.reps <= 11 and st.min_ms >= 2, st
assert st.rate("x", 1)["x_lo"] <= st.rate("x", 1)["x"] <= st.rate("x", 1)["x_hi"]
path = os.path.join(tempfile.mkdtemp(), "r.jsonl")
os.environ["LAB_RECORDS"] = path
lab.record(b=1, a=float("nan"), s="é")
lab.fact("bw", 2.5)
assert open(path, encoding="utf-8").read() == \
    '{"b":1,"a":null,"s":"é"}\n{"fact":"bw","value":2.5}\n'
try:
    lab.time(sum, [1], cold=True)
    raise SystemExit("cold=True on the CPU was accepted")
except ValueError:
    pass
PY

# A second build runs nothing.
g0=$(ran_of gen) p0=$(ran_of pysum)
build --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"

# An inputs: file edited: gen runs again, and only gen.
echo 5 > kernels/gen/scale.txt
OUT=$(lb explain gen --results res 2>&1); RC=$?
expect_err "the input kernels/gen/scale.txt changed"
build --progress
expect_rc 0
expect_err "(1 ran, 0 failed)"
expect_html run.html "Largest 20,"
[ "$(ran_of gen)" != "$g0" ] || fail "gen did not run again after scale.txt changed"
[ "$(ran_of pysum)" = "$p0" ] || fail "pysum ran again after scale.txt changed"
# lab.py edited: the Python program that imports it runs again, not gen.
g1=$(ran_of gen)
echo '# edited' >> kernels/lab.py
build --progress
expect_err "(1 ran, 0 failed)"
[ "$(ran_of pysum)" != "$p0" ] || fail "pysum did not run again after lab.py changed"
[ "$(ran_of gen)" = "$g1" ] || fail "gen ran again after lab.py changed"
# The command is part of the key.
sed -i 's|^run: sh kernels/gen/gen.sh$|run: sh kernels/gen/gen.sh -n=8|' chapters/01-run.md
OUT=$(lb explain gen --results res 2>&1); RC=$?
expect_err "run: was 'sh kernels/gen/gen.sh', now 'sh kernels/gen/gen.sh -n=8'"
build --progress
expect_err "(1 ran, 0 failed)"
expect_html run.html "Largest 40,"

# Bad run: lines, each an error at its line; the good chapter still
# builds from its kept results, and a run past its timeout is killed.
chapter 02-bad.md <<'MD'
# Bad

```{experiment} both
source: kernels/pysum/pysum.py
run: sh kernels/gen/gen.sh
inputs: kernels/gen/gen.sh
```

```{experiment} quote
run: sh -c 'echo hi
```

```{experiment} unlisted
run: sh kernels/gen/gen.sh
inputs: kernels/gen/scale.txt
```

```{experiment} flagged
run: sh kernels/gen/gen.sh
inputs: kernels/gen/gen.sh
flags: -O2
```

```{experiment} nothing
args: 1
```

```{experiment} slow
run: sleep 30
timeout: 1
```
MD
build
expect_rc 1
expect_err "chapters/02-bad.md:5: error: experiment 'both': run: runs a command as written and compiles nothing, so it takes no source: (line 4)"
expect_err "chapters/02-bad.md:10: error: experiment 'quote': run: the quote ' at column 7 is not closed"
expect_err "chapters/02-bad.md:14: error: experiment 'unlisted': run: names kernels/gen/gen.sh, a file of the project that inputs: does not list"
expect_err "chapters/02-bad.md:19: error: experiment 'flagged': run: runs a command as written and compiles nothing, so it takes no flags: (line 21)"
expect_err "chapters/02-bad.md:24: error: {experiment} is missing its 'source' option (or 'run'"
expect_err "experiment 'slow'"
expect_err "timeout of 1 s"
expect_html run.html "Largest 40,"
expect_no_file res/slow.jsonl

# A program that fails says on the terminal what it printed last: the
# reason a reader looks for, not only its status.
mkdir -p kernels/miss
printf 'import module_that_is_not_here\n' > kernels/miss/miss.py
cat > chapters/09-fails.md <<'MD'
# Fails

```{experiment} miss
source: kernels/miss/miss.py
runs: 1
```

```{experiment} nocmd
run: ./no-such-program
runs: 1
```
MD
build
expect_rc 1
expect_err "chapters/09-fails.md:3: error: experiment 'miss' exited with status 1; it printed last: ModuleNotFoundError: No module named 'module_that_is_not_here'"
expect_err "chapters/09-fails.md:8: error: experiment 'nocmd' exited with status 127; it printed last: labbook: cannot run ./no-such-program: No such file or directory"
rm chapters/09-fails.md
