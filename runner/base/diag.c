/* diag.c - diagnostics (diag.h): reported once, counted, or silenced. */
#include "base/diag.h"

#include <stdio.h>

#include "base/buf.h"
#include "base/mem.h"


static int ndiag, nwarn;
static int quiet;

static void vreport(const char *kind, const char *file, int line,
                    const char *fmt, va_list ap)
{
	if (quiet)
		return;
	if (file && line > 0)
		fprintf(stderr, "%s:%d: %s: ", file, line, kind);
	else if (file)
		fprintf(stderr, "%s: %s: ", file, kind);
	else
		fprintf(stderr, "labbook: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", file, line, fmt, ap);
	va_end(ap);
	ndiag += !quiet;
}

void diag_keepv(char **slot, const char *file, int line, const char *fmt,
                va_list ap)
{
	struct buf b = BUF_INIT;
	buf_vprintf(&b, fmt, ap);
	diag_at(file, line, "%s", b.data);
	if (!*slot)
		*slot = xasprintf("%s:%d: %s", file, line, b.data);
	buf_free(&b);
}

void diag_keep(char **slot, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_keepv(slot, file, line, fmt, ap);
	va_end(ap);
}

void diag(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", NULL, 0, fmt, ap);
	va_end(ap);
	ndiag += !quiet;
}

void warn_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", file, line, fmt, ap);
	va_end(ap);
	nwarn += !quiet;
}

int warn_count(void)
{
	return nwarn;
}

int diag_count(void)
{
	return ndiag;
}

void diag_quiet(int q)
{
	quiet = q;
}
