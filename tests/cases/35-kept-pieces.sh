# A page made again keeps the pieces (values, charts, tables, listings)
# whose inputs did not change, and the result is the page a fresh build
# makes, byte for byte: after a prose edit, new records, a drawing deleted,
# and a new template. A piece with a problem is never kept.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels chapters
cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
cp "$ROOT/tests/regress/directives/chapters/01-squares.md" chapters/
printf '\nThe largest is {{ max(sq.y) }}; {{check max(sq.y) > 1}}.\n' >> chapters/01-squares.md
cp -r "$ROOT/templates" tmpl
lbs() { OUT=$(lb build --no-run --results res --site "$1" --templates tmpl --quiet 2>&1); RC=$?; }
same_as_fresh() {
	rm -rf fresh
	lbs fresh
	for f in site/*.html site/fig/*.svg site/search-index.js; do
		cmp -s "$f" "fresh/${f#site/}" || fail "$1: $f differs from a fresh build's"
	done
}
lbs site
expect_rc 0
head -n 1 site/.labbook-cache | grep -qx 'labbook-store 1' || fail "no cache was kept"
grep -q 'The largest is' site/.labbook-cache || fail "the value was not kept as a piece"
printf '\nA new paragraph.\n' >> chapters/01-squares.md
lbs site
expect_rc 0
grep -q "A new paragraph" site/squares.html || fail "the edit is not on the page"
same_as_fresh "a prose edit"
printf '{"n":6,"y":36,"s":"even"}\n' >> res/sq.jsonl
lbs site
grep -q "The largest is 36" site/squares.html || fail "a kept value did not see new records"
same_as_fresh "new records"
rm site/fig/squares.svg
lbs site
[ -f site/fig/squares.svg ] || fail "a deleted drawing was not drawn again"
same_as_fresh "a deleted drawing"
printf '<!-- changed -->\n' >> tmpl/page.html
lbs site
same_as_fresh "a new template"
# A value with a problem: reported by every build, never kept.
printf '\nBroken: {{ max(sq.nope) }}.\n' >> chapters/01-squares.md
lbs site
expect_rc 1
expect_err "has no field 'nope'"
lbs site
expect_rc 1
expect_err "has no field 'nope'"
