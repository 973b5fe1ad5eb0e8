# Every point of a chart answers a hover, without JavaScript: the page lays
# a transparent layer over the drawing whose circles (bars: rects) carry an
# SVG <title> with the series in the legend's words, x, y with its unit,
# the spread lo–hi and the runs and repetitions of the record; each sits
# within 2 px of the marker gnuplot drew, on the wide and on the narrow
# drawing; every series answers with its name, the chart with its caption.
mkdir -p res kernels/e chapters
echo 'int main(void) { return 0; }' > kernels/e/e.c
python3 - <<'PY'
import json
date = "2026-01-02T03:04:05Z"
json.dump({"gpu": "none", "date": date}, open("res/machine.json", "w"))
rows = []
for s in ("a&<b>", "plain"):
    for k, n in enumerate((1024, 4096, 1048576)):
        y = 100.0 * (k + 1) + (7 if s == "plain" else 0)
        rows.append({"s": s, "n": n, "gbps": y, "gbps_lo": y - 5, "gbps_hi": y + 5,
                     "runs": 3, "reps": 40 + k})
rows.append({"s": "plain", "n": 64, "gbps": 0, "runs": 1, "reps": 1})
with open("res/e.jsonl", "w") as f:
    for r in rows:
        f.write(json.dumps(r) + "\n")
open("res/e.out", "w").write("ok\n")
json.dump({"id": "e", "source": "kernels/e/e.c", "exit_status": 0,
           "seconds": 0.01, "date": date, "records": len(rows), "runs": 3},
          open("res/e.meta.json", "w"))
PY
chapter 01-hover.md <<'MD'
# Hover

```{experiment} e
source: kernels/e/e.c
```

```{chart} lines
data: e
x: n
y: gbps
series: s
series-label: kind %s
logx: 2
logy: 10
y-unit: GB/s
xlabel: elements
limit: 250 | roof
caption: Bandwidth <against> size & more.
```

```{chart} bars
data: e
x: s
y: gbps
where: n=4096
y-unit: GB/s
title: Bars at 4096
```
MD
build --no-run
expect_rc 0
"$ROOT/tests/hovercheck" site/hover.html > titles.txt 2> problems.txt ||
	fail "hover points off the drawing: $(cat problems.txt)"
