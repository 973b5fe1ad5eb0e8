/*
 * run.h - the options of a build's measuring, as the command line gave
 * them (cli/main.c fills them; every measure file reads them).
 */
#ifndef LB_RUN_H
#define LB_RUN_H

#include <stddef.h>

struct run_opts {
	int run;          /* 0: render only from the bundle */
	int compile_only; /* compile every experiment, run none */
	int jobs;
	int rerun_all;
	char **rerun;     /* ids to run regardless of the cache */
	size_t nrerun;
	double timeout;   /* default per-experiment timeout, seconds */
	int runs;         /* runs per experiment (processes); 0: its own or 3 */
	size_t output_cap;
	int progress;     /* show progress lines */
	int gpus;         /* run on this many GPUs at once; 0: all visible */
	double compile_timeout; /* seconds; 0: COMPILE_TIMEOUT (compile.h) */
};

#endif
