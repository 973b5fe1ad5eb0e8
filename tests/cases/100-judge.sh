# The judge: every value and claim evaluated once per bundle, each claim
# with its margin against the noise of what it reads and its teeth, the
# smallest change of that data that flips it. A claim that cannot fail and
# one that holds by less than its noise are warnings at their lines, and
# errors under --strict; labbook claims lists them all; an experiment
# changed since its results were recorded is named too.
kernel t <<'C'
#include <stdio.h>
#include <stdlib.h>
/* Three timed points, each with a 2% interquartile range. */
int main(void)
{
	static const double ms[] = {1.000, 1.004, 1.250};
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int i = 0; i < 3; i++)
		fprintf(f, "{\"n\":%d,\"ms\":%g,\"median_ms\":%g,\"q1_ms\":%g,"
		        "\"q3_ms\":%g,\"correct\":true}\n", i + 1, ms[i], ms[i],
		        ms[i] * 0.99, ms[i] * 1.01);
	fclose(f);
	return 0;
}
C
chapter 01-t.md <<'MD'
# Timing

```{experiment} t
source: kernels/t/t.c
runs: 1
```

The third point is slower {{check t.ms[n=1] < t.ms[n=3]}}.
The second is slower too {{check t.ms[n=1] < t.ms[n=2]}}.
Nothing can break this {{check max(t.ms) >= min(t.ms)}}.
Every result was right {{check count(t.n[correct=true]) == count(t.n)}}.
MD
build
expect_rc 0
# The second claim holds by 0.4%, a fifth of its noise: fragile. The
# third holds whatever the data: it cannot fail. The first flips when the
# third point is 20% faster, ten times its noise; the last fails if one
# result is wrong.
expect_err "chapters/01-t.md:9: warning: claim is fragile on res: t.ms of record 1 x1.004 flips it, 0.2 noise bands away (fewer than 3): t.ms[n=1] < t.ms[n=2]"
expect_err "chapters/01-t.md:10: warning: claim cannot fail: no change of the data it reads"
expect_no_err "01-t.md:8:"
expect_no_err "01-t.md:11:"
expect_html t.html 'class="check holds fragile"'
expect_html t.html '<span class="teeth">(it cannot fail)</span>'
expect_html t.html 'by 10 noise bands'
expect_html t.html 'flips when t.correct of record 1 made false'

# Under --strict each is an error, with --no-run too.
build --no-run --strict
expect_rc 1
expect_err "chapters/01-t.md:9: error: claim is fragile"
expect_err "chapters/01-t.md:10: error: claim cannot fail"

# labbook claims: one line per claim, its verdict, margin and teeth.
OUT=$(lb claims --results res 2>&1); RC=$?
expect_rc 0
for want in "chapters/01-t.md:8 *holds *10.0 *bites" \
	"chapters/01-t.md:9 *holds *0.2 (!) *bites" \
	"chapters/01-t.md:10 *holds *exact *cannot-fail" \
	"chapters/01-t.md:11 *holds *exact *bites" \
	"4 claims and 0 static checks: 0 do not hold, 1 fragile"; do
	printf '%s\n' "$OUT" | grep -q -- "$want" || fail "claims lacks '$want': $OUT"
done
OUT=$(lb claims --results res --strict 2>&1); RC=$?
expect_rc 1
OUT=$(lb claims --results res --json - 2>/dev/null); RC=$?
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
by = {c["line"]: c for c in d}
assert len(d) == 4, d
assert by[9]["bundles"][0]["fragile"] is True, by[9]
assert by[10]["teeth"] == "cannot-fail", by[10]
assert abs(by[8]["bundles"][0]["margin"] - 10) < 0.01, by[8]
assert by[11]["bundles"][0]["margin"] is None, by[11]
' || fail "claims --json: $OUT"

# Every expression is evaluated once per bundle: with two compared bundles,
# three times as often as with none.
# A build after it takes each verdict it kept, evaluating nothing.
cp -r res res2 && cp -r res res3
rm -rf site
build --no-run --stats
expect_err "labbook: 4 expressions parsed; 4 judged on 1 bundle (4 evaluated, 0 kept from an earlier build)"
build --no-run --stats --compare res2 --compare res3
expect_err "labbook: 4 expressions parsed; 12 judged on 3 bundles (8 evaluated, 4 kept from an earlier build)"
build --no-run --stats --compare res2 --compare res3 --title again
expect_err "labbook: 4 expressions parsed; 12 judged on 3 bundles (0 evaluated, 12 kept from an earlier build)"

# A kernel edited since its results were recorded: a warning at its
# directive's line, and under --strict an error, with --no-run too.
printf '/* edited */\n' >> kernels/t/t.c
build --no-run
expect_rc 0
expect_err "chapters/01-t.md:3: warning: experiment 't' changed since its results in res were recorded"
build --no-run --strict
expect_rc 1
expect_err "chapters/01-t.md:3: error: experiment 't' changed since its results in res were recorded"
