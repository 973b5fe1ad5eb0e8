# Whatever came from an experiment is escaped in the page and the SVG.
kernel evil <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"name\":\"<script>alert(1)</script>\",\"x\":1,\"y\":2}\n");
	fprintf(f, "{\"name\":\"<script>alert(1)</script>\",\"x\":2,\"y\":3}\n");
	fclose(f);
	printf("<script>alert('out')</script> & <b>bold</b>\n");
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

Name: {{ first(evil.name) }}.

```{experiment} evil
source: kernels/evil/evil.c
```

```{chart} c
data: evil
x: x
y: y
series: name
```

```{table}
data: evil
columns: name, x
```
MD
build
expect_rc 0
expect_no_html a.html "<script>alert"
expect_html a.html "&lt;script&gt;alert(&#39;out&#39;)&lt;/script&gt; &amp; &lt;b&gt;"
expect_html a.html "Name: &lt;script&gt;alert(1)&lt;/script&gt;."
grep -q "<script>" site/fig/c.svg && fail "the SVG holds a raw <script>"
grep -q "&lt;script" site/fig/c.svg || fail "the series name is not in the SVG, escaped"
true
