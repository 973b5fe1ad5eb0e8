# Raw HTML in a chapter cannot hide another chapter: whatever one chapter
# leaves open (a comment, a raw-text element, an element that hides what
# it holds, a tag cut off before its '>') ends with it, in book.html and
# on its own page. Tags that act on the whole page, scripts and frames
# from another host are shown as text, not obeyed.
n=0
hostile() {
	n=$((n + 1))
	name=$(printf 'c%02d' $n)
	{
		printf '# Heading %d\n\nBefore the trouble.\n\n' $n
		cat
		printf '\nAfter the trouble in %d.\n' $n
	} > "chapters/$(printf '%02d' $n)-$name.md"
}
mkdir -p chapters
hostile <<'MD'
<!-- a comment that never ends
MD
hostile <<'MD'
Inline <!-- comment, then a paragraph.

More.
MD
hostile <<'MD'
<textarea>
MD
hostile <<'MD'
Some <textarea rows="3"> inside a paragraph.
MD
hostile <<'MD'
<details>
<summary>Folded</summary>

Folded prose.
MD
hostile <<'MD'
<div hidden>

Hidden prose.
MD
hostile <<'MD'
<div style="display:none">
MD
hostile <<'MD'
<title>
MD
hostile <<'MD'
<noscript>
MD
hostile <<'MD'
<template>
MD
hostile <<'MD'
<svg viewBox="0 0 10 10"><circle r="1"/>
MD
hostile <<'MD'
<math><mi>x</mi><![CDATA[ never ends
MD
hostile <<'MD'
<style>
MD
hostile <<'MD'
<video>
MD
hostile <<'MD'
<select><option>one
MD
hostile <<'MD'
<xmp>
MD
hostile <<'MD'
<noembed>
MD
hostile <<'MD'
<div title="a quote that never ends>

Prose.
MD
hostile <<'MD'
<!DOCTYPE never closed
MD
hostile <<'MD'
<?php never closed
MD
hostile <<'MD'
</section></article></main></div></body></html>

Closers of what this chapter never opened.
MD
hostile <<'MD'
<body hidden>

<html style="display:none">
MD
hostile <<'MD'
<link rel="stylesheet" href="data:text/css,section{display:none}">
<meta http-equiv="refresh" content="0; url=https://evil.example/">
<base href="https://evil.example/">
MD
hostile <<'MD'
<script src="https://evil.example/x.js"></script>
<iframe src="https://evil.example/"></iframe>
<object data="https://evil.example/"></object>
<embed src="https://evil.example/">
<plaintext>
MD
hostile <<'MD'
<dialog><div><span><a href="#x"><table><tr><td>
MD
hostile <<'MD'
A last, well-behaved chapter.
MD
build --no-run
expect_rc 0

# Parse as a browser would, as far as hiding goes: raw text runs to its own
# end tag; comments, hiding elements and their content are not shown.
cat > visible.py <<'PY'
import html.parser, re, sys
RAW = {"textarea", "title", "style", "xmp", "iframe", "noembed", "noframes",
       "noscript", "script"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr", "param"}
HIDING = {"template", "video", "audio", "object", "select", "svg", "math",
          "textarea", "title", "style", "xmp", "iframe", "noembed",
          "noframes", "noscript", "script", "head"}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.text, self.tags, self.plain = [], [], [], False
        self.headings = []
    def hides(self, tag, attrs):
        a = dict(attrs)
        return (tag in HIDING or "hidden" in a or
                (tag in ("details", "dialog") and "open" not in a) or
                "display:none" in (a.get("style") or "").replace(" ", ""))
    def handle_starttag(self, tag, attrs):
        if self.plain:
            return
        self.tags.append((tag, dict(attrs)))
        if tag == "plaintext":
            self.plain = True
        if tag in VOID:
            return
        summary = tag == "summary"
        self.stack.append((tag, self.hides(tag, attrs), summary))
        if tag in RAW:
            self.set_cdata_mode(tag)
    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return
    def handle_data(self, data):
        # A closed details shows its summary only.
        shown = True
        for i, (t, h, s) in enumerate(self.stack):
            if h and not (t == "details" and any(x[2] for x in self.stack[i+1:])):
                shown = False
        if shown and not self.plain:
            self.text.append(data)
            if any(re.fullmatch("h[1-6]", x[0]) for x in self.stack):
                self.headings.append(data + " ")
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
# Not closed: what is cut off at the end (a comment, a tag) is not shown,
# as in a browser.
text = re.sub(r"\s+", " ", "".join(p.text))
headings = re.sub(r"\s+", " ", "".join(p.headings))
for word in sys.argv[2:]:
    if word.startswith("!tag:"):
        tag, _, attr = word[5:].partition("=")
        for t, a in p.tags:
            words = " ".join(list(a) + [v or "" for v in a.values()])
            if t == tag and (not attr or attr in words):
                print("has a <%s> element: %s" % (tag, a))
    elif word.startswith("h:"):
        if word[2:] not in headings:
            print("lacks the heading '%s' as visible text" % word[2:])
    elif word not in text:
        print("lacks '%s' as visible text" % word)
PY
check() {
	page=$1
	shift
	msg=$(python3 visible.py "site/$page" "$@" 2>&1) || fail "$page: $msg"
	[ -z "$msg" ] || fail "$page: $msg"
}
# Every chapter's heading is shown, so is the text after each's trouble.
i=1
while [ $i -le $n ]; do
	set -- "h:Heading $i"
	[ $i -lt $n ] && set -- "$@" "h:Heading $((i + 1))"
	check book.html "$@"
	name=$(printf 'c%02d' $i)
	# On its own page, what the template puts after the chapter is shown.
	check "$name.html" "h:Heading $i" "Built by labbook from the chapters"
	i=$((i + 1))
done
check book.html "A last, well-behaved chapter." \
	'!tag:script=evil' '!tag:iframe' '!tag:object' '!tag:embed' '!tag:plaintext' \
	'!tag:base' '!tag:meta=evil' '!tag:link=data:' '!tag:body=hidden' '!tag:html=display' '!tag:textarea'
# Shown as text, where the chapter put them.
expect_html c04.html 'Some &lt;textarea rows="3"> inside a paragraph.'
expect_html c24.html '&lt;script src="https://evil.example/x.js">'
expect_html c24.html '&lt;iframe src="https://evil.example/">'
expect_html c22.html '&lt;body hidden>'
# Well-formed raw HTML is kept as written.
chapter 90-kept.md <<'MD'
# Kept

<details open><summary>Open</summary>

Inside.

</details>

<!-- a note for the author -->

<kbd>Ctrl</kbd>-<kbd>C</kbd> and <svg width="4" height="4"><rect width="4" height="4"/></svg>.
MD
build --no-run
expect_rc 0
expect_html kept.html '<details open><summary>Open</summary>'
expect_html kept.html '<!-- a note for the author -->'
expect_html kept.html '<kbd>Ctrl</kbd>-<kbd>C</kbd> and <svg width="4" height="4"><rect width="4" height="4"/></svg>.'
check book.html "Inside." "h:Heading 1" "h:Kept"
