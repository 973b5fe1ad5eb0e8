# labbook explain ID: whether the next build runs an experiment, naming the
# input whose part of the key changed (a header, args, a file of inputs:),
# or the build it is cached from and why it ran then; an unknown id is an
# error naming the nearest; bundles recorded before per-input hashes were
# kept still explain (naming what cannot be told apart) and go stale on
# nothing.
mkdir -p kernels/common data
echo '#define SCALE 2' > kernels/common/scale.h
echo 5 > data/in.txt
kernel a <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "common/scale.h"
int main(void)
{
	int v = -1;
	FILE *d = fopen("data/in.txt", "r");
	if (!d || fscanf(d, "%d", &v) != 1)
		return 1;
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"scale\":%d,\"d\":%d}\n", SCALE, v);
	return 0;
}
C
records_kernel c
chapter 01-a.md <<'MD'
# A

```{experiment} a
source: kernels/a/a.c
inputs: data/in.txt
```

```{experiment} c
source: kernels/c/c.c
args: 2
```

A read {{ a.d }}.
MD
explain() { OUT=$(lb explain "$@" --results res 2>&1); RC=$?; }
ino() { stat -c %i "res/$1.jsonl"; }

explain a
expect_rc 0
expect_err "a (chapters/01-a.md:3) will run on the next build, because:"
expect_err "it has no results in res"

build
expect_rc 0
[ "$(lb eval --results res 'a.d')" = 5 ] || fail "a did not read data/in.txt"
explain a
expect_rc 0
expect_err "a (chapters/01-a.md:3) is cached"
# It names the build and the date its results come from.
built=$(python3 -c 'import json; print(json.load(open("res/a.meta.json"))["build"])')
date=$(python3 -c 'import json; print(json.load(open("res/a.meta.json"))["date"])')
expect_err "since it ran on $date, in the build of $built"
expect_err "It ran then because:"
expect_err "  - it has no results in res"

# A header it includes: named, and nothing else is.
echo '#define SCALE 3 /* edited */' > kernels/common/scale.h
explain a
expect_rc 0
expect_err "will run on the next build, because:"
expect_err "  - the header kernels/common/scale.h changed"
expect_no_err "kernels/a/a.c"
expect_no_err "data/in.txt"
expect_no_err "args"
explain c
expect_err "c (chapters/01-a.md:8) is cached"
a0=$(ino a) c0=$(ino c)
build
expect_rc 0
[ "$(ino a)" != "$a0" ] || fail "a did not run again after its header changed"
[ "$(ino c)" = "$c0" ] || fail "c ran again, though it does not include the header"
explain a
expect_err "is cached"
expect_err "It ran then because:"
expect_err "  - the header kernels/common/scale.h changed"

# Its args.
sed -i 's/^args: 2$/args: 12/' chapters/01-a.md
explain c
expect_err "c (chapters/01-a.md:8) will run on the next build, because:"
expect_err "  - args: was '2', now '12'"
expect_no_err "header"
explain a
expect_err "is cached"
build
expect_rc 0

# A file of its inputs: option: named, and the next build runs it again.
echo 7 > data/in.txt
explain a
expect_err "will run on the next build, because:"
expect_err "  - the input data/in.txt changed"
expect_no_err "scale.h"
a0=$(ino a) c0=$(ino c)
build
expect_rc 0
[ "$(ino a)" != "$a0" ] || fail "a did not run again after data/in.txt changed"
[ "$(ino c)" = "$c0" ] || fail "c ran again after a's input changed"
[ "$(lb eval --results res 'a.d')" = 7 ] || fail "a's records do not come from the new data/in.txt"
# The same bytes written again, with another time: nothing changed.
echo 7 > data/in.txt
touch -d '2001-02-03 04:05:06' data/in.txt kernels/common/scale.h
explain a
expect_err "is cached"
a0=$(ino a)
build
[ "$(ino a)" = "$a0" ] || fail "a ran again, though its input's bytes are the same"

# What the key adds to the source key: the number of runs, the compiler's
# version and its command.
explain a --runs 2
expect_err "  - runs: was 3, now 2"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "othercc 9.9"; exit 0; }\nexec cc "$@"\n' > othercc
chmod +x othercc
OUT=$(CC=$PWD/othercc lb explain a --results res 2>&1); RC=$?
expect_err "  - the C compiler: was 'cc "
expect_err "now 'othercc 9.9'"
expect_err "  - the compile command: was 'cc -O2"
expect_no_err "header"

# labbook watch watches the files of inputs: too.
watch_start --results res --site site --templates "$ROOT/templates" -j 2
watch_line 2 || fail "watch did not start: $(cat log)"
echo 9 > data/in.txt
watch_line 3 || fail "no rebuild after data/in.txt changed: $(cat log)"
case $LINE in "watch: data/in.txt changed; ran a;"*) ;; *) fail "watch said: $LINE" ;; esac
watch_stop INT
[ "$(lb eval --results res 'a.d')" = 9 ] || fail "watch did not run a with the new data/in.txt"

