/*
 * util_text.c - text (util.h): UTF-8 checked and made safe to show, lines
 * and spaces trimmed, numbers read strictly, and words told apart by their
 * edit distance.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

int utf8_valid(const char *s, size_t len, int *bad_line)
{
	const unsigned char *p = (const unsigned char *)s;
	int line = 1;
	for (size_t i = 0; i < len;) {
		unsigned c = p[i];
		size_t n;
		unsigned min;
		if (c == '\n')
			line++;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1, min = 0x80, c &= 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2, min = 0x800, c &= 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3, min = 0x10000, c &= 0x07;
		} else {
			goto bad;
		}
		for (size_t k = 1; k <= n; k++) {
			if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
				goto bad;
			c = (c << 6) | (p[i + k] & 0x3f);
		}
		if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			goto bad;
		i += n + 1;
	}
	return 1;
bad:
	if (bad_line)
		*bad_line = line;
	return 0;
}

char *str_first_line(const char *s)
{
	return xstrndup(s, strcspn(s, "\n"));
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

char *str_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

int str_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static size_t utf8_seq(const unsigned char *p, size_t len)
{
	unsigned c = p[0], min;
	size_t n;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		n = 1, min = 0x80, c &= 0x1f;
	else if ((c & 0xf0) == 0xe0)
		n = 2, min = 0x800, c &= 0x0f;
	else if ((c & 0xf8) == 0xf0)
		n = 3, min = 0x10000, c &= 0x07;
	else
		return 0;
	for (size_t k = 1; k <= n; k++) {
		if (k >= len || (p[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[k] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n + 1;
}

/* Is p[i] a control to show? A lone CR is one unless it ends lines. */
static int control_byte(const unsigned char *p, size_t i, size_t len,
                        int cr_ends_lines)
{
	unsigned c = p[i];
	if (c == '\n' || c == '\t')
		return 0;
	if (c == '\r')
		return !cr_ends_lines && !(i + 1 < len && p[i + 1] == '\n');
	return c < 0x20 || c == 0x7f;
}

static char *make_safe(const char *s, size_t len, int cr_ends_lines,
                       size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	while (i < len && (n = utf8_seq(p + i, len - i)) &&
	       !control_byte(p, i, len, cr_ends_lines))
		i += n;
	if (i == len)
		return NULL;
	struct buf b = BUF_INIT;
	buf_put(&b, s, i);
	while (i < len) {
		n = utf8_seq(p + i, len - i);
		if (!n) {
			buf_puts(&b, "\xef\xbf\xbd"); /* U+FFFD */
			i++;
		} else if (control_byte(p, i, len, cr_ends_lines)) {
			unsigned pic = p[i] == 0x7f ? 0x2421 : 0x2400 + p[i];
			buf_putc(&b, (char)(0xe0 | (pic >> 12)));
			buf_putc(&b, (char)(0x80 | ((pic >> 6) & 0x3f)));
			buf_putc(&b, (char)(0x80 | (pic & 0x3f)));
			i++;
		} else {
			buf_put(&b, s + i, n);
			i += n;
		}
	}
	buf_puts(&b, "");
	if (out_len)
		*out_len = b.len;
	return buf_detach(&b);
}

char *text_make_safe(const char *s, size_t len, size_t *out_len)
{
	return make_safe(s, len, 0, out_len);
}

char *source_make_safe(const char *s, size_t len, size_t *out_len)
{
	return make_safe(s, len, 1, out_len);
}

int parse_long(const char *s, long min, long max, long *out)
{
	if (!s || !*s || !(isdigit((unsigned char)*s) || *s == '-' || *s == '+'))
		return -1;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*end || errno || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end || errno || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}


size_t str_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xmalloc((lb + 1) * sizeof *row);
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t corner = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = corner + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			corner = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

const char *str_nearest(const char *s, const char *const *words, size_t n)
{
	const char *best = NULL;
	size_t dbest = (strlen(s) + 2) / 3 > 1 ? (strlen(s) + 2) / 3 : 1;
	for (size_t i = 0; i < n; i++) {
		size_t d = str_distance(s, words[i]);
		if (d <= dbest && (!best || d < str_distance(s, best)))
			best = words[i];
	}
	return best;
}
