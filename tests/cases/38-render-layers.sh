# The files of runner/render/ call and include each other one way: no two of
# them in a cycle, measured from the objects this suite was built from
# (tools/check-calls) and from their includes (tools/check-layers). Each
# check is first shown to catch a cycle made past the headers.
obj=$(dirname "$LABBOOK")/obj

# Two files that call each other through functions declared by hand.
mkdir -p fake/render fake/base
printf 'void up(void);\nvoid down(void) { up(); }\n' > a.c
printf 'void down(void);\nvoid up(void) { down(); }\n' > b.c
cc -c -o fake/render/a.o a.c && cc -c -o fake/render/b.o b.c ||
	fail "cc could not build the fake objects"
printf 'void alone(void) {}\n' > c.c
cc -c -o fake/base/c.o c.c
OUT=$("$ROOT/tools/check-calls" --obj fake render); RC=$?
[ "$RC" = 1 ] || fail "check-calls missed a cycle (exit $RC): $OUT"
case "$OUT" in *"render/a -> render/b: up"*"render/b -> render/a: down"*) ;;
	*) fail "check-calls did not name the calls of the cycle: $OUT" ;; esac
OUT=$("$ROOT/tools/check-calls" --obj fake base); RC=$?
[ "$RC" = 0 ] || fail "a cycle outside base/ was reported for base/: $OUT"
OUT=$("$ROOT/tools/check-calls" --obj empty render 2>&1); RC=$?
[ "$RC" = 2 ] || fail "no objects, yet check-calls exit $RC: $OUT"

# A render file that includes a header of a file above it.
cp -r "$ROOT/runner" runner
echo '#include "render/blocks.h"' >> runner/render/box.c
OUT=$("$ROOT/tools/check-layers" runner | grep '^runner/render/')
# The cycle is told at one of its edges, whichever the search meets first.
printf '%s\n' "$OUT" | grep -q 'a cycle: .*render/box.*render/blocks\|a cycle: .*render/blocks.*render/box' ||
	fail "check-layers missed box.c including blocks.h: $OUT"

# The runner itself.
OUT=$("$ROOT/tools/check-calls" --src "$ROOT/runner" --obj "$obj" render); RC=$?
[ "$RC" = 0 ] || fail "render/ files call each other in a cycle: $OUT"
OUT=$("$ROOT/tools/check-layers" "$ROOT/runner" | grep '^runner/render/')
[ -z "$OUT" ] || fail "check-layers: $OUT"
