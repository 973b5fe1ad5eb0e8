# A chapter that is not UTF-8, an empty one, and a huge one (tens of MB).
printf '# Latin\n\ncaf\xe9\n' > /dev/null
mkdir -p chapters
printf '# Latin\n\nline two\ncaf\xe9\n' > chapters/01-latin.md
printf '\n  \n' > chapters/02-empty.md
{
	echo "# Huge"
	for i in $(seq 1 2000); do echo; echo "Paragraph $i with *emphasis* and \`code\` $(head -c 10000 /dev/zero | tr '\0' 'x')"; done
} > chapters/03-huge.md
build --no-run
expect_rc 1
expect_err "chapters/01-latin.md:4: error: not valid UTF-8"
expect_err "chapters/02-empty.md: error: the chapter is empty"
expect_html latin.html "not valid UTF-8"
expect_html empty.html "the chapter is empty"
expect_html huge.html "Paragraph 2000 with <em>emphasis</em>"
[ "$(stat -c %s chapters/03-huge.md)" -gt 20000000 ] || fail "the huge chapter is not huge"
