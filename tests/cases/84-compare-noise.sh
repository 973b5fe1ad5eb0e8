# compare judges every point against its own noise: the quartiles of its
# repetitions and the spread of its runs in both bundles, and A's
# difference from A-repeat. A verdict per point (slower, faster, within
# noise, too noisy), exit 0 when nothing is slower, 1 when something is,
# 2 when nothing could be compared; --json for scripts.

# point NAME MEDIAN NOISE: a record of point NAME whose quartiles and runs
# lie NOISE (relative) apart around MEDIAN.
point() {
	awk -v n="$1" -v m="$2" -v s="$3" 'BEGIN {
		printf "{\"p\":\"%s\",\"median_ms\":%.9g,\"q1_ms\":%.9g,\"q3_ms\":%.9g,", n, m, m * (1 - s / 4), m * (1 + s / 4)
		printf "\"run_min_ms\":%.9g,\"run_max_ms\":%.9g,\"run_spread\":%.9g,\"runs\":3}\n", m * (1 - s / 2), m * (1 + s / 2), s }'
}
mkdir A B
echo '{"gpu":"x"}' > A/machine.json
cp A/machine.json B/machine.json
# quiet: 0.2% noise, shifted 2%. noisy: 20% noise, shifted 10%.
# steady: 0.2% noise, unchanged. wide: 5% noise, shifted 10%.
{ point quiet 1 0.002; point noisy 1 0.2; point steady 1 0.002; point wide 1 0.05; } > A/e.jsonl
{ point quiet 1.02 0.002; point noisy 1.1 0.2; point steady 1 0.002; point wide 1.1 0.05; } > B/e.jsonl
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 1
expect_err "p=quiet"
grep -q 'p=quiet .*+2.00%  ± 1.00%  slower$' <<<"$OUT" || fail "a 2% shift on a quiet point is not slower: $OUT"
grep -q 'p=noisy .*too noisy$' <<<"$OUT" || fail "a 20% noisy point is judged: $OUT"
grep -q 'p=wide .*+10.00%  ±15.00%  within noise$' <<<"$OUT" && fail "a point within its noise is listed without --all"
expect_no_err "p=steady"
expect_err "summary: 3 points compared, largest difference +10.00% (e #3 p=wide), 1 slower, 0 faster beyond noise, 2 within noise; 1 point noisier than --max-noise 10% not judged"
# --all shows every verdict with the band it was judged against.
OUT=$(lb compare A B --all 2>&1); RC=$?
grep -q 'p=wide .*+10.00%  ±15.00%  within noise$' <<<"$OUT" || fail "--all lacks the wide point: $OUT"
grep -q 'p=steady .*+0.00%  ± 1.00%  within noise$' <<<"$OUT" || fail "--all lacks the steady point: $OUT"
# With the ceiling lifted, the 10% shift on 20% noise is within noise.
OUT=$(lb compare A B --max-noise 50 --all 2>&1); RC=$?
grep -q 'p=noisy .*+10.00%  ±60.00%  within noise$' <<<"$OUT" || fail "10% on 20% noise is not within noise: $OUT"
# --min-diff is a floor: never flag less (as 3 or 3%).
for f in 3 3%; do
	OUT=$(lb compare A B --min-diff $f 2>&1); RC=$?
	expect_rc 0
	expect_err "0 slower, 0 faster beyond noise, 3 within noise"
done
# The other way round it is faster, and faster does not fail.
OUT=$(lb compare B A 2>&1); RC=$?
expect_rc 0
grep -q 'p=quiet .*-1.96%  ± 1.00%  faster$' <<<"$OUT" || fail "B against A is not faster: $OUT"
# A bundle compared with itself flags nothing.
OUT=$(lb compare A A 2>&1); RC=$?
expect_rc 0
expect_err "0 slower, 0 faster beyond noise, 3 within noise"
# The flat test is still there: --max-diff looks at no noise.
OUT=$(lb compare A B --max-diff 5 2>&1); RC=$?
expect_rc 1
expect_err "+10.00%  <-- over"
expect_err "2 over 5.0%"

# --json: the verdicts for scripts, on stdout ("-", the table then goes
# to stderr) or in a file.
OUT=$(lb compare A B --json - 2>/dev/null); RC=$?
expect_rc 1
python3 - "$OUT" <<'PY' || fail "--json: $OUT"
import json, sys
d = json.loads(sys.argv[1])
v = {p["point"]: p for p in d["points"]}
assert d["method"] == "noise" and d["min_diff"] == 0.01, d
assert v["p=quiet"]["verdict"] == "slower" and abs(v["p=quiet"]["band"] - 0.01) < 1e-9
assert abs(v["p=quiet"]["noise"] - 0.002) < 1e-9
assert v["p=noisy"]["verdict"] == "too noisy"
assert v["p=steady"]["verdict"] == "within noise"
assert d["summary"] == {"slower": 1, "faster": 0, "within_noise": 2, "too_noisy": 1, "host_bound": 0, "throttled": 0}, d["summary"]
PY
OUT=$(lb compare A B --json v.json 2>&1); RC=$?
expect_rc 1
expect_err "1 slower"
python3 -c 'import json; assert json.load(open("v.json"))["summary"]["slower"] == 1' || fail "v.json"
OUT=$(lb compare A B --json nowhere/v.json 2>&1); RC=$?
expect_rc 2
expect_err "error: cannot write nowhere/v.json"
# --json never writes over what a build reads: a chapter, a file that is
# not .json, or a file in a bundle's folder.
echo "# A chapter" > keep.md
OUT=$(lb compare A B --json keep.md 2>&1); RC=$?
expect_rc 2
expect_err "error: --json keep.md: not written: it is a file that is not .json"
[ "$(cat keep.md)" = "# A chapter" ] || fail "--json wrote over keep.md"
OUT=$(lb compare A B --json A/machine.json 2>&1); RC=$?
expect_rc 2
expect_err "error: --json A/machine.json: not written: it is in a bundle's folder"
[ "$(cat A/machine.json)" = '{"gpu":"x"}' ] || fail "--json wrote into bundle A"

