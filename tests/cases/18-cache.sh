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
# The records file is rewritten by a run and only by a run, and so is
# every other file of the bundle. Every write is a new file renamed into
# place: a rewrite has a new inode, however soon it comes.
stamp() { for k in a b c; do stat -c %i "res/$k.jsonl"; done; }
bundle() { for f in res/*; do echo "$f $(stat -c %i "$f") $(cksum < "$f")"; done; }
s0=$(stamp)
b0=$(bundle)
build
expect_rc 0
[ "$(stamp)" = "$s0" ] || fail "a no-op build re-ran something"
[ "$(bundle)" = "$b0" ] || fail "a no-op build wrote the bundle: $(diff <(echo "$b0") <(bundle))"
# Nothing ran since the build that measured them: still that build's.
[ "$(grep -c '>measured in this build</span>' site/a.html)" = 6 ] ||
	fail "a.html does not say all three were measured in this build"
# Edits change sizes too, so that no check of size and times could miss them.
echo '#define SCALE 3 /* edited */' > kernels/common/scale.h
build
expect_rc 0
s1=$(stamp)
# a and b ran again; c, which does not include the header, did not.
[ "$(grep -c '>measured in this build</span>' site/a.html)" = 4 ] ||
	fail "a.html: a and b were not measured in this build"
[ "$(grep -c '>measured in an earlier build here</span>' site/a.html)" = 2 ] ||
	fail "a.html: c is not from an earlier build"
grep -q '<a href="a.html#exp-c">c</a>.*measured in an earlier build here' site/provenance.html ||
	fail "provenance.html: c is not from an earlier build"
[ "$(echo "$s1" | sed -n 1p)" != "$(echo "$s0" | sed -n 1p)" ] || fail "a did not re-run after its header changed"
[ "$(echo "$s1" | sed -n 2p)" != "$(echo "$s0" | sed -n 2p)" ] || fail "b did not re-run after its header changed"
[ "$(echo "$s1" | sed -n 3p)" = "$(echo "$s0" | sed -n 3p)" ] || fail "c re-ran though it does not include the header"
[ "$(lb eval --results res 'a.v')" = 3 ] || fail "a's record is stale"
sed -i 's/^args: 2/args: 12/' chapters/01-a.md
build
s2=$(stamp)
[ "$(echo "$s2" | sed -n 3p)" != "$(echo "$s1" | sed -n 3p)" ] || fail "c did not re-run after its args changed"
[ "$(echo "$s2" | sed -n 1p)" = "$(echo "$s1" | sed -n 1p)" ] || fail "a re-ran after c's args changed"
build --rerun a
s3=$(stamp)
[ "$(echo "$s3" | sed -n 1p)" != "$(echo "$s2" | sed -n 1p)" ] || fail "--rerun a did not re-run a"
[ "$(echo "$s3" | sed -n 2p)" = "$(echo "$s2" | sed -n 2p)" ] || fail "--rerun a re-ran b"
