# Output and records are bytes: a NUL, ESC, BEL or invalid UTF-8 loses
# nothing after it, and is shown as a visible character.
kernel bytes <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	static const char out[] = "before\0after \x1b[31mred\x07 bad\xff end\n";
	static const char rec[] = "{\"n\":1,\"s\":\"a\0b\"}\n";
	fwrite(out, 1, sizeof out - 1, stdout);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fwrite(rec, 1, sizeof rec - 1, f);
	fputs("{\"n\":2,\"s\":\"esc\\u001b bel\\u0007\"}\n", f);
	fputs("{\"n\":3,\"s\":\"x\xfey\"}\n", f);
	fclose(f);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

There are {{ count(bytes.n) }} records.

```{experiment} bytes
source: kernels/bytes/bytes.c
```
MD
build
expect_rc 0
expect_html a.html "There are 3 records."
expect_html a.html "before␀after ␛[31mred␇ bad"
expect_html a.html " end"
grep -q 'a␀b' res/bytes.jsonl || fail "the NUL in a record string was not kept visibly"
grep -q 'esc␛ bel␇' res/bytes.jsonl || fail "escaped control characters were not made visible"
grep -q "x$(printf '\xef\xbf\xbd')y" res/bytes.jsonl || fail "invalid UTF-8 was not replaced"
LC_ALL=C grep -q "$(printf '[\001-\010\033\177]')" res/bytes.out && fail "control characters left in the output"
[ "$(lb eval --results res 'first(bytes.s)')" = "a␀b" ] || fail "eval does not see the kept string"

# A NUL outside a string makes its line malformed: a located error, and
# the records after it are not silently dropped.
kernel nul <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	static const char rec[] = "{\"n\":1}\n{\"n\":2}\0\n{\"n\":3}\n";
	fwrite(rec, 1, sizeof rec - 1, f);
	fclose(f);
	return 0;
}
C
chapter 02-b.md <<'MD'
# B

```{experiment} nul
source: kernels/nul/nul.c
```
MD
build
expect_rc 1
expect_err "line 2: malformed JSON"

# A chapter's own control characters are shown as their pictures: an STX
# or ETX in the prose never passes for the parser's own tokens (a value, a
# section, a directive or a table's box), whatever index follows it.
printf '# B\n\nA \002T0\003 b \002V0\003 c \002S0\003 d \002D0\003 e\033.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nTwo is {{ 1 + 1 }}.\n' > chapters/02-b.md
build --no-run
expect_rc 0
expect_html b.html '<p>A ␂T0␃ b ␂V0␃ c ␂S0␃ d ␂D0␃ e␛.</p>'
expect_html b.html 'Two is 2.'
[ "$(grep -c 'class="table-wrap"' site/b.html)" = 1 ] || fail "b.html: a table box that is not a table"

# A NUL written as JSON's escape (\u0000) is shown as ␀ too, not the end
# of its string; an escaped backslash before "u0000" is only text.
kernel esc <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"s\":\"before\\u0000after\",\"t\":\"a\\\\u0000b\"}\n");
	fclose(f);
	return 0;
}
C
chapter 02-b.md <<'MD'
# B

```{experiment} esc
source: kernels/esc/esc.c
```
MD
build
expect_rc 0
[ "$(lb eval --results res 'first(esc.s)')" = "before␀after" ] ||
	fail "an escaped NUL cut its string: $(lb eval --results res 'first(esc.s)')"
[ "$(lb eval --results res 'first(esc.t)')" = 'a\u0000b' ] ||
	fail "an escaped backslash was read as a NUL"

# A field named twice in one record: which value the record means is a
# guess, so the line is malformed, at its line.
kernel twice <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"y\":5}\n{\"n\":2,\"y\":5,\"y\":6}\n");
	fclose(f);
	return 0;
}
C
chapter 02-b.md <<'MD'
# B

```{experiment} twice
source: kernels/twice/twice.c
```
MD
build
expect_rc 1
expect_err "line 2: field 'y' appears twice"

# A program that ends its lines with CRLF: its output reads as lines on
# the page, with no mark where each CR was.
kernel crlf <<'C'
#include <stdio.h>
int main(void)
{
	printf("hello\r\nworld\r\n");
	return 0;
}
C
chapter 02-b.md <<'MD'
# B

```{experiment} crlf
source: kernels/crlf/crlf.c
```
MD
build
expect_rc 0
python3 -c "import sys; sys.exit('hello\nworld' not in open('site/b.html').read())" ||
	fail "CRLF output does not read as lines"
grep -q "hello$(printf '\xef\xbf\xbd')" site/b.html && fail "the CR of a CRLF is shown as U+FFFD"