# A-repeat beside A widens each point by the difference between A's two
# runs; it is used unless B is that repeat, or --no-repeat.
mkdir A-repeat
cp A/machine.json A-repeat/
{ point quiet 1.015 0.002; point noisy 1 0.2; point steady 1 0.002; point wide 1 0.05; } > A-repeat/e.jsonl
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 0
expect_err "and A's difference from A-repeat"
grep -q 'p=quiet' <<<"$OUT" && fail "quiet is flagged though A's repeat differs by 1.5%: $OUT"
OUT=$(lb compare A B --no-repeat 2>&1); RC=$?
expect_rc 1
# Against its own repeat, that difference is what is judged.
OUT=$(lb compare A A-repeat 2>&1); RC=$?
expect_rc 1
expect_no_err "difference from A-repeat"
grep -q 'p=quiet .*+1.50%  ± 1.00%  slower$' <<<"$OUT" || fail "A against A-repeat: $OUT"
mv A-repeat R
OUT=$(lb compare A B --repeat R 2>&1); RC=$?
expect_rc 0
expect_err "and A's difference from R"
OUT=$(lb compare A B --repeat nowhere 2>&1); RC=$?
expect_rc 2
expect_err "error: --repeat nowhere: not a results bundle"
OUT=$(lb compare A B --repeat R --no-repeat 2>&1); RC=$?
expect_rc 2

# Nothing could be compared: 2. A noisy point alone is not a comparison.
point noisy 1 0.5 > A/e.jsonl
point noisy 1 0.5 > B/e.jsonl
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "1 is noisier than --max-noise 10%"
for bad in "--min-diff abc" "--max-noise -1" "--min-diff"; do
	OUT=$(lb compare A B $bad 2>&1); RC=$?
	expect_rc 2
	expect_err "compare"
done

# The shipped bundles. A bundle against itself: nothing flagged.
OUT=$(lb compare "$ROOT/results/h100" "$ROOT/results/h100" 2>&1); RC=$?
expect_rc 0
expect_err " 0 slower, 0 faster beyond noise"
# Unchanged experiments run again on another card of the same kind
# (results/h100-repeat: a second H100, right after results/h100): nothing
# flagged. Two H200s do differ beyond noise (results/h200x2 ran on two
# other cards than results/h200, two workers at a time): without its
# repeat, a base has only its own quartiles and runs to judge by; with
# results/h200-repeat (the book again on a second H200) beside it, fewer
# points stand out, and still some do.
OUT=$(lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" 2>&1); RC=$?
expect_rc 0
expect_err " 0 slower, 0 faster beyond noise"
OUT=$(lb compare "$ROOT/results/h200" "$ROOT/results/h200x2" --no-repeat 2>&1); RC=$?
expect_rc 1
expect_no_err "difference from"
alone=$(grep -Eo ', [0-9]+ slower' <<<"$OUT" | grep -Eo '[0-9]+')
[ "${alone:-0}" -gt 0 ] || fail "two H200 cards are said to agree on every point: $OUT"
OUT=$(lb compare "$ROOT/results/h200" "$ROOT/results/h200x2" 2>&1); RC=$?
expect_rc 1
expect_err "difference from $ROOT/results/h200-repeat"
paired=$(grep -Eo ', [0-9]+ slower' <<<"$OUT" | grep -Eo '[0-9]+')
[ "${paired:-0}" -gt 0 ] && [ "$paired" -lt "$alone" ] ||
	fail "the repeat does not widen the noise ($alone alone, ${paired:-?} with it): $OUT"
# Every ilp time 3% longer (three times the noisiest ilp point's noise is
# 2.3%): every ilp point slower, nothing else flagged.
cp -r "$ROOT/results/h100" slow
python3 - <<'PY'
import json
rows = []
for line in open("slow/ilp.jsonl"):
    r = json.loads(line)
    for k in ("median_ms", "min_ms", "max_ms", "q1_ms", "q3_ms", "run_min_ms", "run_max_ms"):
        if k in r:
            r[k] *= 1.03
    rows.append(json.dumps(r))
open("slow/ilp.jsonl", "w").write("\n".join(rows) + "\n")
PY
OUT=$(lb compare "$ROOT/results/h100" slow 2>&1); RC=$?
expect_rc 1
expect_err "ilp          512 points of at least 0.050 ms, largest +3.00%, 512 beyond noise"
expect_err ", 512 slower, 0 faster beyond noise"
flagged=$(grep -cE '  (slower|faster)$' <<<"$OUT")
ilp=$(grep -cE '^ilp .*  slower$' <<<"$OUT")
[ "$flagged" = 512 ] && [ "$ilp" = 512 ] || fail "$flagged points flagged, $ilp of them ilp; want 512 and 512"
