# A site rendered with --compare judges every point as labbook compare
# does: the Machines page counts, per experiment and machine, the points
# slower, faster beyond noise and within noise, and lists those that
# differ with their difference, band and noise; a chart that overlays the
# machines draws each point's runs' spread and rings the points that
# differ, and says so in words. Bundles with set noise and set shifts,
# then the shipped ones.

# point NAME N MEDIAN NOISE: a record of point NAME at x=N whose quartiles
# and runs lie NOISE (relative) apart around MEDIAN.
point() {
	awk -v p="$1" -v n="$2" -v m="$3" -v s="$4" 'BEGIN {
		printf "{\"p\":\"%s\",\"n\":%d,\"median_ms\":%.9g,\"q1_ms\":%.9g,\"q3_ms\":%.9g,", p, n, m, m * (1 - s / 4), m * (1 + s / 4)
		printf "\"run_min_ms\":%.9g,\"run_max_ms\":%.9g,\"run_spread\":%.9g,\"runs\":3}\n", m * (1 - s / 2), m * (1 + s / 2), s }'
}
bundle() {
	mkdir -p "$1"
	echo '{"gpu":"x"}' > "$1/machine.json"
	echo '{}' > "$1/e.meta.json"
	cat > "$1/e.jsonl"
}
kernel e <<'C'
int main(void) { return 0; }
C
chapter 01-e.md <<'MD'
# Shifts

```{experiment} e
source: kernels/e/e.c
```

```{chart} times
data: e
x: n
y: median_ms
machines: all
```
MD
# quiet: 0.2% noise, 2% slower on B. noisy: 20% noise, 10% slower.
# steady: 0.2% noise, unchanged. wide: 5% noise, 10% slower.
bundle A <<EOF2
$(point quiet 1 1 0.002; point noisy 2 1 0.2; point steady 3 1 0.002; point wide 4 1 0.05)
EOF2
bundle B <<EOF2
$(point quiet 1 1.02 0.002; point noisy 2 1.1 0.2; point steady 3 1 0.002; point wide 4 1.1 0.05)
EOF2
cp -r A C

build --no-run --results A --compare B
expect_rc 0
# The counts in the experiment's row, as labbook compare A B gives them.
expect_html machines.html '1 slower, 0 faster beyond noise</a>, 2 within noise, 1 too noisy to judge'
expect_html machines.html '<a href="#beyond-1-e">'
expect_html machines.html 'judges them: 1 slower, 0 faster beyond noise, 2 within noise; 1 too noisy to judge.'
OUT=$(lb compare A B 2>&1)
expect_err "1 slower, 0 faster beyond noise, 2 within noise; 1 point noisier"
# The list: the quiet point alone, with its difference, band and noise.
rows=$(grep -c '^<tr[^>]*><th scope="row">e</th><td class="point">' site/machines.html)
[ "$rows" = 1 ] || fail "$rows points listed beyond noise, want 1"
grep -q '<tr id="beyond-1-e"><th scope="row">e</th><td class="point"><code>p=quiet n=1</code></td><td><span class="verdict slower"><span aria-hidden="true">▲</span> slower</span></td><td class="num">+2.00%</td><td class="num">±1.00%</td><td class="num">0.20%</td><td class="num">1.0000</td><td class="num">1.0200</td></tr>' site/machines.html ||
	fail "the quiet point is not listed as 2% slower, band 1%, noise 0.2%: $(grep 'beyond-1-e' site/machines.html)"
expect_no_html machines.html 'p=noisy'
expect_no_html machines.html 'p=wide'
# The chart: one ring, on B's quiet point; the runs' spread of every point.
python3 - <<'PY' || fail "the overlaid chart's data: $(cat site/fig/times.csv)"
import csv
rows = {(r["series"], r["n"]): r for r in csv.DictReader(open("site/fig/times.csv"))}
marked = sorted(k for k, r in rows.items() if r["beyond_noise"] == "1")
assert marked == [("B", "1")], marked
q = rows[("A", "1")]
assert abs(float(q["median_ms_runs_lo"]) - 0.999) < 1e-9 and abs(float(q["median_ms_runs_hi"]) - 1.001) < 1e-9, q
assert abs(float(rows[("B", "2")]["median_ms_runs_hi"]) - 1.21) < 1e-9
PY
marks=$(sed -n '/^\$marks << EOD$/,/^EOD$/p' site/fig/times.gp)
[ "$marks" = "$(printf '$marks << EOD\n1 1.02\nEOD')" ] || fail "the rings: $marks"
grep -q "^     \$marks using 1:2 with points pt 6 .* title 'beyond noise against A'" site/fig/times.gp ||
	fail "the ring is not in the key: $(grep marks site/fig/times.gp)"
grep -q 'using 1:5:(0):($6-$5) with vectors nohead' site/fig/times.gp || fail "no bars for the runs' spread"
grep -q '<svg' site/fig/times.svg && grep -q 'beyond noise against A' site/fig/times.svg ||
	fail "the drawing has no key entry for the rings"
# In words: under the chart, and in its text alternative.
expect_html e.html 'Ringed: 1 point slower or faster than on A beyond its noise, by more than its band (the Machines page lists them all): B at n=1: 2.00% slower, band ±1.00%.'
grep -q 'alt="[^"]*Ringed: 1 point judged beyond noise against A, listed below the chart."' site/e.html ||
	fail "the text alternative does not count the ring"
expect_html e.html 'Thick bars span the medians of each point&#39;s runs'

