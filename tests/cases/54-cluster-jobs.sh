# tools/cluster: an entry becomes a job that asks for its partition and
# GPUs and measures into a bundle named after them; a wrong entry is
# refused. A build inside a Slurm job records the job in machine.json, and
# one outside records none.
CL=$ROOT/tools/cluster
OUT=$("$CL" script gpu:a100:4 2>&1); RC=$?
expect_rc 0
expect_err "#SBATCH --partition=gpu"
expect_err "#SBATCH --gres=gpu:a100:4"
expect_err "--no-site --results 'results/gpu-a100x4'"
OUT=$("$CL" script mine=debug 2>&1); RC=$?
expect_rc 0
expect_err "--results 'results/mine'"
expect_no_err "--gres"
OUT=$("$CL" script 'gpu::two' 2>&1); RC=$?
expect_rc 2
expect_err "the GPU count 'two' is not a number"

records_kernel sq
chapter 01-squares.md <<'MD'
# Squares

```{experiment} sq
source: kernels/sq/sq.c
```
MD
SLURM_JOB_ID=4242 SLURM_JOB_PARTITION=gpu SLURMD_NODENAME=node7 build --no-site
expect_rc 0
grep -q '"slurm_job_id":[[:space:]]*"4242"' res/machine.json || fail "no job id: $(cat res/machine.json)"
grep -q '"slurm_partition":[[:space:]]*"gpu"' res/machine.json || fail "no partition"
grep -q '"slurm_node":[[:space:]]*"node7"' res/machine.json || fail "no node"
rm -rf res
env -u SLURM_JOB_ID -u SLURM_JOB_PARTITION -u SLURMD_NODENAME "$LABBOOK" build --results res --no-site --quiet 2>/dev/null
grep -q slurm_ res/machine.json && fail "a build outside Slurm records a job"
true
