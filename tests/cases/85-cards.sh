# The book on cards it was not written on. The H200's bundle is rendered
# with its machine.json rewritten to describe a T4 (cc 7.5), an RTX 3060
# (8.6), an RTX 4090 (8.9), a B200 (10.0) and an RTX 5090 (12.0): the
# facts table gives each its published figures, every value still
# evaluates, what needs compute capability 9.0 (clusters, TMA) says so
# instead of running or failing, a chart's ceiling the card has no unit
# for is left off, and no chapter types a Hopper constant.
# Prints, per card, the claims it would check and those it skips.
cp -r "$ROOT/chapters" "$ROOT/kernels" .

# card NAME CC SMS MHZ L2_MIB BLOCKS THREADS SMEM_KIB: res/ is the H200's
# bundle with machine.json describing that card as its runtime would.
card() {
	rm -rf res site
	cp -r "$ROOT/results/h200" res
	python3 - "$@" <<'PY'
import json, sys
name, cc, sms, mhz, l2, blocks, threads, smem = sys.argv[1:9]
m = json.load(open("res/machine.json"))
m.update(gpu=name, cc=cc, arch="sm_" + cc.replace(".", ""), sm_count=int(sms),
         sm_clock_mhz=int(mhz), l2_bytes=int(float(l2) * 1048576),
         max_blocks_per_sm=int(blocks), max_threads_per_sm=int(threads),
         smem_per_sm_bytes=int(smem) * 1024)
# What the H200's own experiments reported of its limits is not this card's.
for k in ("max_blocks_per_sm", "max_threads_per_sm", "smem_per_sm_kib",
          "fp64_lanes_per_sm", "sfu_lanes_per_sm", "peak_fp64_gflops",
          "peak_sfu_gops", "fp32_lanes_per_sm"):
    m["measured"].pop(k, None)
m.pop("fp32_lanes_per_sm", None)
json.dump(m, open("res/machine.json", "w"), indent=1)
PY
}

# fact EXPR WANT: machine EXPR of res is WANT within 0.5%.
fact() {
	local got
	got=$(lb eval --results res "$1" 2>&1) || { fail "$card_name: $1: $got"; return; }
	python3 -c 'import sys; g, w = float(sys.argv[1]), float(sys.argv[2])
sys.exit(0 if abs(g - w) <= 0.005 * abs(w) else 1)' "$got" "$2" ||
		fail "$card_name: $1 is $got, published $2"
}

# counts: claims checked (holds or fails) and skipped, from the pages.
counts() {
	python3 - <<'PY'
import glob, re
held = skipped = 0
for f in glob.glob("site/*.html"):
    if f.endswith(("book.html", "print.html")):
        continue
    t = open(f).read()
    held += len(re.findall(r'class="check (?:holds|fails)"', t))
    skipped += len(re.findall(r'class="check not-applicable"', t))
print(held, skipped)
PY
}

base=""
for spec in \
	"T4|7.5|40|1590|4|16|1024|64|int32_lanes_per_sm=64 fp64_lanes_per_sm=2 max_warps_per_sm=32 peak_fp16_gflops=65126" \
	"RTX 3060|8.6|28|1777|3|16|1536|100|int32_lanes_per_sm=64 fp64_lanes_per_sm=2 max_blocks_per_sm=16 peak_bf16_gflops=25477 peak_tf32_gflops=12738" \
	"RTX 4090|8.9|128|2520|72|24|1536|100|int32_lanes_per_sm=64 max_blocks_per_sm=24 peak_bf16_gflops=165151 peak_fp8_gflops=330301" \
	"B200|10.0|148|1860|126|32|2048|228|int32_lanes_per_sm=128 fp64_lanes_per_sm=64 peak_bf16_gflops=2254275" \
	"RTX 5090|12.0|170|2407|96|24|1536|100|int32_lanes_per_sm=128 fp64_lanes_per_sm=2 max_blocks_per_sm=24 peak_bf16_gflops=209506" \
	"NVIDIA H200|9.0|132|1980|60|32|2048|228|int32_lanes_per_sm=64 peak_bf16_gflops=1070531"; do
	IFS='|' read -r card_name cc sms mhz l2 blocks threads smem facts <<EOF2
