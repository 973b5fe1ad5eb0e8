/* workers.c - several GPUs: one worker process per GPU, each running its
 * share of the experiments (workers.h). */
#define _GNU_SOURCE
#include "measure/workers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/exec.h"
#include "measure/job.h"
#include "base/util.h"

/* Estimated seconds of a run: its last duration, else a minute. */
static double run_estimate(struct bundle *b, const struct exper *e)
{
	struct exp_result *r = bundle_get(b, e->id);
	const cJSON *s = r->meta ? cJSON_GetObjectItem(r->meta, "seconds") : NULL;
	return cJSON_IsNumber(s) ? s->valuedouble : 60;
}

/*
 * Worker w, a forked copy of labbook: runs the experiments of list (n of
 * them) that owner gives it, on its GPU, and writes each one's state to
 * out. It frees what it was handed (owner) before it exits: a forked
 * process checked by valgrind is checked at its exit too, and so is each
 * run's keeper forked from it, whose status stands for the program's.
 */
static void worker_main(int w, struct exper **list, size_t n, int *owner,
                        int out, struct bundle *b, const struct run_opts *o,
                        const struct toolchain *tc, double t0, pid_t parent)
{
	/* A worker stops its runs, as when asked to, once labbook dies. */
	if (exec_die_with_parent(parent, SIGTERM) != 0)
		_exit(1);
	exec_forked();
	char dev[16];
	snprintf(dev, sizeof dev, "%d", w);
	setenv("CUDA_VISIBLE_DEVICES",
	       (size_t)w < tc->ndevs ? tc->devs[w].dev : dev, 1);
	struct exper **mine = NULL;
	size_t nmine = 0;
	for (size_t i = 0; i < n; i++)
		if (owner[i] == w)
			*ARRAY_PUSH(mine, nmine) = list[i];
	job_run_rounds(mine, nmine, b, o, tc, t0, w);
	free(mine);
	for (size_t i = 0; i < n; i++) {
		struct exper *e = list[i];
		if (owner[i] != w)
			continue;
		char *why = xstrdup(e->why ? e->why : "");
		for (char *c = why; *c; c++)
			if (*c == '\n' || *c == '\t')
				*c = ' ';
		dprintf(out, "%zu\t%d\t%.6f\t%s\n", i, (int)e->state,
		        e->seconds, why);
		free(why);
	}
	free(owner);
	_exit(0);
}

void workers_run(struct exper **list, size_t n, int workers, struct bundle *b,
                 const struct run_opts *o, const struct toolchain *tc, double t0)
{
	int *owner = xcalloc(n, sizeof *owner);
	double *load = xcalloc((size_t)workers, sizeof *load);
	int *taken = xcalloc(n, sizeof *taken);
	double *est = xcalloc(n, sizeof *est);
	for (size_t i = 0; i < n; i++)
		est[i] = run_estimate(b, list[i]);
	for (size_t done = 0; done < n; done++) {
		size_t pick = 0;
		double longest = -1;
		for (size_t i = 0; i < n; i++)
			if (!taken[i] && est[i] > longest) {
				longest = est[i];
				pick = i;
			}
		int w = 0;
		for (int k = 1; k < workers; k++)
			if (load[k] < load[w])
				w = k;
		taken[pick] = 1;
		owner[pick] = w;
		load[w] += longest;
	}
	int fds[2];
	pid_t *pids = xcalloc((size_t)workers, sizeof *pids);
	if (pipe(fds) != 0) {
		diag("cannot start the GPU workers: %s", strerror(errno));
		goto out;
	}
	pid_t parent = getpid();
	for (int w = 0; w < workers; w++) {
		pids[w] = fork();
		if (pids[w] < 0) {
			diag("cannot start a GPU worker: %s", strerror(errno));
			continue;
		}
		if (pids[w] > 0)
			continue;
		free(pids);
		free(load);
		free(taken);
		free(est);
		close(fds[0]);
		worker_main(w, list, n, owner, fds[1], b, o, tc, t0, parent);
	}
	close(fds[1]);
	struct buf msgs = BUF_INIT;
	char chunk[4096];
	ssize_t got;
	int told = 0;
	while ((got = read(fds[0], chunk, sizeof chunk)) != 0) {
		if (got < 0 && errno == EINTR) {
			/* Asked to stop: so are the workers, which stop their runs
			 * the same way and report what they finished. */
			for (int w = 0; w < workers && exec_stopping() && !told; w++)
				if (pids[w] > 0)
					kill(pids[w], exec_stopping());
			told |= exec_stopping() != 0;
			continue;
		}
		if (got < 0)
			break;
		buf_put(&msgs, chunk, (size_t)got);
	}
	close(fds[0]);
	for (int w = 0; w < workers; w++)
		if (pids[w] > 0)
			while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
				;
	bundle_reload(b);
	char *save = NULL;
	for (char *l = msgs.data ? strtok_r(msgs.data, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *f[4] = {l, NULL, NULL, NULL};
		for (int k = 1; k < 4; k++) {
			f[k] = strchr(f[k - 1], '\t');
			if (!f[k])
				break;
			*f[k]++ = '\0';
		}
		size_t i = strtoul(f[0], NULL, 10);
		if (!f[3] || i >= n)
			continue;
		list[i]->state = (enum exp_state)atoi(f[1]);
		list[i]->seconds = atof(f[2]);
		free(list[i]->why);
		list[i]->why = *f[3] ? xstrdup(f[3]) : NULL;
	}
	buf_free(&msgs);
out:
	free(pids);
	free(owner);
	free(load);
	free(taken);
	free(est);
}

