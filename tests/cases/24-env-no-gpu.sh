# Declared environment variables reach the program and are part of the
# cache key; a CUDA experiment without a GPU or nvcc is reported plainly.
kernel scaled <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"scale\":%s}\n", getenv("MY_SCALE"));
	return 0;
}
C
mkdir -p kernels/gpu && cat > kernels/gpu/gpu.cu <<'CU'
#include <cstdio>
__global__ void k() {}
int main() { k<<<1, 1>>>(); return cudaDeviceSynchronize() != cudaSuccess; }
CU
chapter 01-a.md <<'MD'
# A

Scale {{ scaled.scale }}.

```{experiment} scaled
source: kernels/scaled/scaled.c
env: MY_SCALE=3
```

```{experiment} gpu
source: kernels/gpu/gpu.cu
```
MD
build
expect_rc 0
expect_html a.html "Scale 3."
expect_html a.html "MY_SCALE=3 build/exp/scaled"
expect_html a.html "Not measured on this machine"
sed -i 's/MY_SCALE=3/MY_SCALE=5/' chapters/01-a.md
build
expect_rc 0
expect_html a.html "Scale 5."
NVCC=/nonexistent/nvcc build --compile-only
expect_rc 1
expect_err "experiment 'gpu': nvcc was not found"
