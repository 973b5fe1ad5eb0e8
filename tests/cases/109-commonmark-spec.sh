# Every example of the CommonMark spec and of GFM's extensions, each a
# chapter of one book, against what Debian's cmark-gfm command gives for
# it: identical, or different only by the decorations the manual lists
# (docs/02-chapters.md, "What labbook adds to CommonMark"); and a fence is
# never closed only where cmark-gfm runs it to the end of the document.
# tests/spec-examples says how. The spec is Debian's, not ours: make spec
# fetches it into build/spec.
need cmark-gfm:cmark-gfm
spec=$ROOT/build/spec
[ -f "$spec/spec.txt" ] && [ -f "$spec/extensions.txt" ] ||
	skip "no CommonMark spec in build/spec (make spec fetches it)"
python3 "$ROOT/tests/spec-examples" write "$spec" chapters ||
	fail "cannot read the examples in $spec"
# Unclosed fences among the examples are errors: status 1.
build --no-run
case $RC in 0 | 1) ;; *) fail "labbook build exited $RC: $OUT" ;; esac
printf '%s\n' "$OUT" > diagnostics
out=$(python3 "$ROOT/tests/spec-examples" check "$spec" site diagnostics 2>&1) ||
	fail "$out"
