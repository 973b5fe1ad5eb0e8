# A page is made again only when one of its inputs changed: its chapter,
# the records its values read, or the template. Nothing else is rewritten.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels && cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
chapter 01-a.md <<'MD'
# A

Reads sq: {{ max(sq.y) }}.

```{experiment} sq
source: kernels/sq/sq.c
show: none
```
MD
chapter 02-b.md <<'MD'
# B

Reads nothing but prose.
MD
cp -r "$ROOT/templates" tmpl
lbq() { OUT=$(lb build --no-run --results res --site site --templates tmpl --quiet 2>&1); RC=$?; }
# The pages rewritten by the last lbq: every write is a new file renamed
# into place, so a rewrite has a new inode (and a page's own times are the
# user's: labbook reads a changed one as a page edited by hand).
inodes() { for f in site/*.html; do echo "$f $(stat -c %i "$f")"; done; }
lbq_noting() { inodes > before; lbq; inodes > after; }
newer() { diff before after | sed -n 's|^> site/\([^ ]*\) .*|\1|p' | sort | tr '\n' ' '; }
lbq
expect_rc 0
[ -f site/a.html ] && [ -f site/b.html ] || fail "the pages were not written"
lbq_noting
[ -z "$(newer)" ] || fail "a rebuild with nothing changed rewrote: $(newer)"
printf '\nOne more sentence.\n' >> chapters/02-b.md
lbq_noting
case " $(newer)" in *" a.html "*) fail "an edit of b rewrote a.html" ;; esac
case " $(newer)" in *" b.html "*) ;; *) fail "an edit of b left b.html: $(newer)" ;; esac
grep -q "One more sentence" site/b.html || fail "b.html lacks the edit"
# The records a value reads: a.html shows the new maximum, b.html is kept.
printf '{"n":6,"y":36,"s":"even"}\n' >> res/sq.jsonl
lbq_noting
case " $(newer)" in *" b.html "*) fail "new records of sq rewrote b.html" ;; esac
grep -q "Reads sq: 36" site/a.html || fail "a.html does not read the new records"
# The template: every page.
printf '<!-- changed -->\n' >> tmpl/page.html
lbq_noting
case " $(newer)" in *" a.html b.html "*) ;; *) fail "a new template left pages: $(newer)" ;; esac
# A page that was deleted is written again.
rm site/a.html
lbq
[ -f site/a.html ] || fail "a deleted page was not written again"