"$ROOT/tests/svgcheck" site/fig/*.svg > check.out 2>&1 || fail "$(cat check.out)"
# The words of the records, one point each; a zero on a log axis is not
# drawn and answers nothing.
expect_title() { grep -qxF -- "$1" titles.txt || fail "no point says '$1'; they say: $(cat titles.txt)"; }
expect_title "$(printf 'lines\tkind a&<b>: elements 1024 (2^10), 100 GB/s (95–105), 3 runs, 40 repetitions')"
expect_title "$(printf 'lines\tkind plain: elements 1048576 (2^20), 307 GB/s (302–312), 3 runs, 42 repetitions')"
expect_title "$(printf 'bars\tplain, 207 GB/s (202–212), 3 runs, 41 repetitions')"
[ "$(grep -c '^lines' titles.txt)" = 6 ] || fail "want 6 points of 'lines': $(cat titles.txt)"
grep -q '2^6' titles.txt && fail "the zero on the log axis answers a hover"
# Escaped in the page and in the drawings; the chart and each series say
# their words, and gnuplot's own titles are gone.
expect_html hover.html '<circle cx="'
expect_html hover.html '<title>kind a&amp;&lt;b&gt;: elements 1024'
expect_html hover.html '<title>Bandwidth &lt;against&gt; size &amp; more.</title>'
expect_html hover.html '<g><title>kind plain</title><polyline'
grep -q '<title>Bars at 4096</title>' site/fig/bars.svg || fail "bars.svg lacks its title"
grep -q '<g id="series_1" ><title>kind a&amp;&lt;b&gt;</title>' site/fig/lines.svg ||
	fail "lines.svg: the first series lacks its legend's words"
grep -q '<g id="limit_1" ><title>roof 250 GB/s</title>' site/fig/lines.svg ||
	fail "lines.svg: the limit line lacks its words"

# A drawing whose plot area was lost is drawn again, not laid over blind.
rm site/fig/lines.box
build --no-run
expect_file site/fig/lines.box
"$ROOT/tests/hovercheck" site/hover.html > /dev/null 2> problems.txt || fail "$(cat problems.txt)"

# The whole book from the H200's bundle: every chart, every point, and the
# numbers of the reduction chart against its records.
rm -rf chapters kernels res site
cp -r "$ROOT/chapters" "$ROOT/kernels" .
cp -r "$ROOT/results/h200" res
build --no-run
"$ROOT/tests/hovercheck" site/*.html > titles.txt 2> problems.txt || fail "$(head -20 problems.txt)"
# A roof answers a hover too, with its words and its value, on the line
# gnuplot drew (hovercheck holds it within 2 px of that line).
grep -q '<g><title>read roof: a DRAM read stream [0-9]* GB/s</title><line ' site/reduction.html ||
	fail "the reduction chart's read roof answers no hover"
python3 - titles.txt res/reduce.jsonl <<'PY' || fail "reduction points say other numbers than the records"
import json, re, sys
recs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
seen = 0
for line in open(sys.argv[1]):
    cid, title = line.rstrip('\n').split('\t')
    if cid != 'reduce-bandwidth':
        continue
    # The spread is said where it shows at the figures written.
    m = re.fullmatch(r'(\w+): elements \(int\) (\d+) \(2\^\d+\), ([\d.]+) GB/s'
                     r'(?: \(([\d.]+)–([\d.]+)\))?, (\d+) runs, (\d+) repetitions', title)
    if not m:
        sys.exit(f'unexpected words: {title}')
    v, n = m.group(1), int(m.group(2))
    r = [r for r in recs if r.get('variant') == v and r.get('n') == n]
    if len(r) != 1:
        sys.exit(f'no record of {v} at {n}')
    r = r[0]
    lo, hi = m.group(4) or m.group(3), m.group(5) or m.group(3)
    for got, want in ((m.group(3), r['gbps']), (lo, r['gbps_lo']), (hi, r['gbps_hi'])):
        if abs(float(got) - want) > 0.006 * want + 0.05:
            sys.exit(f'{title}: {got} is not {want}')
    if (int(m.group(6)), int(m.group(7))) != (r['runs'], r['reps']):
        sys.exit(f'{title}: runs and reps are {r["runs"]}, {r["reps"]}')
    seen += 1
if seen < 50:
    sys.exit(f'only {seen} points of reduce-bandwidth')
PY

# In a browser, with the page's own markup and style: each point of the
# reduction chart is in the DOM with its title, and a pointer at its centre
# lands on it (or on a titled point drawn over it at the same place), on a
# wide and on a narrow screen.
chromium=${CHROMIUM:-/usr/bin/chromium}
if want "the browser part" chromium:"$chromium"; then
	for width in 1200 390; do
		# Each circle's centre on the screen is where the layer's transform
		# puts it over the drawing shown (the narrow one below 36rem), and
		# the pointer there lands on a titled point.
		cat > probe.js <<'JS'
addEventListener("load", () => {
	const fig = document.querySelector("#fig-reduce-bandwidth");
	const img = fig.querySelector("img"), svg = fig.querySelector(".chart-hover");
	const narrow = img.currentSrc.endsWith("-narrow.svg");
	const m = getComputedStyle(svg).getPropertyValue("--narrow").match(/[-\d.]+/g).map(Number);
	let n = 0, placed = 0, hit = 0;
	for (const c of fig.querySelectorAll(".chart-hover circle")) {
		n++;
		c.scrollIntoView({block: "center"});
		const box = img.getBoundingClientRect(), r = c.getBoundingClientRect();
		let x = +c.getAttribute("cx"), y = +c.getAttribute("cy");
		if (narrow) { x = m[0] * x + m[4]; y = m[3] * y + m[5]; }
		const vb = svg.viewBox.baseVal;
		const ex = box.x + x * box.width / vb.width, ey = box.y + y * box.height / vb.height;
		const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
		if (Math.abs(cx - ex) < 1.5 && Math.abs(cy - ey) < 1.5) placed++;
		const e = document.elementFromPoint(cx, cy);
		if (e && e.tagName === "circle" && e.querySelector("title").textContent) hit++;
	}
	document.body.dataset.probe = [narrow ? "narrow" : "wide", n, placed, hit].join(" ");
});
JS
		{ sed 's|</body>||; s|</html>||' site/reduction.html; printf '<script>'; cat probe.js; printf '</script></body></html>\n'; } > site/probe.html
		dir=$(mktemp -d)
		"$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
			--disable-background-networking --disable-component-update --user-data-dir="$dir" \
			--window-size="$width,900" --virtual-time-budget=5000 --dump-dom \
			"file://$PWD/site/probe.html" > dom.html 2>/dev/null
		rm -rf "$dir"
		probe=$(sed -n 's/.*data-probe="\([a-z]* [0-9]* [0-9]* [0-9]*\)".*/\1/p' dom.html)
		set -- $probe
		want=wide
		[ "$width" = 390 ] && want=narrow
		[ "${1:-}" = "$want" ] || fail "$width px: the $want drawing is not shown (${1:-no probe})"
		[ "${2:-0}" -ge 50 ] && [ "$2" = "$3" ] && [ "$2" = "$4" ] ||
			fail "$width px: of ${2:-no} points in the DOM, ${3:-none} lie over the drawing and ${4:-none} answer the pointer"
		grep -q '<title>neighbored: elements (int) 268435456' dom.html ||
			fail "$width px: the DOM lacks the titles of the points"
	done
fi
