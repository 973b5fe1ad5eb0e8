# Captured numbers without a time unit merge over the runs like lab.h's
# timed records: each number that differs between runs gets its median,
# its runs' extremes as F_lo and F_hi, and the record the count of runs;
# a swept or constant field stays as it is. The program's numbers come
# from a count of its processes, so each run prints other ones.
mkdir -p kernels/m
cat > kernels/m/m.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	/* Processes in order: run 1 set 1, run 1 set 2, run 2 set 1, ... */
	static const double sec[] = {0.3, 3.0, 0.1, 1.0, 0.2, 2.0};
	static const int bw[] = {12, 120, 10, 100, 11, 110};
	int c = 0;
	FILE *f = fopen("count.txt", "r");
	if (f) {
		if (fscanf(f, "%d", &c) != 1)
			c = 0;
		fclose(f);
	}
	f = fopen("count.txt", "w");
	fprintf(f, "%d\n", c + 1);
	fclose(f);
	const char *n = argc > 1 ? strchr(argv[1], '=') + 1 : "0";
	printf("n %s took %g s at %d GB/s, limit 7\n", n, sec[c % 6], bw[c % 6]);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} m
source: kernels/m/m.c
sweep: -n=1,2
capture: took (?<sec>[0-9.]+) s at (?<bw>\d+)(?#GB/s) GB/s, limit (?<limit>\d+)
```

Took {{ m.sec[n=1] }} s, between {{ m.sec_lo[n=1] }} and {{ m.sec_hi[n=1] }}.
MD
build
expect_rc 0
expect_html a.html "Took 0.2 s, between 0.1 and 0.3."
row() { grep "\"n\":$1[,}]" res/m.jsonl; }
for want in '"sec":0.2' '"sec_lo":0.1' '"sec_hi":0.3' '"bw":11' '"bw_lo":10' \
	'"bw_hi":12' '"bw_unit":"GB/s"' '"limit":7' '"runs":3'; do
	row 1 | grep -qF -- "$want" || fail "the record of n=1 lacks $want: $(row 1)"
done
for want in '"sec":2' '"sec_lo":1' '"sec_hi":3' '"bw":110' '"runs":3'; do
	row 2 | grep -qF -- "$want" || fail "the record of n=2 lacks $want: $(row 2)"
done
grep -q 'limit_lo\|"n_lo"' res/m.jsonl && fail "a constant or swept field was merged: $(cat res/m.jsonl)"
expect_no_err "different records"
