# make install puts labbook, its templates, lab.h and lab.py under PREFIX; the
# installed labbook writes a starter book that builds as it is, with its
# short Makefile, away from the source tree: a chart and a claim that holds.
# The labbook under test is installed as it is (-o: never rebuilt here).
make -s -C "$ROOT" install PREFIX="$PWD/inst" LABBOOK="$LABBOOK" -o "$LABBOOK" >/dev/null 2>&1 ||
	fail "make install failed"
expect_file inst/bin/labbook
expect_file inst/share/labbook/templates/page.html
expect_file inst/share/labbook/templates/style.css
expect_file inst/share/labbook/lab.h
expect_file inst/share/labbook/lab.py

OUT=$(inst/bin/labbook init mybook 2>&1); RC=$?
expect_rc 0
expect_err "mybook/chapters/01-first.md"
expect_file mybook/Makefile
expect_file mybook/kernels/sum/sum.c
expect_file mybook/kernels/lab.h
expect_file mybook/kernels/lab.py
expect_err "mybook/kernels/lab.py (for Python experiments)"
[ -e mybook/templates ] && fail "the book has a templates folder of its own"

OUT=$(make -C mybook LABBOOK="$PWD/inst/bin/labbook" 2>&1); RC=$?
expect_rc 0
expect_err "open site/index.html"
expect_file mybook/site/fig/sum-bandwidth.svg
expect_file mybook/site/fig/sum-bandwidth-narrow.svg
expect_file mybook/site/style.css
grep -q '<img src="fig/sum-bandwidth.svg"' mybook/site/first.html ||
	fail "the page does not show the chart"
grep -q 'class="check holds"' mybook/site/first.html || fail "the claim does not hold"
grep -q 'class="check fails"\|class="inline-error"\|class="error-box"' mybook/site/first.html &&
	fail "the page shows a failure"
grep -q 'fastest [0-9.]* GB/s' mybook/site/fig/sum-bandwidth.svg ||
	fail "the limit line is not labelled with its value"

# Built again with -C, nothing runs; a second init refuses.
OUT=$(inst/bin/labbook build -C mybook 2>&1); RC=$?
expect_rc 0
expect_no_err "(1 ran"
OUT=$(inst/bin/labbook init mybook 2>&1); RC=$?
expect_rc 1
expect_err "mybook is not empty: it holds .gitignore, .labbook.lock, Makefile, build, chapters"
