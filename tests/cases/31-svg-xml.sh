# Series names, labels and limits with "]]>", "<" and "&" leave every SVG
# well-formed XML, and the page's alt text escaped.
cp -r "$ROOT/tests/regress/chart-xml/." .
build --no-run
expect_rc 0
n=0
for f in site/fig/*.svg; do
	n=$((n + 1))
	if command -v xmllint > /dev/null; then
		xmllint --noout "$f" 2> /dev/null || fail "$f is not well-formed XML"
	elif command -v python3 > /dev/null; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$f" 2> /dev/null ||
			fail "$f is not well-formed XML"
	else
		skip "no xmllint and no python3 to read the SVGs" python3
	fi
done
[ "$n" = 4 ] || fail "want 2 charts of two drawings each, found $n SVG files"
grep -q 'alt="[^"]*a\]\]&gt;b' site/x.html || fail "the alt text lacks the escaped series name"
