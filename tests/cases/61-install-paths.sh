# make install with a PREFIX or DESTDIR that holds spaces and quotes puts
# every file under it and nothing in the source tree; the labbook installed
# there finds its templates and lab.h, and its starter book builds.
before=$(cd "$ROOT" && ls -A)
make -s -C "$ROOT" install DESTDIR="$PWD/dest dir" PREFIX="/opt/lab book 'q'" \
	LABBOOK="$LABBOOK" -o "$LABBOOK" >/dev/null 2>&1 || fail "make install with spaces failed"
inst="$PWD/dest dir/opt/lab book 'q'"
expect_file "$inst/bin/labbook"
expect_file "$inst/share/labbook/templates/page.html"
expect_file "$inst/share/labbook/lab.h"
OUT=$(make -s -C "$ROOT" install PREFIX="$PWD/o'brien lab" LABBOOK="$LABBOOK" -o "$LABBOOK" 2>&1); RC=$?
expect_rc 0
expect_err "installed $PWD/o'brien lab/bin/labbook"
after=$(cd "$ROOT" && ls -A)
[ "$before" = "$after" ] || fail "make install changed the source tree: $(printf '%s\n' "$before" "$after" | sort | uniq -u)"

OUT=$("$PWD/o'brien lab/bin/labbook" init book 2>&1); RC=$?
expect_rc 0
expect_file book/kernels/lab.h
OUT=$(make -C book LABBOOK="$PWD/o'brien lab/bin/labbook" 2>&1); RC=$?
expect_rc 0
expect_file book/site/style.css

# make clean removes the SITE it is given, as one folder, and nothing
# that a space in its name would split off.
mkdir -p clean/my clean/site "clean/my site" "clean/b x"
touch "clean/my site/index.html" clean/my/keep clean/site/keep
(cd clean && make -s -f "$ROOT/Makefile" clean SITE="my site" BUILD="b x" GPU=no >/dev/null 2>&1) ||
	fail "make clean failed"
expect_no_file "clean/my site"
expect_no_file "clean/b x"
expect_file clean/my/keep
expect_file clean/site/keep
