# One symlink rule for chapters, sources, headers, -I folders and templates: a file
# that resolves inside the project is followed, and known by its own name;
# one that resolves outside is refused, naming the file, with the same
# error on every build. The project is proj/; what lies beside it is
# outside.
mkdir -p outside proj
echo '# Out' > outside/03-out.md
printf '#include <stdio.h>\nint main(void) { return 0; }\n' > outside/s.c
echo '#define SCALE 9' > outside/o.h
echo 'body { color: red }' > outside/print.css
cd proj || exit 1
mkdir -p drafts kernels/common kernels/real kernels/l kernels/h kernels/s templates
echo '#define SCALE 2' > kernels/common/c.h
printf '# B\n\nA chapter kept in drafts/.\n' > drafts/b.md
ln -s ../drafts/b.md chapters-b.md
records_kernel real
ln -s ../real/real.c kernels/l/l.c
ln -s ../common/c.h kernels/h/h.h
cat > kernels/h/h.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include "h.h"
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"v\":%d}\n", SCALE);
	return 0;
}
C
cp "$ROOT"/templates/* templates/
mkdir -p assets && mv templates/style.css assets/style.css
ln -s ../assets/style.css templates/style.css
chapter 01-a.md <<'MD'
# A

```{experiment} l
source: kernels/l/l.c
```

```{experiment} h
source: kernels/h/h.c
```
MD
mv chapters-b.md chapters/02-b.md
build_of() { sed -n 's/.*"build":[[:space:]]*"\([^"]*\)".*/\1/p' "res/$1.meta.json"; }

# Inside: followed, known by the name it was given.
build --templates templates --progress
expect_rc 0
expect_err "(2 ran, 0 failed)"
expect_html b.html "A chapter kept in drafts/."
expect_same site/style.css assets/style.css
grep -qF '"source":	"kernels/l/l.c"' res/l.meta.json || fail "l's meta does not name kernels/l/l.c: $(grep '"source"' res/l.meta.json)"
grep -qF '"kernels/h/h.h"' res/h.meta.json || fail "h's meta does not name its header kernels/h/h.h"
build --templates templates --progress
expect_rc 0
expect_err "(0 ran, 0 failed)"
expect_no_html a.html "changed since"
# An edit to what a symlinked header points to runs what includes it.
ran_h=$(build_of h) ran_l=$(build_of l)
echo '#define SCALE 3' > kernels/common/c.h
build --templates templates --progress
expect_err "(1 ran, 0 failed)"
[ "$(build_of h)" != "$ran_h" ] || fail "h did not run again after the file its header points to changed"
[ "$(build_of l)" = "$ran_l" ] || fail "l ran again"
[ "$(lb eval --results res 'h.v')" = 3 ] || fail "h's record is stale"

# Outside: refused, naming the file, on every build with the same words.
out=$(cd .. && pwd)/outside
ln -s ../../outside/03-out.md chapters/03-out.md
ln -s ../../../outside/s.c kernels/s/s.c
ln -sfn ../../../outside/o.h kernels/h/h.h
ln -sfn ../../outside/print.css templates/print.css
cat >> chapters/01-a.md <<'MD'

```{experiment} s
source: kernels/s/s.c
```

```{experiment} i
source: kernels/real/real.c
flags: -I../outside -I/usr/include
```
MD
msgs() { printf '%s\n' "$OUT" | grep 'outside the project' | sort; }
for mode in "" --no-run ""; do
	build --templates templates $mode
	expect_rc 1
	expect_err "chapters/03-out.md: error: is outside the project (it resolves to $out/03-out.md)"
	expect_err "chapters/01-a.md:12: error: experiment 's': source 'kernels/s/s.c' is outside the project (it resolves to $out/s.c)"
	expect_err "chapters/01-a.md:7: error: experiment 'h': header 'kernels/h/h.h' is outside the project (it resolves to $out/o.h)"
	expect_err "templates/print.css: error: is outside the project (it resolves to $out/print.css)"
	expect_err "chapters/01-a.md:17: error: experiment 'i': include folder '../outside' is outside the project"
	expect_no_err "'/usr/include'"
	[ "$(msgs | wc -l)" = 5 ] || fail "not five errors, each once ($mode): $OUT"
	[ -z "${first:-}" ] && first=$(msgs)
	[ "$(msgs)" = "$first" ] || fail "the errors differ from the first build's ($mode): $(msgs)"
	expect_no_file site/out.html
	grep -q 'color: red' site/print.css 2>/dev/null && fail "a template outside the project was published"
	[ "$(lb eval --results res 'h.v')" = 3 ] || fail "h's good results were not kept"
	expect_no_file res/s.meta.json
done
