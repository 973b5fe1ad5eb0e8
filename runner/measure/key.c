/* key.c - the cache key of an experiment: everything that can change its
 * numbers (key.h). */
#define _GNU_SOURCE
#include "measure/key.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/command.h"
#include "base/exec.h"
#include "base/util.h"

/*
 * What the project knows an entry of a dependency file or of a meta's
 * inputs by: 0 with *out its canonical in-project path; 1 for a file
 * outside the project by an absolute path (a system or toolkit header); -1
 * with *why the problem ("header 'x' is outside the project ...").
 */
static int key_input_resolve(const char *root, const char *w, char **out,
                             char **why)
{
	char *written = path_canonical(root, w), *reason = NULL;
	int rc = path_resolve(w, out, &reason);
	if (rc != 0 && w[0] == '/' && !written)
		rc = 1;
	else if (rc != 0)
		*why = xasprintf("header '%s' %s", written ? written : w, reason);
	free(reason);
	free(written);
	return rc;
}

char **key_deps_read(const char *path, size_t *n, char **why)
{
	char *text = file_read_regular(path, KEY_INPUT_CAP, NULL, why);
	char **files = NULL;
	char root[PATH_MAX];
	*n = 0;
	if (!text) {
		free(*why);
		*why = NULL;
		return NULL;
	}
	if (!getcwd(root, sizeof root)) {
		*why = xasprintf("the project folder cannot be named: %s",
		                 strerror(errno));
		goto out;
	}
	for (char *p = text; *p; p++)
		if (*p == '\\' && (p[1] == '\n' || p[1] == '\r'))
			*p = ' ';
	char *save = NULL;
	for (char *w = strtok_r(text, " \t\r\n", &save); w && !*why;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		size_t len = strlen(w);
		if (!strcmp(w, ":") && *n) {
			/* "target : deps" (nvcc's spacing): the target is no input. */
			free(files[--*n]);
			continue;
		}
		if (w[len - 1] == ':')
			continue;
		char *canon = NULL;
		if (key_input_resolve(root, w, &canon, why) != 0)
			continue;
		int seen = 0;
		for (size_t i = 0; i < *n; i++)
			seen |= !strcmp(files[i], canon);
		if (seen)
			free(canon);
		else
			*ARRAY_PUSH(files, *n) = canon;
	}
out:
	free(text);
	if (*why) {
		for (size_t i = 0; i < *n; i++)
			free(files[i]);
		free(files);
		*n = 0;
		return NULL;
	}
	*ARRAY_PUSH(files, *n) = NULL;
	(*n)--;
	return files;
}

char **key_inputs(const struct exper *e, const struct bundle *b,
                  const struct exp_result *r, size_t *n, char **escaped)
{
	char **files = NULL;
	char root[PATH_MAX];
	*n = 0;
	*escaped = NULL;
	if (!getcwd(root, sizeof root))
		root[0] = '\0';
	const cJSON *in = r->meta ? cJSON_GetObjectItem(r->meta, "inputs") : NULL;
	const cJSON *f;
	char *meta_path = NULL;
	cJSON_ArrayForEach(f, in)
	{
		if (!cJSON_IsString(f))
			continue;
		char *canon = path_canonical(root, f->valuestring), *why = NULL;
		const char *bad = !canon ? "is not a path inside the project" : NULL;
		if (canon && file_exists(canon)) {
			char *real = NULL;
			if (key_input_resolve(root, canon, &real, &why) != 0) {
				/* Reported where the experiment is (key.h). */
				if (!*escaped)
					*escaped = why;
				else
					free(why);
				free(canon);
				continue;
			}
			free(canon);
			canon = real;
			if (!file_is_regular(canon))
				bad = "is not a regular file";
		}
		if (bad) {
			if (!meta_path)
				meta_path = bundle_path(b, e->id, BF_META);
			diag_at(meta_path, 0, "input '%s' %s; it is not read (experiment "
			        "'%s' will run again)", f->valuestring, bad, e->id);
			free(canon);
			continue;
		}
		*ARRAY_PUSH(files, *n) = canon;
	}
	free(meta_path);
	for (size_t i = 0; !*n && i < (e->sources ? e->nsources : 1); i++)
		*ARRAY_PUSH(files, *n) = xstrdup(e->sources ? e->sources[i] : e->source);
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
	/* Only what an experiment has: keys of those without stay as they
	 * were. */
	for (size_t i = 1; e->sources && i < e->nsources; i++)
		hasher_add_str(h, e->sources[i]);
	for (size_t i = 0; e->includes && e->includes[i]; i++) {
		hasher_add_str(h, "include");
		hasher_add_str(h, e->includes[i]);
	}
	for (size_t i = 0; i < e->dir->nopts; i++)
		if (!strcmp(e->dir->opts[i].key, "capture") ||
		    !strcmp(e->dir->opts[i].key, "sweep")) {
			hasher_add_str(h, e->dir->opts[i].key);
			hasher_add_str(h, e->dir->opts[i].value);
		}
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

