# A course layout: experiments in kernels/NAME/ that share a header in
# kernels/common/ through "../common/c.h". The compiler names it
# kernels/a/../common/c.h; the cache knows it by one path, so a second build
# runs nothing and says nothing changed, and an edit to the header runs
# exactly the experiments that include it. Re-runs are told by each meta's
# state, never by clocks: the header's edit keeps its size and its time.
mkdir -p kernels/common
echo '#define SCALE 2' > kernels/common/c.h
touch -d '2020-01-01 00:00:00' kernels/common/c.h
for k in a b; do
	kernel $k <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "../common/c.h"
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
```
MD
# build_of K: the build that last ran K, as its meta records it.
build_of() { sed -n 's/.*"build":[[:space:]]*"\([^"]*\)".*/\1/p' "res/$1.meta.json"; }
build --progress
expect_rc 0
expect_err "(3 ran, 0 failed)"
for k in a b; do
	grep -qF '"kernels/common/c.h"' res/$k.meta.json ||
		fail "$k's meta does not name kernels/common/c.h: $(grep -A2 inputs res/$k.meta.json)"
	grep -q '"inputs".*\.\.' res/$k.meta.json && fail "$k's meta names its header with '..'"
done

ran_a=$(build_of a) ran_b=$(build_of b) ran_c=$(build_of c)
[ -n "$ran_a" ] || fail "a's meta names no build"
build --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"
[ "$(build_of a)$(build_of b)$(build_of c)" = "$ran_a$ran_b$ran_c" ] ||
	fail "an experiment ran again though nothing changed"
expect_no_html a.html "changed since"
expect_html a.html "measured in this build"

# Same size, same time: only the bytes differ.
echo '#define SCALE 3' > kernels/common/c.h
touch -d '2020-01-01 00:00:00' kernels/common/c.h
build --progress
expect_rc 0
expect_err "(2 ran, 0 failed)"
[ "$(build_of a)" != "$ran_a" ] || fail "a did not run again after its header changed"
[ "$(build_of b)" != "$ran_b" ] || fail "b did not run again after its header changed"
[ "$(build_of c)" = "$ran_c" ] || fail "c ran again though it does not include the header"
[ "$(lb eval --results res 'a.v')" = 3 ] || fail "a's record is stale"
expect_no_html a.html "changed since"

build --progress
expect_err "(0 ran, 0 failed)"

# The same header by other spellings of its folder: -I with "..", and -I
# with the project's absolute path, are one folder, and one input.
mkdir -p kernels/d kernels/e
for k in d e; do
	cat > kernels/$k/$k.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "c.h"
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":%d}\n", SCALE);
	return 0;
}
C
done
cat >> chapters/01-a.md <<MD

\`\`\`{experiment} d
source: kernels/d/../d/./d.c
flags: -Ikernels/d/../common
\`\`\`

\`\`\`{experiment} e
source: $PWD/kernels/e/e.c
flags: -I $PWD/kernels/common
\`\`\`
MD
build --progress
expect_rc 0
expect_err "(2 ran, 0 failed)"
grep -qF '"compile":' res/d.meta.json && ! grep -qF -- '-Ikernels/common ' res/d.meta.json &&
	fail "d's compile line keeps its -I as written: $(grep '"compile"' res/d.meta.json)"
grep -qF "$PWD" res/e.meta.json && fail "e's meta names the project's absolute path"
for k in d e; do
	grep -qF '"kernels/common/c.h"' res/$k.meta.json ||
		fail "$k's meta does not name kernels/common/c.h"
done
build --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"
expect_no_html a.html "changed since"
