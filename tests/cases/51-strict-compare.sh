# With bundles compared, a claim is checked on each; the line names the
# bundles it fails on, and --strict fails on a claim that holds on the
# base but not on another machine.
kernel sq <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	int k = atoi(getenv("SCALE") ? getenv("SCALE") : "1");
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int n = 1; n <= 4; n++)
		fprintf(f, "{\"n\":%d,\"y\":%d}\n", n, k * n * n);
	fclose(f);
	return 0;
}
C
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
```

At most sixteen {{check max(sq.y) <= 16}}.
MD
build
expect_rc 0
SCALE=2 build --results other
expect_rc 0
expect_err "chapters/01-squares.md:7: warning: claim does not hold on other:"

build --no-run --compare other
expect_rc 0
expect_err "chapters/01-squares.md:7: warning: claim does not hold on other: max(sq.y) <= 16"
expect_no_err "on res"
build --no-run --compare other --strict
expect_rc 1
expect_err "chapters/01-squares.md:7: error: claim does not hold on other: max(sq.y) <= 16"
