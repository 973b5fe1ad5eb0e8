# Numbers are checked whole and bounded: a count that does not fit is an
# error, never a wrapped value; a records file past its cap fails its run.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
runs: 4294967297
```
MD
build
expect_rc 1
expect_err "runs: wants a whole number from 1 to 100, not '4294967297'"
for bad in "--runs 4294967297" "--runs 4x" "-j 4x" "-j 0" "--timeout 1e999" "--gpus -1" "--timeout nan"; do
	build $bad
	expect_rc 2
done
build --runs 101
expect_rc 2
expect_err "--runs wants a positive number"

# A records file larger than the cap (16 MiB) fails the run, whole.
kernel huge <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fputs("{\"s\":\"", f);
	for (int i = 0; i < 17 * 1024; i++) {
		char k[1025];
		memset(k, 'x', 1024);
		k[1024] = 0;
		fputs(k, f);
	}
	fputs("\"}\n", f);
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} huge
source: kernels/huge/huge.c
runs: 1
```
MD
build
expect_rc 1
expect_err "more than the limit of 16777216"
expect_no_file res/huge.jsonl
[ "$(wc -c < site/a.html)" -lt 1000000 ] || fail "the huge record reached the page"