# --rerun is a reason too; the build's other options are taken as they are.
OUT=$(lb explain a --results res --site site --title T -j 2 --quiet --rerun a 2>&1); RC=$?
expect_rc 0
expect_err "  - --rerun a asks for it"

# An input that is not there, or is outside the project: an error at the
# inputs: line; the good results stay, and explain says it would fail.
a0=$(ino a)
sed -i 's|^inputs: data/in.txt$|inputs: data/gone.txt|' chapters/01-a.md
build
expect_rc 1
expect_err "chapters/01-a.md:5: error: experiment 'a': input 'data/gone.txt' is not found"
[ "$(ino a)" = "$a0" ] || fail "a's good results were not kept"
[ "$(lb eval --results res 'a.d')" = 9 ] || fail "a's good results changed"
explain a
expect_rc 1
expect_err "a (chapters/01-a.md:3) will fail on the next build: input 'data/gone.txt' is not found"
echo 1 > ../outside.txt
sed -i 's|^inputs: data/gone.txt$|inputs: ../outside.txt|' chapters/01-a.md
build
expect_rc 1
expect_err "chapters/01-a.md:5: error: experiment 'a': input '../outside.txt' is outside the project"
rm -f ../outside.txt
sed -i 's|^inputs: ../outside.txt$|inputs: data/in.txt|' chapters/01-a.md

# An unknown id: an error that names the nearest; a wrong command line.
explain cc
expect_rc 1
expect_err "no experiment 'cc' in the book; the nearest: c, a"
OUT=$(lb explain --results res 2>&1); RC=$?
expect_rc 2
expect_err "explain takes one experiment id; found 0"
OUT=$(lb explain a c --results res 2>&1); RC=$?
expect_rc 2
OUT=$(lb explain a --runs 0 --results res 2>&1); RC=$?
expect_rc 2
OUT=$(lb --help); RC=$?
expect_err "labbook explain ID [options]"
OUT=$(lb explain --help); RC=$?
expect_rc 0
expect_err "usage: labbook explain ID"

# A bundle recorded before the parts of each key were kept: nothing runs
# again for lack of them, and explain still says what it can.
python3 - <<'PY'
import json
for k in "a", "c":
	m = json.load(open(f"res/{k}.meta.json"))
	del m["key_parts"], m["ran_because"]
	json.dump(m, open(f"res/{k}.meta.json", "w"))
PY
explain a
expect_rc 0
expect_err "is cached"
expect_err "Its results do not say why it ran then"
a0=$(ino a) c0=$(ino c)
build
expect_rc 0
[ "$(ino a)" = "$a0" ] && [ "$(ino c)" = "$c0" ] ||
	fail "a bundle without key_parts ran experiments again"
echo '#define SCALE 4' > kernels/common/scale.h
explain a
expect_err "will run on the next build, because:"
expect_err "cannot be told apart: kernels/a/a.c, kernels/common/scale.h, data/in.txt"
sed -i 's/^args: 12$/args: 3/' chapters/01-a.md
explain c
expect_err "  - the run command: was 'build/exp/c 12', now 'build/exp/c 3'"
expect_err "whether any of these changed cannot be told apart: kernels/c/c.c"

# The recorded bundles: without a GPU, what the next build does with a
# CUDA experiment is render it from the record; the one whose source
# changed since says so, and what it cannot tell apart.
rm -rf chapters kernels data res
cp -r "$ROOT/chapters" "$ROOT/kernels" .
cp -r "$ROOT/results/h200" res
explain ilp
expect_rc 0
grep -Eq "^ilp \(chapters/[^:]+:[0-9]+\) will not run on the next build: (there is no GPU here|nvcc was not found)\.$" <<<"$OUT" ||
	fail "ilp: the next build is not said to run nothing: $OUT"
expect_err "Its page is rendered from the results recorded in res (NVIDIA H200, host "
expect_err "are as they were when they were recorded"
explain ilp_ptxas --no-run
expect_rc 0
expect_err "ilp_ptxas is made by the build of experiment 'ilp'"
expect_err "will not run on the next build: --no-run runs nothing."
# A kernel changed after its results were recorded (the case's own copy
# of the streams source): explain names the file, and writes nothing.
printf '\n// The kernel changed after its results were recorded.\n' >> kernels/streams/streams.cu
explain streams --no-run
expect_rc 0
expect_err "Since they were recorded (its box will say they changed):"
expect_err "  - the source kernels/streams/streams.cu changed"
expect_no_err "kernels/lab.h"
diff -r "$ROOT/results/h200" res > /dev/null || fail "explain wrote the bundle"
# A bundle recorded before its metadata kept the parts of its key cannot
# tell which input changed: it names every one.
python3 - <<'PY'
import json
m = json.load(open("res/streams.meta.json"))
del m["key_parts"]
json.dump(m, open("res/streams.meta.json", "w"))
PY
cp -r res kept
explain streams --no-run
expect_rc 0
expect_err "Since they were recorded (its box will say they changed):"
expect_err "cannot be told apart: kernels/streams/streams.cu, kernels/lab.h"
diff -r kept res > /dev/null || fail "explain wrote the bundle"
