/*
 * watch.c - labbook watch's loop (watch.h): a build in a child process,
 * then a wait for the next change, for as long as no signal stops it; and
 * the one line each build prints, made from what the build changed in the
 * bundle and the site.
 */
#include "cli/watch.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "bundle/results.h"
#include "bundle/state.h"
#include "base/util.h"
#include "cli/watch_state.h"
#include "base/exec.h"

/* A burst of events ends when none came for QUIET_MS, or after BURST_MS. */
#define QUIET_MS 30
#define BURST_MS 1000

/* ---- what a build did ------------------------------------------------------ */

/* A stamp per name: a page's modification time, when an experiment last
 * ran or failed. */
struct snap {
	char **names;
	char **stamps;
	size_t n;
};

static void snap_add(struct snap *s, const char *name, size_t len,
                     const char *stamp)
{
	s->names = xrealloc(s->names, sizeof *s->names * (s->n + 1));
	s->stamps = xrealloc(s->stamps, sizeof *s->stamps * (s->n + 1));
	s->names[s->n] = xstrndup(name, len);
	s->stamps[s->n++] = xstrdup(stamp);
}

/* The pages of the site folder, stamped with their modification times. */
static void snap_pages(struct snap *s, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	while (dp && (de = readdir(dp))) {
		if (de->d_name[0] == '.' || !watch_name_ends(de->d_name, ".html"))
			continue;
		char *path = path_join(dir, de->d_name);
		char stamp[32];
		snprintf(stamp, sizeof stamp, "%lld", (long long)file_mtime(path));
		snap_add(s, de->d_name, strlen(de->d_name) - 5, stamp);
		free(path);
	}
	if (dp)
		closedir(dp);
}

/* When each experiment last ran and last failed, as the bundle says. */
static void snap_experiments(struct snap *ran, struct snap *failed,
                             const struct watch *w)
{
	struct bundle *b = bundle_open(w->results);
	for (size_t i = 0; i < w->nids; i++) {
		struct result_meta m;
		results_meta_load(b, w->ids[i], NULL, &m);
		/* Dates are whole seconds: two runs within one differ in how long
		 * they took. */
		char *r = m.date ? xasprintf("%s %.9g", m.date, m.seconds) : xstrdup("");
		char *f = m.failed_date ? xasprintf("%s %s", m.failed_date,
		                                    m.why ? m.why : "") : xstrdup("");
		snap_add(ran, w->ids[i], strlen(w->ids[i]), r);
		snap_add(failed, w->ids[i], strlen(w->ids[i]), f);
		free(r);
		free(f);
		results_meta_free(&m);
	}
	bundle_free(b);
}

static void snap_free(struct snap *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->names[i]);
		free(s->stamps[i]);
	}
	free(s->names);
	free(s->stamps);
	memset(s, 0, sizeof *s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names whose stamp in after is new or other than in before, sorted,
 * as "a, b"; NULL when none. Caller frees. */
static char *snap_newer(const struct snap *before, const struct snap *after)
{
	char **names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < after->n; i++) {
		size_t k = 0;
		while (k < before->n && strcmp(before->names[k], after->names[i]))
			k++;
		if (*after->stamps[i] &&
		    (k == before->n || strcmp(before->stamps[k], after->stamps[i])))
			*ARRAY_PUSH(names, n) = after->names[i];
	}
	if (!n)
		return NULL;
	qsort(names, n, sizeof *names, cmp_str);
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", names[i]);
	free(names);
	return buf_detach(&b);
}

struct snaps {
	struct snap pages, ran, failed;
};

static void snaps_take(struct snaps *s, const struct watch *w)
{
	memset(s, 0, sizeof *s);
	snap_pages(&s->pages, w->site);
	snap_experiments(&s->ran, &s->failed, w);
}

static void snaps_free(struct snaps *s)
{
	snap_free(&s->pages);
	snap_free(&s->ran);
	snap_free(&s->failed);
}

/* Is id one of the names in list ("a, b")? */
static int list_has(const char *list, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = list; p && *p;) {
		size_t k = strcspn(p, ",");
		if (k == n && !strncmp(p, id, n))
			return 1;
		p += k;
		p += strspn(p, ", ");
	}
	return 0;
}

/*
 * The one line of a build: what changed, which experiments ran, failed or
 * could not run, which pages were rewritten, how long it took. Returns
 * whether the site changed.
 */
