# A site over two bundles: machines.html has a column per machine, the
# speed of each experiment against the base, and the claims matrix linked
# to the claims' places; a chart that asks overlays the machines; an
# experiment one bundle lacks is "not measured on" it.
kernel sq <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	int k = atoi(getenv("SCALE") ? getenv("SCALE") : "1");
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int n = 1; n <= 4; n++)
		fprintf(f, "{\"n\":%d,\"y\":%g,\"median_ms\":%g}\n", n,
		        k * n * n + 0.25, 0.5 * k * n);
	fclose(f);
	return 0;
}
C
records_kernel more
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
```

```{experiment} more
source: kernels/more/more.c
```

Small {{check max(sq.y) < 17}}, and more {{check count(more.y) == 4}}.

```{chart} both
data: sq
x: n
y: y
machines: all
limit: max(sq.y) | largest
```

```{chart} base-only
data: sq
x: n
y: y
```
MD
build --results big
SCALE=2 build --results small
expect_rc 0
rm small/more.*
build --no-run --results big --compare small
expect_rc 0
expect_file site/machines.html
expect_html machines.html '<th scope="col">big (base)</th>'
expect_html machines.html '<th scope="col">small</th>'
# The machine timed at twice the base's time runs at 0.5 of its speed.
expect_html machines.html '<strong>0.50×</strong> (0.50–0.50, 4 points)'
expect_html machines.html 'not measured on small'
# The matrix: each claim on each machine, linked to where the page shows it.
expect_html machines.html '<a href="squares.html#claim-0">Squares, line 11</a>'
expect_html machines.html '<a href="squares.html#claim-1">Squares, line 11</a>'
expect_html squares.html 'id="claim-0"'
grep -A3 'claim-0"' site/machines.html | grep -q 'check fails' ||
	fail "the claim that fails on small is not marked so"
# The overlaid chart draws both machines' records, labelled by machine;
# the other chart is the base's alone.
expect_html squares.html 'Machines overlaid: big, small.'
grep -q '^small,' site/fig/both.csv && grep -q '^big,' site/fig/both.csv ||
	fail "the overlaid chart's data lacks a machine: $(cat site/fig/both.csv)"
grep -q '32.25,' site/fig/both.csv || fail "small's largest point is not drawn"
grep -q 'small' site/fig/base-only.csv && fail "a chart that did not ask overlays machines"
# A limit line is drawn at each machine's own value, labelled with it:
# beside the line, or in the key where its words would cover the data.
for l in 'largest, big 16.2|16.25' 'largest, small 32.2|32.25'; do
	words=${l%|*} v=${l#*|}
	grep -q "^     $v with lines " site/fig/both.gp &&
		grep -q -e "^set label .*'$words' at graph [0-9.]*, first $v " \
			-e "^labbook_roof[0-9]* = '$words'" site/fig/both.gp ||
		fail "the limit line $words is not that machine's: $(grep -e label -e roof site/fig/both.gp)"
done
expect_html index.html 'compared with <a href="machines.html">1 other machine</a>'

# A chart naming an unknown machine warns, at its machines: line, once,
# on every build, and draws what it can.
sed -i 's/machines: all/machines: big, nowhere/' chapters/01-squares.md
for i in 1 2; do
	rm -f site/.labbook-stamp
	build --no-run --results big --compare small
	expect_rc 0
	expect_err "warning: chart 'both': no bundle named nowhere among the machines compared"
	[ "$(printf '%s\n' "$OUT" | grep -c 'no bundle named')" = 1 ] ||
		fail "warned other than once: $OUT"
	expect_html squares.html 'Machines overlaid: big.'
done

# A compared folder that is not a bundle is an error.
build --no-run --results big --compare missing
expect_rc 1
expect_err "error: --compare missing: not a results bundle (no machine.json)"

# A compared bundle whose records of an experiment come from another
# version of its kernel is not compared on it: "not measured on" it, for
# its speed, its claims and its overlaid charts.
sed -i 's/machines: big, nowhere/machines: all/' chapters/01-squares.md
python3 - small/sq.meta.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["source_key"] = "0" * 32
json.dump(m, open(sys.argv[1], "w"))
PY
build --no-run --results big --compare small
expect_rc 0
expect_no_html machines.html '<strong>0.50×</strong>'
[ "$(grep -c 'not measured on small' site/machines.html)" -ge 3 ] ||
	fail "the outdated experiment is compared: $(grep -c 'not measured on small' site/machines.html) 'not measured' cells"
expect_html squares.html 'The data of this chart was not measured on small.'
# Its claims are not judged there either, on the page or in the warnings.
grep 'claim-0"' site/machines.html | grep -q 'not measured on small' ||
	fail "a claim on the outdated experiment is judged on small"
expect_no_err "claim does not hold on small"
