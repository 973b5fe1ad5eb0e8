# labbook killed while its experiment runs (SIGKILL), or its terminal
# closed (SIGHUP): no process of the experiment outlives it, and the next
# build's records are its own.
kernel sq <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>
int main(void)
{
	const char *path = getenv("LAB_RECORDS");
	FILE *f = fopen(path, "a");
	for (int i = 1; i <= 4; i++)
		fprintf(f, "{\"n\":%d}\n", i);
	fclose(f);
	FILE *seen = fopen("paths", "a");
	fprintf(seen, "%s\n", path);
	fclose(seen);
	if (access("hold", F_OK) == 0) {
		/* Held by this process and its child while either lives. */
		int alive = open("alive", O_RDONLY);
		flock(alive, LOCK_SH);
		pid_t child = fork();
		if (child == 0) {
			/* Outlives its parent, appending as lab.h does. */
			for (;;) {
				pause();
				FILE *g = fopen(path, "a");
				fprintf(g, "{\"n\":99}\n");
				fclose(g);
			}
		}
		FILE *r = fopen("ready", "w");
		fprintf(r, "%d %d %d\n", (int)getpid(), (int)child, (int)getpgrp());
		fclose(r);
		for (;;)
			pause();
	}
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
mkfifo ready
touch alive

# gone PID: the process ended (a zombie counts as ended).
gone() { ! grep -qv '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }

# held SIGNAL [COMMAND]: start a build (or COMMAND) whose experiment holds,
# send labbook SIGNAL once the experiment runs; RC, OUT and the
# experiment's pids are set.
held() {
	touch hold
	lb_bg "${2:-build}" --results res --site site --templates "$ROOT/templates" \
		--quiet --rerun sq > out.txt 2>&1
	local pid=$BG
	read -r EXP CHILD PGID < <(timeout 20 cat ready) ||
		fail "the experiment did not start"
	kill -"$1" "$pid"
	{ wait "$pid"; } 2>/dev/null
	RC=$?
	OUT=$(cat out.txt)
	rm -f hold
	# Each lock is free once every process holding it ended: the
	# project's, labbook's and what it forked; alive, the experiment's.
	timeout 20 flock .labbook.lock true || fail "the project lock outlived labbook ($1)"
	timeout 20 flock alive true || fail "the experiment outlived labbook ($1)"
	gone "$EXP" || fail "the experiment $EXP outlived labbook ($1)"
	gone "$CHILD" || fail "the experiment's child $CHILD outlived labbook ($1)"
	ps -o stat= -g "$PGID" | grep -qv Z &&
		fail "its process group $PGID outlived labbook ($1): $(ps -o pid,stat,args -g "$PGID")"
	kill -KILL "$EXP" "$CHILD" 2>/dev/null
}

build
expect_rc 0
expect_html a.html "4 records."
cp res/sq.jsonl good.jsonl

held KILL
expect_rc 137
first=$(tail -n 1 paths)
build --rerun sq
expect_rc 0
second=$(tail -n 1 paths)
[ "$first" != "$second" ] || fail "two runs were given one records file, $first"
expect_no_file "$first"
expect_same res/sq.jsonl good.jsonl
expect_html a.html "4 records."

held HUP
expect_rc 129
expect_err "labbook: hangup (the terminal was closed); the build stopped"
expect_err "experiment 'sq' interrupted"
expect_same res/sq.jsonl good.jsonl
# labbook watch killed: its build, and the build's experiment, end too.
held KILL watch
expect_rc 137
expect_same res/sq.jsonl good.jsonl

ls -a res res/.tmp site | grep -q '\.tmp\.' && fail "temporary files left: $(ls -a res res/.tmp site)"
true
