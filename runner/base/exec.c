/* exec.c - processes: a command run with a timeout, its output captured and
 * capped, its process group stopped on a signal or when labbook dies (exec.h). */
#define _GNU_SOURCE
#include "base/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"

static volatile sig_atomic_t stop_signal;
static int stop_pipe[2] = {-1, -1}; /* written by the handler: poll sees it */

static void on_signal(int sig)
{
	int saved = errno;
	stop_signal = sig;
	if (stop_pipe[1] >= 0)
		(void)!write(stop_pipe[1], "", 1);
	errno = saved;
}

void exec_catch_signals(void)
{
	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		stop_pipe[0] = stop_pipe[1] = -1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* Under nohup, a hangup is not a reason to stop. */
	struct sigaction hup;
	if (sigaction(SIGHUP, NULL, &hup) == 0 && hup.sa_handler != SIG_IGN)
		sigaction(SIGHUP, &sa, NULL);
}

int exec_stopping(void)
{
	return stop_signal;
}

void exec_forked(void)
{
	if (stop_pipe[0] < 0)
		return;
	close(stop_pipe[0]);
	close(stop_pipe[1]);
	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
		stop_pipe[0] = stop_pipe[1] = -1;
}

int exec_die_with_parent(pid_t parent, int sig)
{
	if (prctl(PR_SET_PDEATHSIG, sig) != 0)
		return -1;
	/* The parent may have died before the line above: then no signal
	 * comes, and its child has a new parent already. */
	return getppid() == parent ? 0 : -1;
}

/* The signals the keeper of a run waits for; blocked from before its fork,
 * so none is lost or runs labbook's handler in it. */
static void keeper_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGCHLD);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

static void child_exec(const char *path, char *const argv[],
                       char *const env[], int out_fd)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	for (size_t i = 0; env && env[i]; i++)
		putenv(env[i]);
	execvp(path, argv);
	dprintf(2, "labbook: cannot run %s: %s\n", path, strerror(errno));
	_exit(127);
}

/*
 * The leader of a run's process group: it starts the program in the group
 * and waits for it. When labbook dies, even by SIGKILL, the kernel tells
 * it (PR_SET_PDEATHSIG) and it kills the whole group, itself included, so
 * nothing a run started outlives labbook. Signals sent to the group reach
 * the program; the keeper ends as the program ended, so labbook sees the
 * program's own status.
 */
static void child_keep(const char *path, char *const argv[],
                       char *const env[], int out_fd, pid_t parent)
{
	setpgid(0, 0);
	signal(SIGCHLD, SIG_DFL);
	if (exec_die_with_parent(parent, SIGUSR1) != 0)
		_exit(127);
	pid_t pid = fork();
	if (pid < 0) {
		dprintf(out_fd, "labbook: cannot run %s: %s\n", path,
		        strerror(errno));
		_exit(127);
	}
	if (pid == 0)
		child_exec(path, argv, env, out_fd);
	close(out_fd);
	sigset_t waited;
	keeper_signals(&waited);
	for (;;) {
		int sig = sigwaitinfo(&waited, NULL);
		int status;
		if (sig == SIGUSR1 && getppid() != parent)
			kill(0, SIGKILL);
		if (sig != SIGCHLD || waitpid(pid, &status, WNOHANG) != pid)
			continue;
		if (WIFEXITED(status))
			_exit(WEXITSTATUS(status));
		/* End by the same signal, without a core of the keeper. */
		sig = WTERMSIG(status);
		struct rlimit no_core = {0, 0};
		setrlimit(RLIMIT_CORE, &no_core);
		signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		kill(getpid(), sig);
		_exit(128 + sig);
	}
}

/* A descriptor that becomes readable when pid exits, or -1 where the
 * kernel has no pidfd (before Linux 5.3). */
static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/*
 * Wait for one of fds (n of them, each -1 or a descriptor to read) or the
 * stop pipe for at most ms milliseconds (-1: no limit). Without a pidfd,
 * a child's exit wakes nothing, so the wait is cut to 20 ms then.
 * Fills ready[i]; returns when something is ready or the time is up.
 */
static void wait_fds(const int *fds, size_t n, int ms, int *ready, int no_pidfd)
{
	struct pollfd pfd[66];
	size_t k = 0;
	if (n > 64)
		n = 64;
	for (size_t i = 0; i < n; i++)
		ready[i] = 0;
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			pfd[k++] = (struct pollfd){fds[i], POLLIN, 0};
	if (stop_pipe[0] >= 0)
		pfd[k++] = (struct pollfd){stop_pipe[0], POLLIN, 0};
	if (no_pidfd && (ms < 0 || ms > 20))
		ms = 20;
	if (stop_signal)
		ms = 0;
	if (poll(pfd, k, ms) <= 0)
		return;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			ready[i] = pfd[k++].revents != 0;
}

static int ms_until(double deadline)
{
	double left = deadline - now_seconds();
	if (left <= 0)
		return 0;
	return left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
}

/*
 * Stop the process group of p: SIGTERM, a grace period of two seconds,
 * then SIGKILL. Reaps the leader when it exits in that time; returns 1
 * then, with its status.
 */
