# A program that finds nothing to measure on this machine says so with a
# record {"not_measured": WHY}: the build is green, and every value, claim,
# chart and table that reads it says "not measured on this machine". Where
# it measured, a mistake in the chapter is an error again.
kernel link <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
	const char *dev = getenv("CUDA_VISIBLE_DEVICES");
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	if (!dev || !strchr(dev, ',')) {
		printf("one GPU: there is no link to measure\n");
		fprintf(f, "{\"test\":\"none\",\"gpus\":1,"
		           "\"not_measured\":\"one GPU: there is no link to measure\"}\n");
		return 0;
	}
	for (int i = 0; i < 4; i++)
		fprintf(f, "{\"test\":\"copy\",\"bytes\":%d,\"gbps\":%d}\n",
		        1024 << (2 * i), 100 * (i + 1));
	fprintf(f, "{\"test\":\"link\",\"rated_gbps\":450}\n");
	return 0;
}
C
chapter 01-link.md <<'MD'
# Link

```{experiment} link
source: kernels/link/link.c
gpus: all
```

The largest copy reached {{ link.gbps[test=copy, bytes=65536] %.0f }} GB/s
{{check link.gbps[test=copy, bytes=65536] < link.rated_gbps[test=link]}}.

```{chart} link-copy
data: link
where: test=copy
x: bytes
y: gbps
limit: link.rated_gbps[test=link] | rated
```

```{table}
data: link
where: test=copy
columns: bytes, gbps
```
MD
build
expect_rc 0
expect_no_err "error"
python3 - <<'PY' || fail "a piece that reads the unmeasured experiment does not say so"
import re
html = open("site/link.html").read()
n = html.count("not measured on this machine")
assert n >= 4, n
assert "one GPU: there is no link to measure" in html
assert "inline-error" not in html
PY
grep -q '"not_measured":[[:space:]]*"one GPU: there is no link to measure"' res/link.meta.json ||
	fail "the meta does not keep why nothing was measured"

# Measured on two GPUs, the numbers stand, and the claim is checked.
build --gpus 2
expect_rc 0
expect_html link.html "The largest copy reached 400 GB/s"
expect_html link.html "holds here"
expect_no_html link.html "not measured on this machine"
grep -q not_measured res/link.meta.json && fail "the meta of a measured run says not_measured"

# A mistake in the chapter is an error where the experiment measured.
sed -i 's/rated_gbps\[test=link\]}}/rated_gps[test=link]}}/' chapters/01-link.md
build --gpus 2
expect_rc 1
expect_err "chapters/01-link.md:9: error:"
expect_err "has no field 'rated_gps'"
