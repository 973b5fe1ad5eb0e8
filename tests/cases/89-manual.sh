# The manual (docs/) is a labbook book, built by make docs exactly as CI
# builds it: each example compiles and runs, each claim holds (--strict),
# and each literal example is followed by the directive it shows. A broken
# example, a claim an example no longer bears out, or a literal example
# that drifted from the live one fails the build, naming file and line.
# The book's index and the manual's link each other (build --link), and
# the manual opens with its own lead (build --lead).
cp -r "$ROOT/docs" docs
rm -rf docs/build docs/kernels docs/.labbook.lock
# The Python GPU page (docs/gpu/) reads the book's reduction kernel, and
# make docs copies the book's lab.py into docs/kernels/ for the manual.
cp -r "$ROOT/kernels" kernels
cp -r "$ROOT/templates" templates
mkdir tools && cp "$ROOT/tools/check-docs" tools/
docs() {
	OUT=$(make -s -f "$ROOT/Makefile" docs LABBOOK="$LABBOOK" SITE="$PWD/site" JOBS=2 2>&1)
	RC=$?
}
# The line of a chapter's live directive: the last line that opens it (the
# literal example before it is the first).
line_of() { grep -n -F -x -- "$2" "docs/$1" | tail -n 1 | cut -d: -f1; }

docs
expect_rc 0
expect_no_err "error"
expect_no_err "warning"
for page in index getting-started chapters values experiments course bundle \
	cache command-line several-machines clusters compare publishing layout; do
	expect_file "site/manual/$page.html"
done
# Live values: the sum of the first 64 squares, by the loop, and a chart.
expect_html manual/values.html '<td>89440</td>'
expect_html manual/getting-started.html 'holds here'
expect_no_html manual/getting-started.html 'does not hold'
expect_file site/manual/fig/sums-ops.svg
# The Python GPU page renders from its H200 bundle, every claim holding
# (--strict), and the manual links it.
expect_file site/manual/gpu/python-reduce.html
expect_file site/manual/gpu/fig/python-sums.svg
expect_html manual/gpu/python-reduce.html 'All 3 claims this chapter makes hold'
expect_html manual/course.html 'href="gpu/python-reduce.html"'
expect_file site/manual/fig/sums-bars.svg
expect_html manual/index.html '<a href="../index.html">The book</a>'
# Its front page opens with its own line (make docs passes --lead), not the
# line a book without one gets, which the course's index opens with.
expect_html manual/index.html '<p class="lead">How to write a labbook book'
expect_html manual/book.html '<p class="lead">How to write a labbook book'
expect_no_html manual/index.html 'Every number in this book was measured'

# inputs: the listed example sums the sizes docs/examples/sizes.txt lists.
# A size added to the file runs it again, and no other example; explain
# names the file first.
R=docs/build/results
[ "$(lb eval --results $R 'count(listed.n[method=loop])')" = 3 ] ||
	fail "listed did not read the three sizes of examples/sizes.txt"
ino() { stat -c %i "$R/$1.jsonl"; }
s0=$(ino sums) c0=$(ino scale) l0=$(ino listed)
echo 10000 >> docs/examples/sizes.txt
OUT=$(lb explain listed -C docs --chapters . --results build/results --runs 1 2>&1); RC=$?
expect_rc 0
expect_err "will run on the next build, because:"
expect_err "  - the input examples/sizes.txt changed"
docs
expect_rc 0
[ "$(lb eval --results $R 'max(listed.n)')" = 10000 ] ||
	fail "listed did not run again with the new size"
[ "$(ino listed)" != "$l0" ] || fail "listed's records were not written again"
[ "$(ino sums)" = "$s0" ] || fail "sums ran again after sizes.txt changed"
[ "$(ino scale)" = "$c0" ] || fail "scale ran again after sizes.txt changed"

# requires: sm_90. The manual measures no GPU, so hopper_sums never runs,
# its value and the claim that requires Hopper say so, and --strict passes.
expect_no_file "$R/hopper_sums.jsonl"
expect_html manual/chapters.html 'This experiment needs compute capability 9.0'
expect_html manual/chapters.html 'title="max(hopper_sums.n)">needs compute capability 9.0<'
expect_html manual/values.html 'class="check not-applicable" title="max(sums.n) &gt;= 4096">needs compute capability 9.0<'
expect_html manual/values.html 'class="check holds" title="max(sums.n) &gt;= 4096 — flips when every sums.n x0.9999">'

# A plain value that requires Hopper says so, where the same value
# without requires is a number.
expect_html manual/values.html '<span class="not-applicable" title="max(sums.n)">needs compute capability 9.0</span>'

# Callouts, references and hover are live in the manual: a note and a
# warning, the exercise numbered in its chapter with its answer folded,
# references that link what they name from its own page, another page and
# the one-page book, a labelled claim numbered, and a chart's bars titled.
expect_html manual/chapters.html '<div class="callout note" role="note">'
expect_html manual/chapters.html '<div class="callout warning" role="note">'
expect_html manual/chapters.html '<div class="callout exercise" id="ex-sums-overflow">'
expect_html manual/chapters.html '<p class="callout-title">Exercise 2.1'
expect_html manual/chapters.html '<details class="answer"><summary>Answer</summary>'
expect_html manual/chapters.html '<a class="xref" href="#ex-sums-overflow">Exercise 2.1</a>'
expect_html manual/values.html '<a class="xref" href="chapters.html#ex-sums-overflow">Exercise 2.1</a>'
expect_html manual/values.html '<a class="xref" href="getting-started.html#fig-sums-ops">Figure 1.1</a>'
expect_html manual/values.html '<a class="xref" href="chapters.html#tab-loop-sums">Table 2.1</a>'
expect_html manual/values.html 'id="claim-cheaper" title="max(sums.ops[method=formula]) &lt; min(sums.ops[method=loop]) — flips when sums.ops of record 2 x5.344 (only a change of 2x or more: loose)">✓ Claim 3.1 holds here'
expect_html manual/book.html 'href="#chapters:ex-sums-overflow">Exercise 2.1</a>'
expect_html manual/chapters.html '<title>a loop of n additions, 256 ops</title>'

