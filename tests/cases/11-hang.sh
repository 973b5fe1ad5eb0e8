# A hanging experiment and its children are killed at the timeout.
kernel hang <<'C'
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>
int main(void)
{
	/* Locked while it or its child lives. */
	flock(open("alive", O_RDONLY), LOCK_SH);
	if (fork() == 0) { for (;;) pause(); }
	printf("hanging\n");
	fflush(stdout);
	for (;;) pause();
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} hang
source: kernels/hang/hang.c
timeout: 1
```
MD
touch alive
# It never ends: a timeout not kept leaves the build to the safety net.
LB_LIMIT=$WAIT_LIMIT build
expect_rc 1
expect_err "experiment 'hang' killed at its timeout of 1 s"
expect_html a.html "hanging"
# The child was sent SIGKILL; the lock is free once it is gone.
timeout "$WAIT_LIMIT" flock alive true || fail "a child of the hanging experiment survived"
true
