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
#include <sys/file.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":99}\n");
	fflush(f);
	/* Locked while it lives; says it runs (started is a FIFO the test
	 * reads), then never ends. */
	flock(open("alive", O_RDONLY), LOCK_SH);
	fclose(fopen("started", "w"));
	for (;;)
		pause();
}
C
mkfifo started
touch alive
lb_bg build --results res --site site --templates "$ROOT/templates" --quiet > out.txt 2>&1
pid=$BG
timeout "$WAIT_LIMIT" cat started > /dev/null || fail "the experiment did not start"
kill -INT $pid
finish $pid
OUT=$(cat out.txt)
expect_rc 130
expect_same res/sq.jsonl good.jsonl
ls -a res | grep -q '\.tmp\.' && fail "a temporary file was left in the bundle"
# labbook reaps the experiment before it ends: its lock is free by then.
flock -n alive true || fail "the experiment survived the interrupt"
true
