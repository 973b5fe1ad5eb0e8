# labbook history reads a bundle as each commit that changed it left it
# (git is the store) and judges each recording against the one before, as
# labbook compare judges two bundles. A repository made here holds a small
# .c book whose bundle is written directly, as a run would write it, and
# committed several times: once re-recorded within noise, once with its
# source changed and one point planted 5% slower, once with the speed
# restored, once on another card. The History page lists exactly the
# planted step, with its commit and the changed source; --check exits 1 on
# it and 0 once the speed is back; a new card is a change of machine.
need git:git python3:python3
mkdir repo && cd repo || exit 1
git init -q -b main . && git config user.email case@example.com &&
	git config user.name case && git config commit.gpgsign false ||
	fail "cannot make a git repository"
kernel sum <<'C'
#include <stdio.h>
int main(void) { puts("sum"); return 0; }
C
chapter 01-sum.md <<'MD'
# Sums

```{experiment} sum
source: kernels/sum/sum.c
```
MD

# record SRC CARD SLOW [JITTER [LAB]]: write res/ as a run of sum would:
# four points of 0.2% noise whose medians are 1, 2, 4 and 8 ms times
# JITTER, the third SLOW times longer, and every point 8% longer on card
# "b"; the key names sum.c's hash SRC and lab.h's LAB.
record() {
	python3 - "$@" <<'PY'
import json, os, sys
src, card, slow = sys.argv[1], sys.argv[2], float(sys.argv[3])
jit = float(sys.argv[4]) if len(sys.argv) > 4 else 1
lab = sys.argv[5] if len(sys.argv) > 5 else "lab1"
os.makedirs("res", exist_ok=True)
with open("res/machine.json", "w") as f:
    json.dump({"gpu": "Test GPU", "uuid": "GPU-" + card * 8 + "-0000",
               "driver": "580.1", "nvcc": "Cuda compilation tools, V13.0.88",
               "date": "2026-01-02T03:04:05Z"}, f)
with open("res/sum.jsonl", "w") as f:
    for i, m in enumerate([1.0, 2.0, 4.0, 8.0]):
        m *= jit * (slow if i == 2 else 1) * (1.08 if card == "b" else 1)
        f.write(json.dumps({"n": i + 1, "median_ms": m, "q1_ms": m * 0.9995,
                            "q3_ms": m * 1.0005, "run_min_ms": m * 0.999,
                            "run_max_ms": m * 1.001, "run_spread": 0.002,
                            "runs": 3}) + "\n")
with open("res/sum.meta.json", "w") as f:
    json.dump({"id": "sum", "source": "kernels/sum/sum.c", "exit_status": 0,
               "date": "2026-01-02T03:04:05Z", "source_key": "key-" + src,
               "key_parts": {"files": {"kernels/sum/sum.c": src,
                                       "kernels/lab.h": lab},
                             "flags": "-O2", "args": ""},
               "records": 4, "runs": 3}, f)
PY
}
commit() { git add -A && git commit -q -m "$1" || fail "cannot commit: $1"; }
rev() { git rev-parse --short HEAD; }

record src1 a 1
commit "first recording"
# Within noise (0.05%), with a new lab.h: no step.
record src1 a 1 1.0005 lab2
commit "recorded again"
echo '/* a slower sum */' >> kernels/sum/sum.c
record src2 a 1.0505250 1 lab2
commit "sum: a slower kernel"
SLOW=$(rev)

# steps [across]: the rows of the page's steps on one machine (or of
# those across a change of machine), one per line, a cell's text between
# bars: commit, experiment and point, verdict and band, the median times
# and what changed.
steps() {
	python3 - "${1:-}" <<'PY'
import re, sys
html = open("site/history.html").read()
cls = "records history-steps" + (" across" if sys.argv[1] else "")
m = re.search(r'<table class="%s">(.*?)</table>' % cls, html, re.S)
for row in re.findall(r"<tr[ >].*?</tr>", m.group(1).split("<tbody>")[1] if m else "", re.S):
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split())
             for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
    print(" | ".join(cells))
PY
}

OUT=$(lb history res 2>&1); RC=$?
expect_rc 0
expect_err "res: 3 recordings (git log -- res)"
grep -q "^$SLOW .*sum .*n=3 .*+5.00% ± 1.00%  slower   source kernels/sum/sum.c$" <<<"$OUT" ||
	fail "the planted step is not listed with its commit and source: $OUT"
[ "$(sed -n '/^steps:/,/^check:/p' <<<"$OUT" | grep -c '^[0-9a-f]\{7,\} ')" = 1 ] ||
	fail "not exactly one step: $OUT"
OUT=$(lb history res --check 2>&1); RC=$?
expect_rc 1
expect_err "check: $SLOW against"
expect_err "4 points judged, 1 slower beyond noise, the most sum n=3 +5.00%"

# The History page: exactly the planted step, its commit and source.
build --no-run --history res
expect_rc 0
expect_html index.html '<a href="history.html">History</a>'
expect_html history.html 'History of <code>res</code>'
ROWS=$(steps)
[ "$ROWS" = "$SLOW | sum n=3 | ▲ slower +5.00% ±1.00% | 4.002 → 4.202 | source kernels/sum/sum.c" ] ||
	fail "the page's steps are not exactly the planted one: $ROWS"
