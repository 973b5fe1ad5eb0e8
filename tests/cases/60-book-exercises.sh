# Every chapter of the shipped book ends with an Exercises section of at
# least three {exercise} callouts, one of them "predict, then measure" with a command to
# run, one that changes a kernel; and no chapter cites its sources by a
# private label ("seed 001") instead of by name. Every exercise of every
# chapter, the appendix included, has a folded answer, and the answer to a "predict, then measure" one
# computes its numbers from the bundle ({{ ... }}) instead of typing them.
n=0
for ch in "$ROOT"/chapters/*.md; do
	name=$(basename "$ch")
	n=$((n + 1))
	grep -qi 'seed' "$ch" && fail "$name says 'seed'"
	last=$(grep -n '^## ' "$ch" | tail -n 1)
	[ "${last#*:}" = "## Exercises" ] ||
		fail "$name: its last section is '${last#*:}', not '## Exercises'"
	ex=$(sed -n '/^## Exercises$/,$p' "$ch")
	items=$(printf '%s\n' "$ex" | grep -cE '^`{3,}\{exercise\}')
	[ "$items" -ge 3 ] || fail "$name: $items exercises, want at least 3"
	printf '%s\n' "$ex" | grep -q 'Predict, then measure' ||
		fail "$name: no 'predict, then measure' exercise"
	printf '%s\n' "$ex" | grep -qE '`(build/labbook|build/exp/|ncu |make )[^`]*`' ||
		fail "$name: no exercise names a command to run"
	printf '%s\n' "$ex" | grep -qE 'Change the kernel|kernels/' ||
		fail "$name: no exercise changes a kernel"
done
[ "$n" -ge 9 ] || fail "only $n chapters found"

# An exercise with no {answer}, an empty one, or a prediction answered in typed
# numbers alone: each is named with its file and line.
cat > answers.py <<'PY'
import re, sys
for path in sys.argv[1:]:
    name = path.rsplit("/", 1)[1]
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(`{3,})\{exercise\}", lines[i])
        if not m:
            i += 1
            continue
        start, fence = i, m.group(1)
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            i += 1
        body = lines[start + 1:i]
        cut = [k for k, l in enumerate(body) if l.strip() == "{answer}"]
        where = "%s:%d" % (name, start + 1)
        if not cut:
            print(where + ": an exercise without an answer")
            continue
        question, answer = body[:cut[0]], body[cut[0] + 1:]
        if not "".join(answer).strip():
            print(where + ": an empty answer")
        elif "Predict, then measure" in " ".join(question) and "{{" not in " ".join(answer):
            print(where + ": a prediction answered without a computed value")
PY
bad=$(python3 answers.py "$ROOT"/chapters/*.md)
[ -z "$bad" ] || fail "$bad"

# The check itself, on a chapter that gets each wrong: a prediction whose words
# wrap across lines answered in typed numbers, an answer left empty, one
# missing behind a longer fence that holds code, and one answered well.
chapter 99-bad.md <<'EOF'
## Exercises

```{exercise}
*Predict,
then measure.* Read 64 MiB.
{answer}
About 3000 GB/s.
```

```{exercise}
*Change the kernel.* Unroll it.
{answer}

```

````{exercise}
Run this:

```sh
build/exp/method --mb 64
```
````

```{exercise}
*Predict, then measure.* Sum it.
{answer}
{{ max(sums.n) %d }}
```
EOF
OUT=$(python3 answers.py chapters/99-bad.md)
expect_err "99-bad.md:3: a prediction answered without a computed value"
expect_err "99-bad.md:10: an empty answer"
expect_err "99-bad.md:16: an exercise without an answer"
[ "$(printf '%s\n' "$OUT" | wc -l)" = 3 ] || fail "want 3 faults named, got: $OUT"
