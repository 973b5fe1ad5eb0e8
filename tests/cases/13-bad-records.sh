# A records file with a malformed line, wrong types, or NaN fails the run.
kernel badline <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1}\n{\"n\":2}\n{\"n\": nan}\n");
	return 0;
}
C
kernel types <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":[1,2]}\n");
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} badline
source: kernels/badline/badline.c
```

```{experiment} types
source: kernels/types/types.c
```
MD
build
expect_rc 1
expect_err "experiment 'badline' wrote malformed records: badline.jsonl line 3: malformed JSON"
expect_err "experiment 'types' wrote malformed records: types.jsonl line 1: field 'n' is an array"
expect_html a.html "wrote malformed records"
