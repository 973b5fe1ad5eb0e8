#define _GNU_SOURCE
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

void exec_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int exec_stopping(void)
{
	return stop_signal;
}

static void child_exec(char *const argv[], char *const env[], int out_fd)
{
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	dup2(out_fd, 1);
	dup2(out_fd, 2);
	for (size_t i = 0; env && env[i]; i++)
		putenv(env[i]);
	execvp(argv[0], argv);
	dprintf(2, "labbook: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Stop the process group: SIGTERM, a grace period, then SIGKILL. Reaps the
 * leader when it exits in that time; returns 1 then, with its status.
 */
static int kill_group(pid_t pid, int *status)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 40; i++) {
		if (waitpid(pid, status, WNOHANG) == pid) {
			/* The leader is gone; its children may not be. */
			kill(-pid, SIGKILL);
			return 1;
		}
		usleep(50000);
	}
	kill(-pid, SIGKILL);
	return 0;
}

int exec_run(char *const argv[], char *const env[], double timeout,
             size_t cap, struct run_result *r)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0) {
		diag("cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	double start = now_seconds();
	pid_t pid = fork();
	if (pid < 0) {
		diag("cannot run %s: %s", argv[0], strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		child_exec(argv, env, fds[1]);
	}
	setpgid(pid, pid);
	close(fds[1]);

	struct buf out = BUF_INIT;
	int status = 0, reaped = 0, open_pipe = 1;
	double reaped_at = 0;
	while (open_pipe || !reaped) {
		double now = now_seconds();
		if (!r->timed_out && !r->interrupted &&
		    (now - start > timeout || stop_signal)) {
			if (stop_signal)
				r->interrupted = 1;
			else
				r->timed_out = 1;
			if (kill_group(pid, &status)) {
				reaped = 1;
				reaped_at = now_seconds();
			}
		}
		/* A child that exited but left the pipe to a descendant. */
		if (reaped && now - reaped_at > 1.0) {
			kill(-pid, SIGKILL);
			break;
		}
		if (open_pipe) {
			struct pollfd pfd = {fds[0], POLLIN, 0};
			int n = poll(&pfd, 1, 100);
			if (n > 0) {
				char chunk[65536];
				ssize_t got = read(fds[0], chunk, sizeof chunk);
				if (got > 0) {
					size_t keep = out.len < cap ? cap - out.len : 0;
					if (keep > (size_t)got)
						keep = (size_t)got;
					buf_put(&out, chunk, keep);
					r->dropped += (size_t)got - keep;
				} else if (got == 0 || errno != EINTR) {
					open_pipe = 0;
				}
			}
		} else {
			usleep(10000);
		}
		if (!reaped) {
			pid_t w = waitpid(pid, &status, WNOHANG);
			if (w == pid) {
				reaped = 1;
				reaped_at = now_seconds();
			}
		}
	}
	close(fds[0]);
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
	r->out = buf_detach(&out);
	return 0;
}

pid_t exec_spawn(char *const argv[], const char *log_path)
{
	int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		diag("cannot write %s: %s", log_path, strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		diag("cannot run %s: %s", argv[0], strerror(errno));
		close(fd);
		return -1;
	}
	if (pid == 0)
		child_exec(argv, NULL, fd);
	close(fd);
	return pid;
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
		if (*a && !a[strcspn(a, " \t\n\"'\\$`*?;&|<>()")]) {
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
