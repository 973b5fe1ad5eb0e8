/* ptxas.c - what the compiler reported, as records: registers and spills
 * from ptxas, SASS instruction counts, kernel names demangled (ptxas.h). */
#define _GNU_SOURCE
#include "bundle/ptxas.h"

#include <cjson/cJSON.h>
#include <libiberty/demangle.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

char *kernel_short_name(const char *demangled)
{
	const char *s = demangled;
	while (*s == ' ')
		s++;
	if (str_starts(s, "void "))
		s += 5;
	int depth = 0;
	const char *p = s;
	for (; *p; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>')
			depth--;
		else if (*p == '(' && depth == 0)
			break;
	}
	while (p > s && p[-1] == ' ')
		p--;
	return xstrndup(s, (size_t)(p - s));
}

char *kernel_demangle(const char *mangled)
{
	char *name = cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
	if (!name)
		return xstrdup(mangled);
	/* libiberty allocates with malloc; hand back our own copy. */
	char *copy = xstrdup(name);
	free(name);
	return copy;
}

char *kernel_name(const char *mangled)
{
	char *name = kernel_demangle(mangled);
	char *r = kernel_short_name(name);
	free(name);
	return r;
}

char *ptxas_parse(const char *text)
{
	char *log = xstrdup(text);
	struct buf out = BUF_INIT;
	cJSON *rec = NULL;
	char *save = NULL;
	int props_own = 0; /* the next stack frame line is the entry's */
	for (char *l = strtok_r(log, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *q;
		long a, b2, c;
		if ((q = strstr(l, "Compiling entry function '"))) {
			if (rec) {
				char *t = cJSON_PrintUnformatted(rec);
				buf_printf(&out, "%s\n", t);
				free(t);
				cJSON_Delete(rec);
			}
			q += strlen("Compiling entry function '");
			char *m = xstrndup(q, strcspn(q, "'"));
			char *name = kernel_name(m);
			rec = cJSON_CreateObject();
			props_own = 1;
			cJSON_AddStringToObject(rec, "kernel", name);
			cJSON_AddStringToObject(rec, "symbol", m);
			const char *arch = strstr(q, "for '");
			if (arch) {
				char *a2 = xstrndup(arch + 5, strcspn(arch + 5, "'"));
				cJSON_AddStringToObject(rec, "arch", a2);
				free(a2);
			}
			free(m);
			free(name);
		} else if ((q = strstr(l, "Function properties for "))) {
			/* Whose the stack frame line after it is: the entry's, or
			 * a device function's (-rdc), which is not the entry's. */
			q += strlen("Function properties for ");
			const cJSON *sym = cJSON_GetObjectItem(rec, "symbol");
			char *name = xstrdup(q);
			props_own = rec && cJSON_IsString(sym) &&
			            !strcmp(str_trim(name), sym->valuestring);
			free(name);
		} else if (rec && props_own &&
		           sscanf(l, " %ld bytes stack frame, %ld bytes spill "
		                  "stores, %ld bytes spill loads", &a, &b2, &c) == 3) {
			props_own = 0;
			cJSON_AddNumberToObject(rec, "stack_bytes", (double)a);
			cJSON_AddNumberToObject(rec, "spill_store_bytes", (double)b2);
			cJSON_AddNumberToObject(rec, "spill_load_bytes", (double)c);
		} else if (rec && (q = strstr(l, "Used ")) &&
		           sscanf(q, "Used %ld registers", &a) == 1) {
			cJSON_AddNumberToObject(rec, "registers", (double)a);
			const char *sm = strstr(q, "bytes smem");
			long smem = 0;
			if (sm) {
				while (sm > q && sm[-1] == ' ')
					sm--;
				while (sm > q && sm[-1] >= '0' && sm[-1] <= '9')
					sm--;
				smem = atol(sm);
			}
			cJSON_AddNumberToObject(rec, "smem_bytes", (double)smem);
		}
	}
	if (rec) {
		char *t = cJSON_PrintUnformatted(rec);
		buf_printf(&out, "%s\n", t);
		free(t);
		cJSON_Delete(rec);
	}
	free(log);
	if (!out.len) {
		buf_free(&out);
		return NULL;
	}
	return buf_detach(&out);
}


/* The mnemonic of an instruction line, after its address and any predicate:
 * "@!P0 FFMA.FTZ R10, ..." gives "FFMA". */
static int sass_op(const char *line, char *op, size_t size)
{
	const char *p = strstr(line, "/*");
	if (!p)
		return 0;
	p += 2;
	size_t hex = strspn(p, "0123456789abcdef");
	if (!hex || strncmp(p + hex, "*/", 2))
		return 0;
	p += hex + 2;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '@') {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	size_t n = 0;
	while ((p[n] >= 'A' && p[n] <= 'Z') || (n && p[n] >= '0' && p[n] <= '9'))
		n++;
	if (!n || n >= size)
		return 0;
	memcpy(op, p, n);
	op[n] = '\0';
	return 1;
}

struct sass_count {
	char op[32];
	long n;
};

static void sass_flush(struct buf *out, const char *kernel,
                       struct sass_count *c, size_t n)
{
	long total = 0;
	for (size_t i = 0; i < n; i++)
		total += c[i].n;
	for (size_t i = 0; i < n; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "kernel", kernel);
		cJSON_AddStringToObject(r, "op", c[i].op);
		cJSON_AddNumberToObject(r, "count", (double)c[i].n);
		cJSON_AddNumberToObject(r, "total", (double)total);
		char *t = cJSON_PrintUnformatted(r);
		buf_printf(out, "%s\n", t);
		free(t);
		cJSON_Delete(r);
	}
}

