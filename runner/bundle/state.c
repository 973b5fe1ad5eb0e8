/* state.c - what an experiment's files say about it (state.h). */
#include "bundle/state.h"

#include <string.h>

#include "base/exec.h"
#include "base/util.h"

static char *meta_dup(const cJSON *o, const char *key)
{
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static double meta_num(const cJSON *o, const char *key, double def)
{
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* An array of strings as a NULL-terminated argv; from the printable
 * string (split) when the array is not there. */
static char **meta_argv(const cJSON *o, const char *key, const char *str_key)
{
	const cJSON *a = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	if (cJSON_IsArray(a)) {
		char **argv = NULL;
		size_t n = 0;
		const cJSON *w;
		cJSON_ArrayForEach(w, a)
			if (cJSON_IsString(w))
				*ARRAY_PUSH(argv, n) = xstrdup(w->valuestring);
		*ARRAY_PUSH(argv, n) = NULL;
		return argv;
	}
	const cJSON *s = o && str_key ? cJSON_GetObjectItemCaseSensitive(o, str_key)
	                              : NULL;
	return argv_split(cJSON_IsString(s) ? s->valuestring : "", NULL);
}

const char *result_state_name(enum result_state s)
{
	switch (s) {
	case RESULT_NONE: return "not measured";
	case RESULT_THIS_BUILD: return "measured in this build";
	case RESULT_EARLIER: return "measured in an earlier build here";
	case RESULT_ELSEWHERE: return "recorded on another machine";
	case RESULT_CHANGED: return "changed since recorded";
	}
	return "";
}

const char *result_state_class(enum result_state s)
{
	switch (s) {
	case RESULT_NONE: return "none";
	case RESULT_THIS_BUILD: return "this-build";
	case RESULT_EARLIER: return "earlier";
	case RESULT_ELSEWHERE: return "elsewhere";
	case RESULT_CHANGED: return "changed";
	}
	return "";
}

char *result_state_machine(const struct bundle *b, const char *ran_on)
{
	const char *host = cJSON_GetStringValue(
		b->machine ? cJSON_GetObjectItemCaseSensitive(b->machine, "host") : NULL);
	/* A C experiment added to a GPU bundle from another host. */
	if (ran_on && (!host || strcmp(ran_on, host)))
		return xasprintf("host %s", ran_on);
	const char *gpu = cJSON_GetStringValue(
		b->machine ? cJSON_GetObjectItemCaseSensitive(b->machine, "gpu") : NULL);
	if (!gpu)
		gpu = b->machine ? "no GPU named" : "no machine.json";
	else if (!strcmp(gpu, "none"))
		gpu = "no GPU";
	return host ? xasprintf("%s, host %s", gpu, host) : xstrdup(gpu);
}

enum result_state result_state_decide(struct bundle *b, const char *id,
                                      const char *source_key)
{
	const cJSON *meta = bundle_get_meta(b, id)->meta;
	if (!meta)
		return RESULT_NONE;
	const char *had = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(meta, "source_key"));
	if (source_key && *source_key && had && strcmp(had, source_key))
		return RESULT_CHANGED;
	if (!b->here)
		return RESULT_ELSEWHERE;
	const char *mine = cJSON_GetStringValue(
		cJSON_GetObjectItemCaseSensitive(meta, "build"));
	const char *last = bundle_last_build(b);
	return mine && last && !strcmp(mine, last) ? RESULT_THIS_BUILD
	                                           : RESULT_EARLIER;
}

void results_meta_load(struct bundle *b, const char *id, const char *source_key,
                       struct result_meta *m)
{
	memset(m, 0, sizeof *m);
	m->state = result_state_decide(b, id, source_key);
	struct exp_result *r = bundle_get_meta(b, id);
	const cJSON *meta = r->meta, *fail = r->failure;
	m->date = meta_dup(meta, "date");
	m->source = meta_dup(meta ? meta : fail, "source");
	m->gpu_uuid = meta_dup(meta, "gpu_uuid");
	m->host = meta_dup(meta, "host");
	m->gpu_count = (int)meta_num(meta, "gpu_count", 1);
	m->seconds = meta_num(meta, "seconds", 0);
	m->exit_status = (int)meta_num(meta, "exit_status", 0);
	m->runs = (int)meta_num(meta, "runs", 1);
	const cJSON *cut = meta ? cJSON_GetObjectItemCaseSensitive(meta, "output_cut")
	                        : NULL;
	m->output_cut = cJSON_IsTrue(cut);
	/* The commands of a failed attempt are the newer ones; a compile
	 * failure has no run command, which the good run's meta gives. */
	const cJSON *cc = fail && cJSON_HasObjectItem(fail, "compile") ? fail : meta;
	const cJSON *rc = fail && cJSON_HasObjectItem(fail, "run_argv") ? fail : meta;
	m->compile_argv = meta_argv(cc, "compile_argv", "compile");
	m->run_argv = meta_argv(rc, "run_argv", "command");
	m->env = meta_argv(rc, "env", NULL);
	m->inputs = meta_argv(meta, "inputs", NULL);
	m->compile_cmd = meta_dup(cc, "compile");
	if (!m->compile_cmd)
		m->compile_cmd = m->compile_argv[0] ? argv_join(m->compile_argv)
		                                    : xstrdup("");
	m->run_cmd = meta_dup(rc, "command");
	if (!m->run_cmd)
		m->run_cmd = m->run_argv[0] ? argv_join(m->run_argv) : xstrdup("");
	if (fail) {
		m->failed = 1;
		m->failed_date = meta_dup(fail, "date");
		m->failed_stage = meta_dup(fail, "stage");
		m->failed_output = meta_dup(fail, "output");
		m->why = meta_dup(fail, "why");
		if (!m->why)
			m->why = xstrdup(m->failed_stage &&
			                         !strcmp(m->failed_stage, "compile")
			                     ? "compile error"
			                     : "failed");
	}
}

void results_meta_free(struct result_meta *m)
{
	if (!m)
		return;
	free(m->date);
	free(m->why);
	free(m->failed_date);
	free(m->failed_stage);
	free(m->failed_output);
	argv_free(m->compile_argv);
	argv_free(m->run_argv);
	argv_free(m->env);
	argv_free(m->inputs);
	free(m->compile_cmd);
	free(m->run_cmd);
	free(m->source);
	free(m->gpu_uuid);
	free(m->host);
	memset(m, 0, sizeof *m);
}
