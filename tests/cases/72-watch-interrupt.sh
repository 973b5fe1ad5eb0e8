# SIGINT while labbook watch runs an experiment: the run is stopped, watch
# exits 130, and the bundle keeps the last good results, whole, beside a
# note of the interrupted attempt.
kernel a <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>
int main(void)
{
	int hold = 0;
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"hold\":%d}\n", hold);
	fflush(f);
	if (hold) {
		/* Locked while it lives; says it runs (started is a FIFO the
		 * test reads), then never ends. */
		flock(open("alive", O_RDONLY), LOCK_SH);
		fclose(fopen("started", "w"));
		for (;;)
			pause();
	}
	fclose(f);
	return 0;
}
C
chapter 01-one.md <<'MD'
# One

```{experiment} a
source: kernels/a/a.c
runs: 1
```
MD
build
expect_rc 0
cp res/a.jsonl a.before
cp res/a.out out.before
grep '"date"' res/a.meta.json > date.before
mkfifo started
touch alive
watch_start --results res --site site --templates "$ROOT/templates" -j 2
watch_line 2 || fail "watch did not start: $(cat log)"
sed -i 's/int hold = 0;/int hold = 1;/' kernels/a/a.c
timeout "$WAIT_LIMIT" cat started > /dev/null ||
	fail "the experiment did not start again: $(cat log)"
# The experiment never ends: a watch that waited for it would not end.
watch_stop INT
[ "$RC" = 130 ] || fail "watch exited $RC after SIGINT, want 130: $(cat log)"
flock -n alive true || fail "the experiment still runs"
expect_same res/a.jsonl a.before
expect_same res/a.out out.before
grep '"date"' res/a.meta.json > date.after
expect_same date.after date.before
ls -a res res/.tmp 2>/dev/null | grep -q '\.tmp\.' && fail "temporary files left: $(ls -a res)"
# The page shows the last good results and says the newer run was stopped.
build --no-run
expect_html one.html "The results below are from the last good run."
expect_html one.html "interrupted"