# The layout names every source file of runner/'s stages.
python3 - "$ROOT" <<'PY' || fail "docs/13-layout.md does not name every file of runner/"
import fnmatch, glob, os, re, sys
root = sys.argv[1]
text = open(os.path.join(root, "docs/13-layout.md")).read()
named = set(re.findall(r"`([\w/*]+\.c)`", text))
bad = 0
for path in sorted(glob.glob(os.path.join(root, "runner/*/*.c"))):
    stage, name = path.split(os.sep)[-2:]
    if not any(fnmatch.fnmatch(name, n) or n == stage + "/" + name for n in named):
        print(f"docs/13-layout.md: runner/{stage}/{name} is not named")
        bad = 1
sys.exit(bad)
PY
# The literal source of a directive, escaped, beside the live box.
expect_html manual/chapters.html 'flags: -DFACTOR=3'
expect_html manual/chapters.html 'id="exp-scale"'

# An example that no longer compiles: an error at its directive's line.
cp docs/examples/sums.c sums.c.good
printf 'this is not C\n' >> docs/examples/sums.c
docs
[ "$RC" != 0 ] || fail "make docs passed with a broken example"
at=$(line_of 01-getting-started.md '```{experiment} sums')
expect_err "01-getting-started.md:$at:"
cp sums.c.good docs/examples/sums.c

# An example whose numbers no longer bear the prose out: the formula off
# by one, so the two sums disagree and the claim fails under --strict.
sed -i 's|(2 \* n + 1) / 6|(2 * n + 1) / 6 + 1|' docs/examples/sums.c
cmp -s sums.c.good docs/examples/sums.c && fail "the sed did not change sums.c"
docs
expect_rc 2
at=$(grep -n 'check count(sums.n\[correct=false\]) == 0' docs/01-getting-started.md | tail -n 1 | cut -d: -f1)
expect_err "01-getting-started.md:$at: error: claim does not hold"
cp sums.c.good docs/examples/sums.c

# A literal example edited without the live directive after it.
cp docs/02-chapters.md chapters.md.good
at=$(grep -n -x 'runs: 2' docs/02-chapters.md | head -n 1 | cut -d: -f1)
sed -i "${at}s/runs: 2/runs: 5/" docs/02-chapters.md
docs
[ "$RC" != 0 ] || fail "make docs passed with a literal example unlike the live one"
expect_err "02-chapters.md:"
expect_err "the example is not followed by the same directive"
cp chapters.md.good docs/02-chapters.md

# A row of the expression table that shows one expression and computes
# another.
cp docs/03-values.md values.md.good
sed -i 's/^| `{{ max(sums.n) }}` | {{ max(sums.n) }} |/| `{{ max(sums.n) }}` | {{ min(sums.n) }} |/' docs/03-values.md
docs
[ "$RC" != 0 ] || fail "make docs passed with a table row unlike its expression"
expect_err "03-values.md:"
expect_err "but computes"
cp values.md.good docs/03-values.md

# A table added before the one a reference names renumbers it on the
# next build, on a page whose own text did not change.
cp docs/02-chapters.md chapters.md.good
at=$(grep -n -x '## The table directive' docs/02-chapters.md | cut -d: -f1)
sed -i "${at}a\\
\\
| a | b |\\
|---|---|\\
| 1 | 2 |" docs/02-chapters.md
docs
expect_rc 0
expect_html manual/values.html '<a class="xref" href="chapters.html#tab-loop-sums">Table 2.2</a>'
cp chapters.md.good docs/02-chapters.md

# A reference to nothing: an error at its line, and the build fails.
sed -i 's/{{ref ch:compare}}/{{ref ch:comparison}}/g' docs/03-values.md
at=$(grep -n -F '{{ref ch:comparison}}' docs/03-values.md | cut -d: -f1)
docs
[ "$RC" != 0 ] || fail "make docs passed with a reference to nothing"
expect_err "03-values.md:$at: error: {{ref ch:comparison}}"
cp values.md.good docs/03-values.md

# A malformed callout: a second answer in the live exercise.
at=$(grep -n -x '{answer}' docs/02-chapters.md | tail -n 1 | cut -d: -f1)
sed -i "${at}a\\
{answer}\\
Again." docs/02-chapters.md
docs
[ "$RC" != 0 ] || fail "make docs passed with an exercise of two answers"
expect_err "02-chapters.md:$((at + 1)): error: a second {answer} in this exercise (the first is at line $at)"
cp chapters.md.good docs/02-chapters.md

# A callout's literal example, fenced longer than three backticks, edited
# without the live callout after it.
sed -i '0,/^Up to which n do the loop/s/^Up to which n do the loop/Up to which n does the loop/' docs/02-chapters.md
docs
[ "$RC" != 0 ] || fail "make docs passed with a literal callout unlike the live one"
expect_err "the example is not followed by the same directive"
cp chapters.md.good docs/02-chapters.md

# The book links the manual: --link adds to the index page; a link
# without its words is a usage error.
chapter 01-a.md <<'MD'
# A
Text.
MD
build --no-run --link 'manual/index.html|The labbook manual'
expect_rc 0
expect_html index.html '<a href="manual/index.html">The labbook manual</a>'
build --no-run --link 'manual/index.html'
expect_rc 2
expect_err "--link wants 'URL|TEXT'"
build --no-run --link '|The manual'
expect_rc 2
