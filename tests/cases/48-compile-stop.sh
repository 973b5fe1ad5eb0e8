# A compile that hangs is stopped at its timeout, and at once when labbook
# is asked to stop (SIGTERM), like a run.
records_kernel sq
cat > slowcc <<'SH'
#!/bin/sh
case "$1" in --version) echo "slowcc 1.0"; exit 0 ;; esac
exec sleep 60
SH
chmod +x slowcc
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
start=$(date +%s)
CC=$PWD/slowcc build --compile-timeout 1
expect_rc 1
expect_err "was still compiling at the limit of 1 s"
[ $(($(date +%s) - start)) -lt 20 ] || fail "the compile timeout was not kept"
expect_file res/sq.error.json

start=$(date +%s)
CC=$PWD/slowcc "$LABBOOK" build --results res --site site --templates "$ROOT/templates" --quiet > out 2>&1 &
pid=$!
sleep 1
kill -TERM $pid
wait $pid
RC=$?
expect_rc 143
[ $(($(date +%s) - start)) -lt 15 ] || fail "SIGTERM did not stop the compile"
pgrep -f "sleep 60" > /dev/null && pgrep -f "sleep 60" | while read -r p; do
	[ "$(readlink /proc/$p/cwd)" = "$PWD" ] && fail "the compiler was left running"
done
true
