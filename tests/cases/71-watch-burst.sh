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
watch_start --results res --site site --templates "$ROOT/templates" -j 2
watch_line 2 || fail "watch did not start: $(cat log)"

# Five saves in a row, as an editor makes them: a swap file, a temporary
# copy renamed over the chapter. Watch is stopped meanwhile (a SIGSTOP is
# taken before the process runs on), so the whole burst waits for it, queued
# in the kernel, however slowly the saves come: a burst is what watch finds
# waiting, not what comes within some milliseconds.
kill -STOP "$BG"
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
kill -CONT "$BG"
watch_line 3 || fail "no build after the saves: $(cat log)"
case $LINE in "watch: chapters/01-one.md changed; rewrote "*) ;; *) fail "the burst made: $LINE" ;; esac
expect_html one.html "save 5"

# The next build is the next edit's, and names that file alone: a second
# build of the burst would come first, or share its line.
echo 'int main(void) { return 1; }' > kernels/g/g.cu
watch_line 4 || fail "no build after the CUDA source changed: $(cat log)"
case $LINE in "watch: kernels/g/g.cu changed; g not run again (this machine has no GPU or no nvcc"*) ;;
*) fail "a burst of saves made more than one build, or the CUDA edit made: $LINE" ;; esac

sed -i 's/first(a.y)/first(a.nope)/' chapters/01-one.md
watch_line 5 || fail "no build after the bad edit: $(cat log)"
grep -q "^chapters/01-one.md:3: error: .*nope" log || fail "no file:line error: $(cat log)"
case $LINE in "watch: chapters/01-one.md changed; "*"errors above"*) ;; *) fail "watch said: $LINE" ;; esac
sed -i 's/first(a.nope)/first(a.y)/' chapters/01-one.md
watch_line 6 || fail "no build after the fix: $(cat log)"
case $LINE in *"errors above"*) fail "watch said: $LINE" ;; esac
expect_html one.html "y is, save 5, 1."

watch_stop TERM
rc=$RC
[ "$rc" = 143 ] || fail "watch exited $rc after SIGTERM, want 143"

# A wrong option ends watch at once, as it ends build.
OUT=$(lb watch --results res --site site --bogus 2>&1)
RC=$?
expect_rc 2
expect_err "unknown option '--bogus'"
