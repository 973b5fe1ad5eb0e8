# Helpers for the regression cases in tests/cases/*.sh. Each case runs in a
# fresh folder that plays the project: chapters/, kernels/, res/ (the
# bundle) and site/. An expectation that fails prints why and marks the case.

case_failed=0

fail() {
	echo "  $CASE: $*" >&2
	case_failed=1
}

# Valgrind and the sanitizers exit 99 on an error; tests/run fails the case
# even where its output was captured and its status not looked at.
# Valgrind's own words go to a log of their own (fd 9), so that what labbook
# says is checked as it is.
lb() {
	if [ -n "${VALGRIND:-}" ]; then
		valgrind -q --log-fd=9 --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \
			--trace-children=no "$LABBOOK" "$@" 9>>"$LB_ERRORS.valgrind"
	else
		"$LABBOOK" "$@"
	fi
	local rc=$?
	[ "$rc" = 99 ] && { echo "labbook $*: valgrind or a sanitizer found errors"
		tail -n 40 "$LB_ERRORS.valgrind" 2>/dev/null; } >> "$LB_ERRORS"
	return $rc
}

# lb_bg ARGS...: start labbook in the background, as lb runs it; its pid
# is in $BG (a function run with & would give the subshell's).
lb_bg() {
	if [ -n "${VALGRIND:-}" ]; then
		valgrind -q --log-fd=9 --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \
			--trace-children=no "$LABBOOK" "$@" 9>>"$LB_ERRORS.valgrind" &
	else
		"$LABBOOK" "$@" &
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
