# The tensor-core chapter against a recording of its GEMM experiment on an
# H100 (tests/fixtures/gemm-h100, run by labbook from the current
# kernels/gemm/gemm.cu): every value computes and every claim holds, with
# --strict. Then a hostile bundle: a step whose result was wrong, a
# hand-written kernel that falls under 80% of cuBLAS, and a roof the data
# cross each make the claim that says otherwise fail, at its line.
mkdir chapters
cp "$ROOT/chapters/14-tensor.md" chapters/
cp -r "$ROOT/kernels" .
cp -r "$ROOT/tests/fixtures/gemm-h100" res
# The dense BF16 peak of the card (4096 FLOP per clock per SM on
# compute capability 9.0), where the recording's machine.json lacks it.
python3 - <<'PY'
import json
m = json.load(open("res/machine.json"))
m.setdefault("peak_bf16_gflops", 4096 * m["sm_count"] * m["sm_clock_mhz"] / 1000)
json.dump(m, open("res/machine.json", "w"))
PY
cp -r res good

build --no-run --strict
expect_rc 0
expect_no_err "not measured"
expect_html tensor.html 'claims this chapter makes hold on the card'
grep -q 'class="inline-error"\|class="error-box"\|not measured on this machine' site/tensor.html &&
	fail "tensor.html shows an error or a value not measured"
expect_file site/fig/gemm-ladder.svg
# The ratio the chapter is about, computed from the records.
ratio=$(python3 - <<'PY'
import json
r = [json.loads(l) for l in open("res/gemm.jsonl")]
sq = [x for x in r if x["shape"] == "square" and x["n"] == 4096]
best = max(x["gflops"] for x in sq if x["step"] != "cublas")
blas = [x["gflops"] for x in sq if x["step"] == "cublas"][0]
print("%.1f%%" % (100 * best / blas))
PY
)
expect_html tensor.html "$ratio"

# edit PYTHON: change the records of res/gemm.jsonl (a list r), from good.
edit() {
	rm -rf res site
	cp -r good res
	python3 - "$1" <<'PY'
import json, sys
r = [json.loads(l) for l in open("res/gemm.jsonl")]
exec(sys.argv[1])
open("res/gemm.jsonl", "w").write("".join(json.dumps(x) + "\n" for x in r))
PY
}
line() { grep -n -- "$1" chapters/14-tensor.md | head -1 | cut -d: -f1; }

# A wrong result somewhere.
edit 'r[5]["correct"] = False'
build --no-run --strict
expect_rc 1
expect_err "14-tensor.md:$(line 'check count(gemm.n\[correct=true\])'):"

# The best hand-written kernel at 4096³ at 70% of cuBLAS.
edit '
for x in r:
    if x["n"] == 4096 and x["step"] != "cublas":
        blas = [y for y in r if y["n"] == 4096 and y["step"] == "cublas"][0]
        x["gflops"] = min(x["gflops"], 0.7 * blas["gflops"])'
build --no-run --strict
expect_rc 1
expect_err "14-tensor.md:$(line 'check requires sm_90a: max(gemm.gflops\[step!=cublas, n=4096'):"
build --no-run
expect_rc 0
expect_err "warning: claim does not hold"

# FP32 FMAs at a rate their FMA pipe's busy share does not allow (here
# above the FP32 peak, and then at two thirds of what the share says):
# the claim that the rate is that share fails.
for rate in 70000.0 25000.0; do
	edit "
for x in r:
    if x['step'] == 'regs' and x['n'] == 2048 and x['shape'] == 'square':
        x['gflops'] = $rate"
	build --no-run --strict
	expect_rc 1
	expect_err "14-tensor.md:$(line 'check abs(first(gemm.gflops\[step=regs, n=2048'):"
done
