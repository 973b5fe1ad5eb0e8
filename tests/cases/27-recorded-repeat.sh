# The two recorded runs of the book on one H100 agree. Every experiment
# whose time is the GPU's own lands within 1%; the pinned copies, which the
# host's DMA and memory take part in, within 5%. streams is left out: each
# run sizes its kernel from that run's upload time, so on a host whose
# copies vary, two runs time kernels of different lengths (docs/04-experiments.md, Runs).
OUT=$(lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" --max-diff 5 2>&1)
expect_err "host-bound points not judged"
expect_no_err "differs in its parameters"
expect_no_err "(only in"
expect_no_err "built from other sources"
n=$(printf '%s\n' "$OUT" | grep -c ' points of at least ')
[ "$n" -ge 20 ] || fail "only $n experiments compared: $OUT"
bad=$(printf '%s\n' "$OUT" | awk '/ points of at least / {
	d = $NF; sub(/%$/, "", d); d += 0; if (d < 0) d = -d
	lim = $1 == "pinned" ? 5 : 1
	if ($1 != "streams" && d > lim) print $1, $NF }')
[ -z "$bad" ] || fail "two runs on one card differ: $bad"
