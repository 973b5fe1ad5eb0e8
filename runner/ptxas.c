#define _GNU_SOURCE
#include "ptxas.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "exec.h"
#include "util.h"

static char *first_line(const char *s)
{
	return xstrndup(s, strcspn(s, "\n"));
}

/* "void fma_chains<1>(float*, float, float, int)" -> "fma_chains<1>". */
static char *kernel_name(const char *mangled)
{
	char *argv[] = {"c++filt", (char *)mangled, NULL};
	char *out = exec_capture(argv, 10);
	char *name = out ? first_line(out) : xstrdup(mangled);
	free(out);
	char *s = name;
	if (str_starts(s, "void "))
		s += 5;
	int depth = 0;
	char *p = s;
	for (; *p; p++) {
		if (*p == '<')
			depth++;
		else if (*p == '>')
			depth--;
		else if (*p == '(' && depth == 0)
			break;
	}
	char *r = xstrndup(s, (size_t)(p - s));
	free(name);
	return r;
}

char *ptxas_parse(const char *text)
{
	char *log = xstrdup(text);
	struct buf out = BUF_INIT;
	cJSON *rec = NULL;
	char *save = NULL;
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
		} else if (rec && sscanf(l, " %ld bytes stack frame, %ld bytes spill "
		                         "stores, %ld bytes spill loads", &a, &b2,
		                         &c) == 3) {
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

