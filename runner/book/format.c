/* format.c - a value as the book prints it: with an author's printf
 * format, or one picked by magnitude (format.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book/format.h"
#include "base/util.h"

/*
 * The one conversion of fmt, or 0 when fmt is not acceptable: its flags
 * must be defined for the conversion, and a width or precision of more
 * than two digits is refused (printf would spend seconds and gigabytes on
 * "%.999999999f").
 */
static char format_conv(const char *fmt)
{
	char conv = 0;
	for (const char *s = fmt; *s; s++) {
		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		if (conv)
			return 0;
		s++;
		size_t flags = strspn(s, "-+ 0#");
		const char *flag = s;
		s += flags;
		size_t width = strspn(s, "0123456789");
		s += width;
		size_t prec = 0;
		if (*s == '.') {
			s++;
			prec = strspn(s, "0123456789");
			s += prec;
		}
		if (!*s || !strchr("fFeEgGdis", *s) || width > 2 || prec > 2)
			return 0;
		conv = *s;
		for (size_t i = 0; i < flags; i++)
			if ((conv == 's' && flag[i] != '-') ||
			    ((conv == 'd' || conv == 'i') && flag[i] == '#'))
				return 0;
	}
	return conv;
}

/* fmt with its %d or %i conversion made %lld. Caller frees. */
static char *format_wide(const char *fmt)
{
	struct buf b = BUF_INIT;
	for (const char *s = fmt; *s; s++) {
		if (*s == '%' && s[1] == '%') {
			buf_puts(&b, "%%");
			s++;
			continue;
		}
		if (*s == '%') {
			size_t n = 1 + strspn(s + 1, "-+ 0123456789.");
			buf_put(&b, s, n);
			buf_puts(&b, "ll");
			s += n - 1;
			continue;
		}
		buf_putc(&b, *s);
	}
	return buf_detach(&b);
}

int format_valid(const char *fmt)
{
	return format_conv(fmt) != 0;
}

int value_format(struct value *v, const char *fmt, int html, struct buf *out,
                 char **err)
{
	if (value_scalar(v, err) != 0)
		return -1;
	char conv = fmt ? format_conv(fmt) : 0;
	if (fmt && !conv) {
		*err = xasprintf("'%s' is not a format for one value; use e.g. "
		                 "%%.1f, %%.0f, %%d, %%.3g or %%s", fmt);
		return -1;
	}
	/* Text values may be long: no fixed buffer cuts them (or a character). */
	struct buf tmp = BUF_INIT;
	if (v->type == VAL_STR) {
		if (fmt && conv != 's') {
			*err = xasprintf("the value is text ('%s'); format it with %%s",
			                 v->str);
			return -1;
		}
		if (fmt)
			buf_printf(&tmp, fmt, v->str);
		else
			buf_printf(&tmp, "%s", v->str);
	} else if (v->type == VAL_BOOL && !fmt) {
		buf_printf(&tmp, "%s", v->num ? "true" : "false");
	} else if (v->type == VAL_NUM || v->type == VAL_BOOL) {
		double x = v->num;
		if (!isfinite(x)) {
			*err = xstrdup("the value is not a finite number");
			return -1;
		} else if (conv == 's') {
			*err = xasprintf("the value is a number; format it with %%f, "
			                 "%%g or %%d");
			return -1;
		} else if (conv == 'd' || conv == 'i') {
			/* A whole number of any size a double holds exactly enough:
			 * printed as a 64-bit integer, never wrapped. */
			if (!isfinite(x) || fabs(x) >= 9.2e18) {
				*err = xasprintf("%g does not fit the format '%s'; use %%.0f "
				                 "or %%g", x, fmt);
				return -1;
			}
			char *wide = format_wide(fmt);
			buf_printf(&tmp, wide, llround(x));
			free(wide);
		} else if (fmt) {
			buf_printf(&tmp, fmt, x);
		} else if (x == floor(x) && fabs(x) < 1e15) {
			/* Whole numbers are most cells of a records table; this
			 * avoids printf's floating-point path, the render's hot spot. */
			char digits[24];
			long long v = (long long)x;
			unsigned long long u = v < 0 ? 0ull - (unsigned long long)v
			                             : (unsigned long long)v;
			size_t k = sizeof digits;
			digits[--k] = '\0';
			do
				digits[--k] = (char)('0' + u % 10);
			while (u /= 10);
			if (v < 0)
				digits[--k] = '-';
			buf_puts(&tmp, digits + k);
		} else if (fabs(x) >= 1e15) {
			buf_printf(&tmp, "%.4g", x); /* not 16 digits and more */
		} else if (fabs(x) >= 100) {
			buf_printf(&tmp, "%.0f", x);
		} else if (fabs(x) >= 10) {
			buf_printf(&tmp, "%.1f", x);
		} else {
			buf_printf(&tmp, "%.3g", x);
		}
	} else {
		*err = xstrdup("the expression has no value");
		return -1;
	}
	if (html)
		buf_put_html(out, tmp.data ? tmp.data : "", tmp.len);
	else
		buf_put(out, tmp.data ? tmp.data : "", tmp.len);
	buf_free(&tmp);
	return 0;
}
