/*
 * book.h - the book: its chapters, and the experiments they declare.
 *
 * book_load parses every Markdown file of the chapters folder in name order and gathers the
 * {experiment} directives into one list (ids are unique across the book).
 * book_run brings each experiment's results up to date in a bundle:
 * an experiment is compiled and run again only when its cache key changed:
 * its source and every project file it includes, the files its inputs:
 * option names, its arguments and flags,
 * the compiler and its version, and the GPU and driver. Compiles run in
 * parallel; runs are serial on each GPU, so a timing never shares a card,
 * and with several GPUs each runs its share (CUDA_VISIBLE_DEVICES).
 */
#ifndef LB_BOOK_H
#define LB_BOOK_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "book/chapter.h"
#include "bundle/results.h"

/* What this build did with an experiment. What a page says of its
 * results is result_state_decide's (state.h), from the bundle. */
enum exp_state {
	ST_KEPT,   /* not run: its results, if any, are the bundle's */
	ST_RAN,    /* ran in this build */
	ST_FAILED, /* failed in this build (earlier good results kept) */
};

struct exper {
	char *id;
	const struct chapter *ch;
	const struct directive *dir;
	const char *source; /* the directive's; book_run makes it the
	                     * normalized path (source_norm); for a run:
	                     * experiment, its command as written */
	const char *run;    /* run: a command run as written, compiling
	                     * nothing, or NULL; its sources are then the
	                     * inputs: files the command names (build.c) */
	const char *args;
	const char *flags;  /* the directive's; book_run makes it flags_norm */
	const char *ncu;      /* metrics to read with Nsight Compute, or NULL */
	const char *ncu_args; /* arguments for the profiled run, or NULL */
	const char *env;      /* "NAME=value ..." for the program, or NULL */
	const char *include;  /* include: folders, as written, or NULL */
	const char *data;     /* inputs: files the program reads, as written,
	                       * or NULL */
	double timeout;
	int runs;           /* separate processes to run it in; 0: the default */
	int allow_error;
	int all_gpus;       /* gpus: all: runs alone, seeing every GPU */
	int need_cc;        /* requires: the least compute capability (90), or 0 */
	int cuda;           /* a source is CUDA (.cu): built with nvcc */
	int source_ok;      /* the source exists inside the project */

	/* Set by book_run (measure/build.h) and owned by the exper (exper_build_free). */
	enum exp_state state;
	char *why;          /* a line on the state: failure, staleness */
	char **reasons;     /* why this build runs it, a line each, or NULL */
	char *compile_cmd;  /* printable */
	char *run_cmd;      /* printable, env in front */
	char **compile_argv; /* NULL-terminated (command.h) */
	char **run_argv;
	char **env_words;   /* "NAME=value" */
	char *source_norm;  /* "kernels/a/../b/b.cu" -> "kernels/b/b.cu" */
	char *flags_norm;   /* flags with each -I folder made canonical */
	char **sources;     /* every source: word, canonical, NULL-terminated;
	                     * sources[0] is source */
	size_t nsources;
	char **includes;    /* include: folders, canonical, NULL-terminated */
	char **data_files;  /* inputs: files, canonical, NULL-terminated */
	struct capture *capture; /* capture: patterns (bundle/capture.h), or NULL */
	struct sweep *sweep;     /* sweep: sets (book/sweep.h), or NULL */
	char **inputs;      /* what its compile read (key.h), NULL-terminated */
	size_t ninputs;
	char key[33];
	char source_key[33];
	cJSON *key_parts;   /* what the keys were made of, named (key.h) */
	double seconds;
};

struct book {
	struct chapter **chs;
	size_t nchs;
	struct exper *exps;
	size_t nexps;
	size_t *slot;   /* book_find's index: exps index + 1, 0 empty */
	size_t nslots;  /* a power of two, over twice nexps */
	int gpu; /* book_run (measure/build.h) found a GPU to measure on */
};

/* Limits on an experiment's options (docs/06-bundle.md, "Limits"). */
#define RUNS_MAX 100
#define TIMEOUT_MAX 86400.0

/* Mark in b each experiment that requires a compute capability b's card
 * lacks (bundle_mark_needs). */
void book_mark_needs(const struct book *bk, struct bundle *b);

/* Load the chapters of dir. 0, or -1 when dir cannot be read (reported). */
int book_load(const char *dir, struct book *bk);
void book_free(struct book *bk);
struct exper *book_find(const struct book *bk, const char *id);



/* Mark e failed for the reason why, which it takes. */
void exper_fail(struct exper *e, char *why);
/* Free what book_run set in e (NULL-safe); book_free calls it. */
void exper_build_free(struct exper *e);

#endif
