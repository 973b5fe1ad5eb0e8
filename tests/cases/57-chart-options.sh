# Chart options: words for series and axes (label:, series-label:,
# x-unit:, y-unit:), limit lines labelled with their value and unit (and
# lifted off the axis), series that coincide named in the caption,
# highlight: greying the rest, bars from zero, points (never bars) on a log
# axis, and errors at their line.
kernel pts <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	const char *s[] = {"a", "b", "c", "d"};
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 6; i++)
			fprintf(f, "{\"part\":\"lines\",\"s\":\"%s\",\"bytes\":%d,\"y\":%d}\n",
			        s[k], 1024 << (2 * i), (k < 3 ? k + 1 : 3) * (i + 1));
	const char *name[] = {"alpha", "beta", "gamma"};
	const double v[] = {100, 1000, 114.6};
	for (int i = 0; i < 3; i++)
		fprintf(f, "{\"part\":\"bars\",\"name\":\"%s\",\"y\":%g,\"y_lo\":%g,\"y_hi\":%g}\n",
		        name[i], v[i], v[i] * 0.9, v[i] * 1.1);
	for (int k = 0; k < 8; k++)
		for (int i = 1; i <= 4; i++)
			fprintf(f, "{\"part\":\"many\",\"k\":%d,\"x\":%d,\"y\":%d}\n", k, i, k * i);
	fclose(f);
	return 0;
}
C
chapter 01-opts.md <<'MD'
# Options

```{experiment} pts
source: kernels/pts/pts.c
```

```{chart} lines
data: pts
where: part=lines
x: bytes
y: y
series: s
logx: 2
x-unit: bytes
y-unit: GB/s
series-label: size %s
label: a | the first
limit: 20 | ceiling
limit: 0 | floor
```

```{chart} bars
data: pts
where: part=bars
x: name
y: y
label: beta | Beta (B)
```

```{chart} logbars
data: pts
where: part=bars
x: name
y: y
logy: 10
```

```{chart} many
data: pts
where: part=many
x: x
y: y
series: k
highlight: 1, 6
limit: 30 | thirty
limit: 28 | twenty-eight
```
MD
build
expect_rc 0
svg=site/fig/lines.svg
grep -q '<text>the first</text>' $svg || fail "label: is not the legend's text"
grep -q '<text>size b</text>' $svg || fail "series-label: is not the legend's text"
grep -q '<text>s b</text>\|<text>s a</text>' $svg && fail "the legend repeats the field's name"
grep -q '<text>4 KiB</text>' $svg || fail "a bytes axis does not tick in KiB"
grep -q '2^1[0-9]' $svg && fail "a bytes axis ticks as powers"
grep -q '<text>ceiling 20 GB/s</text>' $svg || fail "the limit is not labelled with its value and unit"
grep -q 'set yrange \[-' site/fig/lines.gp || fail "a limit at 0 lies on the x axis"
expect_html opts.html "size c and d coincide."
expect_no_html opts.html "the first and size b coincide"
expect_html opts.html "one line for each of the first, size b, size c and size d"
expect_html opts.html "A reference line marks ceiling 20 GB/s."
grep -q 'set yrange \[0:' site/fig/bars.gp || fail "bars do not start at zero"
grep -q "'Beta (B)'" site/fig/bars.gp || fail "label: does not name a category"
grep -q 'boxerrorbars' site/fig/bars.gp || fail "bars lack their error bars"
grep -q 'boxes\|boxerrorbars' site/fig/logbars.gp && fail "bars drawn on a log axis"
expect_html opts.html 'alt="Point chart of y for each name (log scale)'
grep -q "rgb(154, 154, 154)" site/fig/many.svg || fail "highlight: greys no series"
"$ROOT/tests/svgcheck" site/fig/*.svg >check.out 2>&1 || fail "$(cat check.out)"

# Mistakes are reported at their line.
cat > chapters/01-opts.md <<'MD'
# Options

```{experiment} pts
source: kernels/pts/pts.c
```

```{chart} c1
data: pts
x: x
y: y
series: k
where: part=many
highlight: 1, nine
```

```{chart} c2
data: pts
x: x
y: y
series: k
where: part=many
label: 42 | nothing
```

```{chart} c3
data: pts
x: x
y: y
series: k
where: part=many
series-label: k
```
MD
build
expect_rc 1
expect_err "chapters/01-opts.md:13: error: chart 'c1': highlight: no series 'nine'"
expect_err "chapters/01-opts.md:22: error: chart 'c2': label: no series or category '42' is drawn"
expect_err "chapters/01-opts.md:31: error: chart 'c3': series-label: write one %s"