# The page is made again when only the compared bundle's records change:
# with B's quiet point back at A's time, nothing is ringed.
cp B/e.jsonl B.jsonl
sed -i '1s/"median_ms":1.02,/"median_ms":1,/' B/e.jsonl
touch -d '2020-01-01 00:00:00' B/e.jsonl
build --no-run --results A --compare B
expect_no_html e.html 'Ringed'
expect_html e.html 'No point drawn differs from A beyond its noise.'
mv B.jsonl B/e.jsonl

# A point marked wrong is not drawn, so not ringed; compare, which reads
# only times, still lists it.
cp B/e.jsonl B.jsonl
sed -i '1s/"runs":3}/"runs":3,"correct":false}/' B/e.jsonl
build --no-run --results A --compare B
expect_html machines.html '<code>p=quiet n=1</code>'
expect_no_html e.html 'Ringed'
grep -q '^\$marks' site/fig/times.gp && fail "a point marked wrong is ringed"
mv B.jsonl B/e.jsonl

# The other way round, the quiet point is faster, and listed so.
build --no-run --results B --compare A
expect_rc 0
expect_html machines.html '0 slower, 1 faster beyond noise</a>, 2 within noise'
expect_html machines.html '<td><span class="verdict faster"><span aria-hidden="true">▼</span> faster</span></td><td class="num">−1.96%</td>'
expect_html e.html 'A at n=1: 1.96% faster, band ±1.00%'

# A bundle compared with itself, or with a copy of itself, marks nothing.
for other in C A; do
	build --no-run --results A --compare $other
	expect_rc 0
	expect_html machines.html '0 slower, 0 faster beyond noise, 3 within noise, 1 too noisy to judge'
	expect_html machines.html 'No point differs beyond its noise.'
	expect_no_html machines.html '<span class="verdict '
	grep -q '^\$marks' site/fig/times.gp && fail "$other: a ring on a chart of one bundle's numbers"
	expect_html e.html 'No point drawn differs from A beyond its noise.'
	expect_no_html e.html 'Ringed'
done

# A repeat of the base beside it widens each point by A's own difference,
# as it does for labbook compare: 1.5% between A's runs leaves 2% within.
cp -r A A-repeat
point quiet 1 1.015 0.002 > q && sed -i "1s/.*/$(cat q)/" A-repeat/e.jsonl
build --no-run --results A --compare B
expect_html machines.html "judges them, with the base's repeat <code>A-repeat</code>: 0 slower"
expect_no_html e.html 'Ringed'
rm -r A-repeat

# A median that is no positive number (zero, negative, a string) is not
# judged: a time of 0 is not "100% faster".
sed -i '1s/"median_ms":1.02,/"median_ms":0,/' B/e.jsonl
sed -i '3s/"median_ms":1,/"median_ms":"fast",/' B/e.jsonl
build --no-run --results A --compare B
expect_rc 0
expect_html machines.html '0 slower, 0 faster beyond noise, 1 within noise, 1 too noisy to judge'
expect_no_html e.html 'Ringed'

# The shipped bundles: the book run again on a second H100 card
# (results/h100-repeat) marks nothing, and the page's counts are labbook
# compare's; against another kind of card, the counts are compare's too,
# and the overlaid chart rings points. No shipped bundle holds results of
# another version of a kernel than the book's (case 28), so the site and
# compare judge the same points.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
rm -f chapters/01-e.md
for pair in "h100 h100-repeat" "h200 h100"; do
	set -- $pair
	rm -rf site
	OUT=$(lb build --no-run --results "$ROOT/results/$1" --compare "$ROOT/results/$2" \
		--site site --templates "$ROOT/templates" --quiet -j 2 2>&1)
	RC=$?
	expect_rc 0
	want=$(lb compare "$ROOT/results/$1" "$ROOT/results/$2" | tail -n 1 |
		sed -E 's/.* ([0-9]+ slower, [0-9]+ faster beyond noise, [0-9]+ within noise); ([0-9]+) points? noisier.*/\1; \2 too noisy to judge./')
	grep -q "judges them[^:]*: $want</p>" site/machines.html ||
		fail "$1 against $2: the page's counts are not compare's ($want): $(grep -o 'judges them[^<]*: [^<]*' site/machines.html)"
	if [ "$2" = h100-repeat ]; then
		grep -q "judges them[^:]*: 0 slower, 0 faster beyond noise, [1-9][0-9]* within noise" site/machines.html ||
			fail "two H100 cards differ on the Machines page: $(grep -o 'judges them[^<]*: [^<]*' site/machines.html)"
		grep -l 'Ringed' site/*.html && fail "a chart rings a point of two H100 cards"
	fi
done
grep -q 'Ringed: [0-9]* points slower or faster than on h200' site/reduction.html ||
	fail "h100 against h200: no ring on the overlaid reduction chart"
# On one GPU the link's claims are not measured: the Machines page counts
# them apart from the claims that fail.
python3 - <<'PY' || fail "the claims row does not set apart what was not measured: $(grep -o 'claims that hold</th>.\{0,200\}' site/machines.html)"
import re
row = re.search(r'<th scope="row">claims that hold</th>(.*?)</tr>', open("site/machines.html").read()).group(1)
cells = re.findall(r"<td>(\d+) of (\d+)(?: \((\d+) not measured or not for this card\))?</td>", row)
assert len(cells) == 2, row
for held, total, missing in cells:
    assert int(missing or 0) > 0, row
    assert int(held) + int(missing) <= int(total), row
PY