char *sass_clean(const char *dump)
{
	struct buf out = BUF_INIT;
	for (const char *p = dump; *p;) {
		size_t n = strcspn(p, "\n");
		const char *q = p;
		while (q < p + n && (*q == ' ' || *q == '\t'))
			q++;
		if (!strncmp(q, "Function : ", 11)) {
			/* The name a reader looks for, demangled once, here. */
			char *mangled = xstrndup(q + 11, (size_t)(p + n - q - 11));
			char *name = kernel_demangle(str_trim(mangled));
			buf_put(&out, p, n);
			buf_printf(&out, "\n%.*s" SASS_DEMANGLED "%s\n", (int)(q - p), p,
			           name);
			free(name);
			free(mangled);
			p += n + (p[n] ? 1 : 0);
			continue;
		}
		/* Lines holding only the second half of an encoding carry nothing. */
		int encoding = q + 4 < p + n && !strncmp(q, "/* 0x", 5);
		if (!encoding) {
			/* Drop the encoding comment at the end of instruction lines. */
			const char *enc = NULL;
			for (const char *s = p; s + 5 < p + n; s++)
				if (!strncmp(s, "/* 0x", 5))
					enc = s;
			size_t keep = enc ? (size_t)(enc - p) : n;
			while (keep > 0 && p[keep - 1] == ' ')
				keep--;
			buf_put(&out, p, keep);
			buf_putc(&out, '\n');
		}
		p += n + (p[n] ? 1 : 0);
	}
	return buf_detach(&out);
}

char *sass_parse(const char *dump)
{
	struct buf out = BUF_INIT;
	struct sass_count *c = NULL;
	size_t n = 0;
	char *kernel = NULL;
	for (const char *p = dump; *p;) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len);
		p += len + (p[len] ? 1 : 0);
		const char *f = strstr(line, "Function : ");
		char op[32];
		if (f) {
			if (kernel)
				sass_flush(&out, kernel, c, n);
			free(kernel);
			n = 0;
			kernel = kernel_name(str_trim((char *)f + 11));
		} else if (kernel && sass_op(line, op, sizeof op)) {
			size_t i = 0;
			while (i < n && strcmp(c[i].op, op))
				i++;
			if (i == n) {
				struct sass_count *s = ARRAY_PUSH(c, n);
				snprintf(s->op, sizeof s->op, "%s", op);
				s->n = 0;
			}
			c[i].n++;
		}
		free(line);
	}
	if (kernel)
		sass_flush(&out, kernel, c, n);
	free(kernel);
	free(c);
	if (!out.len) {
		buf_free(&out);
		return NULL;
	}
	return buf_detach(&out);
}
