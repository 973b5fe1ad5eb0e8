/* why.c - the parts of an experiment's key that changed, in words (why.h). */
#define _GNU_SOURCE
#include "measure/why.h"

#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"
#include "measure/command.h"

struct lines {
	char **v;
	size_t n;
};

static void say(struct lines *l, char *line)
{
	*ARRAY_PUSH(l->v, l->n) = line;
}

static const cJSON *item(const cJSON *o, const char *key)
{
	return o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

static const char *str_of(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(item(o, key));
}

/* A part as it is shown: a string, or an array's strings joined with
 * sep; "(none)" when empty. Caller frees. */
static char *part_text(const cJSON *v, const char *sep)
{
	struct buf b = BUF_INIT;
	if (cJSON_IsString(v)) {
		buf_printf(&b, "'%s'", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		buf_printf(&b, "%d", v->valueint);
	} else {
		const cJSON *w;
		cJSON_ArrayForEach(w, v)
			if (cJSON_IsString(w))
				buf_printf(&b, "%s'%s'", b.len ? sep : "", w->valuestring);
	}
	if (b.len && strcmp(b.data, "''"))
		return buf_detach(&b);
	buf_free(&b);
	return xstrdup("(none)");
}

/* "name: was X, now Y" when part key of had and now differ. 1 if said. */
static int why_part(struct lines *l, const cJSON *had, const cJSON *now,
                    const char *key, const char *name)
{
	const cJSON *a = item(had, key), *b = item(now, key);
	if (!b || cJSON_Compare(a, b, 1))
		return 0;
	char *was = a ? part_text(a, ", ") : xstrdup("(not recorded)");
	char *is = part_text(b, ", ");
	say(l, xasprintf("%s: was %s, now %s", name, was, is));
	free(was);
	free(is);
	return 1;
}

static int is_source(const struct exper *e, const char *path)
{
	for (size_t i = 0; e->sources && i < e->nsources; i++)
		if (!strcmp(e->sources[i], path))
			return 1;
	return !strcmp(e->source, path);
}

/* The files of part key ({path: hash}) that differ. */
static void why_files(struct lines *l, const struct exper *e, const cJSON *had,
                      const cJSON *now, const char *key)
{
	int data = !strcmp(key, "data");
	const cJSON *was = item(had, key), *is = item(now, key), *f;
	cJSON_ArrayForEach(f, is)
	{
		const char *old = str_of(was, f->string);
		const char *what = data ? "the input"
		                   : is_source(e, f->string) ? "the source"
		                                             : "the header";
		if (!cJSON_IsString(f) || (old && !strcmp(old, f->valuestring)))
			continue;
		if (!old)
			say(l, data ? xasprintf("inputs: now names %s", f->string)
			            : xasprintf("%s %s is new", what, f->string));
		else if (!strcmp(f->valuestring, "(missing)"))
			say(l, xasprintf("%s %s is missing", what, f->string));
		else
			say(l, xasprintf("%s %s changed", what, f->string));
	}
	cJSON_ArrayForEach(f, was)
		if (!item(is, f->string))
			say(l, data ? xasprintf("inputs: no longer names %s", f->string)
			            : xasprintf("%s is no longer one of its inputs",
			                        f->string));
}

/* "name: was 'X', now 'Y'" for two argument lists that differ. */
static int why_argv(struct lines *l, const char *name, char *const *had,
                    char *const *now)
{
	size_t i = 0;
	while (had[i] && now[i] && !strcmp(had[i], now[i]))
		i++;
	if (!had[i] && !now[i])
		return 0;
	char *was = argv_join(had), *is = argv_join(now);
	say(l, xasprintf("%s: was '%s', now '%s'", name, was, is));
	free(was);
	free(is);
	return 1;
}

/* A meta's array of strings as an argv (empty when absent). */
static char **meta_words(const cJSON *meta, const char *key)
{
	char **v = NULL;
	size_t n = 0;
	const cJSON *w;
	cJSON_ArrayForEach(w, item(meta, key))
		if (cJSON_IsString(w))
			*ARRAY_PUSH(v, n) = xstrdup(w->valuestring);
	*ARRAY_PUSH(v, n) = NULL;
	return v;
}

/* The source key's parts, from a meta that kept them. */
static void why_source(struct lines *l, const struct exper *e,
                       const cJSON *had)
{
	const cJSON *now = e->key_parts;
	why_part(l, had, now, "sources", "source");
	why_files(l, e, had, now, "files");
	why_files(l, e, had, now, "data");
	static const char *const opts[] = {"run", "args", "flags", "include",
	                                   "env", "ncu", "ncu-args", "capture",
	                                   "sweep"};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
		why_part(l, had, now, opts[i], opts[i]);
}

/* The source key's parts from a meta that did not keep them: what its
 * run command tells, and the files that cannot be told apart. */
static void why_source_unkept(struct lines *l, const struct exper *e,
                              const cJSON *meta)
{
	char **had = meta_words(meta, "run_argv");
	int found = had[0] && e->run_argv &&
	            why_argv(l, "the run command", had, e->run_argv);
	argv_free(had);
	struct buf b = BUF_INIT;
	const cJSON *f;
	cJSON_ArrayForEach(f, item(e->key_parts, "files"))
		buf_printf(&b, "%s, ", f->string);
	cJSON_ArrayForEach(f, item(e->key_parts, "data"))
		buf_printf(&b, "%s, ", f->string);
	buf_puts(&b, "its flags and its other options");
	say(l, xasprintf("its source key changed, and its results keep no hash "
	                 "of each input (they were recorded before labbook kept "
	                 "them), so %s of these changed cannot be told apart: %s",
	                 found ? "whether any" : "which", b.data));
	buf_free(&b);
}

/* The GPU as "name;uuid;driver;" (key.c's gpu part, toolchain.c's
 * gpu_id), from a probe or machine.json. Caller frees. */
static char *gpu_words(const cJSON *m)
{
	return xasprintf("%s;%s;%s;", str_of(m, "gpu") ? str_of(m, "gpu") : "",
	                 str_of(m, "uuid") ? str_of(m, "uuid") : "",
	                 str_of(m, "driver") ? str_of(m, "driver") : "");
}

/* Two "name;uuid;driver;" GPUs, each field that differs. 1 if one did. */
static int why_gpu(struct lines *l, const char *had, const char *now)
{
	static const char *const names[] = {"GPU", "GPU UUID (another card)",
	                                    "driver"};
	int said = 0;
	for (size_t k = 0; k < 3; k++) {
		size_t la = strcspn(had, ";"), lb = strcspn(now, ";");
		if (la != lb || strncmp(had, now, la)) {
			say(l, xasprintf("%s: was '%.*s', now '%.*s'", names[k], (int)la,
			                 had, (int)lb, now));
			said = 1;
		}
		had += la + (had[la] == ';');
		now += lb + (now[lb] == ';');
	}
	return said;
}

/* What the key adds to the source key: runs, the compiler, its command
 * and the GPU, from the meta's parts or, where it kept none, from its
 * runs and the bundle's machine.json. */
static void why_tools(struct lines *l, const struct exper *e,
                      const struct bundle *b, const cJSON *meta,
                      const struct toolchain *tc, int source_said)
{
	const cJSON *had = item(meta, "key_parts"), *now = e->key_parts;
	const char *compiler = e->cuda                ? "nvcc"
	                       : command_is_python(e) ? "the Python interpreter"
	                                              : "the C compiler";
	if (cJSON_IsObject(had) && item(had, "compiler")) {
		why_part(l, had, now, "runs", "runs");
		why_part(l, had, now, "compiler", compiler);
		const char *g0 = str_of(had, "gpu"), *g1 = str_of(now, "gpu");
		if (g0 && g1)
			why_gpu(l, g0, g1);
		why_part(l, had, now, "gpus", "the GPUs it is given at once");
	} else {
		const cJSON *runs = item(meta, "runs");
		if (cJSON_IsNumber(runs) && runs->valueint != e->runs)
			say(l, xasprintf("runs: was %d, now %d", runs->valueint, e->runs));
		const char *v0 = str_of(b->machine, e->cuda ? "nvcc" : "c_compiler");
		const char *v1 = e->cuda ? tc->nvcc_version : tc->cc_version;
		if (v0 && v1 && strcmp(v0, v1))
			say(l, xasprintf("%s: was '%s' (as machine.json records it), now "
			                 "'%s'", compiler, v0, v1));
		if (e->cuda && b->machine && tc->probe) {
			char *g0 = gpu_words(b->machine), *g1 = gpu_words(tc->probe);
			why_gpu(l, g0, g1);
			free(g0);
			free(g1);
		}
	}
	/* The flags said so already; else its compiler or its arch. */
	char **was = meta_words(meta, "compile_argv");
	if (!source_said && was[0] && e->compile_argv)
		why_argv(l, "the compile command", was, e->compile_argv);
	argv_free(was);
}

char **why_changed(const struct exper *e, const struct bundle *b,
                   const cJSON *meta, const struct toolchain *tc, size_t *n)
{
	struct lines l = {NULL, 0};
	const char *src = str_of(meta, "source_key"), *key = str_of(meta, "key");
	const cJSON *had = item(meta, "key_parts");
	int kept = cJSON_IsObject(had) && item(had, "files");
	size_t before = 0;
	if (meta && src && strcmp(src, e->source_key)) {
		if (kept)
			why_source(&l, e, had);
		else
			why_source_unkept(&l, e, meta);
		if (!l.n)
			say(&l, xstrdup("its source key changed, though no part of it "
			                "that these results keep differs"));
		before = l.n;
	}
	if (meta && tc && key && strcmp(key, e->key)) {
		why_tools(&l, e, b, meta, tc, before > 0);
		if (l.n == before && !before)
			say(&l, xstrdup("its compiler, its command or the GPU changed in "
			                "a way these results do not record"));
	}
	*n = l.n;
	*ARRAY_PUSH(l.v, l.n) = NULL;
	return l.v;
}

static int wants_rerun(const struct exper *e, const struct run_opts *o)
{
	if (o->rerun_all)
		return 1;
	for (size_t i = 0; i < o->nrerun; i++)
		if (!strcmp(o->rerun[i], e->id))
			return 1;
	return 0;
}

size_t why_run(struct exper *e, const struct bundle *b,
               const struct exp_result *r, const struct toolchain *tc,
               const struct run_opts *o)
{
	struct lines l = {NULL, 0};
	size_t nk = 0;
	const char *old_key = str_of(r->meta, "key");
	const char *stage = str_of(r->failure, "stage");
	if (wants_rerun(e, o))
		say(&l, o->rerun_all ? xstrdup("--rerun-all asks for it")
		                     : xasprintf("--rerun %s asks for it", e->id));
	if (!r->meta)
		say(&l, xasprintf("it has no results in %s", b->dir));
	else if (!old_key)
		say(&l, xstrdup("its results record no cache key"));
	if (r->failure)
		say(&l, xasprintf("its last attempt failed%s%s%s", stage ? " (" : "",
		                  stage ? stage : "", stage ? ")" : ""));
	if (r->error)
		say(&l, xasprintf("its records are malformed: %s", r->error));
	if (r->meta && !b->machine)
		say(&l, xasprintf("%s has no machine.json, so nothing says where its "
		                  "results were measured", b->dir));
	if (old_key && strcmp(old_key, e->key)) {
		char **why = why_changed(e, b, r->meta, tc, &nk);
		for (size_t i = 0; i < nk; i++)
			say(&l, why[i]);
		free(why);
		if (!nk)
			say(&l, xstrdup("its cache key changed"));
	}
	size_t n = l.n;
	*ARRAY_PUSH(l.v, l.n) = NULL;
	argv_free(e->reasons);
	e->reasons = l.v;
	return n;
}
