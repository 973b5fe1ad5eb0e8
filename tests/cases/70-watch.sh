# labbook watch: a prose edit rewrites that chapter's page (and the one-page
# book, which holds every chapter) and runs nothing; an edit to an
# experiment's source, or to a header it includes, runs it again. (How fast
# is make bench's to say: tools/bench-watch.)
mkdir -p kernels/a
echo '#define SCALE 2' > kernels/a/scale.h
kernel a <<'C'
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
chapter 01-one.md <<'MD'
# One

The largest value of the records is {{ max(a.y) }}, and this sentence says so.

```{experiment} a
source: kernels/a/a.c
runs: 1
```

A paragraph to edit.
MD
chapter 02-two.md <<'MD'
# Two

Nothing measured here.
MD
build
expect_rc 0

# Every write is a new file renamed into place: a rewrite has a new inode.
inodes() { stat -c '%n %i' site/*.html res/a.meta.json; }
changed() { diff "$1" "$2" | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' '; }

watch_start --results res --site site --templates "$ROOT/templates" -j 2
watch_line 2 || fail "watch did not start: $(cat log)"
expect_html one.html 'src="live.js"'
expect_file site/live.js
expect_file site/live-stamp.js
inodes > m0
stamp0=$(cat site/live-stamp.js)

sed -i 's/A paragraph to edit./A paragraph, edited./' chapters/01-one.md
watch_line 3 || fail "no rebuild after a prose edit: $(cat log)"
inodes > m1
[ "$(changed m0 m1)" = "site/book.html site/one.html " ] ||
	fail "a prose edit changed $(changed m0 m1), want site/book.html site/one.html"
expect_html one.html "A paragraph, edited."
expect_html book.html "A paragraph, edited."
expect_html book.html "Nothing measured here."
case $LINE in "watch: chapters/01-one.md changed; rewrote book, one;"*) ;; *) fail "watch said: $LINE" ;; esac
[ "$(cat site/live-stamp.js)" != "$stamp0" ] || fail "the build stamp did not change"

sed -i 's/i \* SCALE/i * SCALE + 1/' kernels/a/a.c
watch_line 4 || fail "no rebuild after the source changed: $(cat log)"
case $LINE in "watch: kernels/a/a.c changed; ran a;"*) ;; *) fail "watch said: $LINE" ;; esac
[ "$(lb eval --results res 'max(a.y)')" = 7 ] || fail "a did not run with its new source"
expect_html one.html "is 7,"

echo '#define SCALE 5' > kernels/a/scale.h
watch_line 5 || fail "no rebuild after the header changed: $(cat log)"
case $LINE in "watch: kernels/a/scale.h changed; ran a;"*) ;; *) fail "watch said: $LINE" ;; esac
[ "$(lb eval --results res 'max(a.y)')" = 16 ] || fail "a did not run with its new header"

# A save that leaves the bytes as they were runs nothing: the next build
# is the next edit's, and names that edit alone (watch reads events in
# order, so a build for the header would come first, or share the line).
cp kernels/a/scale.h scale.tmp && mv scale.tmp kernels/a/scale.h

# The first prose edit after a run rewrites that chapter's page and the
# one-page book, and no file of the bundle: the run's results stay as it
# wrote them, and say they were measured in this build.
snap() {
	for f in site/*.html site/*.js res/*; do
		[ -f "$f" ] && echo "$f $(stat -c '%i %y' "$f") $(cksum < "$f")"
	done
}
snap > w0
sed -i 's/A paragraph, edited./A paragraph, edited twice./' chapters/01-one.md
watch_line 6 || fail "no rebuild after a prose edit: $(cat log)"
snap > w1
[ "$(changed w0 w1)" = "site/book.html site/one.html site/live-stamp.js site/search-index.js " ] ||
	fail "the first prose edit after a run changed $(changed w0 w1), want the chapter's page, the book, the search index and the stamp"
case $LINE in "watch: chapters/01-one.md changed; rewrote book, one;"*) ;;
*) fail "an unchanged header, or this edit, made: $LINE" ;; esac
expect_html one.html '<span class="state this-build">measured in this build</span>'

watch_stop INT
rc=$RC
[ "$rc" = 130 ] || fail "watch exited $rc after SIGINT, want 130: $(cat log)"
grep -q 'error' log && fail "watch reported errors: $(cat log)"
ls res | grep -q '\.tmp\.' && fail "temporary files left in the bundle: $(ls res)"
build --no-run
expect_rc 0
expect_no_file site/live.js
expect_no_file site/live-stamp.js
expect_no_html one.html 'live.js'
