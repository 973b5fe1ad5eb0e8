# Inputs must be regular files inside the project: a FIFO, a device or a
# folder as source: or in a meta's inputs is refused with a clear error,
# never read (which would hang or never end), even under --no-run.
# A source path with ".." inside the project is normalized.
records_kernel sq
mkfifo kernels/sq/pipe.c
mkdir kernels/sq/dir.c
ln -s /dev/zero kernels/sq/zero.c
chapter 01-a.md <<'MD'
# A

```{experiment} fifo
source: kernels/sq/pipe.c
```

```{experiment} folder
source: kernels/sq/dir.c
```

```{experiment} zero
source: kernels/sq/zero.c
```

```{experiment} up
source: kernels/../kernels/sq/./sq.c
```
MD
for mode in --no-run ""; do
	OUT=$(timeout 60 "$LABBOOK" build --results res --site site --templates "$ROOT/templates" --quiet -j 2 $mode 2>&1)
	RC=$?
	[ "$RC" = 124 ] && fail "build $mode hung on a special file"
	expect_rc 1
	expect_err "source 'kernels/sq/pipe.c' is not a regular file"
	expect_err "source 'kernels/sq/dir.c' is not a regular file"
	expect_err "source 'kernels/sq/zero.c' is outside the project"
done
expect_file site/src/kernels/sq/sq.c
expect_no_html a.html 'src/../'
expect_html a.html 'kernels/sq/sq.c'
[ -n "$(find site -name '*.c' -path '*..*')" ] && fail "a copy went outside site/"

# A meta that names special files as inputs (a bundle from elsewhere).
rm -rf chapters && chapter 01-a.md <<'MD'
# A

```{experiment} up
source: kernels/sq/sq.c
```
MD
sed -i 's|"inputs":.*|"inputs": ["/dev/zero", "kernels/sq/pipe.c", "kernels/sq/dir.c", "../outside.c"],|' res/up.meta.json
grep -q '"/dev/zero"' res/up.meta.json || fail "the meta was not edited: $(cat res/up.meta.json)"
OUT=$(timeout 60 "$LABBOOK" build --results res --site site --templates "$ROOT/templates" --quiet --no-run 2>&1)
RC=$?
[ "$RC" = 124 ] && fail "build hung on a meta input"
# What another machine recorded is data: inputs that are no file of this
# project are not read, and never fail the build.
expect_rc 0
expect_no_err "/dev/zero"
expect_no_err "outside.c"
