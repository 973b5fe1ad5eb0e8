# A claim that a measured value stays under a peak on paper cannot fail:
# nothing runs faster than its card's peak. `X < machine.peak_fp32_gflops`
# (or `<=`, or at least the whole peak times a factor of 1 or more, or the
# theoretical DRAM bandwidth) is only a claim where the same claim also
# bounds X from below; a fraction of the peak (`X < 0.05 * machine.peak_…`)
# is a claim of its own. No chapter of the book makes a toothless one, and
# the rule finds one written into a chapter, at its line, with or without
# `requires sm_90:`.

# teeth DIR...: print FILE:LINE: CLAIM for each toothless claim in the
# chapters of each DIR; exit 1 if there is any.
teeth() {
	python3 - "$@" <<'PY'
import glob, re, sys

PEAK = re.compile(r"^(?:(\d+(?:\.\d*)?|\.\d+)\s*\*\s*)?machine\.(peak_\w+|bw_theoretical_gbps)"
                  r"(?:\s*\*\s*(\d+(?:\.\d*)?|\.\d+))?$")

def split(expr, ops):
    """Split expr at the operators ops outside brackets and quotes."""
    parts, depth, quote, last, i = [], 0, False, 0, 0
    while i < len(expr):
        c = expr[i]
        if c == '"':
            quote = not quote
        elif not quote and c in "([":
            depth += 1
        elif not quote and c in ")]":
            depth -= 1
        elif not quote and depth == 0:
            op = next((o for o in ops if expr.startswith(o, i)), None)
            if op:
                parts += [expr[last:i].strip(), op]
                i += len(op)
                last = i
                continue
        i += 1
    return parts + [expr[last:].strip()]

def unwrap(x):
    while x.startswith("(") and x.endswith(")") and len(split(x[1:-1], [")"])) == 1:
        x = x[1:-1].strip()
    return x

def peak(side):
    m = PEAK.match(unwrap(side))
    if not m:
        return False
    k = float(m.group(1) or 1) * float(m.group(3) or 1)
    return k >= 1

def toothless(claim):
    uppers, lowers = [], set()
    for conj in split(claim, ["&&"])[::2]:
        p = split(unwrap(conj), ["<=", ">=", "==", "!=", "<", ">"])
        if len(p) != 3:
            continue
        a, op, b = unwrap(p[0]), p[1], unwrap(p[2])
        if op in (">", ">="):
            a, b = b, a
        if op in ("<", "<=", ">", ">="):
            lowers.add(b)      # a < b: b is bounded from below
            if peak(b):
                uppers.append(a)
    return [a for a in uppers if a not in lowers]

bad = 0
for d in sys.argv[1:]:
    for path in sorted(glob.glob(d + "/*.md")):
        text = open(path).read()
        for m in re.finditer(r"\{\{check\s+(.*?)\}\}", text, re.S):
            claim = " ".join(m.group(1).split())
            claim = re.sub(r"^requires\s+[^:]+:\s*", "", claim)
            if toothless(claim):
                line = text.count("\n", 0, m.start()) + 1
                print(f"{path}:{line}: {claim[:120]}")
                bad = 1
sys.exit(bad)
PY
}

out=$(teeth "$ROOT/chapters" "$ROOT/docs" 2>&1) ||
	fail "a claim puts a measured value under a peak it cannot pass: $out"

# Hostile chapters: under the peak, under a multiple of it, the peak on the
# left, the theoretical bandwidth, requires: — each is found at its line.
mkdir chapters
cat > chapters/01-bad.md <<'MD'
# Bad

Under the peak {{check max(ilp.gflops[view=sm]) < machine.peak_fp32_gflops_sm}}.

Under a multiple of it {{check max(x.gflops) <= 1.05 * machine.peak_fp32_gflops}}.

The peak on the left {{check machine.peak_sfu_gops > mathfn.gops[name="__sinf small"]}}.

Under paper bandwidth {{check max(machine.bw_copy_gbps) < (machine.bw_theoretical_gbps)}}.

A Hopper claim {{check requires sm_90: first(gemm.gflops[step=wgmma]) < machine.peak_bf16_gflops}}.
MD
out=$(teeth chapters 2>&1) && fail "no toothless claim found in: $(cat chapters/01-bad.md)"
for line in 3 5 7 9 11; do
	printf '%s\n' "$out" | grep -q "^chapters/01-bad.md:$line: " ||
		fail "the toothless claim at line $line is not named: $out"
done
[ "$(printf '%s\n' "$out" | wc -l)" = 5 ] || fail "more than the five claims named: $out"

# Claims with teeth: a band under the peak, a fraction of it, a floor, and
# a comparison that merely mentions a peak inside a larger expression.
cat > chapters/01-bad.md <<'MD'
# Good

A band {{check x.gops > 0.85 * machine.peak_sfu_gops && x.gops <= machine.peak_sfu_gops}}.

A band, the other way round {{check machine.peak_sfu_gops >= x.gops && 0.85 * machine.peak_sfu_gops < x.gops}}.

A fraction {{check max(reduce.gbps[n=16384]) < 0.05 * machine.bw_theoretical_gbps}}.

A floor {{check max(ilp.gflops[view=sm]) >= 0.95 * machine.peak_fp32_gflops_sm}}.

A model {{check abs(x.gflops / machine.peak_fp32_gflops - 0.5) < 0.03}}.
MD
out=$(teeth chapters 2>&1) || fail "a claim with teeth is called toothless: $out"
