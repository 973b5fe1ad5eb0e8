# Callouts: {note}, {warning} and {exercise} hold Markdown (values, code,
# tables) in a box; an exercise is numbered and its answer folded in a
# <details>. A malformed callout is an error at its line, shown where it
# stands, and the rest of the book is still made.
cp -r "$ROOT/tests/regress/directives/res" .
mkdir -p kernels && cp -r "$ROOT/tests/regress/directives/kernels/." kernels/
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
show: none
```

## Notes

```{note}
The *largest* square is {{ max(sq.y) }}.
```

```{warning}
Never time a launch with a host clock.
```

## Exercises

````{exercise} first
Predict the largest square, then run `build/exp/sq`.

```c
int main(void) { return 0; }
```

| n | y |
|---|---|
| 1 | 1 |
{answer}
It is {{ max(sq.y) }} {{check max(sq.y) > 1}}.
````

```{exercise}
A second one, with no answer.
```
MD
lbs() {
	OUT=$(lb build --no-run --results res --site site \
		--templates "$ROOT/templates" --quiet "$@" 2>&1)
	RC=$?
}
lbs
expect_rc 0
# The boxes, in order, with what they hold made as the prose is.
python3 - site/a.html <<'PY' || fail "a.html's callouts: $(cat py.err)"
import html.parser, sys

class P(html.parser.HTMLParser):
    """Each div.callout: its attributes, the tags inside it, its text."""
    def __init__(self):
        super().__init__()
        self.box, self.depth, self.boxes = None, 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self.box is not None:
            self.box["tags"].append((tag, a.get("class")))
            self.depth += tag == "div"
        elif tag == "div" and "callout" in (a.get("class") or "").split():
            self.box = {"class": a["class"], "id": a.get("id"),
                        "role": a.get("role"), "tags": [], "text": ""}
            self.boxes.append(self.box)
            self.depth = 1
    def handle_endtag(self, tag):
        if self.box is not None and tag == "div":
            self.depth -= 1
            if not self.depth:
                self.box = None
    def handle_data(self, d):
        if self.box is not None:
            self.box["text"] += d

p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
b = p.boxes
err = open("py.err", "w")
def want(cond, why):
    if not cond:
        err.write(why + "; boxes: %r\n" % b)
        sys.exit(1)
want(len(b) == 4, "4 callouts")
want(b[0]["class"] == "callout note" and b[0]["role"] == "note", "a note first")
want(("p", "callout-title") in b[0]["tags"] and "Note" in b[0]["text"], "its title")
want(("em", None) in b[0]["tags"] and "The largest square is 25." in b[0]["text"],
     "its Markdown and its value")
want(b[1]["class"] == "callout warning" and "Warning" in b[1]["text"], "a warning")
want(b[2]["class"] == "callout exercise" and b[2]["id"] == "ex-first", "an exercise")
want("Exercise 1.1" in b[2]["text"], "numbered 1.1")
tags = [t for t, c in b[2]["tags"]]
want("pre" in tags and "table" in tags and "caption" in tags, "code and a table")
want(tags.index("details") > tags.index("table"), "the answer after the question")
want(("summary", None) in b[2]["tags"] and "It is 25" in b[2]["text"], "the answer")
want(("span", "check holds") in b[2]["tags"], "a claim in the answer")
want("Exercise 1.2" in b[3]["text"] and "details" not in [t for t, c in b[3]["tags"]],
     "a second exercise without an answer")
PY
grep -qF '<span class="tabnum">Table 1.1</span>' site/a.html ||
	fail "the table in the exercise is not numbered"
grep -qF '<code class="language-c"><span class="line"><span class="k">int</span>' site/a.html ||
	fail "the code in the exercise is not a highlighted listing"
# Their words are searched like the prose around them.
grep -qF 'Never time a launch with a host clock.' site/search-index.js ||
	fail "the search index lacks a warning's words"
# The one-page book holds them, the exercise's id made unique.
grep -qF 'id="a:ex-first"' site/book.html || fail "book.html lacks the exercise's id"
grep -qF 'class="callout warning"' site/book.html || fail "book.html lacks the warning"

# Malformed callouts: each an error at its line, shown on the page where it
# stands; the bundle is untouched and the good boxes are still made.
sum=$(cat res/* | cksum)
chapter 02-bad.md <<'MD'
# Bad

```{note} label
A note takes no label.
```

```{note}
Text.
{answer}
An answer in a note.
```

```{exercise}
Question.
{answer}
One.
{answer}
Two.
```

```{exercise}
{answer}
An answer without a question.
```

```{exercise}
Question.
{answer}
```

```{warning}
```

```{note}
## A heading
```

```{note}
```{chart} x
data: sq
```

```{exercise} 9bad
Question.
```

```{note}
Good one, after the bad ones.
```

Prose after them.

```{note}
Never closed.
MD
lbs
expect_rc 1
expect_err "chapters/02-bad.md:3: error: {note} takes nothing after its braces, not 'label'"
expect_err 'chapters/02-bad.md:9: error: {answer} belongs in an {exercise}, not a {note}'
expect_err 'chapters/02-bad.md:17: error: a second {answer} in this exercise (the first is at line 15)'
expect_err 'chapters/02-bad.md:21: error: this {exercise} has an answer but no question'
expect_err 'chapters/02-bad.md:28: error: this {answer} is empty'
expect_err 'chapters/02-bad.md:31: error: this {warning} is empty'
expect_err 'chapters/02-bad.md:35: error: a callout cannot hold a heading'
expect_err "chapters/02-bad.md:39: error: '{chart} x' cannot go inside a callout"
expect_err "chapters/02-bad.md:43: error: '9bad' is not a valid label"
expect_err "chapters/02-bad.md:53: error: this callout's fence is never closed"
n=$(grep -o 'class="error-box"' site/bad.html | wc -l)
[ "$n" = 10 ] || fail "bad.html shows $n error boxes, not 10"
grep -qF 'chapters/02-bad.md:17: a second {answer}' site/bad.html ||
	fail "bad.html does not say where the second answer is"
grep -qF 'Good one, after the bad ones.' site/bad.html ||
	fail "a good callout after bad ones was not made"
grep -qF 'Prose after them.' site/bad.html || fail "the prose after them was lost"
grep -qF 'class="callout note"' site/a.html || fail "the good chapter lost its callouts"
[ "$(cat res/* | cksum)" = "$sum" ] || fail "the bundle changed"
# An unknown callout names the ones there are.
printf '# C\n\n```{tip}\nx\n```\n' > chapters/03-c.md
lbs
expect_err "chapters/03-c.md:3: error: unknown directive '{tip}'; known: {experiment}, {chart}, {table}, {sass}, and the callouts {note}, {warning}, {exercise}"
