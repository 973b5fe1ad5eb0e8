# Two builds of one project started together: the second waits for the
# first (the project lock), says whose build it waits for, and the bundle
# keeps every record of the experiment, 8 of 8.
kernel sq <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int i = 1; i <= 4; i++)
		fprintf(f, "{\"n\":%d}\n", i);
	fflush(f);
	if (access("hold", F_OK) == 0) {
		/* Say where it is, then wait for the test to let it go on. */
		FILE *r = fopen("ready", "w");
		fprintf(r, "%d\n", (int)getpid());
		fclose(r);
		FILE *go = fopen("go", "r");
		fgetc(go);
		fclose(go);
	}
	for (int i = 5; i <= 8; i++)
		fprintf(f, "{\"n\":%d}\n", i);
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
runs: 1
```

{{ count(sq.n) }} records.
MD
mkfifo ready go
touch hold
lb_bg build --results res --site site --templates "$ROOT/templates" --quiet > a.txt 2>&1
A=$BG
exp=$(timeout 20 cat ready) || fail "the first build's experiment did not start"
flock -n .labbook.lock true && fail "the first build does not hold the project lock"

# waiting NAME: start a build whose stderr is the FIFO NAME, and read that
# until the build says it waits; its pid is in $BG, the FIFO open on $ERR.
waiting() {
	mkfifo "$1"
	exec 3<>"$1"
	lb_bg build --results res --site site --templates "$ROOT/templates" \
		--quiet 2>"$1" > "$1.out"
	exec {ERR}<"$1" 3>&-
	if ! timeout 20 sh -c 'while IFS= read -r l; do echo "$l"; case $l in *waiting*) exit 0 ;; esac; done; exit 1' <&$ERR > "$1.txt"; then
		fail "a second build did not wait for the first: $(cat "$1.txt")"
		kill "$BG"
	fi
	grep -qF "labbook: waiting for the build of PID $A in this project" "$1.txt" ||
		fail "the wait does not name the first build's PID $A: $(cat "$1.txt")"
}

# Interrupted while it waits, a build stops (130).
waiting c-err
C=$BG
kill -INT "$C"
timeout 20 cat <&$ERR >> c-err.txt || { fail "SIGINT did not stop the wait"; kill -KILL "$C"; }
exec {ERR}<&-
wait "$C"; RC=$?; OUT="$(cat c-err.txt)"
expect_rc 130

waiting b-err
B=$BG
timeout 20 sh -c 'echo > go' || fail "the experiment did not wait"
timeout 20 cat <&$ERR >> b-err.txt || fail "the second build did not end"
exec {ERR}<&-
wait $A; RC=$?; OUT="$(cat a.txt)"
expect_rc 0
wait $B; RC=$?; OUT="$(cat b-err.txt b-err.out)"
expect_rc 0
[ "$(grep -c '"n"' res/sq.jsonl)" = 8 ] || fail "the bundle keeps $(grep -c '"n"' res/sq.jsonl) of 8 records"
expect_html a.html "8 records."
# The lock is free once both ended.
flock -n .labbook.lock true || fail "the project lock is still held"
kill "$exp" 2>/dev/null
true

# Two books that build into one bundle outside both: the bundle has its
# own lock, and the second build waits on it, naming it.
mkdir book1 book2
for b in book1 book2; do cp -r chapters kernels "$b/"; done
mkfifo book1/ready book1/go
touch book1/hold
lb_bg build -C book1 --results "$PWD/shared" --site site \
	--templates "$ROOT/templates" --quiet > a1.txt 2>&1
A=$BG
exp=$(timeout 20 cat book1/ready) || fail "book1's experiment did not start"
flock -n shared/.labbook.lock true && fail "book1's build does not hold the bundle's lock"
mkfifo b2-err
exec 3<>b2-err
lb_bg build -C book2 --results "$PWD/shared" --site site \
	--templates "$ROOT/templates" --quiet 2>b2-err > b2.out
B=$BG
exec {ERR}<b2-err 3>&-
timeout 20 sh -c 'while IFS= read -r l; do echo "$l"; case $l in *waiting*) exit 0 ;; esac; done; exit 1' <&$ERR > b2.txt ||
	fail "book2's build did not wait for the bundle: $(cat b2.txt)"
grep -qF "waiting for the build of PID $A in the bundle $PWD/shared" b2.txt ||
	fail "the wait does not name the bundle: $(cat b2.txt)"
timeout 20 sh -c 'echo > book1/go' || fail "the experiment did not wait"
timeout 20 cat <&$ERR >> b2.txt
exec {ERR}<&-
wait "$A"; RC=$?; OUT="$(cat a1.txt)"
expect_rc 0
wait "$B"; RC=$?; OUT="$(cat b2.txt b2.out)"
expect_rc 0
[ "$(grep -c '"n"' shared/sq.jsonl)" = 8 ] || fail "the shared bundle keeps $(grep -c '"n"' shared/sq.jsonl) of 8 records"
kill "$exp" 2>/dev/null
true
