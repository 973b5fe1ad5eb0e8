# With several GPUs each runs its share at the same time, with its own
# CUDA_VISIBLE_DEVICES; runs on one GPU never overlap. (--gpus 2 stands in
# for two visible GPUs; the experiments here are C programs.) While the
# FIFO meet is there, a run on GPU 0 and one on GPU 1 wait for each other
# in it: they run at once, or never end.
for k in a b c d; do
	kernel $k <<'C'
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(void)
{
	double t0 = now();
	const char *dev = getenv("CUDA_VISIBLE_DEVICES");
	if (access("meet", F_OK) == 0)
		close(open("meet", dev && !strcmp(dev, "0") ? O_WRONLY : O_RDONLY));
	/* Long enough that runs on one GPU given out together would overlap. */
	struct timespec d = {0, 600000000};
	nanosleep(&d, NULL);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"dev\":\"%s\",\"t0\":%.6f,\"t1\":%.6f}\n", dev ? dev : "none",
	        t0, now());
	return 0;
}
C
done
chapter 01-a.md <<'MD'
# A

```{experiment} a
source: kernels/a/a.c
```

```{experiment} b
source: kernels/b/b.c
```

```{experiment} c
source: kernels/c/c.c
```

```{experiment} d
source: kernels/d/d.c
```
MD
mkfifo meet
LB_LIMIT=$WAIT_LIMIT build --gpus 2 --progress
rm meet
expect_rc 0
expect_err "running 4 experiments on 2 GPUs"
expect_err "] GPU 1: 1/6 "
expect_html runs.html ">measured in this build</span>"
for k in a b c d; do expect_file "res/$k.jsonl"; done
python3 - <<'PY' || fail "the runs were not spread over two GPUs, or overlapped on one"
import json, sys
runs = [json.loads(open(f"res/{k}.jsonl").read()) for k in "abcd"]
devs = sorted({r["dev"] for r in runs})
assert devs == ["0", "1"], devs
for dev in devs:
    mine = sorted((r["t0"], r["t1"]) for r in runs if r["dev"] == dev)
    assert all(a[1] <= b[0] for a, b in zip(mine, mine[1:])), mine
cross = [(r, s) for r in runs for s in runs if r["dev"] != s["dev"]
         and r["t0"] < s["t1"] and s["t0"] < r["t1"]]
assert cross, "no two GPUs ran at the same time"
PY
build --gpus 2
expect_rc 0
expect_html runs.html ">measured in this build</span>"
expect_no_html runs.html "earlier build"

# A batch system's CUDA_VISIBLE_DEVICES is kept: each worker gets one of its
# entries, never a GPU outside it.
CUDA_VISIBLE_DEVICES=5,7 build --gpus 2 --rerun-all
expect_rc 0
python3 - <<'PY' || fail "the workers did not run on the inherited GPUs 5 and 7"
import json
devs = sorted({json.loads(open(f"res/{k}.jsonl").read())["dev"] for k in "abcd"})
assert devs == ["5", "7"], devs
PY
CUDA_VISIBLE_DEVICES=5 build --gpus 2 --rerun-all --runs 1
expect_rc 0
expect_err "warning: --gpus 2, but 1 GPU of one model is visible; running on 1"
grep -q '"dev":"5"' res/a.jsonl || fail "with one inherited GPU the run left it"

# Facts that experiments on two GPUs measure all reach machine.json: each
# worker commits from its own copy of the bundle, so a fact merged by one
# must not be lost when the other writes machine.json after it.
for k in a b c d; do
	kernel $k <<C
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"fact\":\"fact_$k\",\"value\":1}\n");
	return 0;
}
C
done
rm -rf res
build --gpus 2
expect_rc 0
python3 - <<'PY' || fail "facts measured on two GPUs were lost from machine.json: $(cat res/machine.json)"
import json
m = json.load(open("res/machine.json"))["measured"]
assert sorted(m) == ["fact_a", "fact_b", "fact_c", "fact_d"], m
PY
