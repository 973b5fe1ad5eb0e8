# Megabytes of output are capped and marked as cut; the page stays small.
kernel flood <<'C'
#include <stdio.h>
int main(void)
{
	for (int i = 0; i < 200000; i++)
		printf("line %d of a flood of output that goes on and on\n", i);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} flood
source: kernels/flood/flood.c
```
MD
build
expect_rc 0
expect_html a.html "[output cut:"
[ "$(stat -c %s res/flood.out)" -lt 1100000 ] || fail "res/flood.out was not capped"
grep -q '"output_cut":	true' res/flood.meta.json || fail "meta does not say the output was cut"
