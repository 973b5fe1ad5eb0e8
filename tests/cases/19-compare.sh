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
