/*
 * state.h - what an experiment's files in the bundle (results.h) say
 * about it: the state of its results, as the reader is told it, and its
 * meta.json and error.json read into one struct. Reads the bundle only
 * through results.h.
 */
#ifndef LB_STATE_H
#define LB_STATE_H

#include "bundle/results.h"

/* What the reader is told of an experiment's results (result_state_decide). */
enum result_state {
	RESULT_NONE,       /* no results: nothing to say of them */
	RESULT_THIS_BUILD, /* "measured in this build" */
	RESULT_EARLIER,    /* "measured in an earlier build here" */
	RESULT_ELSEWHERE,  /* "recorded on another machine" */
	RESULT_CHANGED,    /* "changed since recorded" */
};

/*
 * The one place that decides the state of experiment id's results in b,
 * from the bundle and this build's facts alone, so a page that shows it
 * is the same on every build that finds the same bundle and sources:
 *   RESULT_NONE       it has no meta.json (no good results);
 *   RESULT_CHANGED    source_key (the current one; NULL: unknown) is not
 *                     the source_key its results were made from: its
 *                     source, arguments or flags changed since;
 *   RESULT_ELSEWHERE  b->here is 0: machine.json names another host or
 *                     GPU, or this build runs nothing (--no-run), so the
 *                     results are a record, not this machine's measurement;
 *   RESULT_THIS_BUILD its meta's "build" is the newest build id of the
 *                     bundle: the last build that ran experiments into it
 *                     (a build that runs nothing changes none of this);
 *   RESULT_EARLIER    an earlier build on this machine measured it.
 * A failed last attempt (error.json) is not a state: it is shown beside
 * the results it left standing.
 */
enum result_state result_state_decide(struct bundle *b, const char *id,
                                      const char *source_key);
/* The state as the page says it ("measured in this build"). */
const char *result_state_name(enum result_state s);
/* The state as one word, for a class attribute ("this-build"). */
const char *result_state_class(enum result_state s);
/* The machine of RESULT_ELSEWHERE as machine.json records it: its GPU's
 * name (or "no GPU") and its host, e.g. "NVIDIA H100 80GB HBM3, host
 * Linux 6.8.0 x86_64"; or "host H" where the experiment's meta says it ran
 * on another host, H (ran_on; NULL when it does not say). Caller frees. */
char *result_state_machine(const struct bundle *b, const char *ran_on);

/*
 * The meta of one experiment, read from <id>.meta.json and <id>.error.json
 * alone, so a page can be rendered from the bundle without a build. The
 * fields of meta.json (written by the build; an older bundle lacks those
 * marked *, and the reader gives the default in brackets):
 *   id, source, chapter            strings
 *   build*                         the id of the build that ran it: its
 *                                  start, ISO 8601 UTC to the microsecond
 *                                  [none: an earlier build]
 *   date                           when it ran, ISO 8601 UTC
 *   compile_argv*, run_argv*       arrays of strings [split from compile,
 *                                  command]
 *   env*                           "NAME=value" strings for the run [none]
 *   compile, command               the same, printable
 *   exit_status, seconds, runs     numbers [runs 1]
 *   key, source_key                cache keys
 *   inputs                         project files it was built from
 *   records, output_bytes          counts; output_cut boolean
 *   gpu_uuid                       the GPU it ran on, where known
 *   gpu_count*, gpu_uuids*         gpus: all: how many GPUs each run saw
 *                                  [1], and their UUIDs where known
 * error.json adds: stage ("compile", "run" or "save"), why, output, date,
 * and build.
 */
struct result_meta {
	enum result_state state; /* result_state_decide's */
	int failed;           /* its last attempt failed (error.json) */
	char *date;           /* when the good results were measured, or NULL */
	char *why;            /* why the last attempt failed, or NULL */
	char *failed_date;    /* when it failed, or NULL */
	char *failed_stage;   /* "compile", "run" or "save", or NULL */
	char *failed_output;  /* the failed attempt's output, or NULL */
	char **compile_argv;  /* NULL-terminated; empty when not recorded */
	char **run_argv;
	char **env;
	char **inputs;        /* the project files it was built from */
	char *compile_cmd;    /* printable; "" when not recorded */
	char *run_cmd;        /* printable, with env in front; "" when not */
	char *source;         /* or NULL */
	char *gpu_uuid;       /* or NULL */
	char *host;           /* the host that ran it ("Linux 6.8.0 x86_64"), or NULL */
	int gpu_count;        /* GPUs each run saw at once (gpus: all); 1 */
	double seconds;
	int exit_status;
	int runs;
	int output_cut;
};

/* Fill m for experiment id from the bundle (never fails; a file that is
 * not valid JSON was warned about on reading and counts as absent), its
 * state decided against source_key (result_state_decide). */
void results_meta_load(struct bundle *b, const char *id, const char *source_key,
                       struct result_meta *m);
void results_meta_free(struct result_meta *m);

#endif
