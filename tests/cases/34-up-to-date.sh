# A render that would change nothing is not made: the second build checks
# its stamp and stops. Anything it read, or the site it wrote, changing
# makes it a real build again; so do other options. A build that reported
# an error leaves no stamp, so the error is reported again; one that only
# warned leaves one, and a build it spares says its warnings again.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels && cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
chapter 01-a.md <<'MD'
# A

Reads sq: {{ max(sq.y) }}, in prose.

```{experiment} sq
source: kernels/sq/sq.c
show: none
```
MD
cp -r "$ROOT/templates" tmpl
lbp() { OUT=$(lb build --no-run --results res --site site --templates tmpl --progress "$@" 2>&1); RC=$?; }
up_to_date() { lbp "$@"; expect_rc 0; expect_err "site is up to date"; }
rebuilt() { lbp "$@"; expect_rc 0; expect_no_err "up to date"; }
rebuilt
[ -f site/.labbook-stamp ] || fail "a clean build left no stamp"
up_to_date
up_to_date -j 1
# A stamp cut at a line end, or with one byte changed, is no stamp.
head -n 3 site/.labbook-stamp > stamp.cut && cp stamp.cut site/.labbook-stamp
rebuilt
sed -i '2s/ /  /' site/.labbook-stamp
rebuilt
up_to_date
# An edit of the same size: the times tell.
sed -i 's/in prose/in Prose/' chapters/01-a.md
rebuilt
grep -q "in Prose" site/a.html || fail "the edit is not on the page"
up_to_date
# Records, a template, a new chapter, the environment, other options.
printf '{"n":6,"y":36,"s":"even"}\n' >> res/sq.jsonl
rebuilt
grep -q "Reads sq: 36" site/a.html || fail "a.html does not read the new records"
printf '<!-- changed -->\n' >> tmpl/style.css
rebuilt
cmp -s tmpl/style.css site/style.css || fail "the new style sheet was not copied"
printf '# B\n\nNew.\n' > chapters/02-b.md
rebuilt
[ -f site/b.html ] || fail "a new chapter has no page"
LABBOOK_GNUPLOT=gnuplot rebuilt
rebuilt --title Other
# The site: a page deleted, a chart's data copy changed, a PDF put beside.
rm site/a.html
rebuilt
[ -f site/a.html ] || fail "a deleted page was not written again"
echo x >> site/data/sq.jsonl
rebuilt
cmp -s res/sq.jsonl site/data/sq.jsonl || fail "the data copy was not repaired"
touch site/book.pdf
rebuilt
grep -q 'href="book.pdf"' site/index.html || fail "the index does not link the PDF"
up_to_date
# A warning is said by every build, one it spares too.
printf '\nA claim: {{check max(sq.y) > 1000}}.\n' >> chapters/02-b.md
lbp
expect_rc 0
expect_err "claim does not hold"
[ -f site/.labbook-stamp ] || fail "a build that only warned left no stamp"
up_to_date
expect_err "warning: claim does not hold on res: max(sq.y) > 1000"
# An error leaves no stamp: every build reports it.
printf '\nA value: {{ max(sq.y }}.\n' >> chapters/02-b.md
lbp
expect_rc 1
[ -f site/.labbook-stamp ] && fail "a build with an error left a stamp"
lbp
expect_rc 1
expect_err "expected ')'"
# A tool that was missing and is installed since: where it was looked for
# is an input, so the charts are drawn.
rm -f chapters/02-b.md
cat >> chapters/01-a.md <<'MD'

```{chart} squares
data: sq
x: n
y: y
```
MD
mkdir -p bin
LABBOOK_GNUPLOT="$PWD/bin/gnuplot" rebuilt
grep -q "gnuplot is not installed" site/a.html || fail "a missing gnuplot is not said"
LABBOOK_GNUPLOT="$PWD/bin/gnuplot" up_to_date
ln -s "$(command -v gnuplot)" bin/gnuplot
LABBOOK_GNUPLOT="$PWD/bin/gnuplot" rebuilt
[ -f site/fig/squares.svg ] || fail "a gnuplot installed since did not draw the chart"
