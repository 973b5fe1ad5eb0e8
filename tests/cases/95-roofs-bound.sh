# Every roof a chart draws bounds its data: in every chart of the book, as
# rendered from each shipped bundle, no drawn point lies more than 1% (the
# repetitions' noise: a copy at the copy roof lands a hair either side of
# it) above the highest limit line, unless the chart's directive calls its
# lines baselines ("not a bound"). A point planted above a roof is caught.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
cat > roofs.py <<'PY'
import glob, os, re, sys
# Charts whose limit lines are baselines, from the chapters' directives.
baseline = set()
for md in glob.glob("chapters/*.md"):
    for chart in re.findall(r"```\{chart\} (\S+)\n(.*?)```", open(md).read(), re.S):
        if re.search(r"^limit:.*\|\s*baseline", chart[1], re.M):
            baseline.add(chart[0])
bad, n = [], 0
for gp in sorted(glob.glob("site/fig/*.gp")):
    cid = os.path.basename(gp)[:-3]
    text = open(gp).read()
    roofs = [float(v) for v in re.findall(r"([-0-9.eE+]+) with lines lw 1\.5", text)]
    if not roofs or cid in baseline:
        continue
    n += 1
    ys = []
    for block in re.findall(r"\$s\d+ << EOD\n(.*?)\nEOD", text, re.S):
        for line in block.split("\n"):
            cells = line.split()
            try:
                ys.append(float(cells[1]))
            except (IndexError, ValueError):
                pass
    if ys and max(ys) > max(roofs) * 1.01:
        bad.append(f"{cid}: {max(ys):.1f} above {max(roofs):.1f}")
print(n)
if bad:
    sys.exit("; ".join(bad))
PY
for dir in "$ROOT"/results/*/; do
	name=$(basename "$dir")
	rm -rf res site
	cp -r "$dir" res
	build --no-run
	n=$(python3 roofs.py 2>&1) || fail "$name: a chart's data exceed its roof: $n"
	[ "$n" -ge 20 ] || fail "$name: only $n charts with roofs checked"
done
# The check itself: a reduction point above the read roof is caught.
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open("res/reduce.jsonl")]
for r in rows:
    if r.get("variant") == "cub" and r.get("n") == 268435456:
        r["gbps"] = r["gbps"] * 3
open("res/reduce.jsonl", "w").write("".join(json.dumps(r) + "\n" for r in rows))
PY
build --no-run
python3 roofs.py > out.txt 2>&1 && fail "a point three times the read roof passed: $(cat out.txt)"
grep -q "reduce-" out.txt || fail "the planted point was not named: $(cat out.txt)"
