# labbook init never overwrites a user's files silently: a folder that
# holds anything is refused, naming what is there, and nothing is written;
# --force writes the book beside it and names each file it replaces; a
# folder or link in the way of a file is never replaced. The command it
# prints to build the book works for a folder named with a space and quotes.
mkdir proj
echo 'all: ; @echo mine' > proj/Makefile
echo '/secret/' > proj/.gitignore
mkdir -p proj/kernels/sum
echo 'int mine;' > proj/kernels/sum/sum.c
cp -r proj orig
OUT=$(lb init proj 2>&1); RC=$?
expect_rc 1
expect_err "proj is not empty: it holds .gitignore, Makefile, kernels"
diff -r proj orig >/dev/null || fail "a refused init changed the folder"
expect_no_file proj/chapters

OUT=$(lb init --force proj 2>&1); RC=$?
expect_rc 0
expect_err "proj/Makefile (replaced the file that was there)"
expect_err "proj/.gitignore (replaced the file that was there)"
expect_err "proj/kernels/sum/sum.c (replaced the file that was there)"
printf '%s\n' "$OUT" | grep -F 'proj/chapters/01-first.md' | grep -q replaced &&
	fail "a new file is said to replace one"
expect_file proj/chapters/01-first.md
grep -q 'labbook' proj/Makefile || fail "--force did not write the Makefile"

# A folder, or a link, where a file goes: refused, and nothing written.
mkdir -p p2/Makefile p2/keep
OUT=$(lb init --force p2 2>&1); RC=$?
expect_rc 1
expect_err "p2/Makefile is there and is not a file"
expect_no_file p2/chapters
mkdir p3
ln -s /etc/passwd p3/.gitignore
OUT=$(lb init --force p3 2>&1); RC=$?
expect_rc 1
expect_err "p3/.gitignore is there and is not a file"
expect_no_file p3/chapters
echo x > afile
OUT=$(lb init afile 2>&1); RC=$?
expect_rc 1
expect_err "afile is there and is not a folder"

# An empty folder is a new book's; the next step is quoted for the shell.
name="my book's \$(touch pwned) notes"
mkdir "$name"
OUT=$(lb init "$name" 2>&1); RC=$?
expect_rc 0
expect_err "Build it: cd 'my book'\\''s \$(touch pwned) notes' && make"
cmd=$(printf '%s\n' "$OUT" | sed -n 's/^Build it: \(cd .*\) && make .*/\1/p')
(eval "$cmd" && [ -f Makefile ]) || fail "the printed command does not reach the book: $cmd"
expect_no_file pwned
OUT=$(make -C "$name" LABBOOK="$LABBOOK" TITLE="Ada's \"GPU\" notes" 2>&1); RC=$?
expect_rc 0
grep -qF "Ada&#39;s &quot;GPU&quot; notes" "$name/site/index.html" ||
	grep -qF "Ada's &quot;GPU&quot; notes" "$name/site/index.html" ||
	fail "the title did not reach the site: $(grep -o '<title>[^<]*' "$name/site/index.html")"
OUT=$(lb init 2>&1); RC=$?
expect_rc 2
OUT=$(lb init --bogus x 2>&1); RC=$?
expect_rc 2
expect_no_file x
# A file where init needs a folder (kernels): said before any file is
# written, so no half a book is left.
mkdir f2 && touch f2/kernels
OUT=$(lb init --force f2 2>&1); RC=$?
expect_rc 1
expect_err "f2/kernels/sum/sum.c cannot be written: a folder above it is a file"
[ "$(ls f2)" = kernels ] || fail "init wrote part of a book: $(ls f2)"
