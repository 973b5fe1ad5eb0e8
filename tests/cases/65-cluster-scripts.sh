# tools/cluster with hostile values: every job script it writes is valid
# shell that passes each value as one word, whatever it holds (quotes, a
# newline, $(...), backquotes, spaces); a partition, GPU type or account
# that could break a #SBATCH line is refused before anything is submitted;
# a submit that sbatch refuses part-way leaves nothing queued, or names
# what to cancel. sbatch and scancel are fakes that keep what they are given.
CL=$ROOT/tools/cluster
FAKE=$PWD/fake
mkdir -p "$FAKE/bin"
cat > "$FAKE/bin/sbatch" <<'SH'
#!/bin/sh
# Answers job ids 1001, 1002, ...; refuses the call numbered $SBATCH_REFUSE.
n=$(( $(cat "$FAKE/count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$FAKE/count"
for a; do last=$a; done
printf '%s\0' "$@" > "$FAKE/args.$n"
cp "$last" "$FAKE/script.$n"
if [ "$n" = "${SBATCH_REFUSE:-0}" ]; then
	echo "sbatch: error: Batch job submission failed: Invalid account" >&2
	exit 1
fi
echo "$((1000 + n))"
SH
cat > "$FAKE/bin/scancel" <<'SH'
#!/bin/sh
printf '%s\n' "$@" >> "$FAKE/cancelled"
[ -z "${SCANCEL_FAIL:-}" ] || { echo "scancel: error: Unable to contact slurm controller" >&2; exit 1; }
SH
chmod +x "$FAKE/bin/sbatch" "$FAKE/bin/scancel"
export FAKE PATH="$FAKE/bin:$PATH"

# The project and the runner live in folders whose names would break a
# script that pasted them; the runner records its folder and arguments.
nl='
'
proj="$PWD/o'brien lab \$(touch pwned) \`touch pwned\`${nl}x"
mkdir -p "$proj" "$proj/bin 'q'"
lbfake="$proj/bin 'q'/labbook"
cat > "$lbfake" <<'SH'
#!/bin/sh
printf '%s\0' "$PWD" "$@" > "$FAKE/labbook.args"
SH
chmod +x "$lbfake"
hostile="Ada's \"GPU\" notes \$(touch pwned) \`touch pwned\` ;${nl}touch pwned"
res="res 'q' \$(touch pwned)"
chap="ch \`touch pwned\`"

# nul_args FILE ARGS...: FILE holds exactly ARGS, NUL-separated.
nul_args() {
	f=$1
	shift
	printf '%s\0' "$@" | cmp -s - "$f" || fail "$f holds $(tr '\0' '|' < "$f" 2>/dev/null), want $(printf '%s|' "$@")"
}

cd "$proj" || exit 1
OUT=$(LABBOOK="$lbfake" TITLE="$hostile" RESULTS_DIR="$res" CHAPTERS="$chap" \
	SITE="site 'x'" TEMPLATES="tmpl \$(x)" CLUSTER_SITE_FLAGS=--strict \
	CLUSTER_BUILD="--runs 1 \$(touch pwned) \`touch pwned\`" \
	"$CL" submit gpu:a100:2 mine=dbg 2>&1); RC=$?
expect_rc 0
expect_err "cluster: job 1001 measures into $res/gpu-a100x2"
expect_err "cluster: job 1003 renders"
n=0
for s in build/cluster/gpu-a100x2.sbatch build/cluster/mine.sbatch build/cluster/gather.sbatch; do
	n=$((n + 1))
	[ -f "$s" ] || { fail "$s is missing"; continue; }
	bash -n "$s" 2>/dev/null || fail "$s is not valid shell: $(bash -n "$s" 2>&1)"
	cmp -s "$s" "$FAKE/script.$n" || fail "sbatch was not given $s"
done
grep -q '^#SBATCH --partition=gpu$' build/cluster/gpu-a100x2.sbatch || fail "no partition line"
grep -q '^#SBATCH --gres=gpu:a100:2$' build/cluster/gpu-a100x2.sbatch || fail "no gres line"
tr '\0' '\n' < "$FAKE/args.3" | grep -qx -- '--dependency=afterany:1001:1002' ||
	fail "the gathering job does not wait for both: $(tr '\0' ' ' < "$FAKE/args.3")"
tr '\0' '\n' < "$FAKE/args.1" | grep -qxF -- "--chdir=$proj" 2>/dev/null ||
	printf '%s\0' "--chdir=$proj" | grep -qzF -- "--chdir=$proj" "$FAKE/args.1" ||
	fail "sbatch is not told the project's folder"

# Run as Slurm would, from another folder: each value arrives whole.
(cd / && SLURM_JOB_ID=1001 SLURM_JOB_PARTITION=gpu SLURMD_NODENAME=n1 SLURM_CPUS_ON_NODE=2 bash "$proj/build/cluster/gpu-a100x2.sbatch" >/dev/null 2>&1) ||
	fail "the measuring script failed"
nul_args "$FAKE/labbook.args" "$proj" build --no-site --results "$res/gpu-a100x2" \
	--chapters "$chap" -j 2 --runs 1 '$(touch' 'pwned)' '`touch' 'pwned`'
(cd / && bash "$proj/build/cluster/gather.sbatch" >/dev/null 2>&1) ||
	fail "the gathering script failed"
nul_args "$FAKE/labbook.args" "$proj" build --no-run --results "$res/gpu-a100x2" \
	--compare "$res/mine" --title "$hostile" --site "site 'x'" --chapters "$chap" \
	--templates "tmpl \$(x)" --strict
# And tools/cluster gather, with the bundles the submit left.
LABBOOK="$lbfake" "$CL" gather >/dev/null 2>&1
nul_args "$FAKE/labbook.args" "$proj" build --no-run --results "$res/gpu-a100x2" \
	--compare "$res/mine" --site site --chapters chapters --templates templates

# What could break a #SBATCH line is refused, and nothing is submitted.
rm -f "$FAKE/count"
rm -rf build
for e in "gpu${nl}touch pwned" "g'pu" 'gpu$(touch pwned)' 'gpu`touch pwned`' 'gpu x' \
	"gpu:a100${nl}#SBATCH --wrap=x:2" "gpu:a'1:2" 'gpu:$(x):1' 'n$(x)=gpu'; do
	OUT=$(LABBOOK="$lbfake" "$CL" submit gpu "$e" 2>&1); RC=$?
	expect_rc 2
	expect_err "may hold only letters, digits, '.', '_' and '-'"
	OUT=$("$CL" script "$e" 2>&1); RC=$?
	expect_rc 2
done
for f in "--account=o'brien" '--account=a;b' "-A a\$(x)" '-p g`x`' '--partition=a"b'; do
	OUT=$(LABBOOK="$lbfake" CLUSTER_FLAGS="$f" "$CL" submit gpu 2>&1); RC=$?
	expect_rc 2
	expect_err "may hold only letters, digits, '.', '_' and '-'"
	OUT=$(LABBOOK="$lbfake" CLUSTER_GATHER="$f" "$CL" submit gpu 2>&1); RC=$?
	expect_rc 2
done
[ -e "$FAKE/count" ] && fail "a refused entry or option still reached sbatch"
expect_no_file build/cluster

# sbatch refuses the second job: the first is cancelled, nothing is left
# queued or recorded as submitted.
OUT=$(LABBOOK="$lbfake" SBATCH_REFUSE=2 "$CL" submit alpha beta 2>&1); RC=$?
expect_rc 1
expect_err "sbatch refused build/cluster/beta.sbatch"
expect_err "cancelled the jobs submitted before it: 1001"
[ "$(cat "$FAKE/cancelled" 2>/dev/null)" = 1001 ] || fail "scancel was not run on job 1001"
expect_no_file build/cluster/jobs
expect_no_file build/cluster/bundles
# The gathering job refused: both measuring jobs go.
rm -f "$FAKE/count" "$FAKE/cancelled"
OUT=$(LABBOOK="$lbfake" SBATCH_REFUSE=3 "$CL" submit alpha beta 2>&1); RC=$?
expect_rc 1
expect_err "sbatch refused the gathering job"
[ "$(cat "$FAKE/cancelled" 2>/dev/null | tr '\n' ' ')" = "1001 1002 " ] ||
	fail "scancel was not run on jobs 1001 and 1002: $(cat "$FAKE/cancelled" 2>/dev/null)"
# scancel fails too: the output names exactly what to cancel.
rm -f "$FAKE/count" "$FAKE/cancelled"
OUT=$(LABBOOK="$lbfake" SBATCH_REFUSE=3 SCANCEL_FAIL=1 "$CL" submit alpha beta gamma 2>&1); RC=$?
expect_rc 1
expect_err "they are still queued, with no job to gather them: cancel them with: scancel 1001 1002"

cd "$OLDPWD" || exit 1
# make's own recipes pass the title, the entries and the bundles as words
# (make cannot name a runner whose path has spaces: this one has none).
cp "$lbfake" "$FAKE/labbook"
lbfake=$FAKE/labbook
OUT=$(make -s -C "$ROOT" cluster PARTITIONS="gpu;touch $PWD/pwned" LABBOOK="$lbfake" -o "$lbfake" 2>&1); RC=$?
[ "$RC" = 0 ] && fail "make cluster took an entry holding ';'"
OUT=$(make -s -C "$ROOT" gather BUNDLES="r1 r'2" LABBOOK="$lbfake" -o "$lbfake" \
	TITLE="Ada's \`touch $PWD/pwned\` notes" SITE=s 2>&1); RC=$?
expect_rc 0
nul_args "$FAKE/labbook.args" "$ROOT" build --no-run --results r1 --compare "r'2" \
	--title "Ada's \`touch $PWD/pwned\` notes" --site s --chapters chapters --templates templates
[ -z "$(find "$PWD" "$ROOT" -maxdepth 3 -name pwned 2>/dev/null)" ] ||
	fail "a value was run as a command: $(find "$PWD" "$ROOT" -maxdepth 3 -name pwned)"
true
