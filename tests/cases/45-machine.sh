# machine.json says where results were measured: deleting it re-measures
# every experiment (even those whose results are up to date); a corrupt one
# is an error until it is deleted.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
runs: 1
```
MD
build
expect_rc 0
expect_file res/machine.json
# A run writes a new file renamed into place: a rewrite has a new inode.
t0=$(stat -c %i res/sq.jsonl)
build
[ "$(stat -c %i res/sq.jsonl)" = "$t0" ] || fail "a no-op build re-ran sq"
rm res/machine.json
build
expect_rc 0
[ "$(stat -c %i res/sq.jsonl)" != "$t0" ] || fail "deleting machine.json re-measured nothing"
expect_file res/machine.json
echo 'not json' > res/machine.json
build
expect_rc 1
expect_err "res/machine.json: error: not a JSON object; delete it to re-measure"
rm res/machine.json
build
expect_rc 0
