/* derived.c - the records derived from a good run (derived.h). */
#define _GNU_SOURCE
#include "measure/derived.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"
#include "bundle/ptxas.h"
#include "measure/command.h"
#include "measure/ncu.h"

/*
 * Run the experiment once more under Nsight Compute for the metrics it
 * asks for, and keep one record per profiled launch as <id>_ncu. A failure
 * here is reported as a warning: the timed results stand.
 */
static char *derived_ncu(const struct exper *e, const struct toolchain *tc,
                         const struct run_opts *o, char *visible)
{
	char *text = NULL;
	struct buf metrics = BUF_INIT;
	char *copy = xstrdup(e->ncu), *save = NULL;
	for (char *w = strtok_r(copy, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save))
		buf_printf(&metrics, "%s%s", metrics.len ? "," : "", ncu_metric(w));
	free(copy);
	char **argv = command_ncu(e, tc->ncu, metrics.data);
	char *env[] = {"LAB_PROFILE=1", "LAB_RECORDS=/dev/null", visible, NULL};
	struct run_result r;
	double timeout = 4 * (e->timeout > 0 ? e->timeout : o->timeout);
	if (o->progress)
		fprintf(stderr, "          profile %s with ncu (%s)\n", e->id, e->ncu);
	if (exec_run(argv, env, timeout, 64 << 20, &r) == 0) {
		/* ncu exits non-zero when a launch of the program fails, which
		 * an experiment may do on purpose; what it measured still counts. */
		text = ncu_parse(r.out, e->ncu);
		if (!text)
			warn_at(e->ch->path, e->dir->line, "experiment '%s': ncu gave "
			        "no metrics (exit status %d):\n%.2000s", e->id,
			        r.exit_code, r.out);
		free(r.out);
	}
	argv_free(argv);
	buf_free(&metrics);
	return text;
}

/* The SASS of the experiment's kernels (*listing, with demangled names),
 * and their instruction counts (*counts). */
static void derived_sass(const struct exper *e, const struct toolchain *tc,
                         char **listing, char **counts)
{
	char *bin = command_bin(e);
	char *argv[] = {tc->cuobjdump, "-sass", bin, NULL};
	char *dump = exec_capture(argv, 120);
	if (dump) {
		*listing = sass_clean(dump);
		*counts = sass_parse(dump);
		free(dump);
	}
	free(bin);
}

void derived_take(const struct exper *e, const struct toolchain *tc,
                  const struct run_opts *o, char *visible, char *text[3],
                  char **listing)
{
	text[DERIVED_PTXAS] = text[DERIVED_SASS] = text[DERIVED_NCU] = NULL;
	*listing = NULL;
	if (e->cuda && tc->cuobjdump)
		derived_sass(e, tc, listing, &text[DERIVED_SASS]);
	if (e->cuda && e->ncu && tc->ncu && tc->gpu)
		text[DERIVED_NCU] = derived_ncu(e, tc, o, visible);
	char *log = command_log(e), *why = NULL;
	char *log_text = file_read_regular(log, RESULTS_RECORDS_CAP, NULL, &why);
	if (log_text)
		text[DERIVED_PTXAS] = ptxas_parse(log_text);
	free(why);
	free(log_text);
	free(log);
}
