# The cache: nothing re-runs when nothing changed; a header re-runs exactly
# the experiments that include it; args, flags and --rerun force a run.
mkdir -p kernels/common
echo '#define SCALE 2' > kernels/common/scale.h
for k in a b; do
	kernel $k <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "common/scale.h"
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":%d}\n", SCALE);
	return 0;
}
C
done
records_kernel c
chapter 01-a.md <<'MD'
# A

```{experiment} a
source: kernels/a/a.c
```

```{experiment} b
source: kernels/b/b.c
```

```{experiment} c
source: kernels/c/c.c
args: 2
```
MD
ran() { grep -h '"date"' res/a.meta.json res/b.meta.json res/c.meta.json | tr -d ' \t' ; }
build
expect_rc 0
# The records file is rewritten by a run and only by a run (meta.json also
# takes the state a later build found, "cached").
stamp() { for k in a b c; do stat -c %Y.%y "res/$k.jsonl"; done; }
s0=$(stamp)
sleep 1.1
build
expect_rc 0
[ "$(stamp)" = "$s0" ] || fail "a no-op build re-ran something"
expect_html a.html ">cached</span>"
echo '#define SCALE 3' > kernels/common/scale.h
build
expect_rc 0
s1=$(stamp)
[ "$(echo "$s1" | sed -n 1p)" != "$(echo "$s0" | sed -n 1p)" ] || fail "a did not re-run after its header changed"
[ "$(echo "$s1" | sed -n 2p)" != "$(echo "$s0" | sed -n 2p)" ] || fail "b did not re-run after its header changed"
[ "$(echo "$s1" | sed -n 3p)" = "$(echo "$s0" | sed -n 3p)" ] || fail "c re-ran though it does not include the header"
[ "$(lb eval --results res 'a.v')" = 3 ] || fail "a's record is stale"
sleep 1.1
sed -i 's/^args: 2/args: 3/' chapters/01-a.md
build
s2=$(stamp)
[ "$(echo "$s2" | sed -n 3p)" != "$(echo "$s1" | sed -n 3p)" ] || fail "c did not re-run after its args changed"
[ "$(echo "$s2" | sed -n 1p)" = "$(echo "$s1" | sed -n 1p)" ] || fail "a re-ran after c's args changed"
sleep 1.1
build --rerun a
s3=$(stamp)
[ "$(echo "$s3" | sed -n 1p)" != "$(echo "$s2" | sed -n 1p)" ] || fail "--rerun a did not re-run a"
[ "$(echo "$s3" | sed -n 2p)" = "$(echo "$s2" | sed -n 2p)" ] || fail "--rerun a re-ran b"
