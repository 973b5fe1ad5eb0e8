# Site HTML grows linearly with the book: in a long book a page's contents
# list the chapters near it (with a link to all), so a chapter page stays
# the same size whatever the number of chapters, and the template prints
# the contents once.
mkdir -p chapters
for i in $(seq -w 1 150); do
	printf '# Chapter %s\n\nSome prose for chapter %s.\n\n## A section\n\nMore.\n' "$i" "$i" > "chapters/$i-c$i.md"
done
build --no-run
expect_rc 0
big=$(wc -c site/c*.html | grep -v total | sort -n | tail -1 | awk '{print $1}')
[ "$big" -lt 12000 ] || fail "the largest chapter page is $big bytes"
n=$(grep -c 'href="c001.html"' site/c075.html)
[ "$n" -le 1 ] || fail "the contents are printed $n times on a page"
grep -q 'href="index.html">All chapters' site/c075.html || fail "no link to all chapters"
grep -q 'href="c070.html"' site/c075.html || fail "a near chapter is not listed"
grep -q 'href="c030.html"' site/c075.html && fail "a far chapter is listed"
[ "$(grep -c '<span class="title">' site/index.html)" = 150 ] || fail "the index does not list every chapter"
