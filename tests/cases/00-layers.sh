# runner/'s stages depend one way (tools/check-layers): the tree as it is
# passes, and each kind of breach, planted in a copy, is named at its line.
OUT=$(python3 "$ROOT/tools/check-layers" "$ROOT/runner" 2>&1); RC=$?
expect_rc 0
[ -z "$OUT" ] || fail "check-layers reports: $OUT"
cp -r "$ROOT/runner" r
printf '#include "render/site.h"\n' >> r/bundle/merge.c
printf '#include "base/buf.h"\n' > r/base/a.h
printf '#include "base/a.h"\n' >> r/base/buf.h
printf '#include "util.h"\n' >> r/base/exec.c
mkdir r/misc
seq 700 | sed 's/.*/\/\/ x/' > r/book/long.c
OUT=$(python3 "$ROOT/tools/check-layers" r 2>&1); RC=$?
expect_rc 1
expect_err "runner/bundle/merge.c:$(wc -l < r/bundle/merge.c): bundle includes render/site.h: render is not below bundle"
expect_err "a cycle: base/a -> base/buf -> base/a"
expect_err "include \"util.h\" names no stage"
expect_err "runner/misc: not a stage"
expect_err "runner/book/long.c: 700 lines"
