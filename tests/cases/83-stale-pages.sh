# A build removes what the last build made and this one does not: the page
# of a chapter renamed or deleted, and the drawings of a chart removed. A
# file of the user's in the site folder is never touched, and no path the
# cache names outside the site is.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels && cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
show: none
```

```{chart} squares
data: sq
x: n
y: y
```
MD
chapter 02-b.md <<'MD'
# B

Prose.
MD
lbs() { OUT=$(lb build --no-run --results res --site site --templates "$ROOT/templates" --quiet 2>&1); RC=$?; }
lbs
expect_rc 0
[ -f site/b.html ] && [ -f site/fig/squares.svg ] || fail "the pages were not written"
echo "mine" > site/CNAME
echo "mine" > site/notes.html
mv chapters/02-b.md chapters/02-c.md
lbs
expect_rc 0
[ -f site/c.html ] || fail "the renamed chapter has no page"
[ -e site/b.html ] && fail "the old page of a renamed chapter is still there"
grep -q 'href="b.html"' site/*.html && fail "a page still links the old name"
# The chart removed: its drawings, data and script go.
sed -i '/```{chart} squares/,/```$/d' chapters/01-a.md
lbs
expect_rc 0
ls site/fig/squares* >/dev/null 2>&1 && fail "a removed chart's files are still there: $(ls site/fig)"
[ -f site/CNAME ] && [ -f site/notes.html ] || fail "a file of the user's was removed"
[ -f site/a.html ] && [ -f site/index.html ] || fail "a page this build makes was removed"
# The experiment removed: its data copy goes, the bundle stays.
printf '# A\n\nNo experiment now.\n' > chapters/01-a.md
lbs
expect_rc 0
[ -e site/data/sq.jsonl ] && fail "a removed experiment's data copy is still there"
[ -f res/sq.jsonl ] || fail "the bundle lost a file"
