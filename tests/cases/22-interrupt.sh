# SIGINT during a run: labbook stops, kills the experiment, exits 130, and
# the bundle keeps its earlier good results with no half-written file.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
build
expect_rc 0
cp res/sq.jsonl good.jsonl
cat > kernels/sq/sq.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":99}\n");
	fflush(f);
	for (;;) sleep(1);
}
C
"$LABBOOK" build --results res --site site --templates "$ROOT/templates" --quiet > out.txt 2>&1 &
pid=$!
for i in $(seq 1 100); do pgrep -f "$PWD/build/exp/sq" >/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid
RC=$?
OUT=$(cat out.txt)
expect_rc 130
expect_same res/sq.jsonl good.jsonl
ls -a res | grep -q '\.tmp\.' && fail "a temporary file was left in the bundle"
pgrep -f "$PWD/build/exp/sq" >/dev/null && fail "the experiment survived the interrupt"
true
