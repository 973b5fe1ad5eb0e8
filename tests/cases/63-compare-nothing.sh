# labbook compare never passes on nothing: when no point could be compared
# it exits 2 and says why (no experiment in common, no median times, other
# parameters, all under --min-ms, only host-bound points). A median time
# that is zero, negative, null, a string or a boolean is an error naming
# the bundle's records file and line, in either bundle.
mkdir A B
echo '{"gpu":"x"}' > A/machine.json
cp A/machine.json B/machine.json
# pair E A-RECORD B-RECORD: experiment E holds one record in each bundle.
pair() {
	printf '%s\n' "$2" > "A/$1.jsonl"
	printf '%s\n' "$3" > "B/$1.jsonl"
}

# Nothing in common.
echo '{"n":1,"median_ms":1}' > A/only_a.jsonl
echo '{"n":1,"median_ms":1}' > B/only_b.jsonl
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "nothing compared between A and B: no experiment has records in both"
expect_no_err "0 points compared, largest"
rm A/only_a.jsonl B/only_b.jsonl

# In common, but with no fields in common.
pair e '{"n":1,"x":2}' '{"m":1,"y":3}'
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "of 1 experiment with records in both; of 1 pair of records at the same position, 1 lacks median_ms in one or both"

pair e '{"n":1,"median_ms":1}' '{"n":2,"median_ms":1}'
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "1 differs in parameters"

pair e '{"n":1,"median_ms":0.01}' '{"n":1,"median_ms":0.02}'
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "1 is under --min-ms 0.05 ms"
OUT=$(lb compare A B --min-ms 0.001 2>&1); RC=$?
expect_rc 1
expect_err "summary: 1 point compared, largest difference +100.00%"

pair e '{"n":1,"host_bound":true,"median_ms":1}' '{"n":1,"host_bound":true,"median_ms":1.01}'
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "1 is host-bound (never judged)"

# Medians that cannot be compared, with a blank line and a good record
# before them, so the line is the file's, not the record's number.
for bad in 0 -2.5 null '"500"' true; do
	printf '{"n":0,"median_ms":1}\n\n{"n":1,"median_ms":%s}\n' "$bad" > A/e.jsonl
	printf '{"n":0,"median_ms":1}\n{"n":1,"median_ms":500}\n' > B/e.jsonl
	OUT=$(lb compare A B --min-ms 0 2>&1); RC=$?
	expect_rc 2
	expect_err "A/e.jsonl:3: error: median_ms is "
	expect_err "a median time is a positive number of milliseconds"
	expect_no_err "+0.00%"
	# The same in B.
	OUT=$(lb compare B A --min-ms 0 2>&1); RC=$?
	expect_rc 2
	expect_err "A/e.jsonl:3: error: median_ms is "
done
expect_err 'median_ms is true'
printf '{"n":1,"median_ms":1e999}\n' > A/e.jsonl
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 2
expect_err "A/e.jsonl:line 1: field 'median_ms' is not a finite number"

# A sound pair compares, and passes.
pair e '{"n":1,"median_ms":1}' '{"n":1,"median_ms":1.01}'
OUT=$(lb compare A B 2>&1); RC=$?
expect_rc 0
expect_err "summary: 1 point compared, largest difference +1.00%"
