# The two recorded runs of the book on H100s agree. They are two cards, not
# one: results/h100-repeat ran right after results/h100 on another machine,
# so what differs is card to card as well as run to run. Every point whose
# time is the GPU's own lands within 1%, save three experiments: the
# machine chapter's L2 reads of a few MiB, where two cards' caches differ
# by up to 3.3%, the square GEMMs, whose tensor clocks differ by up to 1.9%,
# and the pinned copies, which cross each host's own PCIe root: those get
# 5%, 3% and 2%. Not judged: host-bound points (pageable copies, host
# launches), points lab.h flagged as timed under a lowered clock, and
# points whose own runs lie more than 10% apart (compare calls them too
# noisy: the streams experiment's lone kernel on the first card, the
# fan-out of device launches, whose cost moves from one CUDA context to
# the next).
lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" --max-diff 5 --all >all.txt 2>&1
OUT=$(cat all.txt)
expect_err "host-bound points not judged"
expect_err "timed under a lowered clock not judged"
expect_no_err "differs in its parameters"
expect_no_err "(only in"
expect_no_err "built from other sources"
uuids() { grep -ho '"gpu_uuid":[^,]*' "$ROOT/results/$1"/*.meta.json | sort -u; }
[ "$(uuids h100 | wc -l)" = 1 ] && [ "$(uuids h100-repeat | wc -l)" = 1 ] ||
	fail "a bundle ran on more than one card"
[ "$(uuids h100)" != "$(uuids h100-repeat)" ] ||
	fail "h100 and h100-repeat name the same card"
lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" --json noise.json >/dev/null 2>&1
bad=$(python3 - noise.json all.txt <<'PY'
import json, re, sys
noisy = {(p["experiment"], p["point"]) for p in json.load(open(sys.argv[1]))["points"]
         if p["verdict"] == "too noisy"}
lim = {"machine": 5, "gemm": 3, "pinned": 2}
for line in open(sys.argv[2]).read().splitlines():
    m = re.match(r"^(\S+)\s+(.*?)\s+[0-9.]+\s+[0-9.]+\s+([-+][0-9.]+)%(  <-- over)?$", line)
    if not m:
        continue
    exp, point, d = m.group(1), m.group(2), abs(float(m.group(3)))
    if any(e == exp and point.startswith(p[:40]) for e, p in noisy):
        continue
    if d > lim.get(exp, 1):
        print(exp, point, m.group(3) + "%")
PY
)
[ -z "$bad" ] || fail "two runs on two H100s differ: $bad"
n=$(grep -c ' points of at least ' all.txt)
[ "$n" -ge 20 ] || fail "only $n experiments compared: $(cat all.txt)"
