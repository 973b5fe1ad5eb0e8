# A compile that hangs is stopped at its timeout, and at once when labbook
# is asked to stop (SIGTERM), like a run.
records_kernel sq
# A compiler that never ends; it holds a lock on alive while it lives, and
# says it runs where the test waits to hear it (started is a FIFO).
cat > slowcc <<SH
#!/bin/sh
case "\$1" in --version) echo "slowcc 1.0"; exit 0 ;; esac
exec 9< '$PWD/alive'
flock -s 9
[ -p '$PWD/started' ] && echo > '$PWD/started'
exec sleep 3600
SH
chmod +x slowcc
touch alive
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
# A limit not kept leaves the build to the safety net.
LB_LIMIT=$WAIT_LIMIT CC=$PWD/slowcc build --compile-timeout 1
expect_rc 1
expect_err "was still compiling at the limit of 1 s"
expect_file res/sq.error.json
timeout "$WAIT_LIMIT" flock alive true || fail "the compiler outlived its limit"

mkfifo started
CC=$PWD/slowcc lb_bg build --results res --site site --templates "$ROOT/templates" --quiet > out 2>&1
pid=$BG
timeout "$WAIT_LIMIT" cat started > /dev/null || fail "the compiler did not start"
kill -TERM $pid
finish $pid
OUT=$(cat out)
expect_rc 143
timeout "$WAIT_LIMIT" flock alive true || fail "the compiler was left running"
true
