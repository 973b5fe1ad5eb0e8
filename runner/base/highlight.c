/* highlight.c - C, C++ and CUDA source as highlighted HTML (highlight.h). */
#include "base/highlight.h"

#include <ctype.h>
#include <string.h>

static const char *keywords[] = {
	"auto", "bool", "break", "case", "char", "const", "constexpr", "continue",
	"default", "do", "double", "else", "enum", "extern", "float", "for",
	"if", "inline", "int", "long", "namespace", "nullptr", "return", "short",
	"signed", "sizeof", "static", "struct", "switch", "template", "typename",
	"typedef", "unsigned", "using", "void", "volatile", "while", "class",
	"public", "private", "true", "false", "size_t", "__global__",
	"__device__", "__host__", "__shared__", "__constant__", "__restrict__",
	"__launch_bounds__", "__syncthreads", "__syncwarp", "float4", "int4",
	"dim3", NULL,
};

static int is_keyword(const char *s, size_t n)
{
	for (const char **k = keywords; *k; k++)
		if (strlen(*k) == n && !strncmp(*k, s, n))
			return 1;
	return 0;
}

static void span(struct buf *out, const char *cls, const char *s, size_t n)
{
	/* A span never crosses a line: close and reopen it at each newline. */
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '\n')
			continue;
		if (i > start) {
			if (cls)
				buf_printf(out, "<span class=\"%s\">", cls);
			buf_put_html(out, s + start, i - start);
			if (cls)
				buf_puts(out, "</span>");
		}
		if (i < n)
			buf_puts(out, "</span>\n<span class=\"line\">");
		start = i + 1;
	}
}

void highlight_c(struct buf *out, const char *src, size_t len)
{
	/* The newline that ends the last line starts no line of its own. */
	if (len && src[len - 1] == '\n')
		len--;
	buf_puts(out, "<span class=\"line\">");
	size_t i = 0;
	int line_start = 1;
	while (i < len) {
		const char *s = src + i;
		size_t n = 1;
		const char *cls = NULL;
		if (s[0] == '/' && i + 1 < len && s[1] == '*') {
			const char *end = strstr(s + 2, "*/");
			n = end ? (size_t)(end - s) + 2 : len - i;
			cls = "c";
		} else if (s[0] == '/' && i + 1 < len && s[1] == '/') {
			n = strcspn(s, "\n");
			cls = "c";
		} else if (line_start && s[0] == '#') {
			n = strcspn(s, "\n");
			cls = "pp";
		} else if (s[0] == '"' || s[0] == '\'') {
			while (i + n < len && s[n] != s[0] && s[n] != '\n')
				n += s[n] == '\\' && i + n + 1 < len ? 2 : 1;
			if (i + n < len && s[n] == s[0])
				n++;
			cls = "s";
		} else if (isdigit((unsigned char)s[0])) {
			while (i + n < len && (isalnum((unsigned char)s[n]) || s[n] == '.'))
				n++;
			cls = "n";
		} else if (isalpha((unsigned char)s[0]) || s[0] == '_') {
			while (i + n < len && (isalnum((unsigned char)s[n]) || s[n] == '_'))
				n++;
			cls = is_keyword(s, n) ? "k" : NULL;
		}
		if (i + n > len)
			n = len - i;
		span(out, cls, s, n);
		for (size_t k = 0; k < n; k++)
			if (s[k] == '\n')
				line_start = 1;
			else if (!isspace((unsigned char)s[k]))
				line_start = 0;
		i += n;
	}
	buf_puts(out, "</span>");
}

int highlight_is_c(const char *lang)
{
	static const char *names[] = {"c", "c++", "cpp", "cu", "cuda", "h", NULL};
	for (const char **n = names; *n; n++)
		if (!strcmp(lang, *n))
			return 1;
	return 0;
}
