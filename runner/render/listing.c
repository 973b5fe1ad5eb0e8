/* listing.c - a kernel's SASS from the bundle as HTML (listing.h). */
#include "render/listing.h"

#include <stdlib.h>
#include <string.h>

#include "bundle/ptxas.h"
#include "base/util.h"

/* Is the instruction on this line one of the marked mnemonics? */
static int marked(const char *line, size_t n, const char *marks)
{
	if (!marks)
		return 0;
	const char *p = strstr(line, "*/");
	if (!p || (size_t)(p - line) > n)
		return 0;
	p += 2;
	while (*p == ' ')
		p++;
	if (*p == '@')
		p += strcspn(p, " ") + 1;
	size_t op = strcspn(p, " .;");
	for (const char *m = marks; *m;) {
		while (*m == ' ' || *m == ',')
			m++;
		size_t k = strcspn(m, " ,");
		if (k && k == op && !strncmp(m, p, k))
			return 1;
		m += k;
	}
	return 0;
}

int listing_sass(struct buf *out, const struct bundle *b, const char *exp,
                 const char *kernel, const char *marks, char **err)
{
	char *text = bundle_listing_read(b, exp);
	int rc = -1;
	if (!text) {
		*err = xasprintf("no SASS recorded for experiment '%s' (it is "
		                 "captured with cuobjdump when the experiment runs)",
		                 exp);
		goto out;
	}
	struct buf names = BUF_INIT;
	const char *start = NULL, *end = NULL;
	for (const char *p = strstr(text, "Function : "); p;
	     p = strstr(p + 1, "Function : ")) {
		size_t n = strcspn(p + 11, "\n\r");
		char *mangled = xstrndup(p + 11, n);
		/* Listings recorded now carry the demangled name on the next line;
		 * older ones are demangled here, in-process. */
		const char *next_line = p + 11 + n + (p[11 + n] ? 1 : 0);
		next_line += strspn(next_line, " \t");
		char *name;
		if (str_starts(next_line, SASS_DEMANGLED)) {
			char *full = str_first_line(next_line + strlen(SASS_DEMANGLED));
			name = kernel_short_name(full);
			free(full);
		} else {
			name = kernel_name(str_trim(mangled));
		}
		buf_printf(&names, "%s%s", names.len ? ", " : "", name);
		if (!start && !strcmp(name, kernel)) {
			start = p + 11 + n;
			const char *next = strstr(start, "Function : ");
			const char *dots = strstr(start, "\n\t\t..........");
			end = next ? next : start + strlen(start);
			if (dots && dots < end)
				end = dots;
		}
		free(name);
		free(mangled);
	}
	if (!start) {
		*err = xasprintf("experiment '%s' has no kernel '%s' in its SASS; "
		                 "it has: %s", exp, kernel, names.len ? names.data : "none");
		buf_free(&names);
		goto out;
	}
	buf_free(&names);

	struct buf body = BUF_INIT;
	size_t total = 0, nmarked = 0;
	for (const char *p = start; p < end;) {
		size_t n = strcspn(p, "\n");
		if (p + n > end)
			n = (size_t)(end - p);
		const char *code = p;
		while (code < p + n && (*code == ' ' || *code == '\t'))
			code++;
		if (code < p + n && code[0] == '/' && code[1] == '*') {
			int m = marked(code, (size_t)(p + n - code), marks);
			total++;
			nmarked += m;
			buf_puts(&body, m ? "<span class=\"line mark\">" : "<span class=\"line\">");
			buf_put_html(&body, code, (size_t)(p + n - code));
			buf_puts(&body, "</span>\n");
		}
		p += n + 1;
	}
	buf_printf(out, "<details class=\"sass\"><summary>SASS of <code>");
	buf_puts_html(out, kernel);
	buf_printf(out, "</code>: %zu instructions", total);
	if (marks) {
		buf_printf(out, ", %zu of them ", nmarked);
		buf_puts_html(out, marks);
	}
	buf_puts(out, "</summary>\n<pre class=\"code sass\" tabindex=\"0\"><code>");
	buf_put(out, body.data ? body.data : "", body.len);
	buf_puts(out, "</code></pre></details>\n");
	buf_free(&body);
	rc = 0;
out:
	free(text);
	return rc;
}
