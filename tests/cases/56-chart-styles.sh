# In every chart of the book, as rendered from the shipped bundle, no two
# series (limit lines included) share both colour and dash, and every limit
# line is labelled at its right end; each chart has its narrow drawing.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
cp -r "$ROOT/results/h100" res
# (Whether every page of the book renders cleanly is 28-every-bundle's.)
build --no-run
n=$(ls site/fig/*.svg 2>/dev/null | grep -vc -- '-narrow\.svg$')
[ "$n" -ge 10 ] || fail "only $n charts drawn"
for f in site/fig/*.svg; do
	case $f in *-narrow.svg) continue ;; esac
	expect_file "${f%.svg}-narrow.svg"
done
"$ROOT/tests/svgcheck" site/fig/*.svg >check.out 2>&1 || fail "$(cat check.out)"
