#define _GNU_SOURCE
#include "measure/key.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/command.h"
#include "base/exec.h"
#include "base/util.h"

char **key_deps_read(const char *path, size_t *n)
{
	char *why = NULL;
	char *text = file_read_regular(path, KEY_INPUT_CAP, NULL, &why);
	char **files = NULL;
	*n = 0;
	free(why);
	if (!text)
		return NULL;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		cwd[0] = '\0';
	size_t ncwd = strlen(cwd);
	for (char *p = text; *p; p++)
		if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
			*p = ' ';
	char *save = NULL;
	for (char *w = strtok_r(text, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		size_t len = strlen(w);
		if (!strcmp(w, ":") && *n) {
			/* "target : deps" (nvcc's spacing): the target is no input. */
			free(files[--*n]);
			continue;
		}
		if (w[len - 1] == ':')
			continue;
		if (w[0] == '/') {
			if (!ncwd || strncmp(w, cwd, ncwd) || w[ncwd] != '/')
				continue;
			w += ncwd + 1;
		}
		int seen = 0;
		for (size_t i = 0; i < *n; i++)
			seen |= !strcmp(files[i], w);
		if (!seen)
			*ARRAY_PUSH(files, *n) = xstrdup(w);
	}
	free(text);
	*ARRAY_PUSH(files, *n) = NULL;
	(*n)--;
	return files;
}

char **key_inputs(const struct exper *e, const struct bundle *b,
                  const struct exp_result *r, size_t *n)
{
	char **files = NULL;
	*n = 0;
	const cJSON *in = r->meta ? cJSON_GetObjectItem(r->meta, "inputs") : NULL;
	const cJSON *f;
	char *meta_path = NULL;
	cJSON_ArrayForEach(f, in)
	{
		if (!cJSON_IsString(f))
			continue;
		char *norm = path_normalize(f->valuestring);
		const char *why = !norm                  ? "is not a path inside the project"
		                  : !file_exists(norm)   ? NULL
		                  : !path_in_project(norm)   ? "is outside the project"
		                  : !file_is_regular(norm) ? "is not a regular file"
		                                          : NULL;
		if (why) {
			if (!meta_path)
				meta_path = bundle_path(b, e->id, BF_META);
			diag_at(meta_path, 0, "input '%s' %s; it is not read (experiment "
			        "'%s' will run again)", f->valuestring, why, e->id);
			free(norm);
			continue;
		}
		*ARRAY_PUSH(files, *n) = norm;
	}
	free(meta_path);
	if (!*n)
		*ARRAY_PUSH(files, *n) = xstrdup(e->source);
	*ARRAY_PUSH(files, *n) = NULL;
	(*n)--;
	return files;
}

void key_compute(struct exper *e, const struct toolchain *tc, char **inputs,
                 size_t ninputs)
{
	struct hasher *h = hasher_new();
	hasher_add_str(h, e->source);
	hasher_add_str(h, e->args ? e->args : "");
	hasher_add_str(h, e->flags ? e->flags : "");
	hasher_add_str(h, e->ncu ? e->ncu : "");
	hasher_add_str(h, e->ncu_args ? e->ncu_args : "");
	hasher_add_str(h, e->env ? e->env : "");
	for (size_t i = 0; i < ninputs; i++) {
		size_t len;
		char *why = NULL;
		char *data = file_read_regular(inputs[i], KEY_INPUT_CAP, &len, &why);
		hasher_add_str(h, inputs[i]);
		if (data)
			hasher_add(h, data, len);
		else
			hasher_add_str(h, "(missing)");
		free(data);
		free(why);
	}
	hasher_done(h, e->source_key);
	if (!tc) {
		e->key[0] = '\0';
		return;
	}

	h = hasher_new();
	hasher_add_str(h, e->source_key);
	char **argv = command_compile(e, tc);
	for (char **a = argv; *a; a++)
		hasher_add_str(h, *a);
	argv_free(argv);
	char runs[16];
	snprintf(runs, sizeof runs, "runs=%d", e->runs);
	hasher_add_str(h, runs);
	hasher_add_str(h, e->cuda ? (tc->nvcc_version ? tc->nvcc_version : "")
	                          : (tc->cc_version ? tc->cc_version : ""));
	hasher_add_str(h, e->cuda && tc->gpu_id ? tc->gpu_id : "");
	/* Only then, so that the keys of the others stay as they were. */
	if (e->all_gpus)
		hasher_add_str(h, tc->all_id ? tc->all_id : "");
	hasher_done(h, e->key);
}

