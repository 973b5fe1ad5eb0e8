# A build that runs nothing is a rendering: it writes no file of the
# results bundle. After a run, a prose edit rewrites that chapter's page,
# the one-page book and the search index (which hold its text), and the
# site's own notes of them, and no other file of the site or the bundle.
# Every file labbook writes is made under another name and renamed into
# place, so a rewritten file has a new inode whenever it was written;
# times and bytes are compared too. (Setting the files' times instead would
# be an edit: the one-page book and the search index are trusted only while
# their size, inode and time are as the last build wrote them.)
cp -r "$ROOT/templates" tpl
records_kernel a
records_kernel b
chapter 01-one.md <<'MD'
# One

The first chapter measures experiment a, whose largest value is
{{ max(a.y) }}; this paragraph is what the contents quote of it.

```{experiment} a
source: kernels/a/a.c
runs: 1
```

## More

A paragraph to edit.
MD
chapter 02-two.md <<'MD'
# Two

The second chapter measures experiment b, whose records number
{{ count(b.y) }}.

```{experiment} b
source: kernels/b/b.c
args: 3
runs: 1
```
MD
build --templates tpl
expect_rc 0
expect_html one.html '<span class="state this-build">measured in this build</span>'
expect_html provenance.html '<a href="two.html#exp-b">b</a></td><td>Two</td><td><span class="state this-build">measured in this build</span>'

# snap: every file of the site and the bundle, with its inode, time and
# bytes.
snap() {
	find site res -type f | LC_ALL=C sort | while read -r f; do
		echo "$f $(stat -c '%i %y' "$f") $(cksum < "$f")"
	done
}
changed() { diff "$1" "$2" | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' '; }

# A build that finds nothing to do writes nothing at all.
snap > s0
build --templates tpl
expect_rc 0
snap > s1
[ -z "$(changed s0 s1)" ] || fail "a build with nothing to do wrote $(changed s0 s1)"

# The first prose edit after the run.
sed -i 's/A paragraph to edit./A paragraph, edited./' chapters/01-one.md
build --templates tpl
expect_rc 0
snap > s2
want="site/.labbook-cache site/book.html site/one.html site/search-index.js "
[ "$(changed s1 s2)" = "$want" ] ||
	fail "a prose edit changed $(changed s1 s2), want $want"
expect_html one.html "A paragraph, edited."
expect_html one.html '<span class="state this-build">measured in this build</span>'
grep -q '^res/' <(diff s1 s2) && fail "a rendering wrote the bundle: $(diff s1 s2 | grep res/)"

# The same under --no-run: the bundle is this machine's, but a build that
# runs nothing did not write it, so the results are a record.
snap > s3
build --templates tpl --no-run
expect_rc 0
snap > s4
grep -q '^res/' <(diff s3 s4) && fail "--no-run wrote the bundle: $(diff s3 s4 | grep res/)"
expect_html one.html '<span class="state elsewhere">recorded on another machine</span>'
expect_html provenance.html '<span class="state elsewhere">recorded on another machine</span> <span class="state-machine">(no GPU, host '

# Running one experiment again makes the other's results an earlier
# build's; the pages say so, and a rendering then keeps them as they are.
build --templates tpl --rerun a
expect_rc 0
expect_html one.html '<span class="state this-build">measured in this build</span>'
expect_html two.html '<span class="state earlier">measured in an earlier build here</span>'
expect_html provenance.html '<a href="two.html#exp-b">b</a></td><td>Two</td><td><span class="state earlier">measured in an earlier build here</span>'
expect_html runs.html '<span class="state earlier">measured in an earlier build here</span>'
snap > s5
build --templates tpl
expect_rc 0
snap > s6
[ -z "$(changed s5 s6)" ] || fail "a build after --rerun with nothing to do wrote $(changed s5 s6)"

# Results whose source changed since they were recorded, where this build
# cannot run it again: the state says so, and still nothing is written.
sed -i 's/printf("wrote/printf("made/' kernels/b/b.c
build --templates tpl --no-run
expect_rc 0
snap > s7
grep -q '^res/' <(diff s6 s7) && fail "--no-run wrote the bundle after a source edit"
expect_html two.html '<span class="state changed">changed since recorded</span>'
expect_html provenance.html '<a href="two.html#exp-b">b</a></td><td>Two</td><td><span class="state changed">changed since recorded</span>'

# Compiling only is not a run either: a compile error is reported at its
# directive, and the bundle keeps no trace of it.
echo 'int main(void) { return undeclared; }' > kernels/b/b.c
build --compile-only
expect_rc 1
expect_err "chapters/02-two.md:6:"
snap > s8
grep -q '^res/' <(diff s7 s8) && fail "--compile-only wrote the bundle: $(diff s7 s8 | grep res/)"
expect_no_file res/b.error.json
