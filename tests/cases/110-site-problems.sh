# What only writing the site can find is reported once, at its line, by
# the command, though render/ reports nothing itself (case 00): gnuplot
# failing on a chart, and a page template without {{ content }}.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} c
data: sq
x: n
y: y
```
MD
# A gnuplot that says its version, and fails on every script.
cat > fail-gnuplot <<'SH'
#!/bin/sh
[ "$1" = --version ] && { echo "gnuplot 6.0 patchlevel 0"; exit 0; }
echo "plot: no such terminal" >&2
exit 1
SH
chmod +x fail-gnuplot
LABBOOK_GNUPLOT=$PWD/fail-gnuplot build
expect_rc 1
expect_err "chapters/01-a.md:7: error: chart 'c': gnuplot failed: plot: no such terminal"
[ "$(printf '%s\n' "$OUT" | grep -c 'gnuplot failed')" = 1 ] ||
	fail "reported other than once: $OUT"
expect_html a.html "This chart could not be drawn"
# With gnuplot back, the chart is drawn and the build passes.
build
expect_rc 0
expect_file site/fig/c.svg
# A template that has no place for the content: said once, and the build
# fails.
mkdir tmpl && cp "$ROOT"/templates/* tmpl/ &&
	sed -i 's/{{content}}//' tmpl/page.html
OUT=$(lb build --results res --site site2 --templates tmpl --quiet --no-run 2>&1)
RC=$?
expect_rc 1
expect_err "labbook: error: the page template has no {{ content }}"
# A site folder whose name has a quote, or gnuplot commands, is only a
# name to gnuplot: the charts are drawn in it, and nothing else runs.
build --site "O'Brien's site"
expect_rc 0
expect_file "O'Brien's site/fig/c.svg"
build --site "x';system 'touch pwned';'"
expect_rc 0
expect_file "x';system 'touch pwned';'/fig/c.svg"
expect_no_file pwned
# One chart of two that gnuplot fails on: the other is drawn and counted,
# and the one that failed shows its error, not an older drawing of it.
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```

```{chart} good
data: sq
x: n
y: y
```

```{chart} bad
data: sq
x: n
y: y
title: changed, so drawn again
```
MD
cat > half-gnuplot <<'SH'
#!/usr/bin/env bash
# Draws every script but bad.gp, then fails on it, as gnuplot would.
[ "$1" = --version ] && exec gnuplot --version
args=() bad=0
for a in "$@"; do
	if [ "$a" = bad.gp ]; then bad=1; else args+=("$a"); fi
done
gnuplot "${args[@]}" || exit
[ $bad = 0 ] || { echo "bad.gp: cannot draw" >&2; exit 1; }
SH
chmod +x half-gnuplot
build
expect_rc 0
cp site/fig/bad.svg old-bad.svg
sed -i 's/^title: changed, so drawn again/title: changed again/' chapters/01-a.md
sed -i 's/^y: y$/y: y_lo/' chapters/01-a.md
LABBOOK_GNUPLOT=$PWD/half-gnuplot build
expect_rc 1
expect_err "chapters/01-a.md:13: error: chart 'bad': gnuplot failed: bad.gp: cannot draw"
expect_err "1 chart written"
expect_no_file site/fig/bad.svg
expect_html a.html "This chart could not be drawn"
