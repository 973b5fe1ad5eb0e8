# The two recorded runs of the book on H100s agree. They are two cards, not
# one: results/h100-repeat ran right after results/h100 on another machine,
# so what differs is card to card as well as run to run. Every experiment
# whose time is the GPU's own lands within 1%, save two: the machine
# chapter's L2 reads of a few MiB, where the two cards' caches differ by up
# to 3.3%, and the square GEMMs of 8192, whose tensor clocks differ by up to
# 1.9%; those two get 5% and 3%. Host-bound points (pageable copies, host
# launches) are listed apart, not judged.
OUT=$(lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" --max-diff 5 2>&1); RC=$?
expect_rc 0
expect_err "host-bound points not judged"
expect_no_err "differs in its parameters"
expect_no_err "(only in"
expect_no_err "built from other sources"
uuids() { grep -ho '"gpu_uuid":[^,]*' "$ROOT/results/$1"/*.meta.json | sort -u; }
[ "$(uuids h100 | wc -l)" = 1 ] && [ "$(uuids h100-repeat | wc -l)" = 1 ] ||
	fail "a bundle ran on more than one card"
[ "$(uuids h100)" != "$(uuids h100-repeat)" ] ||
	fail "h100 and h100-repeat name the same card"
n=$(printf '%s\n' "$OUT" | grep -c ' points of at least ')
[ "$n" -ge 20 ] || fail "only $n experiments compared: $OUT"
bad=$(printf '%s\n' "$OUT" | awk '/ points of at least / {
	d = $NF; sub(/%$/, "", d); d += 0; if (d < 0) d = -d
	lim = $1 == "machine" ? 5 : $1 == "gemm" ? 3 : 1
	if (d > lim) print $1, $NF }')
[ -z "$bad" ] || fail "two runs on two H100s differ: $bad"
