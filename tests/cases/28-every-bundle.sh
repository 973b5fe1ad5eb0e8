# The book renders from every bundle it ships, whatever card recorded it:
# every inline value evaluates; a claim that fails on another card is shown
# failing, and warned about on stderr, not an error; what a bundle recorded
# by another version of its kernel (h200-repeat predates the streams
# trace's correction) is shown with a note that says so, never an
# error.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
n=0
for dir in "$ROOT"/results/*/; do
	name=$(basename "$dir")
	rm -rf res site
	cp -r "$dir" res
	build --no-run
	expect_rc 0
	rest=$(printf '%s\n' "$OUT" | grep -v ': warning: claim does not hold on res: ')
	[ -z "$rest" ] || fail "$name: the book does not render quietly: $rest"
	[ -f site/index.html ] && [ -f site/method.html ] ||
		fail "$name: pages are missing"
	grep -q 'class="inline-error"\|class="error-box"' site/*.html &&
		fail "$name: a page shows an error"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n bundles found in results/"

rm -rf res site
cp -r "$ROOT/results/h200-repeat" res
build --no-run
expect_rc 0
expect_html streams.html 'class="note stale"'
expect_html streams.html 'its source, arguments or flags changed since these results were recorded'
grep -q 'class="note stale"' site/ilp.html && fail "ilp.html: its results are current"
# A typo is still an error where the data are current.
sed -i 's/{{ ilp.cycles\[view=latency\] %.2f }}/{{ ilp.cylces[view=latency] %.2f }}/' chapters/02-ilp.md
build --no-run
expect_rc 1
expect_err "02-ilp.md:"
expect_err "cylces"
cp "$ROOT/chapters/02-ilp.md" chapters/

# Two different cards: compare lists the differences and fails on the
# points slower beyond their noise.
OUT=$(lb compare "$ROOT/results/h200" "$ROOT/results/h100x2" 2>&1); RC=$?
expect_rc 1
expect_err "points compared, largest difference"
grep -Eq ', [1-9][0-9]* slower, [0-9]+ faster beyond noise' <<<"$OUT" || fail "no point differs between an H100 and an H200"

# Where several GPUs shared the experiments, each experiment names the one
# it ran on, and the machine page lists them all.
rm -rf res site
cp -r "$ROOT/results/h100x2" res
python3 - <<'PY'
import json
m = json.load(open("res/machine.json"))
m["gpu_count"] = 2
m["gpu_uuids"] = ["GPU-aaaa", "GPU-bbbb"]
json.dump(m, open("res/machine.json", "w"))
meta = json.load(open("res/ilp.meta.json"))
meta["gpu_uuid"] = "GPU-bbbb"
json.dump(meta, open("res/ilp.meta.json", "w"))
PY
build --no-run
expect_rc 0
expect_html ilp.html "on NVIDIA H100 80GB HBM3 (GPU 2 of 2, <code>GPU-bbbb</code>)"
expect_html provenance.html "GPU-aaaa, GPU-bbbb"

# Rendered with --no-run, a recorded bundle is a record of another
# machine, named as its machine.json names it, on each experiment's box
# and on the provenance page; and the rendering leaves every file of the
# bundle as it was, bytes and times.
rm -rf res site
cp -rp "$ROOT/results/h100" res
build --no-run
expect_rc 0
h100='<span class="state elsewhere">recorded on another machine</span> <span class="state-machine">(NVIDIA H100 80GB HBM3, host Linux '
expect_html ilp.html "$h100"
expect_html provenance.html "<a href=\"ilp.html#exp-ilp\">ilp</a></td><td>ILP vs TLP: two ways to hide latency</td><td>$h100"
grep -q '>measured in this build<\|>measured in an earlier build here<' site/*.html &&
	fail "a recorded bundle is said to be measured here"
diff -r "$ROOT/results/h100" res > /dev/null || fail "rendering changed results/h100: $(diff -rq "$ROOT/results/h100" res)"
files() { (cd "$1" && find . -type f -exec stat -c '%n %y' {} + | LC_ALL=C sort); }
[ "$(files "$ROOT/results/h100")" = "$(files res)" ] ||
	fail "rendering touched results/h100: $(diff <(files "$ROOT/results/h100") <(files res))"
