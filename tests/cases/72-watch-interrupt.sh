# SIGINT while labbook watch runs an experiment: the run is stopped, watch
# exits 130, and the bundle keeps the last good results, whole, beside a
# note of the interrupted attempt.
kernel a <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	int delay = 0;
	FILE *s = fopen("started", "w");
	fclose(s);
	sleep(delay);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"delay\":%d}\n", delay);
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
rm -f started
lb_bg watch --results res --site site --templates "$ROOT/templates" -j 2 > log 2>&1
pid=$BG
i=0
while [ "$(grep -c '^watch: ' log)" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
sed -i 's/int delay = 0;/int delay = 30;/' kernels/a/a.c
i=0
while [ ! -e started ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -e started ] || fail "the experiment did not start again: $(cat log)"
t0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] || fail "watch exited $rc after SIGINT, want 130: $(cat log)"
[ $(($(date +%s) - t0)) -le 5 ] || fail "watch took more than 5 s to stop"
pgrep -f "$PWD/build/exp/a" >/dev/null && fail "the experiment still runs"
expect_same res/a.jsonl a.before
expect_same res/a.out out.before
grep '"date"' res/a.meta.json > date.after
expect_same date.after date.before
ls -a res res/.tmp 2>/dev/null | grep -q '\.tmp\.' && fail "temporary files left: $(ls -a res)"
# The page shows the last good results and says the newer run was stopped.
build --no-run
expect_html one.html "The results below are from the last good run."
expect_html one.html "interrupted"
