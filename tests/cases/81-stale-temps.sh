# Temporary files left by a killed build (file.tmp.PID, in the site and the
# bundle) are removed by the next build, and never published; a running
# labbook's are left alone.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
build
expect_rc 0
# A pid that is no process (above the kernel's largest), one reused by
# a program that is not labbook, and the test's own shell.
dead=$(( $(cat /proc/sys/kernel/pid_max) + 1 ))
tail -f /dev/null &
other=$!
mkdir -p site/fig res/.tmp
for f in "site/book.html.tmp.$dead" "site/fig/x.svg.tmp.$dead" \
	"res/sq.jsonl.tmp.$dead" "res/machine.json.tmp.$other" \
	"res/.tmp/sq.jsonl.tmp.$dead.3" "site/a.html.tmp.99999"; do
	echo half > "$f"
done
# Not temporary files: a name that only looks like one, and a symlink.
echo keep > site/notes.tmp.txt
echo keep > site/v1.tmp.2x
ln -s "$PWD/elsewhere.tmp.$dead" "site/link.tmp.$dead"
# A labbook running (watch, once it has begun watching: before that its
# pid may still be the shell that starts it) writes its temporary file
# meanwhile.
watch_start --results res --site site --templates "$ROOT/templates" --no-run
watch_line 2 || fail "watch did not start: $(cat log)"
watcher=$BG
echo half > "site/draft.html.tmp.$watcher"
timeout 20 flock .labbook.lock true || fail "watch holds the project lock between builds"
build --no-run
expect_rc 0
watch_stop TERM
kill "$other"
for f in "site/book.html.tmp.$dead" "site/fig/x.svg.tmp.$dead" \
	"res/sq.jsonl.tmp.$dead" "res/machine.json.tmp.$other" \
	"res/.tmp/sq.jsonl.tmp.$dead.3"; do
	expect_no_file "$f"
done
expect_no_file site/a.html.tmp.99999
expect_file site/notes.tmp.txt
expect_file site/v1.tmp.2x
[ -L "site/link.tmp.$dead" ] || fail "a symlink was removed"
expect_file "site/draft.html.tmp.$watcher"
true
