# The site folder's own files (the stamp, the plans, the page manifest, the
# search entries, a page's kept pieces) are read back by the next build: a
# FIFO, a folder or garbage in their place is taken as no cache, never
# waited on, and the pages are made again; a folder where a cache must be
# written is a clear error.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels chapters
cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
cp "$ROOT/tests/regress/directives/chapters/01-squares.md" chapters/
printf '\nThe largest is {{ max(sq.y) }}.\n' >> chapters/01-squares.md
# As lb runs labbook (under valgrind too), with a time limit: a hang fails.
lbs() {
	OUT=$(timeout 120 ${VALGRIND:+valgrind -q --log-fd=9 --error-exitcode=99 \
		--leak-check=full --errors-for-leak-kinds=definite} "$LABBOOK" build \
		--no-run --results res --site site --templates "$ROOT/templates" \
		--quiet 2>&1 9>>"$LB_ERRORS.valgrind")
	RC=$?
	[ "$RC" = 99 ] && fail "valgrind found errors: $OUT"
	return 0
}
lbs
expect_rc 0
cp site/squares.html want.html
printf '\nMore prose.\n' >> chapters/01-squares.md
for f in .labbook-stamp .labbook-cache book.html search-index.js; do
	rm -rf "site/$f" && mkfifo "site/$f"
done
lbs
[ "$RC" = 124 ] && fail "a FIFO in the site folder hung the build"
expect_rc 0
grep -q "More prose" site/squares.html || fail "the page was not made again"
grep -q "The largest is 25" site/squares.html || fail "the value is missing"
for f in .labbook-stamp .labbook-cache search-index.js; do
	rm -rf "site/$f" && mkdir "site/$f"
done
printf '\nEven more.\n' >> chapters/01-squares.md
lbs
[ "$RC" = 124 ] && fail "a folder in the site folder hung the build"
expect_rc 1
expect_err "cannot write site/.labbook-cache: Is a directory"
grep -q "Even more" site/squares.html || fail "the page was not made again past folders and garbage"
grep -q "The largest is 25" site/squares.html || fail "the value is missing past garbage"
# Garbage where the cache was, and a cache cut at a line end: no cache.
rm -rf site/.labbook-cache site/search-index.js
lbs
expect_rc 0
head -c 4096 /dev/urandom > site/.labbook-cache
printf '\nAnd garbage.\n' >> chapters/01-squares.md
lbs
expect_rc 0
grep -q "And garbage" site/squares.html || fail "the page was not made again past a garbage cache"
head -n 5 site/.labbook-cache > cut && cp cut site/.labbook-cache
printf '\nAnd a cut.\n' >> chapters/01-squares.md
lbs
expect_rc 0
grep -q "The largest is 25" site/squares.html || fail "the value is missing past a cut cache"
