# sweep: lines parse strictly, and sources are compared once canonical: a
# quote left open is an error at its line, not a word that runs; every bad
# line is reported, not only the first; a sweep
# of more sets than allowed says how many it has and the true limit; one
# file listed twice by two spellings is compiled once, with a warning
# naming both, instead of reaching the linker twice.
mkdir -p kernels/m
cat > kernels/m/m.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("arg %s\n", argv[i]);
	printf("done %d\n", argc);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} twice
source: ./kernels/m/m.c kernels/m/m.c
capture: done (?<argc>\d+)
```

```{experiment} quoted
source: kernels/m/m.c
sweep: --q 'a b','c d'
capture: arg (?<a>.+)
```

{{ twice.argc }} and {{ count(quoted.a) }}.
MD
line() { grep -Hn -- "$1" chapters/*.md | head -1 | cut -d: -f2; }
build
expect_rc 0
expect_err "chapters/01-a.md:$(line 'source: ./kernels'): warning: experiment 'twice': source 'kernels/m/m.c' is listed twice ('./kernels/m/m.c' and 'kernels/m/m.c'); it is compiled once"
expect_html a.html "1 and 4."
# Quotes that close make one word of a value.
grep -q '"a":"a b"' res/quoted.jsonl || fail "the quoted value was split: $(cat res/quoted.jsonl)"

cp -r res res.good
cat > chapters/02-bad.md <<'MD'
# Bad

```{experiment} unclosed
source: kernels/m/m.c
sweep: --q 'unclosed
```

```{experiment} many
source: kernels/m/m.c
sweep: --w
sweep: -x=1,,2
sweep: -y 1,2 with
sweep: -z=1,2 with -v=1,2,3
sweep: -u=4,5
```

```{experiment} huge
source: kernels/m/m.c
sweep: -a=0,1,2,3,4,5,6,7,8,9 -b=0,1,2,3,4,5,6,7,8,9 -c=0,1,2,3,4,5,6,7,8,9
sweep: -d=0,1,2,3,4,5,6,7,8,9 -e=0,1,2,3,4,5,6,7,8,9 -f=0,1,2,3,4,5,6,7,8,9
```
MD
build
expect_rc 1
expect_err "chapters/02-bad.md:$(line "'unclosed"): error: experiment 'unclosed': sweep: the quote ' at column 5 is not closed"
expect_err "chapters/02-bad.md:$(line '^sweep: -d='): error: experiment 'huge': sweep: 1000000 sets; a sweep runs at most 10000"
# Each bad line of one experiment is reported, not only the first; the
# good line after them is not.
expect_err "chapters/02-bad.md:$(line '^sweep: --w'): error: experiment 'many': sweep: --w has no values"
expect_err "chapters/02-bad.md:$(line '^sweep: -x='): error: experiment 'many': sweep: '1,,2' has an empty value"
expect_err "chapters/02-bad.md:$(line '^sweep: -y'): error: experiment 'many': sweep: 'with' ends the line"
expect_err "chapters/02-bad.md:$(line '^sweep: -z'): error: experiment 'many': sweep: -z has 2 values and -v 3"
expect_no_err "chapters/02-bad.md:$(line '^sweep: -u'):"
expect_no_file res/unclosed.jsonl
expect_no_file res/many.jsonl
expect_no_file res/huge.jsonl
# The rest of the book is built, and its results kept.
expect_html a.html "1 and 4."
expect_same res/twice.jsonl res.good/twice.jsonl

# A comma inside quotes is part of a value, as a space is: three sets.
mkdir -p kernels/echo
cat > kernels/echo/echo.c <<'C'
#include <stdio.h>
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("arg [%s]\n", argv[i]);
	return 0;
}
C
cat > chapters/03-commas.md <<'MD'
# Quoted

```{experiment} commas
source: kernels/echo/echo.c
sweep: --name 'c,d','e f',"g,h"
capture: arg \[(?<a>[^\]]+)\]
runs: 1
```
MD
rm chapters/02-bad.md
build
expect_rc 0
python3 - <<'PY' || fail "the quoted values were split: $(cat res/commas.jsonl)"
import json
names = [json.loads(l)["name"] for l in open("res/commas.jsonl")]
assert sorted(set(names)) == ["c,d", "e f", "g,h"], names
PY
# A value given twice (1<<10 is 1024) would run one set twice: an error at
# its line.
cat > chapters/04-twice.md <<'MD'
# Twice

```{experiment} dup
source: kernels/echo/echo.c
sweep: --n 1024,2048,1<<10
```
MD
build
expect_rc 1
expect_err "chapters/04-twice.md:5: error: experiment 'dup': sweep: '1024,2048,1<<10' gives the value 1024 twice"
rm chapters/04-twice.md
# compare of a bundle with itself says so.
OUT=$(lb compare res ./res/ 2>&1); RC=$?
expect_err "A and B are one folder"
