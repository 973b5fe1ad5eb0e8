# Helpers for the regression cases in tests/cases/*.sh. Each case runs in a
# fresh folder that plays the project: chapters/, kernels/, res/ (the
# bundle) and site/. An expectation that fails prints why and marks the case.

case_failed=0

# A case waits on events (a line of output, a FIFO opened, a lock let go, a
# process ended), never on a clock. Each wait gives up after $WAIT_LIMIT
# seconds and fails the case: a safety net against a hang, not a timer, so
# nothing passes or fails by being fast or slow. Valgrind is slower; the
# environment may set another (to see a broken case fail sooner).
if [ -z "${WAIT_LIMIT:-}" ]; then
	WAIT_LIMIT=120
	[ -n "${VALGRIND:-}" ] && WAIT_LIMIT=900
fi

fail() {
	echo "  $CASE: $*" >&2
	case_failed=1
}

# A case that cannot run here, for a missing tool, says so through these,
# never by passing: tests/run reports it "skip" (counted apart from passed
# and failed) with why, and the Debian packages it needs, every one of them
# (tools/install-deps PACKAGE... installs them).
#
# skip WHY PACKAGE...: the case ends here, skipped (failed, if it already
# failed).
# skip_part WHY PACKAGE...: a part of the case does not run; the rest does,
# and the case ends skipped unless it fails.
skip() {
	skip_part "$@"
	exit "$case_failed"
}
skip_part() {
	local why=$1
	shift
	printf '%s\t%s\n' "$why" "$*" >> "$LB_SKIP"
}

