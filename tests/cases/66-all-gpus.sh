# An experiment with gpus: all runs alone, once no other experiment runs on
# any GPU, with every GPU of the build in CUDA_VISIBLE_DEVICES; its cache
# key covers each of them. (--gpus 2 and an inherited CUDA_VISIBLE_DEVICES
# stand in for real GPUs; the experiments are C programs.) Each run notes
# its start and its end in one log, a line per write with O_APPEND, so the
# order of the events, not their times, says whether two runs overlapped.
kernel ev <<'C'
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void note(const char *what, const char *name, const char *dev)
{
	char line[256];
	int n = snprintf(line, sizeof line, "%s %s %s\n", what, name, dev);
	int fd = open("events.log", O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		exit(1);
	close(fd);
}
int main(int argc, char **argv)
{
	const char *dev = getenv("CUDA_VISIBLE_DEVICES");
	dev = dev ? dev : "none";
	note("start", argv[1], dev);
	/* Long enough that runs given out together would overlap. */
	struct timespec d = {0, 300000000};
	nanosleep(&d, NULL);
	note("end", argv[1], dev);
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	fprintf(f, "{\"dev\":\"%s\"}\n", dev);
	return 0;
}
C
{
	echo '# A'
	for k in a b c d; do
		printf '\n```{experiment} %s\nsource: kernels/ev/ev.c\nargs: %s\n```\n' $k $k
	done
	for k in w1 w2; do
		printf '\n```{experiment} %s\nsource: kernels/ev/ev.c\nargs: %s\ngpus: all\n```\n' $k $k
	done
} | chapter 01-a.md

# check_alone WANT: every gpus: all run saw WANT and overlapped no other
# run; the others each saw one GPU.
check_alone() {
	python3 - "$1" <<'PY' || fail "with CUDA_VISIBLE_DEVICES='$1' wanted: $(cat events.log)"
import json, sys
want = sys.argv[1]
whole = {"w1", "w2"}
running, ran = set(), set()
for line in open("events.log"):
    what, name, dev = line.split()
    if what == "start":
        if name in whole:
            assert dev == want, (name, dev)
            assert not running, f"{name} started while {running} ran"
        else:
            assert "," not in dev, (name, dev)
            assert not running & whole, f"{name} started while {running} ran"
        running.add(name)
        ran.add(name)
    else:
        running.remove(name)
assert not running, running
assert ran >= whole, ran
for k in whole:
    rec = json.loads(open(f"res/{k}.jsonl").read())
    assert rec["dev"] == want, rec
PY
	rm -f events.log
}

build --gpus 2 --progress
expect_rc 0
expect_err "running 4 experiments on 2 GPUs"
expect_err "running 2 experiments alone on every GPU (0,1)"
expect_err "] all GPUs: 1/6 w1"
check_alone 0,1
python3 - <<'PY' || fail "the share of each GPU did not run on both"
import json
devs = sorted({json.loads(open(f"res/{k}.jsonl").read())["dev"] for k in "abcd"})
assert devs == ["0", "1"], devs
meta = json.load(open("res/w1.meta.json"))
assert meta["gpu_count"] == 2 and meta.get("build"), meta
PY
expect_html a.html "with 2 GPUs visible"

# A batch system's GPUs are the list it gets, in their order.
CUDA_VISIBLE_DEVICES=7,5 build --gpus 2 --rerun-all --runs 1
expect_rc 0
check_alone 7,5

# Another GPU in the list runs it again; the others, which see one GPU
# each and are C programs, stay cached. So does one GPU fewer.
build_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["build"])' "res/$1.meta.json"; }
ran_w1=$(build_of w1) ran_a=$(build_of a)
CUDA_VISIBLE_DEVICES=7,5 build --gpus 2 --runs 1
expect_rc 0
[ "$(build_of w1)" = "$ran_w1" ] || fail "w1 ran again with the same GPUs"
[ ! -e events.log ] || fail "a run started with nothing changed: $(cat events.log)"
CUDA_VISIBLE_DEVICES=7,6 build --gpus 2 --runs 1
expect_rc 0
[ "$(build_of w1)" != "$ran_w1" ] || fail "w1 did not run again when a GPU of its list changed"
[ "$(build_of a)" = "$ran_a" ] || fail "a ran again, though its one GPU's name is not in its key"
check_alone 7,6
ran_w2=$(build_of w2)
CUDA_VISIBLE_DEVICES=7,6 build --gpus 1 --runs 1
expect_rc 0
[ "$(build_of w2)" != "$ran_w2" ] || fail "w2 did not run again on one GPU fewer"
check_alone 7

# A value other than all or one is an error at its line; the rest builds
# and the results stay.
sed -i 's/^gpus: all$/gpus: 2/' chapters/01-a.md
CUDA_VISIBLE_DEVICES=7,6 build --gpus 1 --runs 1
expect_rc 1
line=$(grep -n '^gpus: 2$' chapters/01-a.md | head -n 1 | cut -d: -f1)
expect_err "chapters/01-a.md:$line: error: option 'gpus' wants all (every GPU at once, alone) or one, not '2'"
expect_file res/w1.jsonl
expect_file res/a.jsonl
