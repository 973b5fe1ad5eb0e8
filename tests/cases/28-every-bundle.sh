# The book renders from every bundle it ships, whatever card recorded it,
# with --strict: every inline value evaluates, every claim holds by more
# than its noise (a repeat bundle's difference included) and can fail, and
# no experiment was recorded from another version of its kernel. What a
# bundle recorded by another version of its kernel (here, the test's own
# copy of the streams source changed after the recording) is shown with a
# note that says so, never an error.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
n=0
for dir in "$ROOT"/results/*/; do
	name=$(basename "$dir")
	rm -rf res res-repeat site
	cp -r "$dir" res
	# A bundle recorded again on another card is its repeat: the claims'
	# margins are judged against that noise too.
	[ -d "${dir%/}-repeat" ] && cp -r "${dir%/}-repeat" res-repeat
	build --no-run --strict
	expect_rc 0
	[ -z "$OUT" ] || fail "$name: the book does not render quietly: $OUT"
	[ -f site/index.html ] && [ -f site/method.html ] ||
		fail "$name: pages are missing"
	grep -q 'class="inline-error"\|class="error-box"' site/*.html &&
		fail "$name: a page shows an error"
	grep -l 'class="note stale"' site/*.html &&
		fail "$name: an experiment was recorded from another version of its kernel"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n bundles found in results/"

rm -rf res site
cp -r "$ROOT/results/h200" res
printf '\n// The kernel changed after its results were recorded.\n' >> kernels/streams/streams.cu
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
cp "$ROOT/kernels/streams/streams.cu" kernels/streams/

# Two different cards: compare lists the differences and fails on the
# points slower beyond their noise.
OUT=$(lb compare "$ROOT/results/h200" "$ROOT/results/h100" 2>&1); RC=$?
expect_rc 1
expect_err "points compared, largest difference"
grep -Eq ', [1-9][0-9]* slower, [0-9]+ faster beyond noise' <<<"$OUT" || fail "no point differs between an H100 and an H200"

# Where several GPUs shared the experiments (results/h200x2, one worker on
# each of two H200s), each experiment names the one it ran on, by its
# place in machine.json's list and its UUID, and the machine page lists
# them all. The link chapter's p2p ran on both and records both.
rm -rf res site
cp -r "$ROOT/results/h200x2" res
build --no-run
expect_rc 0
python3 - <<'PY' || fail "an experiment of h200x2 does not name its GPU"
import glob, json, os, re
uuids = json.load(open("res/machine.json"))["gpu_uuids"]
assert len(uuids) == 2 and uuids[0] != uuids[1], uuids
used = set()
for path in sorted(glob.glob("res/*.meta.json")):
    m = json.load(open(path))
    if not m["source"].endswith(".cu"):
        continue  # a C program (atomics_model) runs on no GPU
    if "gpu_uuid" not in m:
        assert m["id"] == "p2p" and m["gpu_uuids"] == uuids, m["id"]
        continue
    u = m["gpu_uuid"]
    used.add(u)
    page = "site/" + re.sub(r"^[0-9]+-", "", os.path.basename(m["chapter"]))[:-3] + ".html"
    want = "(GPU %d of 2, <code>%s</code>)" % (uuids.index(u) + 1, u)
    assert want in open(page).read(), (m["id"], page, want)
assert used == set(uuids), used
PY
expect_html provenance.html "$(python3 -c 'import json; print(", ".join(json.load(open("res/machine.json"))["gpu_uuids"]))')"

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
# A C experiment added to the bundle from another host names that host.
ran_on=$(python3 -c 'import json; print(json.load(open("res/atomics_model.meta.json"))["host"])')
[ "$ran_on" != "$(python3 -c 'import json; print(json.load(open("res/machine.json"))["host"])')" ] ||
	fail "atomics_model ran on the GPU host: the next check says nothing"
expect_html atomics.html "recorded on another machine</span> <span class=\"state-machine\">(host $ran_on)</span>"
grep -q '>measured in this build<\|>measured in an earlier build here<' site/*.html &&
	fail "a recorded bundle is said to be measured here"
diff -r "$ROOT/results/h100" res > /dev/null || fail "rendering changed results/h100: $(diff -rq "$ROOT/results/h100" res)"
files() { (cd "$1" && find . -type f -exec stat -c '%n %y' {} + | LC_ALL=C sort); }
[ "$(files "$ROOT/results/h100")" = "$(files res)" ] ||
	fail "rendering touched results/h100: $(diff <(files "$ROOT/results/h100") <(files res))"

# The provenance page shows the card's settings as the probe recorded them,
# and the bandwidths and latency the machine experiment measured.
rm -rf res site
cp -r "$ROOT/results/h200" res
python3 - <<'PY'
import json
m = json.load(open("res/machine.json"))
m.update(persistence_mode=False, ecc=True, mig=False, power_limit_w=450)
m["measured"]["dram_latency_ns"] = 123.4
json.dump(m, open("res/machine.json", "w"))
PY
build --no-run
expect_rc 0
expect_html provenance.html 'Persistence mode</th><td class="num">off</td>'
expect_html provenance.html 'ECC</th><td class="num">on</td>'
expect_html provenance.html 'Power limit</th><td class="num">450 W</td>'
expect_html provenance.html 'DRAM load latency, idle (pointer chase)</th><td class="num">123 ns</td>'
