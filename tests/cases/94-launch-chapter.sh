# The launch chapter, with the dynamic-parallelism chapter whose launches
# it compares and the reduction's records whose small sizes it explains,
# renders from results/h100 and a chain of
# launches measured on an H100 (tests/fixtures/launch-h100.jsonl): every
# value evaluates and every claim holds, with --strict. Records that
# contradict the text make the claims that read them fail, each at its own
# line: a device launch no dearer than a host launch, a chain whose time
# is not launch + work, a launch floor above the reduction's time.
mkdir chapters
cp "$ROOT"/chapters/08-dynamic.md "$ROOT"/chapters/15-launch.md chapters/
cp -r "$ROOT/kernels" .
cp -r "$ROOT/results/h100" res
cp "$ROOT/tests/fixtures/launch-h100.jsonl" res/launch.jsonl
python3 - <<'PY'
import json
m = json.load(open("res/nested.meta.json"))
for k in ("key", "source_key"):
    m.pop(k, None)
m.update(id="launch", source="kernels/launch/launch.cu",
         chapter="chapters/15-launch.md", inputs=["kernels/launch/launch.cu", "kernels/lab.h"],
         command="build/exp/launch --us 0,2,4,8,16,32,64,128,256,512,1024 --chain 32")
json.dump(m, open("res/launch.meta.json", "w"))
PY
build --no-run --strict
expect_rc 0
expect_no_err "claim does not hold"
claims_in() { grep -o '{{check' "chapters/$1" | wc -l; }
expect_html launch.html "All $(claims_in 15-launch.md) claims this chapter makes hold on the card these numbers come from."
expect_html dynamic.html "All $(claims_in 08-dynamic.md) claims this chapter makes hold"
grep -q 'class="inline-error"\|class="error-box"\|not measured on this machine' site/launch.html site/dynamic.html &&
	fail "a page shows an error or a value not measured"

# set METHOD US FIELD VALUE: one field of one record of the fixture.
set_record() {
	python3 - "$@" <<'PY'
import json, sys
method, us, field, value = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
rows = [json.loads(l) for l in open("res/launch.jsonl")]
hit = [r for r in rows if r["method"] == method and r["us_set"] == us]
assert len(hit) == 1, hit
hit[0][field] = value
open("res/launch.jsonl", "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
}
line_of() { grep -nF -- "$2" "chapters/$1" | head -n 1 | cut -d: -f1; }

set_record device 0 us 1.0
build --no-run --strict
expect_rc 1
expect_err "chapters/08-dynamic.md:$(line_of 08-dynamic.md '{{check launch.us[method=device, us_set=0] > 1.5 * launch.us[method=stream, us_set=0]'): error: claim does not hold on res"
expect_err "chapters/15-launch.md:$(line_of 15-launch.md '{{check launch.us[method=device, us_set=0] > 1.5 * launch.us[method=stream, us_set=0] &&'): error: claim does not hold on res"
cp "$ROOT/tests/fixtures/launch-h100.jsonl" res/launch.jsonl

set_record stream 16 us 25.0
build --no-run
expect_rc 0
expect_err "chapters/15-launch.md:$(line_of 15-launch.md '{{check abs(launch.us[method=host, us_set=16] / launch.us[method=stream, us_set=16] - 1)'): warning: claim does not hold on res"
[ "$(printf '%s\n' "$OUT" | grep -c 'claim does not hold')" -ge 1 ] || fail "no claim failed: $OUT"
expect_html launch.html "claims this chapter makes do"
cp "$ROOT/tests/fixtures/launch-h100.jsonl" res/launch.jsonl

# A reduction of 16384 elements faster than two launches' cost: the
# floor the chapter explains its small sizes by is crossed.
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open("res/reduce.jsonl")]
for r in rows:
    if r.get("n") == 16384:
        r["ms"] = 0.0001
open("res/reduce.jsonl", "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
build --no-run
expect_err "chapters/15-launch.md:$(line_of 15-launch.md '{{check 1000 * min(reduce.ms[n=16384]) > 0.75 * 2 * median(launch.over_us'): warning: claim does not hold on res"
