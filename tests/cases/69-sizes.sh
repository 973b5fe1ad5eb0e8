# Sizes: a chart with more series or points than a reader can tell apart is
# an error at its line that says how to draw fewer, and the rest of the book
# is still built; a table shows its first rows and links the records file;
# many values in one paragraph are all computed; a build of a huge chapter
# stops on SIGTERM with 143 and leaves no page cut short.
mkdir -p res kernels/e chapters
echo 'int main(void) { return 0; }' > kernels/e/e.c
python3 - <<'PY'
import json
date = "2026-01-02T03:04:05Z"
json.dump({"gpu": "none", "date": date}, open("res/machine.json", "w"))
def exp(name, rows):
    with open(f"res/{name}.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    open(f"res/{name}.out", "w").write("ok\n")
    json.dump({"id": name, "source": "kernels/e/e.c", "exit_status": 0,
               "seconds": 0.01, "date": date, "records": len(rows),
               "runs": 1}, open(f"res/{name}.meta.json", "w"))
# 100 series of 4 points; 20001 points in one series; 1000 rows.
exp("many", [{"n": k % 4, "s": k // 4, "ms": k + 1.0} for k in range(400)])
exp("long", [{"n": k, "ms": k + 1.0} for k in range(20001)])
exp("rows", [{"n": k, "ms": k + 0.5} for k in range(1000)])
PY
for e in many long rows; do
	cp -r kernels/e "kernels/$e" && mv "kernels/$e/e.c" "kernels/$e/$e.c"
	sed -i "s|kernels/e/e.c|kernels/$e/$e.c|" "res/$e.meta.json"
done
chapter 01-charts.md <<'MD'
# Charts

```{experiment} many
source: kernels/many/many.c
```

```{chart} too-many-series
data: many
x: n
y: ms
series: s
```

```{chart} few-series
data: many
x: n
y: ms
series: s
where: s<4
```

```{experiment} long
source: kernels/long/long.c
```

```{chart} too-many-points
data: long
x: n
y: ms
```

```{experiment} rows
source: kernels/rows/rows.c
```

```{table}
data: rows
columns: n, ms
```

The last paragraph of the chapter.
MD
build --no-run
expect_rc 1
expect_err "chapters/01-charts.md:7: error: chart 'too-many-series': more than 64 series"
expect_err "where: s=..."
expect_err "highlight:"
expect_err "chapters/01-charts.md:26: error: chart 'too-many-points': more than 20000 points"
expect_no_err "few-series"
expect_file site/fig/few-series.svg
expect_no_file site/fig/too-many-series.svg
expect_no_file site/fig/too-many-points.svg
expect_html charts.html "The last paragraph of the chapter."
# The table: 400 rows on the page, a link to all 1000.
rows=$(python3 -c '
import sys
h = open("site/charts.html").read()
note = h.find("The first 400 of 1000 rows")
start = h.rfind("<table", 0, note)
print(h.count("<tr", start, note) if note > 0 else -1)')
[ "$rows" = 401 ] || fail "the table shows $rows rows with its head, want 401"
expect_html charts.html 'The first 400 of 1000 rows; all are in <a href="data/rows.jsonl">'
expect_file site/data/rows.jsonl

# 20000 values in one paragraph: every one computed, on the right line.
python3 - <<'PY'
with open("chapters/02-values.md", "w") as f:
    f.write("# Values\n\n" + " ".join("{{ max(rows.n) }}" for _ in range(20000))
            + "\n{{ nope.n }}\n")
PY
build --no-run
expect_err "chapters/02-values.md:4: error:"
n=$(grep -o '\b999\b' site/values.html | wc -l)
[ "$n" = 20000 ] || fail "values.html shows $n of the 20000 values"

# A huge chapter: SIGTERM once its pages are being made.
rm -f chapters/01-charts.md
python3 - <<'PY'
with open("chapters/02-values.md", "w") as f:
    f.write("# Values\n\n" + " ".join("{{ max(rows.n) }}" for _ in range(400000))
            + "\n\nThe end of the huge chapter.\n")
PY
rm -rf site
lb_bg build --no-run --results res --site site --templates "$ROOT/templates" --quiet
pid=$BG
# The assets are copied just before the pages are made. Whether SIGTERM
# comes before the pages or while they are made, the case holds.
# Wait for it on inotify: the folder site/ made, then style.css in it (or
# the build ended first).
timeout "$WAIT_LIMIT" python3 - "$pid" <<'PY' || fail "waited $WAIT_LIMIT s for site/style.css"
import ctypes, os, select, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init()
made = 0x100 | 0x80  # IN_CREATE, IN_MOVED_TO
libc.inotify_add_watch(fd, b".", made)
try:
    build = os.pidfd_open(int(sys.argv[1]))
except ProcessLookupError:
    sys.exit(0)
armed = False
while not os.path.exists("site/style.css"):
    if not armed and os.path.isdir("site"):
        libc.inotify_add_watch(fd, b"site", made)
        armed = True
        continue
    if build in select.select([fd, build], [], [])[0]:
        break
    os.read(fd, 65536)
PY
kill -TERM $pid
finish $pid
rc=$RC
[ "$rc" = 143 ] || fail "a build sent SIGTERM exited $rc, want 143"
if [ -e site/values.html ]; then
	grep -q 'The end of the huge chapter.' site/values.html &&
		grep -q '</html>' site/values.html || fail "values.html was left cut short"
fi
expect_no_file site/.labbook-stamp
build --no-run
expect_rc 0
expect_html values.html 'The end of the huge chapter.'
