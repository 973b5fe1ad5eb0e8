# Every chapter of the shipped book ends with an Exercises section of at
# least three {exercise} callouts, one of them "predict, then measure" with a command to
# run, one that changes a kernel; and no chapter cites its sources by a
# private label ("seed 001") instead of by name.
n=0
for ch in "$ROOT"/chapters/*.md; do
	name=$(basename "$ch")
	n=$((n + 1))
	grep -qi 'seed' "$ch" && fail "$name says 'seed'"
	last=$(grep -n '^## ' "$ch" | tail -n 1)
	[ "${last#*:}" = "## Exercises" ] ||
		fail "$name: its last section is '${last#*:}', not '## Exercises'"
	ex=$(sed -n '/^## Exercises$/,$p' "$ch")
	items=$(printf '%s\n' "$ex" | grep -cE '^`{3,}\{exercise\}')
	[ "$items" -ge 3 ] || fail "$name: $items exercises, want at least 3"
	printf '%s\n' "$ex" | grep -q 'Predict, then measure' ||
		fail "$name: no 'predict, then measure' exercise"
	printf '%s\n' "$ex" | grep -qE '`(build/labbook|build/exp/|ncu |make )[^`]*`' ||
		fail "$name: no exercise names a command to run"
	printf '%s\n' "$ex" | grep -qE 'Change the kernel|kernels/' ||
		fail "$name: no exercise changes a kernel"
done
[ "$n" -ge 9 ] || fail "only $n chapters found"
