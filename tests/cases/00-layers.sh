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
seq 601 | sed 's/.*/\/\/ x/' > r/book/long.c
seq 600 | sed 's/.*/\/\/ x/' > r/book/full.c
# render prints what the judge found: it parses no expression, reads no
# bundle and sees nothing of the measuring stage.
printf '#include "book/expr.h"\n' >> r/render/values.c
printf '#include "bundle/results.h"\n' >> r/render/table.c
printf '#include "measure/build.h"\n' >> r/render/page.c
printf '#include "measure/build.h"\n' >> r/judge/facts.c
OUT=$(python3 "$ROOT/tools/check-layers" r 2>&1); RC=$?
expect_rc 1
expect_err "runner/bundle/merge.c:$(wc -l < r/bundle/merge.c): bundle includes render/site.h: render is not below bundle"
expect_err "a cycle: base/a -> base/buf -> base/a"
expect_err "include \"util.h\" names no stage"
expect_err "runner/misc: not a stage"
expect_err "runner/book/long.c: 601 lines, more than 600"
expect_no_err "runner/book/full.c"
expect_err "runner/render/values.c:$(wc -l < r/render/values.c): render includes book/expr.h: render never includes book/expr.h"
expect_err "runner/render/table.c:$(wc -l < r/render/table.c): render includes bundle/results.h: render never includes bundle"
expect_err "runner/render/page.c:$(wc -l < r/render/page.c): render includes measure/build.h: render never includes measure"
expect_err "runner/judge/facts.c:$(wc -l < r/judge/facts.c): judge includes measure/build.h: measure is not below judge"
# What the files call, read from the objects this suite was built from
# (tools/check-calls): no cycle and no call up, in any stage; and a call up
# planted past the headers is named.
OUT=$("$ROOT/tools/check-calls" --src "$ROOT/runner" --obj "$(dirname "$LABBOOK")/obj"); RC=$?
expect_rc 0
[ -z "$OUT" ] || fail "check-calls reports: $OUT"
mkdir -p fake/base fake/cli
printf 'void top(void);\nvoid low(void) { top(); }\n' > low.c
printf 'void top(void) {}\n' > top.c
cc -c -o fake/base/low.o low.c && cc -c -o fake/cli/top.o top.c ||
	fail "cc could not build the fake objects"
OUT=$("$ROOT/tools/check-calls" --obj fake); RC=$?
expect_rc 1
expect_err "a call up: base/low -> cli/top: top"
# render reports nothing: a call to base/diag.h's functions from a file of
# render/, planted past the headers, is named (the real objects were
# checked above, with the rest).
mkdir -p fake2/base fake2/render
printf 'void diag_at(const char *f, int l, const char *m, ...) {}\n' > diag.c
printf 'void diag_at(const char *f, int l, const char *m, ...);\nvoid fig(void) { diag_at("c.md", 3, "x"); }\n' > fig.c
cc -c -o fake2/base/diag.o diag.c && cc -c -o fake2/render/figure.o fig.c ||
	fail "cc could not build the fake objects"
OUT=$("$ROOT/tools/check-calls" --obj fake2); RC=$?
expect_rc 1
expect_err "a report from render: render/figure: diag_at"
