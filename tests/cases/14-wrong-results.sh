# A wrong result is recorded as wrong, shown as wrong, and never plotted.
kernel check <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":\"good\",\"gbps\":100,\"correct\":true}\n");
	fprintf(f, "{\"v\":\"fast-but-wrong\",\"gbps\":9999,\"correct\":false}\n");
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} check
source: kernels/check/check.c
```

```{chart} c
data: check
x: v
y: gbps
```

```{table}
data: check
columns: v, gbps, correct
```
MD
build
expect_rc 0
expect_html a.html '<tr class="wrong">'
expect_html a.html "1 record marked wrong left out."
grep -q "9999" site/fig/c.gp && fail "the wrong record was plotted"
grep -q "9999" site/fig/c.csv && fail "the wrong record is in the chart's data"
true
