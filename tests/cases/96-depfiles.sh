# Dependency files read as make reads them, whichever compiler wrote
# them: a path with a space ("sp\ ace"), "$$" and "\#" in names, a header
# per source of a two-source experiment, and nvcc's "main.o : main.cu"
# (a blank before the colon), written here by a stand-in for nvcc (this
# machine may have none) that compiles with cc and writes nvcc's shape.
inputs_of() {
	python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["inputs"]))' \
		"res/$1.meta.json"
}
build_of() { sed -n 's/.*"build":[[:space:]]*"\([^"]*\)".*/\1/p' "res/$1.meta.json"; }

mkdir -p "kernels/sp ace" kernels/two kernels/k
cat > "kernels/sp ace/s.c" <<'C'
#include <stdio.h>
#include "h.h"
#include "odd$name.h"
#include "../k/hash#1.h"
int main(void) { printf("v %d\n", H + ODD + HASH); return 0; }
C
echo '#define H 1' > "kernels/sp ace/h.h"
echo '#define ODD 2' > "kernels/sp ace/odd\$name.h"
echo '#define HASH 3' > "kernels/k/hash#1.h"
# Two sources, each with a header of its own: the compile's dependency
# file lists the last one's, a pass lists the first one's.
cat > kernels/two/main.c <<'C'
#include <stdio.h>
#include "main.h"
int part(void);
int main(void) { printf("v %d\n", MAIN + part()); return 0; }
C
echo '#define MAIN 10' > kernels/two/main.h
printf '#include "part.h"\nint part(void) { return PART; }\n' > kernels/two/part.c
echo '#define PART 5' > kernels/two/part.h
chapter 01-a.md <<'MD'
# A

```{experiment} space
source: kernels/sp ace/s.c
capture: v (?<v>\d+)
```

```{experiment} two
source: kernels/two/main.c kernels/two/part.c
capture: v (?<v>\d+)
```

{{ space.v }} and {{ two.v }}.
MD
build
expect_rc 0
expect_no_err "is not found"
expect_html a.html "6 and 15."
inputs_of space > space.in
inputs_of two > two.in
for f in "kernels/sp ace/s.c" "kernels/sp ace/h.h" "kernels/sp ace/odd\$name.h" \
	"kernels/k/hash#1.h"; do
	grep -qxF -- "$f" space.in || fail "space's inputs lack '$f': $(cat space.in)"
done
for f in kernels/two/main.c kernels/two/main.h kernels/two/part.c kernels/two/part.h; do
	grep -qxF -- "$f" two.in || fail "two's inputs lack '$f': $(cat two.in)"
done
grep -q '^/' space.in && fail "a system header is an input: $(cat space.in)"

# Built again: nothing runs. Each header edited: its experiment runs.
space1=$(build_of space) two1=$(build_of two)
build --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"
echo '#define HASH 4' > "kernels/k/hash#1.h"
echo '#define MAIN 20' > kernels/two/main.h
build --progress
expect_rc 0
expect_err "(2 ran, 0 failed)"
[ "$(build_of space)" != "$space1" ] || fail "space did not run after a header with '#' changed"
[ "$(build_of two)" != "$two1" ] || fail "two did not run after its first source's header changed"
expect_html a.html "7 and 25."

# nvcc's shape: a CUDA experiment of two sources, one in a folder with a
# space, compiled (--compile-only) by a stand-in that writes its
# dependency file as nvcc does.
cat > nvcc <<'SH'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "Cuda compilation tools, release 12.4, V12.4.131"; exit 0; }
srcs=() incs=() mf= out= dep=
while [ $# -gt 0 ]; do
	case $1 in
	-M|-MD) dep=$1 ;;
	-MF) shift; mf=$1 ;;
	-o) shift; out=$1 ;;
	-I*) incs+=("$1") ;;
	*.cu) srcs+=("$1") ;;
	esac
	shift