static int watch_report(const struct watch *w, const struct changes *c,
                        const struct snaps *before, const struct snaps *after,
                        int status, double seconds)
{
	struct buf line = BUF_INIT;
	char *pages = snap_newer(&before->pages, &after->pages);
	char *ran = snap_newer(&before->ran, &after->ran);
	char *failed = snap_newer(&before->failed, &after->failed);
	buf_puts(&line, "watch: ");
	if (!watch_changes_any(c)) {
		buf_puts(&line, "built");
	} else if (c->overflow) {
		buf_puts(&line, "many files changed");
	} else if (c->n > 3) {
		buf_printf(&line, "%zu files changed", c->n);
	} else {
		for (size_t i = 0; i < c->n; i++)
			buf_printf(&line, "%s%s", i ? ", " : "", c->paths[i]);
		buf_puts(&line, " changed");
	}
	if (ran)
		buf_printf(&line, "; ran %s", ran);
	if (failed)
		buf_printf(&line, "; %s failed (see above)", failed);
	/* Experiments built from a changed file that did not run here. */
	struct buf idle = BUF_INIT;
	for (size_t i = 0; i < w->ninputs; i++) {
		int hit = 0;
		for (size_t k = 0; k < c->n && !hit; k++)
			hit = !strcmp(c->paths[k], w->inputs[i].path);
		for (const char *p = w->inputs[i].ids; hit && *p;) {
			size_t n = strcspn(p, ",");
			char *id = xstrndup(p, n);
			if (!list_has(ran, id) && !list_has(failed, id) &&
			    !list_has(idle.data, id))
				buf_printf(&idle, "%s%s", idle.len ? ", " : "", id);
			free(id);
			p += n;
			p += strspn(p, ", ");
		}
	}
	if (idle.len && status != 130 && status != 143)
		buf_printf(&line, "; %s not run again (%s; its page shows the "
		           "results in the bundle)", idle.data,
		           w->no_run ? "--no-run" : "this machine has no GPU or no "
		                                    "nvcc to run it");
	if (pages)
		buf_printf(&line, "; rewrote %s", pages);
	else
		buf_puts(&line, "; no page changed");
	if (status == 1)
		buf_puts(&line, "; errors above");
	else if (status == 130 || status == 143)
		buf_puts(&line, "; interrupted");
	buf_printf(&line, "; %.2f s\n", seconds);
	fputs(line.data, stdout);
	fflush(stdout);
	int site_changed = pages != NULL;
	free(pages);
	free(ran);
	free(failed);
	buf_free(&idle);
	buf_free(&line);
	return site_changed;
}

/* ---- builds ------------------------------------------------------------------ */

/*
 * Wait for the child build, passing a SIGINT or SIGTERM on to it. Returns
 * its exit status; *stop gets the signal that asked watch to stop, if any.
 */
static int watch_wait(struct watch *w, pid_t pid, int *stop)
{
	for (;;) {
		struct signalfd_siginfo si;
		ssize_t n = read(w->sfd, &si, sizeof si);
		if (n != (ssize_t)sizeof si) {
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				return 1;
			struct pollfd p = {w->sfd, POLLIN, 0};
			poll(&p, 1, -1);
			continue;
		}
		if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM ||
		    si.ssi_signo == SIGHUP) {
			*stop = (int)si.ssi_signo;
			kill(pid, (int)si.ssi_signo);
			continue;
		}
		int status;
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status)
			                         : 128 + WTERMSIG(status);
	}
}

/* One build; returns its exit status. */
static int watch_build(struct watch *w, int *stop)
{
	struct snaps before, after;
	/* What changed from now on is for the next build. */
	struct changes c = w->pending;
	memset(&w->pending, 0, sizeof w->pending);
	snaps_take(&before, w);
	double t0 = now_seconds();
	fflush(stdout);
	fflush(stderr);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		diag("cannot start a build: %s", strerror(errno));
		snaps_free(&before);
		watch_changes_free(&c);
		return 1;
	}
	if (pid == 0) {
		/* A build stops cleanly, as on SIGTERM, once watch dies. */
		if (exec_die_with_parent(parent, SIGTERM) != 0)
			_exit(1);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(w->ifd);
		close(w->sfd);
		execv(w->self, w->argv);
		fprintf(stderr, "labbook: cannot run %s: %s\n", w->self, strerror(errno));
		_exit(127);
	}
	int status = watch_wait(w, pid, stop);
	double seconds = now_seconds() - t0;
	/* The build's own writes to the bundle are no news; saves are. */
	watch_read(w, 0);
	snaps_take(&after, w);
	if (status != 2 && watch_report(w, &c, &before, &after, status, seconds))
		watch_stamp(w);
	snaps_free(&before);
	snaps_free(&after);
	watch_changes_free(&c);
	return status;
}