expect_html history.html "<strong>1 slower</strong> beyond noise"
expect_html history.html '<svg class="history-chart"'
grep -c '<tr id="rec-' site/history.html | grep -qx 3 || fail "the page does not list 3 recordings"

# The speed restored: a faster step, and --check passes. The same build
# command again sees the new commit (its no-op stamp notes git's files).
record src2 a 1 1 lab2
commit "sum: the speed back"
BACK=$(rev)
OUT=$(lb history res --check 2>&1); RC=$?
expect_rc 0
expect_err "check: $BACK against $SLOW"
expect_err "4 points judged, 0 slower beyond noise"
build --no-run --history res
expect_rc 0
ROWS=$(steps)
[ "$(printf '%s\n' "$ROWS" | wc -l)" = 2 ] && grep -q "^$BACK | sum n=3 | ▼ faster -4.81% ±1.00% | 4.202 → 4 | nothing the recordings name$" <<<"$ROWS" ||
	fail "the restored speed is not a faster step after the planted one: $ROWS"

# Another card, every point 8% slower: a change of machine, not a
# regression; --check has no earlier recording on that card.
record src2 b 1 1 lab2
commit "recorded on another card"
CARD=$(rev)
OUT=$(lb history res --check --json h.json 2>&1); RC=$?
expect_rc 0
expect_err "changed: card GPU-aaaaaaaa → GPU-bbbbbbbb, both Test GPU"
expect_err "4 points judged, 4 slower, 0 faster beyond noise (a change of machine, not listed below"
expect_err "check: no recording before $CARD on its card and driver"
python3 - "$SLOW" "$BACK" "$CARD" <<'PY' || fail "--json: $(cat h.json)"
import json, sys
slow, back, card = sys.argv[1:]
d = json.load(open("h.json"))
assert [e["commit"] is not None for e in d["entries"]] == [True] * 5, d["entries"]
assert d["entries"][4]["machine_change"] and d["entries"][4]["slower"] == 4
own = [s for s in d["steps"] if not s["machine_change"]]
assert [(s["commit"], s["point"], s["verdict"]) for s in own] == \
    [(slow, "n=3", "slower"), (back, "n=3", "faster")], own
assert own[0]["changed"] == ["source kernels/sum/sum.c"], own[0]
assert abs(own[0]["diff"] - 0.05) < 1e-9 and abs(own[0]["band"] - 0.01) < 1e-9
across = [s for s in d["steps"] if s["machine_change"]]
assert len(across) == 4 and all(s["commit"] == card for s in across)
assert "card GPU-aaaaaaaa → GPU-bbbbbbbb, both Test GPU" in across[0]["changed"]
assert d["check"] == {"latest": card, "previous": None, "judged": 0,
                      "slower": 0, "worst": None}, d["check"]
PY
build --no-run --history res
expect_rc 0
[ "$(steps | wc -l)" = 2 ] || fail "a change of machine is listed as a step: $(steps)"
[ "$(steps across | wc -l)" = 4 ] || fail "the 4 points across the new card are not listed apart: $(steps across)"
expect_html history.html "4 points moved beyond noise across a change of machine"
expect_html history.html 'new card</text>'

# Changes not committed are the last recording, judged like the others.
sed -i 's/"median_ms": 1.08,/"median_ms": 1.2,/' res/sum.jsonl
OUT=$(lb history res --check 2>&1); RC=$?
expect_rc 1
expect_err "worktree  "
expect_err "check: worktree against $CARD"
git checkout -q -- res

# A build without --history leaves no History page behind; one whose
# --history has no records says so and fails.
build --no-run
expect_rc 0
expect_no_file site/history.html
expect_no_html index.html 'history.html'
build --no-run --history nowhere
expect_rc 1
expect_err "nowhere: error: no records in this bundle, now or in any commit"
expect_no_file site/history.html

# Outside git: one recording, and why. A bundle with no records: exit 2.
cd .. && mkdir plain empty && cp repo/res/* plain/
OUT=$(lb history plain 2>&1); RC=$?
expect_rc 0
expect_err "plain: 1 recording;"
expect_err "plain is in no git repository, so it has no history"
expect_err "check: no recording before worktree"
OUT=$(lb history empty 2>&1); RC=$?
expect_rc 2
expect_err "empty: error: no records in this bundle"
OUT=$(lb history 2>&1); RC=$?
expect_rc 2
expect_err "history needs one bundle"

# A bundle that is the root of its own repository (results kept apart
# from the book), and a bundle whose name git would read as a pattern.
mkdir rootb && cp repo/res/* rootb/ && cd rootb || exit 1
git init -q -b main . && git config user.email case@example.com &&
	git config user.name case && git config commit.gpgsign false &&
	git add -A && git commit -q -m "the bundle alone" || fail "no root repository"
cd ..
OUT=$(lb history rootb 2>&1); RC=$?
expect_rc 0
expect_err "rootb: 1 recording"
expect_no_err "pathspec"
cd repo || exit 1
mkdir 'r*' && cp res/* 'r*/' && git add -A && git commit -q -m "a folder named r*" ||
	fail "cannot commit r*"
OUT=$(lb history 'r*' 2>&1); RC=$?
expect_rc 0
expect_err "r*: 1 recording"
cd ..
