# What labbook prints is what it means: control bytes a bundle holds are
# shown, not sent to the terminal; numbers fit their columns; JSON is
# valid UTF-8 whatever a record's text holds; a nested exercise and a
# fence closed by its block quote are told as they are.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

> ```
> quoted code, closed by the quote's end
Still the quote.

Max {{ max(sq.y) }}.

````{exercise}
Outer question?

```{exercise}
Inner question?
{answer}
Inner answer.
```

{answer}
Outer answer.
````
MD
build
expect_rc 1
expect_no_err "never closed"
expect_err "chapters/01-a.md:16: error: an {exercise} inside an {exercise}: exercises do not nest"
expect_no_err "a second {answer}"

# A meta whose text holds ESC: explain shows it as \x1b.
python3 - <<'PY'
import json
m = json.load(open("res/sq.meta.json"))
m["ran_because"] = ["first \x1b[31mred\x1b[0m run"]
json.dump(m, open("res/sq.meta.json", "w"))
PY
OUT=$(lb explain sq --results res 2>&1); RC=$?
printf '%s' "$OUT" | grep -q "$(printf '\033')" && fail "explain sent ESC to the terminal: $OUT"
expect_err 'first \x1b[31mred\x1b[0m run'

# Two bundles whose point holds a median of 1e300 and a string with 0xff.
mkdir -p a b
for d in a b; do
	printf '{"gpu":"none"}\n' > $d/machine.json
	printf '{"id":"t","exit_status":0}\n' > $d/t.meta.json
done
printf '{"n":1,"s":"x\377y","median_ms":1e300,"q1_ms":1e300,"q3_ms":1e300}\n{"n":2,"s":"ok","median_ms":1.0}\n' > a/t.jsonl
printf '{"n":1,"s":"x\377y","median_ms":2e300,"q1_ms":2e300,"q3_ms":2e300}\n{"n":2,"s":"ok","median_ms":1.0}\n' > b/t.jsonl
OUT=$(lb compare a b --all 2>&1); RC=$?
long=$(printf '%s\n' "$OUT" | awk 'length > 160' | head -n 1)
[ -z "$long" ] || fail "a table line runs past its columns: $long"
lb compare a b --all --json - 2>/dev/null > cmp.json
python3 -c 'import json,sys; json.loads(open("cmp.json","rb").read().decode("utf-8"))' ||
	fail "compare --json is not valid UTF-8 JSON: $(head -c 300 cmp.json)"

# A fenced code block keeps its last blank line, as CommonMark has it.
mkdir -p cm/chapters
printf '# C\n\n```\naaa\n\n```\n' > cm/chapters/01-c.md
(cd cm && "$LABBOOK" build --no-run --results res --site site --templates "$ROOT/templates" --quiet) >/dev/null 2>&1
python3 - <<'PY' || fail "the code block lost its last blank line: $(grep -A2 '<pre' cm/site/c.html)"
import re
html = open("cm/site/c.html").read()
m = re.search(r'<pre class="code snippet"[^>]*><code>(.*?)</code></pre>', html, re.S)
assert m and m.group(1) == "aaa\n\n", m and repr(m.group(1))
PY