/*
 * Wait for changes: block until an event or a signal, then drain events
 * until QUIET_MS pass without one. Returns 0 when something changed, or
 * the signal that asked to stop.
 */
static int watch_wait_changes(struct watch *w)
{
	struct pollfd fds[2] = {{w->ifd, POLLIN, 0}, {w->sfd, POLLIN, 0}};
	double burst = 0;
	for (;;) {
		int timeout = -1;
		if (watch_changes_any(&w->pending)) {
			if (!burst)
				burst = now_seconds();
			int left = BURST_MS - (int)((now_seconds() - burst) * 1000);
			timeout = left < QUIET_MS ? (left > 0 ? left : 0) : QUIET_MS;
		}
		int n = poll(fds, 2, timeout);
		if (n < 0 && errno != EINTR)
			return SIGTERM;
		if (n == 0)
			return 0;
		if (fds[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(w->sfd, &si, sizeof si) == (ssize_t)sizeof si &&
			    (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM ||
			     si.ssi_signo == SIGHUP))
				return (int)si.ssi_signo;
		}
		if (fds[0].revents & POLLIN)
			watch_read(w, 1);
	}
}

static char *self_path(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return NULL;
	return xstrndup(buf, (size_t)n);
}

int watch_main(const struct watch_opts *o, int argc, char **argv)
{
	struct watch w = {0};
	int rc = 1, stop = 0;
	char cwd[PATH_MAX];
	w.ifd = w.sfd = -1;
	sigset_t mask;
	w.chapters = o->chapters;
	w.results = o->results;
	w.site = o->site;
	w.templates = o->templates;
	w.no_run = o->no_run;
	w.self = self_path();
	if (!w.self || !getcwd(cwd, sizeof cwd)) {
		diag("cannot find the labbook program or this folder: %s",
		     strerror(errno));
		free(w.self);
		return 1;
	}
	/* The last -C wins: the builds work where watch does. */
	w.argv = xcalloc((size_t)argc + 6, sizeof *w.argv);
	w.argv[0] = w.self;
	w.argv[1] = "build";
	for (int i = 0; i < argc; i++)
		w.argv[i + 2] = argv[i];
	w.argv[argc + 2] = "--live";
	w.argv[argc + 3] = "-C";
	w.argv[argc + 4] = cwd;

	/* Signals arrive on a descriptor, so one poll waits for everything.
	 * They stay blocked until labbook exits: a second Ctrl-C while watch
	 * cleans up waits, unread, rather than killing it half way. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	/* A shell starts a background job with SIGINT ignored; an ignored
	 * signal never reaches the descriptor. SIGHUP stays ignored where it
	 * was (nohup), and so it is in the builds. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	w.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	w.ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (w.sfd < 0 || w.ifd < 0) {
		diag("cannot watch for changes: %s", strerror(errno));
		goto out;
	}
	/* Watch first, so a save during the first build is not missed. */
	watch_plan(&w);
	int status = watch_build(&w, &stop);
	if (status == 2) {
		rc = 2;
		goto out;
	}
	watch_plan(&w);
	printf("watch: watching %s, %s, %s and the %zu file%s the experiments "
	       "are built from; Ctrl-C stops\n", w.chapters, w.templates,
	       w.results, w.ninputs, w.ninputs == 1 ? "" : "s");
	fflush(stdout);
	while (!stop && !(stop = watch_wait_changes(&w))) {
		watch_build(&w, &stop);
		watch_plan(&w);
	}
	rc = 128 + stop;
out:
	if (w.ifd >= 0)
		close(w.ifd);
	if (w.sfd >= 0)
		close(w.sfd);
	for (size_t i = 0; i < w.ndirs; i++)
		free(w.dirs[i].path);
	free(w.dirs);
	watch_inputs_free(w.inputs, w.ninputs);
	watch_ids_free(&w);
	watch_changes_free(&w.pending);
	free(w.argv);
	free(w.self);
	return rc;
}

