# In every chart of the book, as rendered from the shipped bundles of the
# H200 and the H100, no two series (limit lines included) share colour,
# dash and marker, every limit line is labelled at its right end, and no
# drawing or plot keeps gnuplot's own title ("Gnuplot", "gnuplot_plot_N");
# each chart has its narrow drawing.
cp -r "$ROOT/chapters" "$ROOT/kernels" .
for bundle in h200 h100; do
	rm -rf res site
	cp -r "$ROOT/results/$bundle" res
	# (Whether every page of the book renders cleanly is 28-every-bundle's.)
	build --no-run
	n=$(ls site/fig/*.svg 2>/dev/null | grep -vc -- '-narrow\.svg$')
	[ "$n" -ge 10 ] || fail "$bundle: only $n charts drawn"
	for f in site/fig/*.svg; do
		case $f in *-narrow.svg) continue ;; esac
		expect_file "${f%.svg}-narrow.svg"
	done
	"$ROOT/tests/svgcheck" site/fig/*.svg >check.out 2>&1 || fail "$bundle: $(cat check.out)"
	# The reduction chart greys all but five of its variants: each grey
	# has a dash and a marker of its own.
	python3 - site/fig/reduce-bandwidth.svg <<'PY' || fail "$bundle: greys alike"
import re, sys
svg = open(sys.argv[1]).read()
seen = set()
for body in re.split(r'<g id="series_\d+" >', svg)[1:]:
    body = body.split('<g id="')[0]
    colour = re.search(r"stroke='(rgb\([^)]*\))'", body).group(1)
    if colour not in ('rgb(154, 154, 154)', 'rgb(196, 196, 196)'):
        continue
    dash = re.search(r"stroke-dasharray='([^']+)'", body)
    mark = re.search(r"#(gpPt\d+)", body).group(1)
    key = (dash.group(1) if dash else 'solid', mark)
    if key in seen:
        sys.exit(f"two greys share dash and marker {key}")
    seen.add(key)
if len(seen) < 5:
    sys.exit(f"only {len(seen)} greys found")
PY
done