# missing PACKAGE:PROGRAM...: print "no PROGRAM" for each PROGRAM (a command
# on PATH, or a path) that is not here, and print the list of every PACKAGE
# after a tab; false when nothing is missing. For need and want.
missing() {
	local p prog none='' pkgs=''
	for p; do
		prog=${p#*:}
		case " $pkgs " in *" ${p%%:*} "*) ;; *) pkgs="$pkgs ${p%%:*}" ;; esac
		case $prog in
		/*) [ -x "$prog" ] ;;
		*) command -v "$prog" > /dev/null 2>&1 ;;
		esac || none="$none, no $prog"
	done
	[ -n "$none" ] && printf '%s\t%s\n' "${none#, }" "${pkgs# }"
}

# need PACKAGE:PROGRAM...: skip the whole case unless every PROGRAM is here.
# want WHAT PACKAGE:PROGRAM...: false, and WHAT (a part of the case) noted
# as not run, unless every PROGRAM is here.
need() {
	local m
	m=$(missing "$@") || return 0
	# shellcheck disable=SC2086
	skip "${m%%	*}" ${m#*	}
}
want() {
	local what=$1 m
	shift
	m=$(missing "$@") || return 0
	# shellcheck disable=SC2086
	skip_part "$what not run: ${m%%	*}" ${m#*	}
	return 1
}

# Valgrind and the sanitizers exit 99 on an error; tests/run fails the case
# even where its output was captured and its status not looked at.
# Valgrind's own words go to a log of their own (fd 9), so that what labbook
# says is checked as it is. With LB_LIMIT=SECONDS set, a labbook that still
# runs then is stopped (SIGTERM) and the status is 124: the safety net of a
# case whose labbook would otherwise hang.
lb() {
	if [ -n "${VALGRIND:-}" ]; then
		${LB_LIMIT:+timeout -k 10 "$LB_LIMIT"} \
		valgrind -q --log-fd=9 --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \
			--trace-children=no "$LABBOOK" "$@" 9>>"$LB_ERRORS.valgrind"
	else
		${LB_LIMIT:+timeout -k 10 "$LB_LIMIT"} "$LABBOOK" "$@"
	fi
	local rc=$?
	[ "$rc" = 99 ] && { echo "labbook $*: valgrind or a sanitizer found errors"
		tail -n 40 "$LB_ERRORS.valgrind" 2>/dev/null; } >> "$LB_ERRORS"
	return $rc
}

# lb_bg ARGS...: start labbook in the background, as lb runs it; its pid
# is in $BG (a function run with & would give the subshell's). It starts
# with a hangup's default handling whatever the suite inherited: under
# nohup labbook ignores a hangup, as it should, and a case that sends one
# means the terminal closing.
lb_bg() {
	if [ -n "${VALGRIND:-}" ]; then
		env --default-signal=HUP \
		valgrind -q --log-fd=9 --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \
			--trace-children=no "$LABBOOK" "$@" 9>>"$LB_ERRORS.valgrind" &
	else
		env --default-signal=HUP "$LABBOOK" "$@" &
	fi
	BG=$!
}

# build [options]: run labbook build; output in $OUT, status in $RC.
build() {
	OUT=$(lb build --results res --site site --templates "$ROOT/templates" \
		--quiet -j 2 "$@" 2>&1)
	RC=$?
	[ "$RC" = 99 ] && fail "valgrind or a sanitizer found errors: $OUT"
	return 0
}

chapter() { mkdir -p chapters && cat > "chapters/$1"; }
kernel() { mkdir -p "kernels/$1" && cat > "kernels/$1/$1.c"; }

# A program that writes N records {"n":i,"y":i*i,"s":"..."} and prints a line.
records_kernel() {
	kernel "$1" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int i = 1; i <= n; i++)
		fprintf(f, "{\"n\":%d,\"y\":%d,\"s\":\"%s\",\"y_lo\":%g,\"y_hi\":%g}\n",
		        i, i * i, i % 2 ? "odd" : "even", i * i * 0.9, i * i * 1.1);
	fclose(f);
	printf("wrote %d records\n", n);
	return 0;
}
C
}

expect_rc() { [ "$RC" = "$1" ] || fail "exit status $RC, want $1; output: $OUT"; }
expect_err() { printf '%s' "$OUT" | grep -qF -- "$1" || fail "output lacks '$1'; output: $OUT"; }
expect_no_err() { printf '%s' "$OUT" | grep -qF -- "$1" && fail "output has '$1'"; return 0; }
expect_html() { grep -qF -- "$2" "site/$1" 2>/dev/null || fail "site/$1 lacks '$2'"; }
expect_no_html() { grep -qF -- "$2" "site/$1" 2>/dev/null && fail "site/$1 has '$2'"; return 0; }
expect_file() { [ -e "$1" ] || fail "$1 is missing"; }
expect_no_file() { [ -e "$1" ] && fail "$1 exists"; return 0; }
expect_same() { cmp -s "$1" "$2" || fail "$1 and $2 differ"; }

# ended PID: wait until the process PID has ended (its pidfd becomes
# readable; a zombie has ended), at most $WAIT_LIMIT s; false if it runs on.
ended() {
	python3 -c 'import os, select, sys
try:
	fd = os.pidfd_open(int(sys.argv[1]))
except ProcessLookupError:
	sys.exit(0)
sys.exit(0 if select.select([fd], [], [], float(sys.argv[2]))[0] else 1)' \
		"$1" "$WAIT_LIMIT"
}

# finish PID: wait for the background process PID; its status in RC. One
# that still runs after $WAIT_LIMIT s is killed (RC 137) and the case fails.
finish() {
	if ! ended "$1"; then
		fail "process $1 still ran after $WAIT_LIMIT s; killed it"
		kill -KILL "$1"
	fi
	wait "$1"
	RC=$?
}

# watch_start ARGS...: start labbook watch ARGS in the background, its
# output on a FIFO that watch_line reads (and copies to log); pid in $BG.
watch_start() {
	local hold
	rm -f watch.fifo log
	mkfifo watch.fifo
	: > log
	WATCH_LINES=0
	# Opened both ways first, so that neither end waits for the other.
	exec {hold}<>watch.fifo
	lb_bg watch "$@" > watch.fifo 2>&1
	exec {WATCH_FD}<watch.fifo {hold}>&-
}

# watch_line N: read watch's output up to its Nth line that starts
# "watch: " (a build done, or watching begun); that line is in $LINE. False
# when watch ended first, or said nothing more for $WAIT_LIMIT s.
watch_line() {
	local l
	while [ "$WATCH_LINES" -lt "$1" ]; do
		IFS= read -r -t "$WAIT_LIMIT" -u "$WATCH_FD" l || { LINE=; return 1; }
		printf '%s\n' "$l" >> log
		case $l in "watch: "*) WATCH_LINES=$((WATCH_LINES + 1)) ;; esac
	done
	LINE=$(grep '^watch: ' log | sed -n "$1p")
}

# watch_until COMMAND: until COMMAND succeeds, wait for watch's next build
# (its next "watch: " line) and try again; false as watch_line is.
watch_until() {
	until eval "$1"; do
		watch_line $((WATCH_LINES + 1)) || return 1
	done
}

# watch_stop SIGNAL: send watch SIGNAL, read the rest of its output into
# log, and wait for it to end; its status in RC.
watch_stop() {
	kill -"$1" "$BG"
	timeout "$WAIT_LIMIT" cat <&"$WATCH_FD" >> log ||
		fail "watch wrote on for $WAIT_LIMIT s after SIG$1"
	exec {WATCH_FD}<&-
	finish "$BG"
}
