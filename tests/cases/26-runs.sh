# Every experiment runs in several processes; each point keeps the run whose
# median is the median, the extremes of all, and is wrong if any run was.
kernel vary <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	/* Which run this is: a counter in a file beside the project. */
	int run = 0;
	FILE *c = fopen("count", "r");
	if (c) {
		if (fscanf(c, "%d", &run) != 1)
			run = 0;
		fclose(c);
	}
	c = fopen("count", "w");
	fprintf(c, "%d\n", ++run);
	fclose(c);
	if (argc > 1 && atoi(argv[1]) == run)
		abort();
	static const double med[] = {1.0, 3.0, 2.0, 5.0};
	double m = med[(run - 1) % 4];
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"median_ms\":%g,\"min_ms\":%g,\"max_ms\":%g,"
	           "\"reps\":10,\"correct\":%s}\n", m, m - 0.5, m + 0.5,
	        run == 2 ? "false" : "true");
	if (argc > 2)
		fprintf(f, "{\"n\":%d,\"median_ms\":1}\n", run);
	fclose(f);
	printf("run %d\n", run);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} vary
source: kernels/vary/vary.c
```

Median {{ vary.median_ms %.1f }}, runs {{ vary.runs }}, from {{ vary.run_min_ms %.1f }}
to {{ vary.run_max_ms %.1f }}, extremes {{ vary.min_ms %.1f }}-{{ vary.max_ms %.1f }},
reps {{ vary.reps }}.

```{table}
data: vary
columns: n, median_ms, correct
```
MD
build
expect_rc 0
[ "$(cat count)" = 3 ] || fail "ran $(cat count) times, want 3"
expect_html a.html "Median 2.0, runs 3, from 1.0"
expect_html a.html "to 3.0, extremes 0.5-3.5"
expect_html a.html "reps 30."
expect_html a.html '<tr class="wrong">'
grep -Eq '"runs":[[:space:]]*3' res/vary.meta.json || fail "the meta does not say 3 runs"
expect_html a.html "run 1"
expect_html a.html '(3 runs) · <span class="state this-build">measured in this build</span>'

# --runs on the command line sets the count of every experiment whose
# directive does not; runs: in the directive wins over it (one rule for
# every option both set, as timeout:). The count is part of the cache
# key, so a change runs the experiment again.
rm count
build --runs 2
[ "$(cat count)" = 2 ] || fail "--runs 2 ran $(cat count) times"
expect_html a.html "Median 1.0, runs 2"
build --runs 2
[ "$(cat count)" = 2 ] || fail "an unchanged experiment ran again"
rm count
sed -i 's|^source: kernels/vary/vary.c|&\nruns: 1|' chapters/01-a.md
build --runs 2
expect_rc 0
[ "$(cat count)" = 1 ] || fail "runs: 1 under --runs 2 ran $(cat count) times"
expect_html a.html "Median 1.0, runs 1"
build --runs 0
expect_rc 2
expect_err "--runs wants a positive number"
sed -i 's|^runs: 1|runs: many|' chapters/01-a.md
build
expect_rc 1
expect_err "01-a.md:5: error: option 'runs' wants a positive whole number, not 'many'"

# A crash in a later run fails the experiment, says which run, and keeps
# the good results from before.
sed -i 's|^runs: many|runs: 3\nargs: 2|' chapters/01-a.md
rm count
build
expect_rc 1
expect_err "(run 2 of 3)"
expect_html a.html "Median 1.0, runs 1"

# Runs that write different records: a warning, and the first run's kept.
sed -i 's|^args: 2|args: 9 extra|' chapters/01-a.md
rm count
build
expect_err "its 3 runs wrote different records (record 2 of run 2"
grep -q '"runs"' res/vary.jsonl && fail "records of different runs were merged"
grep -q '"n":1,"median_ms":1,' res/vary.jsonl || fail "the first run's records were not kept"

# The runs are taken in rounds: the first run of every experiment, then the
# second of every experiment, so that one experiment's runs lie apart in
# time.
rm chapters/01-a.md
kernel tick <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	FILE *o = fopen("order", "a");
	fprintf(o, "%s", argv[1]);
	fclose(o);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"median_ms\":1}\n");
	fclose(f);
	return 0;
}
C
chapter 02-b.md <<'MD'
# B

```{experiment} x
source: kernels/tick/tick.c
args: x
```

```{experiment} y
source: kernels/tick/tick.c
args: y
runs: 2
```
MD
rm -f order
build --progress
expect_rc 0
[ "$(cat order)" = xyxyx ] || fail "the runs were taken in the order $(cat order), want xyxyx"
expect_err "x, run 2 of 3"
expect_err "x done in"
