# A disk that fills while results are saved: the experiment's files commit
# as a whole or not at all. The old set stays, with an error.json saying
# why, and the next build does not present half-new results as good.
kernel big <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":%d}\n", n);
	fclose(f);
	for (int i = 0; i < n; i++)
		printf("line %d of the output, long enough to fill a file quickly\n", i);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

N is {{ big.n }}.

```{experiment} big
source: kernels/big/big.c
args: 1
runs: 1
```
MD
build
expect_rc 0
cp res/big.jsonl old.jsonl
cp res/big.out old.out
cp res/big.meta.json old.meta.json
# Now a run whose output cannot be written: files are limited to 64 KiB
# (the compiler's output fits; the experiment's output does not).
sed -i 's/^args: 1/args: 5000/' chapters/01-a.md
(
	trap '' XFSZ
	ulimit -f 64
	build
	echo "$RC" > rc
	printf '%s' "$OUT" > out
)
[ "$(cat rc)" = 1 ] || fail "a failed save exited $(cat rc), want 1"
grep -q "were not saved" out || fail "the failed save was not reported: $(cat out)"
expect_same res/big.jsonl old.jsonl
expect_same res/big.out old.out
expect_same res/big.meta.json old.meta.json
expect_file res/big.error.json
grep -q '"stage":.*"save"' res/big.error.json || fail "error.json does not say the save failed"
ls res | grep -q '\.new\.' && fail "temporary files were left: $(ls res)"
# With room again, the run is taken and commits.
build
expect_rc 0
expect_html a.html "N is 5000."
expect_no_file res/big.error.json
