# labbook watch keeps watching a folder that is removed and made again, as a
# checkout of another branch does: the chapters folder, an experiment's
# folder, and the folder above that. It builds once each is back, and an
# edit in the new folder builds again.
mkdir -p kernels/a
echo '#define SCALE 2' > kernels/a/scale.h
cat > kernel.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "scale.h"
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int i = 1; i <= 3; i++)
		fprintf(f, "{\"n\":%d,\"y\":%d}\n", i, i * SCALE);
	fclose(f);
	return 0;
}
C
cp kernel.c kernels/a/a.c
cat > one.md <<'MD'
# One

The largest value is {{ max(a.y) }}. Text version 1.

```{experiment} a
source: kernels/a/a.c
runs: 1
```
MD
mkdir chapters
cp one.md chapters/01-one.md
build
expect_rc 0

# How many builds a removed folder makes depends on how its events come
# together, so each step waits for builds until the result is there.
page_has() { grep -qF -- "$1" site/one.html 2>/dev/null; }
value_is() { [ "$(lb eval --results res 'max(a.y)' 2>/dev/null)" = "$1" ]; }

watch_start --results res --site site --templates "$ROOT/templates" -j 2
watch_line 2 ||
	fail "watch did not start: $(cat log)"

# The chapters folder removed and made again, with other text.
rm -rf chapters
mkdir chapters
sed 's/Text version 1/Text version 2/' one.md > chapters/01-one.md
watch_until 'page_has "Text version 2"' ||
	fail "no build once chapters/ was made again: $(cat log)"
# The new folder is watched.
sed -i 's/Text version 2/Text version 3/' chapters/01-one.md
watch_until 'page_has "Text version 3"' ||
	fail "an edit in the new chapters/ built nothing: $(cat log)"

# Moved away and another made in its place: the new one is what counts.
mv chapters chapters.old
mkdir chapters
sed 's/Text version 1/Text version 4/' one.md > chapters/01-one.md
watch_until 'page_has "Text version 4"' ||
	fail "no build once chapters/ was moved and made again: $(cat log)"
sed -i 's/Text version 4/Text version 5/' chapters/01-one.md
watch_until 'page_has "Text version 5"' ||
	fail "an edit in the chapters/ made after a move built nothing: $(cat log)"

# An experiment's folder removed and made again, with a new header.
rm -rf kernels/a
mkdir kernels/a
cp kernel.c kernels/a/a.c
echo '#define SCALE 3' > kernels/a/scale.h
watch_until 'value_is 9' ||
	fail "a did not run once kernels/a was made again: $(cat log)"
echo '#define SCALE 4' > kernels/a/scale.h
watch_until 'value_is 12' ||
	fail "an edit in the new kernels/a ran nothing: $(cat log)"

# The folder above it too.
rm -rf kernels
mkdir -p kernels/a
cp kernel.c kernels/a/a.c
echo '#define SCALE 5' > kernels/a/scale.h
watch_until 'value_is 15' ||
	fail "a did not run once kernels/ was made again: $(cat log)"
echo '#define SCALE 6' > kernels/a/scale.h
watch_until 'value_is 18' ||
	fail "an edit in the new kernels/a/ ran nothing: $(cat log)"
watch_until 'page_has "is 18."' || fail "the page did not follow: $(cat log)"

watch_stop INT
rc=$RC
[ "$rc" = 130 ] || fail "watch exited $rc after SIGINT, want 130: $(cat log)"
