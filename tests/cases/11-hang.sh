# A hanging experiment and its children are killed at the timeout.
kernel hang <<'C'
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	if (fork() == 0) { for (;;) sleep(1); }
	printf("hanging\n");
	fflush(stdout);
	for (;;) sleep(1);
}
C
chapter 01-a.md <<'MD'
# A

```{experiment} hang
source: kernels/hang/hang.c
timeout: 1
```
MD
start=$(date +%s)
build
end=$(date +%s)
expect_rc 1
expect_err "experiment 'hang' killed at its timeout of 1 s"
expect_html a.html "hanging"
[ $((end - start)) -lt 20 ] || fail "the timeout took $((end - start)) s"
sleep 0.2
pgrep -f "$PWD/build/exp/hang" >/dev/null && fail "a child of the hanging experiment survived"
pkill -f "$PWD/build/exp/hang" 2>/dev/null
true
