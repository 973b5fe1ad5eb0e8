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

#include "base/buf.h"
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

/*
 * One word of a dependency file from *p, unescaped as make reads it, into
 * w; *p is left after it. A run of N backslashes before a blank is N/2
 * backslashes, and a blank of the word when N is odd; "\#" and "\:" are
 * "#" and ":"; "$$" is "$". 1 when the word ends at a separator colon (an
 * unescaped ':' right after it, which is passed), else 0.
 */
static int deps_word(const char **p, struct buf *w)
{
	const char *s = *p;
	buf_reset(w);
	buf_puts(w, "");
	while (*s && *s != ' ' && *s != '\t' && *s != ':') {
		if (*s == '\\') {
			size_t k = 0;
			while (s[k] == '\\')
				k++;
			char next = s[k];
			if (next == ' ' || next == '\t') {
				for (size_t i = 0; i < k / 2; i++)
					buf_putc(w, '\\');
				s += k;
				if (k % 2 == 0)
					break;
				buf_putc(w, *s++);
				continue;
			}
			if ((next == '#' || next == ':') && k % 2) {
				for (size_t i = 0; i < k / 2; i++)
					buf_putc(w, '\\');
				buf_putc(w, next);
				s += k + 1;
				continue;
			}
			for (size_t i = 0; i < k; i++)
				buf_putc(w, '\\');
			s += k;
			continue;
		}
		if (*s == '$' && s[1] == '$')
			s++;
		buf_putc(w, *s++);
	}
	int colon = *s == ':';
	if (colon)
		s += 1 + (s[1] == ':'); /* "::", a double-colon rule */
	*p = s;
	return colon;
}

char **key_deps_words(const char *text, size_t *n)
{
	char **words = NULL;
	struct buf line = BUF_INIT, w = BUF_INIT;
	*n = 0;
	while (*text) {
		/* One logical line: a backslash-newline joins the next one. */
		buf_reset(&line);
		buf_puts(&line, "");
		for (; *text && *text != '\n'; text++) {
			size_t k = 0;
			while (text[k] == '\\')
				k++;
			if (k) {
				const char *nl = text + k + (text[k] == '\r');
				int joins = k % 2 && *nl == '\n';
				for (size_t i = 0; i < k - (size_t)joins; i++)
					buf_putc(&line, '\\');
				if (joins)
					buf_putc(&line, ' ');
				text = joins ? nl : text + k - 1;
				continue;
			}
			if (*text == '\r' && text[1] == '\n')
				continue;
			if (*text == '#' && (!line.len || line.data[line.len - 1] != '\\'))
				while (text[1] && text[1] != '\n')
					text++; /* a comment runs to the end of the line */
			else
				buf_putc(&line, *text);
		}
		if (*text)
			text++;
		/* Targets (one or several, however spaced before the colon),
		 * then the prerequisites: only they are inputs. A target with
		 * none is -MP's phony rule for a header. */
		const char *p = line.data;
		int after = 0;
		while (*p) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p)
				break;
			int colon = deps_word(&p, &w);
			if (after && w.len && strcmp(w.data, "|"))
				*ARRAY_PUSH(words, *n) = xstrdup(w.data);
			after |= colon;
		}
	}
	buf_free(&line);
	buf_free(&w);
	*ARRAY_PUSH(words, *n) = NULL;
	(*n)--;
	return words;
}

char **key_deps_read(const char *path, size_t *n, char **why)
{
	char *text = file_read_regular(path, KEY_INPUT_CAP, NULL, why);
	char **files = NULL, **words = NULL;
	size_t nwords = 0;
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
	words = key_deps_words(text, &nwords);
	for (size_t i = 0; i < nwords && !*why; i++) {
		char *canon = NULL;
		if (key_input_resolve(root, words[i], &canon, why) != 0)
			continue;
		int seen = 0;
		for (size_t k = 0; k < *n; k++)
			seen |= !strcmp(files[k], canon);
		if (seen)
			free(canon);
		else
			*ARRAY_PUSH(files, *n) = canon;
	}
out:
	argv_free(words);
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

char **key_inputs(const struct exper *e, const struct exp_result *r,
                  size_t *n, char **escaped)
{
	char **files = NULL;
	char root[PATH_MAX];
	*n = 0;
	*escaped = NULL;
	if (!getcwd(root, sizeof root))
		root[0] = '\0';
	/* A run: command's files are its inputs: alone (e->data_files). */
	const cJSON *in = r->meta && !e->run ? cJSON_GetObjectItem(r->meta, "inputs")
	                                     : NULL;
	const cJSON *f;
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
			/* What another machine recorded is data, never a reason to
			 * fail: a path that is not the project's is not read, and
			 * the experiment is judged by its own sources. */
			free(canon);
			continue;
		}
		*ARRAY_PUSH(files, *n) = canon;
	}
	for (size_t i = 0; !*n && !e->run && i < (e->sources ? e->nsources : 1); i++)
		*ARRAY_PUSH(files, *n) = xstrdup(e->sources ? e->sources[i] : e->source);
	*ARRAY_PUSH(files, *n) = NULL;
	(*n)--;
	return files;
}

