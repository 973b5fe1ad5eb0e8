/*
 * record.h - the plain data of an experiment's results as a page shows
 * them: its records, output and files' meta as read (struct exp_result),
 * the state of its results, and its meta.json and error.json read into one
 * struct. Types only: bundle/results.h and bundle/state.h read them from a
 * bundle, judge/view.h hands them to render/, which prints them.
 */
#ifndef LB_RECORD_H
#define LB_RECORD_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* One experiment's files as read (bundle_get, results.h). */
struct exp_result {
	char *id;
	cJSON **rows;  /* the records, owned */
	size_t nrows;
	char *error;   /* "FILE:LINE: what is wrong" with the records file, or
	                * NULL; rows then hold the lines before the bad one */
	char *out;     /* captured text, or NULL */
	size_t out_len;
	cJSON *meta;    /* NULL when never run */
	cJSON *failure; /* the last failed attempt, or NULL */
	int have_data;  /* rows, error and out are read (bundle_get) */
};

/* What the reader is told of an experiment's results (result_state_decide). */
enum result_state {
	RESULT_NONE,       /* no results: nothing to say of them */
	RESULT_THIS_BUILD, /* "measured in this build" */
	RESULT_EARLIER,    /* "measured in an earlier build here" */
	RESULT_ELSEWHERE,  /* "recorded on another machine" */
	RESULT_CHANGED,    /* "changed since recorded" */
};

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

#endif
