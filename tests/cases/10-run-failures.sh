# Crash by signal, non-zero exit, a CUDA-style error message.
kernel crash <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) { printf("about to crash\n"); fflush(stdout); abort(); }
C
kernel fails <<'C'
#include <stdio.h>
int main(void) { fprintf(stderr, "kernel.cu:12: CUDA error: an illegal memory access was encountered\n"); return 3; }
C
chapter 01-a.md <<'MD'
# A

```{experiment} crash
source: kernels/crash/crash.c
```

```{experiment} fails
source: kernels/fails/fails.c
```
MD
build
expect_rc 1
expect_err "chapters/01-a.md:3: error: experiment 'crash' killed by signal 6"
expect_err "chapters/01-a.md:7: error: experiment 'fails' exited with status 3"
expect_html a.html "about to crash"
expect_html a.html "an illegal memory access was encountered"
expect_html runs.html "failed"
