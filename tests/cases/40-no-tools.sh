# Rendering an up-to-date site from a bundle (--no-run) starts none of the
# GPU tools: stand-ins for nvcc, nvidia-smi, c++filt, cuobjdump, ncu and
# git that fail and leave a mark come first on PATH, and none is started.
# SASS listings recorded with mangled names still show their kernels.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
cp -r "$ROOT/results/h100" res
mkdir tools-bin
for t in nvcc nvidia-smi c++filt cuobjdump ncu git; do
	printf '#!/bin/sh\necho %s >> "%s/started"\nexit 1\n' "$t" "$PWD" > "tools-bin/$t"
	chmod +x "tools-bin/$t"
done
PATH="$PWD/tools-bin:$PATH" NVCC="$PWD/tools-bin/nvcc" CUDA_HOME="$PWD/tools-bin/.." build --no-run
expect_rc 0
PATH="$PWD/tools-bin:$PATH" NVCC="$PWD/tools-bin/nvcc" CUDA_HOME="$PWD/tools-bin/.." build --no-run
expect_rc 0
[ -e started ] && fail "a --no-run render started: $(sort -u started | tr '\n' ' ')"
# The ilp chapter shows SASS of a kernel whose recorded name is mangled.
grep -q 'Function : _Z' res/ilp.sass || fail "the shipped listing has no mangled names"
expect_html ilp.html 'class="sass"'
expect_no_html ilp.html 'has no kernel'
