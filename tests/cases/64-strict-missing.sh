# --strict fails a build whose bundle lacks an experiment the book uses,
# naming the experiment and its chapter line, whether the build runs
# nothing (--no-run) or cannot run it (a .cu file without a GPU); without
# --strict its page says "not measured on this machine" and the build passes.
records_kernel sq
records_kernel cube
mkdir -p kernels/gpu
echo 'int main(void) { return 0; }' > kernels/gpu/gpu.cu
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
runs: 1
```

The largest is {{ max(sq.y) }}.
MD
chapter 02-cubes.md <<'MD'
# Cubes

Some prose first.

```{experiment} cube
source: kernels/cube/cube.c
runs: 1
```

Cubes: {{ max(cube.y) }} {{check max(cube.y) > 12}}.
MD
build --no-site
expect_rc 0
rm -f res/cube.*
line=$(grep -n '{experiment} cube' chapters/02-cubes.md | cut -d: -f1)

# Without --strict, a page that says so; the build passes (twice, the
# second from the site's stamp).
build --no-run
expect_rc 0
expect_html cubes.html "not measured on this machine"
build --no-run
expect_rc 0
build --no-run --strict
expect_rc 1
expect_err "chapters/02-cubes.md:$line: error: experiment 'cube' has no results in res"
expect_no_err "experiment 'sq'"
build --no-run --strict
expect_rc 1
expect_err "experiment 'cube' has no results"
build --no-run --strict --no-site
expect_rc 1
expect_err "experiment 'cube' has no results"

# Measured again, the strict build passes.
build --strict
expect_rc 0
build --no-run --strict
expect_rc 0

# A CUDA experiment this machine cannot build or run.
cat >> chapters/02-cubes.md <<'MD'

```{experiment} gpu
source: kernels/gpu/gpu.cu
```
MD
line=$(grep -n '{experiment} gpu' chapters/02-cubes.md | cut -d: -f1)
build --strict
expect_rc 1
expect_err "chapters/02-cubes.md:$line: error: experiment 'gpu' has no results in res"
build
expect_rc 0
