# The command line: help per command, -C and finding the book from a
# subfolder, eval without a bundle, plurals, a source path with a quote,
# and a process that escapes its group.
OUT=$(lb build --help); RC=$?
expect_rc 0
expect_err "usage: labbook build"
expect_err "--no-run"
OUT=$(lb eval --help); RC=$?
expect_rc 0
expect_err "argmax(X, field)"
expect_err "ilp.gflops[view=sm, ilp=8]"
OUT=$(lb eval --results nowhere 'x.y' 2>&1); RC=$?
expect_rc 1
expect_err "no results bundle in nowhere"
OUT=$(lb build --results 2>&1); RC=$?
expect_rc 2
expect_err "--results needs a value"
OUT=$(lb build stray 2>&1); RC=$?
expect_rc 2

mkdir -p book/kernels/q
cat > "book/kernels/q/it's.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":7}\n");
	fclose(f);
	puts("quoted path");
	return 0;
}
C
mkdir -p book/chapters
cat > book/chapters/01-a.md <<'MD'
# A

V is {{ q.v }}.

```{experiment} q
source: kernels/q/it's.c
runs: 1
```
MD
OUT=$(lb build -C book --results res --templates "$ROOT/templates" --progress 2>&1); RC=$?
expect_rc 0
expect_err "1 chapter, 1 experiment (1 ran, 0 failed)"
grep -q "V is 7." book/site/a.html || fail "the quoted source did not build: $OUT"
grep -q "it&#39;s.c\|it&apos;s.c\|it's.c" book/site/a.html || fail "the page lacks the source path"
mkdir -p book/chapters/sub
OUT=$(cd book/chapters/sub && lb build --results res --templates "$ROOT/templates" --no-run 2>&1); RC=$?
expect_rc 0
expect_err "the book is in"

# A process that leaves its group (setsid) and keeps the output open: the
# run ends when the program exits, and the output says what happened.
kernel esc <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":1}\n");
	fclose(f);
	fflush(stdout);
	/* The escaped process never ends; the test ends it. */
	int child = fork();
	if (child == 0) {
		setsid();
		for (;;)
			pause();
	}
	FILE *p = fopen("esc.pid", "w");
	fprintf(p, "%d\n", child);
	fclose(p);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} esc
source: kernels/esc/esc.c
runs: 1
```
MD
# A build that waited for the escaped process would never end: the
# safety net stops it (status 124).
LB_LIMIT=$WAIT_LIMIT build
kill "$(cat esc.pid)" || fail "the escaped process did not run"
expect_rc 0
expect_err "left its process group"
grep -q "left its process group" res/esc.out || fail "the output does not say a process escaped"

