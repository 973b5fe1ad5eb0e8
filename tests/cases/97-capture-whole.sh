# capture: never loses a line in silence. The whole output is read, not
# only the part of it the bundle keeps; a pattern that reaches PCRE2's
# match limit is an error naming the output's line; a sweep set whose
# output matches nothing is a warning naming the set; an empty match
# moves on past a character of several bytes; a record never has a field
# twice. The rest of the book builds beside the faulty experiments.
mkdir -p kernels/big kernels/heavy kernels/sets kernels/utf
cat > kernels/big/big.c <<'C'
#include <stdio.h>
int main(void)
{
	for (int i = 0; i < 200000; i++)
		printf("val %d and some words to fill the line\n", i);
	return 0;
}
C
# Twenty lines the pattern matches at once, and one in the middle that
# makes it backtrack without end.
cat > kernels/heavy/heavy.c <<'C'
#include <stdio.h>
int main(void)
{
	for (int i = 0; i < 20; i++)
		printf("val %d %s\n", i, i == 7 ? "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaad" : "ab");
	return 0;
}
C
cat > kernels/sets/sets.c <<'C'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	const char *n = argc > 1 ? strchr(argv[1], '=') + 1 : "0";
	if (!strcmp(n, "2"))
		printf("no time for size %s\n", n);
	else
		printf("size %s: time %s.5 ms\n", n, n);
	return 0;
}
C
cat > kernels/utf/utf.c <<'C'
#include <stdio.h>
int main(void) { printf("1é2é3é\n"); return 0; }
C
chapter 01-a.md <<'MD'
# A

```{experiment} big
source: kernels/big/big.c
runs: 1
capture: val (?<v>\d+) and
```

```{experiment} sets
source: kernels/sets/sets.c
sweep: -n=1,2,3
capture: time (?<t>[0-9.]+)
```

```{experiment} utf
source: kernels/utf/utf.c
runs: 1
capture: (?<d>\d*)(?=é)
```

{{ count(big.v) }} lines, the last {{ max(big.v) }}; {{ count(sets.t) }} times.
MD
build
expect_rc 1
expect_html a.html "200000 lines, the last 199999; <span class=\"not-measured\""
# What the bundle keeps of the output is cut, and says so; what was read
# was not.
grep -q '"output_cut":[[:space:]]*true' res/big.meta.json || fail "big's kept output is not marked as cut"
[ "$(grep -c . res/big.jsonl)" = 200000 ] || fail "big has $(grep -c . res/big.jsonl) records, want 200000"
tail -n 1 res/big.jsonl | grep -qx '{"v":199999}' || fail "big's last record: $(tail -n 1 res/big.jsonl)"
line() { grep -Hn -- "$1" chapters/*.md | head -1 | cut -d: -f2; }
# A set that gives a capture no records fails the experiment, at the
# capture's line, naming the set and the end of its output.
expect_err "chapters/01-a.md:$(line 'time (?<t>'): error: experiment 'sets' capture: matched nothing in the output of the sweep set '-n=2', which would have no records of it; that output ends 'no time for size 2' (run 1 of 3)"
expect_no_err "set '-n=1'"
# The empty match before "é" moves on by the whole character.
for d in 1 2 3; do grep -q "\"d\":$d}" res/utf.jsonl || fail "utf lacks the record of $d: $(cat res/utf.jsonl)"; done

cp -r res res.good
cat > chapters/02-bad.md <<'MD'
# Bad

```{experiment} heavy
source: kernels/heavy/heavy.c
runs: 1
capture: ^val (?<v>\d+) (?:(?:a|a)*b|a*c)$
```

```{experiment} twice
source: kernels/heavy/heavy.c
capture: (?J)val (?<v>\d+) (?<v>a)
```

```{experiment} unit
source: kernels/heavy/heavy.c
capture: val (?<t>\d+)(?#ms) (?<t_unit>\w+)
```
MD
build
expect_rc 1
expect_err "chapters/02-bad.md:$(line '(?:a|a)'): error: experiment 'heavy' could not match its capture: of line $(line '(?:a|a)') against line 8 of its output (match limit exceeded"
expect_err "'val 7 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaad'"
expect_err "atomic group"
expect_no_file res/heavy.jsonl
expect_err "chapters/02-bad.md:$(line '(?J)'): error: experiment 'twice': capture: two groups are named 'v'"
expect_err "chapters/02-bad.md:$(line 't_unit'): error: experiment 'unit': capture: the group 't_unit' is also the field that names the unit of 't'"
# The rest of the book is built, and its results kept.
expect_html a.html "200000 lines"
expect_file site/bad.html
expect_same res/big.jsonl res.good/big.jsonl