done
last=${srcs[${#srcs[@]}-1]}
obj=$(basename "$last" .cu).o
# nvcc: "main.o : main.cu \", then each file on a line of its own.
cc -x c -M -MT "$obj" "${incs[@]}" "$last" | sed "s/^$obj:/$obj :/; s/^ /    /" > "$mf" || exit 1
[ "$dep" = -M ] && exit 0
cc -x c "${incs[@]}" -o "$out" "${srcs[@]}"
SH
chmod +x nvcc
mkdir -p "kernels/cu da"
cat > "kernels/cu da/main.cu" <<'C'
#include <stdio.h>
#include "main.cuh"
int part(void);
int main(void) { printf("v %d\n", MAIN + part()); return 0; }
C
echo '#define MAIN 1' > "kernels/cu da/main.cuh"
printf '#include "part.cuh"\nint part(void) { return PART; }\n' > "kernels/cu da/part.cu"
echo '#define PART 2' > "kernels/cu da/part.cuh"
chapter 02-cuda.md <<'MD'
# CUDA

```{experiment} cuda
source: "kernels/cu da/main.cu" "kernels/cu da/part.cu"
```
MD
NVCC=$PWD/nvcc build --compile-only
expect_rc 0
expect_no_err "main.o"
expect_no_err "error"
[ -x build/exp/cuda ] || fail "the two-source CUDA experiment was not built: $OUT"

# A Python program: python3 runs it (no compiler), capture: reads what it
# prints, the project's modules it imports (beside it, and in kernels/ as
# -Ikernels finds C headers) are its inputs with the interpreter's
# version, and a syntax error is a compile error at its directive.
rm chapters/02-cuda.md
mkdir -p kernels/py
cat > kernels/py/py.py <<'P'
import sys
import helper
from shared import scale
n = int(sys.argv[1].split("=")[1])
print(f"n {n} sum {helper.total(n) * scale}")
P
echo 'def total(n): return sum(range(n))' > kernels/py/helper.py
echo 'scale = 2' > kernels/shared.py
chapter 03-py.md <<'MD'
# Python

```{experiment} py
source: kernels/py/py.py
sweep: -n=4,8
capture: n \d+ sum (?<sum>\d+)
```

```{chart} py-sums
data: py
x: n
y: sum
```

Sum {{ py.sum[n=8] }}.
MD
build --progress
expect_rc 0
expect_err "(1 ran, 0 failed)"
expect_html py.html "Sum 56."
expect_file site/fig/py-sums.svg
inputs_of py > py.in
for f in kernels/py/py.py kernels/py/helper.py kernels/shared.py; do
	grep -qxF -- "$f" py.in || fail "py's inputs lack '$f': $(cat py.in)"
done
grep -q '"compiler":[[:space:]]*"Python 3' res/py.meta.json || fail "py's key does not name the interpreter"
# The page shows what its compile does, not the import scanner's script.
expect_html py.html '# python3 reads kernels/py/py.py and the modules it imports from the book; nothing is compiled'
expect_no_html py.html 'modulefinder'
[ -d kernels/py/__pycache__ ] && fail "running it left __pycache__ in the project"
py1=$(build_of py)
build --progress
expect_err "(0 ran, 0 failed)"
echo 'scale = 3' > kernels/shared.py
build --progress
expect_err "(1 ran, 0 failed)"
[ "$(build_of py)" != "$py1" ] || fail "py did not run after a module it imports changed"
expect_html py.html "Sum 84."
# Another interpreter is named as the interpreter it is.
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "Python 9.9"; exit 0; }\nexec python3 "$@"\n' > otherpy
chmod +x otherpy
OUT=$(PYTHON=$PWD/otherpy lb explain py --results res 2>&1); RC=$?
expect_err "  - the Python interpreter: was 'Python 3"
expect_err "now 'Python 9.9'"
# Its bundle taken to another host: its key covers the interpreter, not
# the host (no GPU here, so not the GPU either).
cp -r res res-moved
python3 - <<'PY'
import json
m = json.load(open("res-moved/machine.json"))
m["host"] = "Linux elsewhere"
json.dump(m, open("res-moved/machine.json", "w"))
PY
OUT=$(lb explain py --results res-moved 2>&1); RC=$?
expect_err "its key covers the Python interpreter, not the host"
echo 'def total(n) return 0' > kernels/py/helper.py
build
expect_rc 1
expect_err "chapters/03-py.md:3: error: experiment 'py': kernels/py/py.py failed to compile"
expect_err "SyntaxError"
expect_html py.html "Sum 84."
