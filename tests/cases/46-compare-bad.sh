# compare says which way its differences run, marks cut columns, and exits
# 2 (nothing compared) on a bundle that is missing, empty or corrupt.
mkdir a b empty
for d in a b; do
	ms=1.0; [ $d = b ] && ms=1.2
	printf '{"variant":"a-rather-long-variant-name-that-does-not-fit-the-column","n":1,"median_ms":%s}\n' $ms > $d/exp.jsonl
	echo '{"gpu":"X"}' > $d/machine.json
done
OUT=$(lb compare a b --all 2>&1); RC=$?
expect_rc 1
expect_err "positive means B is slower"
expect_err "+20.00%"
expect_err "…"
expect_err "1 point of at least"
OUT=$(lb compare a empty 2>&1); RC=$?
expect_rc 2
expect_err "empty: error: no records in this bundle"
OUT=$(lb compare a nowhere 2>&1); RC=$?
expect_rc 2
expect_err "nowhere: error: cannot read the bundle"
cp -r a corrupt
printf '{"n":2,"median_ms":1}\n{"n":3,"med' >> corrupt/exp.jsonl
OUT=$(lb compare a corrupt 2>&1); RC=$?
expect_rc 2
expect_err "corrupt/exp.jsonl:line 3: malformed JSON"
cp -r a badmachine
echo '[1' > badmachine/machine.json
OUT=$(lb compare a badmachine 2>&1); RC=$?
expect_rc 2
OUT=$(lb compare --help); RC=$?
expect_rc 0
expect_err "diff = (B - A) / A"
OUT=$(lb compare a 2>&1); RC=$?
expect_rc 2