static int kill_group(pid_t pid, int pidfd, int *status)
{
	kill(-pid, SIGTERM);
	double end = now_seconds() + 2;
	for (;;) {
		if (waitpid(pid, status, WNOHANG) == pid) {
			/* The leader is gone; its children may not be. */
			kill(-pid, SIGKILL);
			return 1;
		}
		if (now_seconds() >= end)
			break;
		int ready;
		int fd = pidfd;
		struct pollfd pfd = {fd, POLLIN, 0};
		if (fd >= 0)
			poll(&pfd, 1, ms_until(end));
		else
			wait_fds(&fd, 1, ms_until(end), &ready, 1);
	}
	kill(-pid, SIGKILL);
	return 0;
}

static pid_t spawn(const char *path, char *const argv[], char *const env[],
                   int out_fd, int close_fd)
{
	sigset_t waited, old;
	keeper_signals(&waited);
	sigprocmask(SIG_BLOCK, &waited, &old);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		if (close_fd >= 0)
			close(close_fd);
		child_keep(path, argv, env, out_fd, parent);
	}
	int err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		diag("cannot run %s: %s", path, strerror(err));
		return -1;
	}
	setpgid(pid, pid);
	return pid;
}

int exec_run(char *const argv[], char *const env[], double timeout,
             size_t cap, struct run_result *r)
{
	return exec_run_as(argv[0], argv, env, timeout, cap, r);
}

int exec_run_as(const char *path, char *const argv[], char *const env[],
                double timeout, size_t cap, struct run_result *r)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		diag("cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	double start = now_seconds();
	pid_t pid = spawn(path, argv, env, fds[1], fds[0]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	int pidfd = pidfd_of(pid);

	struct buf out = BUF_INIT;
	int status = 0, reaped = 0, killed = 0, swept = 0;
	int pipe_fd = fds[0];
	double reaped_at = 0;
	while (pipe_fd >= 0 || !reaped) {
		if (!killed && !reaped && (stop_signal || now_seconds() - start > timeout)) {
			killed = 1;
			if (stop_signal)
				r->interrupted = 1;
			else
				r->timed_out = 1;
			if (kill_group(pid, pidfd, &status)) {
				reaped = 1;
				reaped_at = now_seconds();
			}
			continue;
		}
		/*
		 * The leader exited but the pipe is still open: a process it
		 * started holds it. Its group gets a second to finish, then
		 * SIGKILL; a holder that survives that left the group (setsid).
		 */
		if (reaped && pipe_fd >= 0) {
			double since = now_seconds() - reaped_at;
			if (since > 1.0 && !swept) {
				kill(-pid, SIGKILL);
				swept = 1;
			} else if (since > 1.5 && swept) {
				r->escaped = 1;
				break;
			}
		}
		double deadline = reaped ? reaped_at + (swept ? 1.5 : 1.0)
		                  : killed ? now_seconds() + 1
		                           : start + timeout;
		int wfd[2] = {pipe_fd, reaped ? -1 : pidfd}, ready[2];
		wait_fds(wfd, 2, ms_until(deadline), ready, !reaped && pidfd < 0);
		if (pipe_fd >= 0 && ready[0]) {
			char chunk[65536];
			ssize_t got = read(pipe_fd, chunk, sizeof chunk);
			if (got > 0) {
				size_t keep = out.len < cap ? cap - out.len : 0;
				if (keep > (size_t)got)
					keep = (size_t)got;
				buf_put(&out, chunk, keep);
				r->dropped += (size_t)got - keep;
			} else if (got == 0 || errno != EINTR) {
				close(pipe_fd);
				pipe_fd = -1;
				/* Nothing else to wait on: block for the exit, within
				 * the timeout (pidfd, or a short wait without one). */
			}
		}
		if (!reaped && waitpid(pid, &status, WNOHANG) == pid) {
			reaped = 1;
			reaped_at = now_seconds();
		}
	}
	if (pipe_fd >= 0)
		close(pipe_fd);
	if (pidfd >= 0)
		close(pidfd);
	if (!reaped)
		waitpid(pid, &status, 0);
	r->seconds = now_seconds() - start;
	if (WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	if (r->timed_out || r->interrupted)
		r->exit_code = -1;
	r->out_len = out.len;
	buf_puts(&out, "");
	r->out = buf_detach(&out);
	return 0;
}

int exec_flock_wait(int fd)
{
	/* flock itself cannot wait on the stop pipe: a child takes the lock
	 * for the description it shares with labbook, and labbook waits for
	 * the child or a stop signal, whichever comes first. */
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		if (exec_die_with_parent(parent, SIGKILL) != 0)
			_exit(1);
		_exit(flock(fd, LOCK_EX) == 0 ? 0 : 1);
	}
	if (pid < 0) {
		diag("cannot wait for the lock: %s", strerror(errno));
		return -1;
	}
	int pidfd = pidfd_of(pid), status = 0, reaped = 0;
	while (!stop_signal && !reaped) {
		int ready;
		wait_fds(&pidfd, 1, -1, &ready, pidfd < 0);
		reaped = waitpid(pid, &status, WNOHANG) == pid;
	}
	if (!reaped) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	if (pidfd >= 0)
		close(pidfd);
	if (reaped && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!stop_signal)
		diag("the wait for the lock ended without it");
	return -1;
}

int exec_start(struct exec_proc *p, char *const argv[], const char *log_path,
               double timeout)
{
	memset(p, 0, sizeof *p);
	p->pidfd = -1;
	int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		diag("cannot write %s: %s", log_path, strerror(errno));
		return -1;
	}
	p->pid = spawn(argv[0], argv, NULL, fd, -1);
	close(fd);
	if (p->pid < 0) {
		p->pid = 0;
		return -1;
	}
	p->pidfd = pidfd_of(p->pid);
	p->start = now_seconds();
	p->timeout = timeout;
	return 0;
}

