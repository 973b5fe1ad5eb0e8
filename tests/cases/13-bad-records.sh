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

# A program that puts a folder where its records file goes: a clear
# error, and nothing of it left in the bundle's temporary folder.
kernel dirrec <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void)
{
	const char *p = getenv("LAB_RECORDS");
	char sub[4096];
	unlink(p);
	mkdir(p, 0755);
	snprintf(sub, sizeof sub, "%s/inner", p);
	mkdir(sub, 0755);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} dirrec
source: kernels/dirrec/dirrec.c
```
MD
build
expect_rc 1
expect_err "experiment 'dirrec' wrote records that were not kept: the records file is a folder, not a file"
[ -z "$(find res -path '*dirrec*tmp*')" ] || fail "left behind: $(find res -path '*dirrec*tmp*')"

# A program that puts a symbolic link where its records file goes: the
# file it points to is neither read nor shown on the page.
echo "a secret line" > secret.txt
kernel linkrec <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	const char *p = getenv("LAB_RECORDS");
	char target[4096];
	unlink(p);
	if (!getcwd(target, sizeof target - 16))
		return 1;
	snprintf(target + strlen(target), 16, "/secret.txt");
	return symlink(target, p) != 0;
}
C
sed -i 's/#include <unistd.h>/#include <string.h>\n#include <unistd.h>/' kernels/linkrec/linkrec.c
chapter 01-a.md <<'MD'
# A

```{experiment} linkrec
source: kernels/linkrec/linkrec.c
```
MD
build
expect_rc 1
expect_err "experiment 'linkrec' wrote records that were not kept: the records file is a symbolic link, not a file the program wrote"
grep -rq "a secret line" site res && fail "what the link points to was read and kept"
expect_file secret.txt