/* The hash of one file's content, or "(missing)" where it cannot be read. */
static void key_file_hash(const char *data, size_t len, char out[33])
{
	if (!data) {
		snprintf(out, 33, "(missing)");
		return;
	}
	struct hasher *h = hasher_new();
	hasher_add(h, data, len);
	hasher_done(h, out);
}

/* Hash each of files (path and content) into h, and name each file's own
 * hash in the object parts[name]. */
static void key_add_files(struct hasher *h, cJSON *parts, const char *name,
                          const char *tag, char *const *files, size_t n)
{
	cJSON *o = cJSON_AddObjectToObject(parts, name);
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		char *why = NULL, one[33];
		char *data = file_read_regular(files[i], KEY_INPUT_CAP, &len, &why);
		if (tag)
			hasher_add_str(h, tag);
		hasher_add_str(h, files[i]);
		if (data)
			hasher_add(h, data, len);
		else
			hasher_add_str(h, "(missing)");
		key_file_hash(data, len, one);
		cJSON_DeleteItemFromObjectCaseSensitive(o, files[i]);
		cJSON_AddStringToObject(o, files[i], one);
		free(data);
		free(why);
	}
}

/* Hash s into h, and keep it as parts[name]. */
static void key_add_part(struct hasher *h, cJSON *parts, const char *name,
                         const char *s)
{
	hasher_add_str(h, s ? s : "");
	cJSON_AddStringToObject(parts, name, s ? s : "");
}

/* The interpreter's version ("Python 3.11.2"), asked once. */
static const char *key_python_version(void)
{
	static char *version;
	if (!version) {
		char *argv[] = {(char *)command_python(), "--version", NULL};
		char *out = exec_capture(argv, 30);
		version = out ? str_first_line(out) : xstrdup("unknown");
		free(out);
	}
	return version;
}

void key_compute(struct exper *e, const struct toolchain *tc, char **inputs,
                 size_t ninputs)
{
	struct hasher *h = hasher_new();
	cJSON *parts = cJSON_CreateObject();
	cJSON *sources = cJSON_AddArrayToObject(parts, "sources");
	if (e->run) {
		hasher_add_str(h, "run");
		key_add_part(h, parts, "run", e->run);
	} else {
		hasher_add_str(h, e->source);
		cJSON_AddItemToArray(sources, cJSON_CreateString(e->source));
	}
	key_add_part(h, parts, "args", e->args);
	key_add_part(h, parts, "flags", e->flags);
	key_add_part(h, parts, "ncu", e->ncu);
	key_add_part(h, parts, "ncu-args", e->ncu_args);
	key_add_part(h, parts, "env", e->env);
	/* Only what an experiment has: keys of those without stay as they
	 * were. */
	for (size_t i = 1; !e->run && e->sources && i < e->nsources; i++) {
		hasher_add_str(h, e->sources[i]);
		cJSON_AddItemToArray(sources, cJSON_CreateString(e->sources[i]));
	}
	cJSON *opts = cJSON_AddArrayToObject(parts, "include");
	for (size_t i = 0; e->includes && e->includes[i]; i++) {
		hasher_add_str(h, "include");
		hasher_add_str(h, e->includes[i]);
		cJSON_AddItemToArray(opts, cJSON_CreateString(e->includes[i]));
	}
	cJSON *cap = cJSON_AddArrayToObject(parts, "capture");
	cJSON *sweep = cJSON_AddArrayToObject(parts, "sweep");
	for (size_t i = 0; i < e->dir->nopts; i++) {
		const struct dir_opt *o = &e->dir->opts[i];
		int is_cap = !strcmp(o->key, "capture");
		if (!is_cap && strcmp(o->key, "sweep"))
			continue;
		hasher_add_str(h, o->key);
		hasher_add_str(h, o->value);
		cJSON_AddItemToArray(is_cap ? cap : sweep, cJSON_CreateString(o->value));
	}
	key_add_files(h, parts, "files", NULL, inputs, ninputs);
	size_t ndata = 0;
	while (e->data_files && e->data_files[ndata])
		ndata++;
	/* Declared inputs are hashed after the rest, so the keys of the
	 * experiments that declare none stay as they were. */
	key_add_files(h, parts, "data", "data", e->data_files, ndata);
	hasher_done(h, e->source_key);
	cJSON_Delete(e->key_parts);
	e->key_parts = parts;
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
	cJSON_AddNumberToObject(parts, "runs", e->runs);
	key_add_part(h, parts, "compiler",
	             e->run ? NULL
	             : e->cuda ? tc->nvcc_version
	             : command_is_python(e) ? key_python_version()
	                                    : tc->cc_version);
	key_add_part(h, parts, "gpu", command_on_gpu(e, tc) ? tc->gpu_id : NULL);
	/* Only then, so that the keys of the others stay as they were. */
	if (e->all_gpus)
		key_add_part(h, parts, "gpus", tc->all_id);
	hasher_done(h, e->key);
}
