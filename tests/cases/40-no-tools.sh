# Rendering an up-to-date site from a bundle (--no-run) starts none of the
# GPU tools: stand-ins for nvcc, nvidia-smi, c++filt, cuobjdump, ncu and
# git that fail and leave a mark come first on PATH, and none is started.
# A SASS listing recorded with mangled names still shows its kernels.
mkdir -p kernels res
cp "$ROOT/kernels/lab.h" kernels/
cp -r "$ROOT/kernels/ilp" kernels/
for f in machine.json ilp.jsonl ilp.out ilp.meta.json ilp.sass ilp_ptxas.jsonl ilp_sass.jsonl; do
	cp "$ROOT/results/h100/$f" res/
done
chapter 01-ilp.md <<'MD'
# ILP

One SM reaches {{ max(ilp.gflops[view=sm]) %.0f }} GFLOP/s; the kernel uses
{{ max(ilp_ptxas.registers) }} registers at most.

```{experiment} ilp
source: kernels/ilp/ilp.cu
args: --ilp 1,2,4,8 --threads 32:1024:32
```

```{sass}
experiment: ilp
kernel: fma_chains<8>
mark: FFMA
```
MD
mkdir tools-bin
for t in nvcc nvidia-smi c++filt cuobjdump ncu git; do
	printf '#!/bin/sh\necho %s >> "%s/started"\nexit 1\n' "$t" "$PWD" > "tools-bin/$t"
	chmod +x "tools-bin/$t"
done
grep -q 'Function : _Z' res/ilp.sass || fail "the shipped listing has no mangled names"
for i in 1 2; do
	PATH="$PWD/tools-bin:$PATH" NVCC="$PWD/tools-bin/nvcc" CUDA_HOME="$PWD/tools-bin/.." build --no-run
	expect_rc 0
done
[ -e started ] && fail "a --no-run render started: $(sort -u started | tr '\n' ' ')"
expect_html ilp.html 'class="sass"'
expect_html ilp.html 'SASS of <code>fma_chains&lt;8&gt;</code>'
expect_no_html ilp.html 'has no kernel'


# A {sass} directive naming a kernel the listing lacks: reported once, at
# its line, on every build, the warm one too, and shown in an error box.
rm -rf chapters site
records_kernel sq
chapter 01-sq.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
```

```{sass}
experiment: sq
kernel: no_such
```
MD
build
printf '\tcode for sm_90\n\t\tFunction : square\n\t/*0000*/ MOV R1, c[0x0][0x28] ;\n' > res/sq.sass
for i in 1 2; do
	build --no-run
	expect_rc 1
	expect_err "chapters/01-sq.md:7: error: {sass}: experiment 'sq' has no kernel 'no_such' in its SASS; it has: square"
	[ "$(printf '%s\n' "$OUT" | grep -c 'has no kernel')" = 1 ] || fail "reported other than once: $OUT"
	expect_html sq.html 'This listing could not be shown:'
	expect_html sq.html "chapters/01-sq.md:7: experiment &#39;sq&#39; has no kernel"
done
