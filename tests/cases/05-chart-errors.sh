# A chart whose column does not exist, or whose filter selects nothing.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} c1
data: sq
x: n
y: gflops
```

```{chart} c2
data: sq
x: n
y: y
where: n>100
```

```{chart} c3
data: sq
x: n
y: y
limit: sq.nope | bad
```

```{table}
data: sq
columns: n, zz
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:10: error: chart 'c1': experiment 'sq' has no field 'gflops' (option y)"
expect_err "chapters/01-a.md:13: error: chart 'c2': no records of 'sq' to draw (check its where:)"
expect_err "chapters/01-a.md:24: error: chart 'c3': limit: experiment 'sq' has no field 'nope'"
expect_err "chapters/01-a.md:29: error: table: experiment 'sq' has no field 'zz'"
expect_html a.html "This chart could not be drawn"
expect_html a.html "This table could not be made"
# Each is reported once, by the judge, before the site: again when
# nothing changed (the check is kept in the store), and after a prose
# edit that makes the page again.
once() {
	[ "$(printf '%s\n' "$OUT" | grep -c -- "$1")" = 1 ] ||
		fail "'$1' reported other than once: $OUT"
}
for pass in cold warm prose; do
	[ $pass = prose ] && sed -i 's/^# A$/# A, again/' chapters/01-a.md
	[ $pass = cold ] || build
	expect_rc 1
	once "chart 'c1': experiment 'sq' has no field 'gflops'"
	once "chart 'c2': no records of 'sq' to draw"
	once "chart 'c3': limit: experiment 'sq' has no field 'nope'"
	once "table: experiment 'sq' has no field 'zz'"
	expect_html a.html "chart &#39;c1&#39;: experiment &#39;sq&#39; has no field"
done
# A chart of an experiment that ran and wrote no records: a warning at
# its line, once, and the page says so.
kernel none <<'C'
#include <stdio.h>
int main(void) { puts("no records"); return 0; }
C
chapter 01-a.md <<'MD'
# A

```{experiment} none
source: kernels/none/none.c
```

```{chart} e1
data: none
x: n
y: y
```
MD
for pass in cold warm; do
	build
	once "chapters/01-a.md:7: warning: chart 'e1': no results for experiment 'none' yet"
	expect_html a.html "no results for experiment &#39;none&#39; yet"
done
# A log scale of base 1 (a yes, to a reader) is an error of the
# directive, at its line, as every command loads it; a value too large to
# draw is the chart's, not gnuplot's "undefined variable: inf".
kernel big <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"y\":1e308}\n{\"n\":2,\"y\":3}\n");
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} big
source: kernels/big/big.c
```

```{chart} b1
data: big
x: n
y: y
logy: 1
```

```{chart} b2
data: big
x: n
y: y
y-scale: 2
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:11: error: option 'logy' wants the base of its log scale, a whole number from 2 (2 or 10), not '1'"
once "chapters/01-a.md:18: error: chart 'b2': 1 record of 'big' has n or y (times y-scale:) beyond 1e+200"
expect_no_err "gnuplot failed"
# On a log axis, records and limits at or below 0 have no place: the page
# says how many are left out and which line, and the chart's words speak
# only of what is drawn; a chart left with nothing says why.
kernel lg <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":0,\"y\":-1}\n{\"n\":-5,\"y\":0}\n{\"n\":3,\"y\":5}\n"
	           "{\"n\":4,\"y\":10,\"y_lo\":-5,\"y_hi\":12}\n");
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} lg
source: kernels/lg/lg.c
```

```{chart} l1
data: lg
x: n
y: y
logx: 2
logy: 10
limit: -5 | neg
limit: 20 | top
```

```{chart} l2
data: lg
x: n
y: y
logy: 10
where: n < 1
```
MD
build
expect_rc 1
once "chapters/01-a.md:17: error: chart 'l2': no records of 'lg' to draw: the 2 left lie at or below 0, where a log axis has no place"
expect_html a.html "2 records at or below 0 are left out: a log axis has no place for them. neg is not drawn: at -5"
grep -q "<desc>.*top 20" site/fig/l1.svg || fail "the drawn limit is not in the chart's words"
grep -q "<desc>.*neg" site/fig/l1.svg && fail "the chart's words speak of a limit not drawn"
# A where: on a field the records lack says so, for a chart and a table,
# as an inline value does; and a label: given words twice names the first.
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} w1
data: sq
x: n
y: y
where: zz=1
```

```{table}
data: sq
columns: n, y
where: zz=1
```

```{chart} w2
data: sq
x: n
y: y
series: s
label: odd | odd ones
label: odd | again
```
MD
build
expect_rc 1
once "chapters/01-a.md:11: error: chart 'w1': where: experiment 'sq' has no field 'zz'; its fields: n, y"
once "chapters/01-a.md:17: error: table: where: experiment 'sq' has no field 'zz'"
once "chapters/01-a.md:26: error: chart 'w2': label: 'odd' is given words twice; first at line 25"
# An x that holds text in some records and numbers in others is drawn as
# categories, and the page says why.
kernel mix <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"y\":1}\n{\"n\":\"two\",\"y\":2}\n{\"n\":3,\"y\":3}\n");
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} mix
source: kernels/mix/mix.c
```

```{chart} m
data: mix
x: n
y: y
```
MD
build
expect_rc 0
expect_html a.html "n holds text in some records and numbers in others, so each of its values is drawn as a category"