int exec_wait_any(struct exec_proc *ps, size_t n)
{
	for (;;) {
		double deadline = 0;
		int running = 0, no_pidfd = 0;
		int fds[64], ready[64];
		size_t m = n < 64 ? n : 64;
		for (size_t i = 0; i < m; i++) {
			struct exec_proc *p = &ps[i];
			fds[i] = -1;
			if (!p->pid || p->done)
				continue;
			if (!p->timed_out && !p->interrupted &&
			    (stop_signal || now_seconds() - p->start > p->timeout)) {
				if (stop_signal)
					p->interrupted = 1;
				else
					p->timed_out = 1;
				if (kill_group(p->pid, p->pidfd, &p->status)) {
					p->done = 1;
					return (int)i;
				}
			}
			if (waitpid(p->pid, &p->status, WNOHANG) == p->pid) {
				p->done = 1;
				return (int)i;
			}
			fds[i] = p->pidfd;
			no_pidfd |= p->pidfd < 0;
			double end = p->start + p->timeout;
			if (!running || end < deadline)
				deadline = end;
			running = 1;
		}
		if (!running)
			return -1;
		wait_fds(fds, m, ms_until(deadline), ready, no_pidfd);
	}
}

void exec_proc_close(struct exec_proc *p)
{
	if (!p)
		return;
	if (p->pidfd >= 0)
		close(p->pidfd);
	p->pidfd = -1;
	p->pid = 0;
}

char *exec_capture(char *const argv[], double timeout)
{
	struct run_result r;
	if (exec_run(argv, NULL, timeout, 1 << 20, &r) != 0)
		return NULL;
	if (r.exit_code != 0) {
		free(r.out);
		return NULL;
	}
	return r.out;
}

char **argv_split(const char *s, size_t *n)
{
	char **argv = NULL;
	size_t count = 0;
	struct buf w = BUF_INIT;
	while (*s) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		buf_reset(&w);
		buf_puts(&w, "");
		char quote = 0;
		for (; *s && (quote || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
			if (quote && *s == quote)
				quote = 0;
			else if (!quote && (*s == '"' || *s == '\''))
				quote = *s;
			else if (*s == '\\' && s[1] && quote != '\'')
				buf_putc(&w, *++s);
			else
				buf_putc(&w, *s);
		}
		*ARRAY_PUSH(argv, count) = xstrdup(w.data);
	}
	buf_free(&w);
	*ARRAY_PUSH(argv, count) = NULL;
	if (n)
		*n = count - 1;
	return argv;
}

int argv_quotes_closed(const char *text, char **why)
{
	char quote = 0;
	size_t open = 0;
	for (size_t i = 0; text[i]; i++) {
		if (quote && text[i] == quote) {
			quote = 0;
		} else if (!quote && (text[i] == '"' || text[i] == '\'')) {
			quote = text[i];
			open = i;
		} else if (text[i] == '\\' && text[i + 1] && quote != '\'') {
			i++;
		}
	}
	if (!quote)
		return 0;
	*why = xasprintf("the quote %c at column %zu is not closed:\n  %s\n  %*s^",
	                 quote, open + 1, text, (int)open, "");
	return -1;
}

void argv_append_split(char ***argv, size_t *n, const char *s)
{
	size_t k;
	char **words = argv_split(s ? s : "", &k);
	for (size_t i = 0; i < k; i++)
		*ARRAY_PUSH(*argv, *n) = words[i];
	free(words);
}

void argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

char *argv_join(char *const argv[])
{
	struct buf b = BUF_INIT;
	for (size_t i = 0; argv[i]; i++) {
		const char *a = argv[i];
		if (i)
			buf_putc(&b, ' ');
		/* Only words of these characters mean the same to every shell
		 * unquoted. */
		if (*a && !a[strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
		                       "opqrstuvwxyz0123456789_@%+=:,./-")]) {
			buf_puts(&b, a);
			continue;
		}
		buf_putc(&b, '\'');
		for (; *a; a++) {
			if (*a == '\'')
				buf_puts(&b, "'\\''");
			else
				buf_putc(&b, *a);
		}
		buf_putc(&b, '\'');
	}
	return buf_detach(&b);
}
