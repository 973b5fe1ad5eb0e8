# A book in a folder that cannot be written is still rendered elsewhere
# (--site): there is no lock to take, and the build says so and goes on.
chapter 01-a.md <<'MD'
# A

Text.
MD
mkdir out
chmod 777 out
chmod a+rx . chapters
chmod a+r chapters/01-a.md
chmod a-w . chapters
as_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere; another user cannot
	need util-linux:setpriv
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
fi
OUT=$(as_user "$LABBOOK" build --no-run --results res --site out \
	--templates "$ROOT/templates" 2>&1)
RC=$?
chmod u+w . chapters
expect_rc 0
expect_err "this folder cannot be written, so the build takes no lock"
[ -f out/a.html ] || fail "the site was not written: $OUT"
expect_no_file .labbook.lock
