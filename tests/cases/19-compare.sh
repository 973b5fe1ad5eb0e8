# compare finds a planted 10% difference and exits non-zero above --max-diff.
mkdir -p A B
printf '{"gpu":"x"}' > A/machine.json
cp A/machine.json B/machine.json
for i in 1 2 3; do
	echo "{\"n\":$i,\"v\":\"k\",\"median_ms\":1.00,\"min_ms\":0.99,\"max_ms\":1.01}" >> A/e.jsonl
done
sed 's/"median_ms":1.00/"median_ms":1.01/' A/e.jsonl > B/e.jsonl
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 0
expect_err "summary: 3 points compared, largest difference +1.00%"
sed -i '2s/"median_ms":1.01/"median_ms":1.10/' B/e.jsonl
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 1
expect_err "+10.00%  <-- over"
expect_err "summary: 3 points compared, largest difference +10.00% (e #1 n=2 v=k), 1 over 3.0%"
# A host-bound point (a copy through the host's CPU) is counted apart and
# does not fail the comparison; GPU points still do.
sed -i '2s/"median_ms":1.10/"median_ms":1.00/' B/e.jsonl
echo '{"n":9,"v":"h","host_bound":true,"median_ms":1.00,"min_ms":0.9,"max_ms":1.1}' >> A/e.jsonl
echo '{"n":9,"v":"h","host_bound":true,"median_ms":1.40,"min_ms":1.3,"max_ms":1.5}' >> B/e.jsonl
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 0
expect_err "summary: 3 points compared, largest difference +1.00%"
expect_err "; 1 host-bound point not judged, largest +40.00%"
# Two versions of a kernel measure the change, not the machines: an
# experiment built from other sources in each bundle (and its derived
# records) is listed and not compared, and with nothing else to compare
# the comparison exits 2; one source key missing compares.
sed -i '1s/"median_ms":1.01/"median_ms":1.50/' B/e.jsonl
cp A/e.jsonl A/e_sass.jsonl
cp B/e.jsonl B/e_sass.jsonl
echo '{"id":"e","source_key":"k1"}' > A/e.meta.json
echo '{"id":"e"}' > B/e.meta.json
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 1
echo '{"id":"e","source_key":"k2"}' > B/e.meta.json
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 2
expect_err "nothing compared between A and B: of 2 experiments with records in both, 2 were built from other sources in each"
expect_err "e            (built from other sources in each: not compared)"
expect_err "e_sass       (built from other sources in each: not compared)"
echo '{"id":"e","source_key":"k1"}' > B/e.meta.json
OUT=$(lb compare A B --max-diff 3 2>&1); RC=$?
expect_rc 1
expect_err "+50.00%  <-- over"
