# A swept argument a program ignores: its sets print the same, numbers
# with a fraction (times) aside, and the build says so at the sweep's line.
# A program that prints a value made from the swept one (bytes for a size
# multiplier), not the value itself, is not warned of.
mkdir -p kernels/pos kernels/derived
cat > kernels/pos/pos.c <<'C'
#include <stdio.h>
#include <stdlib.h>
/* Reads its size from a position: "-n=1048576" reads as 0. */
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	printf("sum of %ld ints, %.6f sec\n", n, 0.000123 + (double)(argc % 2) * 1e-6);
	return 0;
}
C
cat > kernels/derived/derived.c <<'C'
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
/* Prints the bytes a size multiplier makes, never the multiplier. */
int main(int argc, char **argv)
{
	long m = 1;
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-sizemult=", 10))
			m = atol(argv[i] + 10);
	printf("%ld bytes, %.3f ms\n", m * 1048576, 0.5 * (double)m);
	return 0;
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} pos
source: kernels/pos/pos.c
sweep: -n=1048576,4194304
capture: sum of (?<count>\d+) ints, (?<sec>[0-9.]+)(?#s) sec
```

```{experiment} derived
source: kernels/derived/derived.c
sweep: -sizemult=1,2,4
capture: (?<bytes>\d+) bytes, (?<ms>[0-9.]+)(?#ms) ms
```
MD
build
expect_rc 0
expect_err "chapters/01-a.md:5: warning: experiment 'pos': the sets '-n=1048576' and '-n=4194304' printed the same output"
expect_no_err "experiment 'derived'"
expect_no_err "appears nowhere"

# A program that prints nothing and writes its records itself says nothing
# in its output of what it was given: no warning.
mkdir -p kernels/quiet
cat > kernels/quiet/quiet.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	long n = argc > 1 && !strncmp(argv[1], "-n=", 3) ? atol(argv[1] + 3) : 0;
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"got\":%ld}\n", n);
	fclose(f);
	return 0;
}
C
cat >> chapters/01-a.md <<'MD'

```{experiment} quiet
source: kernels/quiet/quiet.c
sweep: -n=1,2
```
MD
build
expect_rc 0
expect_no_err "experiment 'quiet'"
