# labbook watch: an editor's burst of writes and renames makes one build; a
# wrong chapter is reported as file:line and the next save fixes it; a CUDA
# experiment that cannot run here is named as not run again.
records_kernel a
mkdir -p kernels/g
cat > kernels/g/g.cu <<'CU'
int main(void) { return 0; }
CU
chapter 01-one.md <<'MD'
# One

The first record's y is {{ first(a.y) }}.

```{experiment} a
source: kernels/a/a.c
args: 3
runs: 1
```

```{experiment} g
source: kernels/g/g.cu
```
MD
wait_line() {
	local n=$1 i=0
	while [ "$(grep -c '^watch: ' log)" -lt "$n" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	LINE=$(grep '^watch: ' log | sed -n "${n}p")
	[ -n "$LINE" ]
}
lb_bg watch --results res --site site --templates "$ROOT/templates" -j 2 > log 2>&1
pid=$BG
wait_line 2 || fail "watch did not start: $(cat log)"

# Five saves in a row, as an editor makes them: a swap file, a temporary
# copy renamed over the chapter. One process, so no gap between them.
python3 - <<'PY'
import os
text = open("chapters/01-one.md").read()
for i in range(1, 6):
    with open("chapters/.01-one.md.swp", "w") as f:
        f.write(text.replace("is {{", f"is, save {i}, {{{{"))
    os.link("chapters/.01-one.md.swp", "chapters/01-one.md.new")
    os.rename("chapters/01-one.md.new", "chapters/01-one.md")
    os.unlink("chapters/.01-one.md.swp")
PY
wait_line 3 || fail "no build after the saves: $(cat log)"
sleep 0.5
[ "$(grep -c '^watch: ' log)" = 3 ] || fail "a burst of saves made more than one build: $(cat log)"
expect_html one.html "save 5"

sed -i 's/first(a.y)/first(a.nope)/' chapters/01-one.md
wait_line 4 || fail "no build after the bad edit: $(cat log)"
grep -q "^chapters/01-one.md:3: error: .*nope" log || fail "no file:line error: $(cat log)"
case $LINE in *"errors above"*) ;; *) fail "watch said: $LINE" ;; esac
sed -i 's/first(a.nope)/first(a.y)/' chapters/01-one.md
wait_line 5 || fail "no build after the fix: $(cat log)"
case $LINE in *"errors above"*) fail "watch said: $LINE" ;; esac
expect_html one.html "y is, save 5, 1."

echo 'int main(void) { return 1; }' > kernels/g/g.cu
wait_line 6 || fail "no build after the CUDA source changed: $(cat log)"
case $LINE in *"kernels/g/g.cu changed; g not run again (this machine has no GPU or no nvcc"*) ;;
*) fail "watch said: $LINE" ;; esac

kill -TERM $pid
wait $pid
rc=$?
[ "$rc" = 143 ] || fail "watch exited $rc after SIGTERM, want 143"

# A wrong option ends watch at once, as it ends build.
OUT=$(lb watch --results res --site site --bogus 2>&1)
RC=$?
expect_rc 2
expect_err "unknown option '--bogus'"
