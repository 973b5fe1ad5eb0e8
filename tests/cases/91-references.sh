# References that number themselves: {{ref fig:ID}}, tab:, sec:, claim:,
# ex: and ch: read as the pages number their targets, link to them on the
# chapter pages and inside book.html, follow a reordered book, and are
# made again when a number they show changes elsewhere. A reference to
# nothing, or to something two places have, is an error at its line.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels && cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
chapter 01-a.md <<'MD'
# A

Forward to {{ref fig:second}}, {{ref tab:rows}}, {{ref sec:b#method}},
{{ref claim:grows}}, {{ref ex:predict}} and {{ref ch:b}}; here, {{ref fig:first}}
and {{ref sec:method}}.

```{experiment} sq
source: kernels/sq/sq.c
show: none
```

```{chart} first
data: sq
x: n
y: y
```

## Method

Prose.
MD
chapter 02-b.md <<'MD'
# B

| k | v |
|---|---|
| 1 | 2 |

```{table} rows
data: sq
columns: n, y
```

```{chart} second
data: sq
x: n
y: y
```

## Method

The largest square is {{ max(sq.y) }} {{check grows: max(sq.y) > 1}}.

```{exercise} predict
Predict it.
```

Back to {{ref fig:first}} and {{ref sec:method}}.
MD
lbs() {
	OUT=$(lb build --no-run --results res --site site \
		--templates "$ROOT/templates" --quiet "$@" 2>&1)
	RC=$?
}
# has PAGE TEXT: the page holds TEXT (fixed string).
has() { grep -qF -- "$2" "site/$1" || fail "site/$1 lacks '$2'"; }
lbs
expect_rc 0
has a.html '<a class="xref" href="b.html#fig-second">Figure 2.1</a>'
has a.html '<a class="xref" href="b.html#tab-rows">Table 2.2</a>'
has a.html '<a class="xref" href="b.html#method">“Method” in Chapter 2</a>'
has a.html '<a class="xref" href="b.html#claim-grows">Claim 2.1</a>'
has a.html '<a class="xref" href="b.html#ex-predict">Exercise 2.1</a>'
has a.html '<a class="xref" href="b.html">Chapter 2</a>'
has a.html '<a class="xref" href="#fig-first">Figure 1.1</a>'
has a.html '<a class="xref" href="#method">“Method”</a>'
has b.html '<a class="xref" href="a.html#fig-first">Figure 1.1</a>'
has b.html '<a class="xref" href="#method">“Method”</a>'
# The targets show the same numbers, and carry the ids the links name.
has b.html 'id="fig-second">'
has b.html 'Figure 2.1.</a>'
has b.html '<span class="tabnum">Table 2.1</span>'
has b.html '<div id="tab-rows">'
has b.html '<span class="tabnum">Table 2.2</span>'
has b.html 'id="claim-grows"'
has b.html '✓ Claim 2.1 holds'
has b.html '<div class="callout exercise" id="ex-predict">'
has b.html '<p class="callout-title">Exercise 2.1</p>'
# In book.html every link lands on an id of the same page.
for href in $(grep -o 'class="xref" href="#[^"]*"' site/book.html |
	sed 's/.*href="#//; s/"$//'); do
	grep -qF "id=\"$href\"" site/book.html ||
		fail "book.html links #$href, which no element has"
done
has book.html '<a class="xref" href="#b:fig-second">Figure 2.1</a>'
has book.html '<a class="xref" href="#b">Chapter 2</a>'
# The search index reads references as the pages do.
grep -qF 'Figure 2.1' site/search-index.js || fail "the search index lacks 'Figure 2.1'"

# A chart inserted before the one A points at: A's own text is unchanged,
# yet its page is made again with the new number. File times are set, not
# waited for.
touch -d '2020-01-01 00:00:00' chapters/01-a.md
sed -i 's/^```{chart} second$/```{chart} before\ndata: sq\nx: n\ny: y\n```\n\n```{chart} second/' \
	chapters/02-b.md
touch -d '2030-01-01 00:00:00' chapters/02-b.md
lbs
expect_rc 0
has a.html '<a class="xref" href="b.html#fig-second">Figure 2.2</a>'
has b.html '<a class="fignum" href="#fig-before">Figure 2.1.</a>'
has book.html '<a class="xref" href="#b:fig-second">Figure 2.2</a>'
lbs
expect_rc 0
has a.html 'Figure 2.2</a>'

# A chapter inserted before both: every number follows.
chapter 00-intro.md <<'MD'
# Intro

See {{ref fig:second}} and {{ref ch:a}}.
MD
touch -d '2030-01-01 00:00:01' chapters/00-intro.md
lbs
expect_rc 0
has intro.html '<a class="xref" href="b.html#fig-second">Figure 3.2</a>'
has intro.html '<a class="xref" href="a.html">Chapter 2</a>'
has a.html '<a class="xref" href="b.html#fig-second">Figure 3.2</a>'
has a.html '<a class="xref" href="#fig-first">Figure 2.1</a>'
has b.html '✓ Claim 3.1 holds'
# The chapters reordered: B first.
mv chapters/02-b.md chapters/00-b.md
mv chapters/00-intro.md chapters/05-intro.md
lbs
expect_rc 0
has a.html '<a class="xref" href="b.html#fig-second">Figure 1.2</a>'
has a.html '<a class="xref" href="b.html">Chapter 1</a>'
has a.html '<a class="xref" href="#fig-first">Figure 2.1</a>'
has intro.html '<a class="xref" href="a.html">Chapter 2</a>'
has b.html '<a class="xref" href="a.html#fig-first">Figure 2.1</a>'

# Wrong references: each an error at its line, shown where it stands; the
# bundle is untouched and the other pages are made.
sum=$(cat res/* | cksum)
chapter 06-bad.md <<'MD'
# Bad

Unknown {{ref fig:nope}}.
Not a reference {{ref nope}}.
Ambiguous {{ref sec:method}}.
No such chapter {{ref sec:zz#method}}, no such heading {{ref sec:a#zz}}.
A format {{ref fig:first %.1f}}.
Twice {{check grows: max(sq.y) > 0}}, then {{ref claim:grows}}.
MD
lbs
expect_rc 1
expect_err 'chapters/06-bad.md:3: error: {{ref fig:nope}}: no chart is labelled'
expect_err 'chapters/06-bad.md:4: error: {{ref nope}}: not a reference'
expect_err "chapters/06-bad.md:5: error: {{ref sec:method}}: ambiguous: 2 headings are labelled 'method' (chapters/00-b.md:"
expect_err "chapters/06-bad.md:6: error: {{ref sec:zz#method}}: no chapter is named 'zz'"
expect_err "chapters/06-bad.md:6: error: {{ref sec:a#zz}}: chapter 'a' has no heading with the id 'zz'"
expect_err 'chapters/06-bad.md:7: error: {{ref fig:first}}: a reference takes no format'
expect_err "chapters/06-bad.md:8: error: {{check grows: max(sq.y) > 0}}: the claim label 'grows' is used twice; first at chapters/00-b.md:"
expect_err "chapters/06-bad.md:8: error: {{ref claim:grows}}: ambiguous: 2 claims"
n=$(grep -o 'class="inline-error"' site/bad.html | wc -l)
[ "$n" = 8 ] || fail "bad.html shows $n problems, not 8"
has bad.html 'title="chapters/06-bad.md:3: no chart is labelled'
# The label now twice in the book, A's reference to it is ambiguous too.
expect_err 'chapters/01-a.md:4: error: {{ref claim:grows}}: ambiguous'
has a.html 'Figure 1.2</a>'
[ "$(cat res/* | cksum)" = "$sum" ] || fail "the bundle changed"
# Reported again by the next build, not hidden by the cache.
lbs
expect_rc 1
expect_err 'chapters/06-bad.md:3: error: {{ref fig:nope}}'

# A table id used twice is an error at the second, as a chart id is.
rm chapters/06-bad.md
chapter 07-dup.md <<'MD'
# Dup

```{table} rows
data: sq
columns: n
```
MD
lbs
expect_rc 1
expect_err "chapters/07-dup.md:3: error: table 'rows' is declared twice; first at chapters/00-b.md:"

# An exercise label used twice: an error at the second, on every build,
# and shown in its title.
rm chapters/07-dup.md
chapter 08-ex.md <<'MD'
# Ex

```{exercise} predict
Predict it again.
```
MD
for i in 1 2; do
	lbs
	expect_rc 1
	expect_err "chapters/08-ex.md:3: error: the exercise label 'predict' is used twice; first at chapters/00-b.md:"
	has ex.html "the exercise label &#39;predict&#39; is used twice"
done