$spec
EOF2
	card "$card_name" "$cc" "$sms" "$mhz" "$l2" "$blocks" "$threads" "$smem"
	for f in $facts; do
		fact "machine.${f%%=*}" "${f#*=}"
	done
	build --no-run
	expect_rc 0
	# The records are the H200's under another card's facts: a claim may
	# not hold, or hold by less than its noise, and the judge may say so.
	rest=$(printf '%s\n' "$OUT" | grep -v ': warning: claim does not hold on res: ' |
		grep -v ': warning: claim is fragile on res: ' |
		grep -v ': warning: claim cannot fail: ')
	[ -z "$rest" ] || fail "$card_name: the book does not render quietly: $rest"
	grep -q 'class="inline-error"\|class="error-box"' site/*.html &&
		fail "$card_name: a page shows an error: $(grep -lo 'class="inline-error"\|class="error-box"' site/*.html | tr '\n' ' ')"
	read -r held skipped <<EOF2
$(counts)
EOF2
	echo "  cc $cc $card_name: $held claims checked, $skipped not applicable"
	case $cc in
	7.5|8.6|8.9)
		[ "$skipped" -gt 0 ] || fail "$card_name: no claim is skipped"
		expect_html hopper.html 'needs compute capability 9.0'
		grep -q 'class="check \(holds\|fails\)"' site/hopper.html &&
			fail "$card_name: a claim on clusters is checked"
		;;
	9.0)
		[ "$skipped" = 0 ] || fail "$card_name: $skipped claims skipped" ;;
	*)
		# Clusters and TMA are there; Hopper's wgmma (sm_90a) is not.
		[ "$skipped" -gt 0 ] || fail "$card_name: the wgmma claims are checked"
		expect_no_html hopper.html 'needs compute capability'
		expect_html tensor.html 'needs compute capability 9.0 (sm_90a; no later card)' ;;
	esac
	# A chart's ceiling the card has no unit for is left off the chart,
	# and the note under it says so; the others stay.
	grep -q 'FP32 peak' site/fig/gemm-ladder.gp || fail "$card_name: the FP32 roof is gone"
	if [ "$cc" = 7.5 ]; then
		grep -q 'dense BF16 tensor peak' site/fig/gemm-ladder.gp &&
			fail "$card_name: a T4 draws a BF16 tensor roof"
		expect_html tensor.html 'dense BF16 tensor peak is not drawn: compute capability 7.5 has no unit'
	else
		grep -q 'dense BF16 tensor peak' site/fig/gemm-ladder.gp ||
			fail "$card_name: the BF16 tensor roof is not drawn"
		expect_no_html tensor.html 'is not drawn'
	fi
	[ "$cc" = 9.0 ] && base=$held
	# A strict build does not count what this card cannot run.
	if [ "$cc" = 8.6 ]; then
		build --no-run --strict
		printf '%s\n' "$OUT" | grep -q "experiment '\(cluster\|tma\)'" &&
			fail "--strict counts the cluster experiment on a 3060: $OUT"
	fi
done
[ -n "$base" ] || fail "the H200 itself was not rendered"

# A T4 has no BF16 tensor cores: a value that reads them says what it
# needs, and is no error of the chapter.
card T4 7.5 40 1590 4 16 1024 64
out=$(lb eval --results res 'machine.peak_bf16_gflops' 2>&1) &&
	fail "a T4's BF16 peak has a value: $out"
printf '%s' "$out" | grep -q 'compute capability 7.5' ||
	fail "the T4's missing BF16 unit is not named: $out"

# No chapter types a Hopper figure into its prose or its claims: the
# lanes, SMs, clock, L2 and per-SM limits of an H100 or H200 are read
# from machine.json or the facts table.
python3 - "$ROOT"/chapters/*.md <<'PY' || fail "a chapter types a Hopper constant"
import re, sys
bad = [r"\b64 integer lanes", r"\b64 / 6\b", r"\b24 (?:one-warp|warps)\b",
       r"\b25th\b", r"\b132 SMs\b", r"\b1980 MHz\b", r"\b(?:50|60) MiB\b",
       r"\b228 KiB\b", r"thirty times", r"\b16 MiB buffer\b",
       r"bytes=16777216\]", r"fits in L2\b.*\b16 MiB"]
found = 0
for path in sys.argv[1:]:
    if path.endswith("12-hopper.md"):
        continue  # a chapter about Hopper, whose experiments require it
    for n, line in enumerate(open(path), 1):
        for b in bad:
            if re.search(b, line):
                print(f"{path}:{n}: {line.strip()[:100]}")
                found = 1
sys.exit(found)
PY

# requires: on an experiment. A card below it (here a machine with no GPU,
# so no compute capability) neither runs it nor fails; its claims and
# values say what it needs, and --strict does not count them.
rm -rf chapters kernels res site
kernel fast <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"n\":1,\"gbps\":10}\n");
	return 0;
}
C
chapter 01-new.md <<'MD'
# New cards

```{experiment} fast
source: kernels/fast/fast.c
requires: sm_90
```

It moves {{ fast.gbps %.0f }} GB/s {{check fast.gbps > 1}}, and
{{check requires cc >= 10.0: 1 > 2}} only the newest cards are asked.
Only Hopper is asked {{check requires sm_90: 2 > 1}}, though the same
claim for every card {{check 2 > 1}} is checked. A value for the newest cards
{{requires cc >= 10.0: 1 / 0 %.1f}}, and a claim written the other way round
{{requires cc >= 10.0: check 1 > 2}}. Hopper's own instructions, which no later card
has: {{requires sm_90a: 7 %.0f}}.
MD
build
expect_rc 0
# Of the claims, only the one for every card is judged, and it reads no
# measurement: it cannot fail, which the judge says (and --strict would
# make an error); the others are not for this card, and say nothing.
expect_err "chapters/01-new.md:11: warning: claim cannot fail"
[ "$(printf '%s\n' "$OUT" | grep -c 'cannot fail')" = 1 ] ||
	fail "a claim for another card was judged: $OUT"
[ "$(printf '%s\n' "$OUT" | grep -c 'error')" = 0 ] ||
	fail "a claim for another card is an error: $OUT"
expect_no_file res/fast.jsonl
expect_html new.html 'This experiment needs compute capability 9.0'
expect_html new.html '>needs compute capability 10.0<'
[ "$(grep -o 'class="check holds"' site/new.html | wc -l)" = 1 ] ||
	fail "the claim for every card is not the one checked"
[ "$(grep -o 'class="check not-applicable"' site/new.html | wc -l)" = 4 ] ||
	fail "the four claims that need a newer card are not all skipped"
expect_html new.html '<span class="not-applicable" title="1 / 0">needs compute capability 10.0</span>'
expect_html new.html '<span class="not-applicable" title="7">needs compute capability 9.0 (sm_90a; no later card)</span>'
# explain says it will not run here, and nothing else: it never ran.
OUT=$(lb explain fast --results res 2>&1); RC=$?
expect_rc 0
expect_err "fast (chapters/01-new.md:3) will not run here: it needs compute capability 9.0."
[ "$(printf '%s\n' "$OUT" | wc -l)" = 1 ] || fail "explain says more: $OUT"

# A requirement that names no compute capability is an error at its line.
cat > chapters/01-new.md <<'MD'
# New cards

```{experiment} fast
source: kernels/fast/fast.c
requires: hopper
```

A claim {{check requires sm_9x: 2 > 1}}.
MD
build
expect_rc 1
expect_err "chapters/01-new.md:5:"
expect_err "requires"
expect_err "chapters/01-new.md:8:"
expect_err "names no compute capability"
