/* diag.c - diagnostics (diag.h): reported once, counted, or silenced. */
#include "base/diag.h"

#include <stdio.h>

#include "base/buf.h"
#include "base/mem.h"


static int ndiag, nwarn;
static int quiet;
static struct buf *warn_log;

static void vreport(const char *kind, const char *file, int line, int col,
                    const char *fmt, va_list ap)
{
	if (quiet)
		return;
	struct buf b = BUF_INIT;
	if (file && line > 0 && col > 0)
		buf_printf(&b, "%s:%d:%d: %s: ", file, line, col, kind);
	else if (file && line > 0)
		buf_printf(&b, "%s:%d: %s: ", file, line, kind);
	else if (file)
		buf_printf(&b, "%s: %s: ", file, kind);
	else
		buf_printf(&b, "labbook: %s: ", kind);
	buf_vprintf(&b, fmt, ap);
	buf_putc(&b, '\n');
	fputs(b.data, stderr);
	if (warn_log && kind[0] == 'w')
		buf_put(warn_log, b.data, b.len);
	buf_free(&b);
}

void diag_log_warnings(struct buf *log)
{
	warn_log = log;
}

void diag_at_col(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", file, line, col, fmt, ap);
	va_end(ap);
	ndiag += !quiet;
}

void warn_at_col(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", file, line, col, fmt, ap);
	va_end(ap);
	nwarn += !quiet;
}

void diag_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", file, line, 0, fmt, ap);
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
	vreport("error", NULL, 0, 0, fmt, ap);
	va_end(ap);
	ndiag += !quiet;
}

void warn_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning", file, line, 0, fmt, ap);
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
