# A phone: no page is wider than a 360 px screen, and a chart's values
# answer a tap and the keyboard, not only a mouse. Long inline code breaks
# anywhere; a wide table and a long line of code scroll inside their own
# box. Every point of a chart takes focus (tabindex) and a tap or Tab shows
# its title in the chart's tip (templates/page.js); the drawing is no link
# to the bare SVG; the values are folded under the chart as a table, which
# the caption links beside the CSV. In a browser (tools/check-phone.js,
# which check-site runs), the book passes, and a page with a planted
# overflow, or without page.js, fails.
mkdir -p res kernels/e chapters
echo 'int main(void) { return 0; }' > kernels/e/e.c
python3 - <<'PY'
import json
date = "2026-01-02T03:04:05Z"
json.dump({"gpu": "none", "date": date}, open("res/machine.json", "w"))
with open("res/e.jsonl", "w") as f:
    for s in ("one", "two"):
        for k, n in enumerate((1024, 4096, 16384)):
            y = 10.0 * (k + 1) + (3 if s == "two" else 0)
            f.write(json.dumps({"s": s, "n": n, "gbps": y, "gbps_lo": y - 1,
                                "gbps_hi": y + 1, "runs": 3, "reps": 9}) + "\n")
open("res/e.out", "w").write("ok\n")
json.dump({"id": "e", "source": "kernels/e/e.c", "exit_status": 0,
           "seconds": 0.01, "date": date, "records": 6, "runs": 3},
          open("res/e.meta.json", "w"))
PY
long=smsp__sass_thread_inst_executed_op_control_pred_on.sum.per_cycle_active_and_more
chapter 01-phone.md <<MD
# Phone

The counter \`$long\` and the call \`cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1)\` are long.

| a | b | c | d | e | f |
|---|---|---|---|---|---|
| $long | $long | $long | $long | $long | $long |

\`\`\`
int a_very_long_line_of_code = one_function(with, many, arguments, that, never, wraps, at, all, 1, 2, 3, 4, 5, 6);
\`\`\`

\`\`\`{experiment} e
source: kernels/e/e.c
\`\`\`

\`\`\`{chart} lines
data: e
x: n
y: gbps
series: s
logx: 2
y-unit: GB/s
xlabel: elements
caption: Bandwidth against size.
\`\`\`
MD
build --no-run
expect_rc 0
expect_file site/page.js
expect_html phone.html '<script src="page.js" defer></script>'
expect_html phone.html '<div class="chart-full">'
expect_no_html phone.html '<a class="chart-full"'
expect_html phone.html 'r="6" tabindex="0"><title>one: elements 1024 (2^10), 10 GB/s (9–11), 3 runs, 9 repetitions</title>'
expect_html phone.html '<a href="#values-lines">Table</a> · <a href="fig/lines.csv">CSV</a>'
expect_html phone.html '<details class="chart-data" id="values-lines"><summary>The values of Figure 1.1</summary>'
expect_html phone.html '<thead><tr><th>s</th><th class="num">elements</th><th class="num">gbps</th><th class="num">spread</th><th class="num">runs</th><th class="num">repetitions</th></tr></thead>'
expect_html phone.html '<tr><td>two</td><td class="num">16384 (2^14)</td><td class="num">33 GB/s</td><td class="num">32–34</td><td class="num">3</td><td class="num">9</td></tr>'
[ "$(grep -c 'tabindex="0"><title>' site/phone.html)" = 6 ] || fail "want 6 focusable points"
# The one-page book's copy of the link names its own id.
grep -q 'href="#phone:values-lines"' site/book.html || fail "book.html: the table link is not rewritten"

chromium=${CHROMIUM:-/usr/bin/chromium}
modules=$ROOT/build/node/node_modules
if [ ! -x "$chromium" ] || [ ! -d "$modules/puppeteer-core" ]; then
	why="the browser part not run: no chromium, or no puppeteer-core in build/node (make check-site installs it)"
	if type skip_part > /dev/null 2>&1; then
		skip_part "$why" chromium
	else
		echo "  $CASE: $why" >&2
	fi
else
	phone() { OUT=$(NODE_PATH=$modules CHROMIUM=$chromium node "$ROOT/tools/check-phone.js" "$1" 360 2>&1); RC=$?; }
	phone site
	expect_rc 0
	expect_err "0 wider (the widest 360 px)"
	expect_err "charts on 1 page answer Tab, arrows and a tap"
	# A planted overflow is caught and named.
	cp -r site planted
	sed -i 's|<main id="main">|<main id="main"><div class="planted" style="width: 500px">wide</div>|' planted/phone.html
	phone planted
	expect_rc 1
	expect_err 'FAIL phone.html: '
	expect_err 'div.planted "wide"'
	# Without page.js a point still takes focus, but nothing shows its value.
	rm -rf planted && cp -r site planted && : > planted/page.js
	phone planted
	expect_rc 1
	expect_err 'FAIL phone.html: Tab to a point shows ""'
fi
