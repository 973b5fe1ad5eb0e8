/*
 * exec.h - run programs: with a timeout, in their own process group, with
 * their stdout and stderr captured together (up to a cap).
 */
#ifndef LB_EXEC_H
#define LB_EXEC_H

#include <stddef.h>
#include <sys/types.h>

struct run_result {
	int exit_code;  /* when it exited; else -1 */
	int signal;     /* the signal that ended it, or 0 */
	int timed_out;  /* killed at its timeout */
	int interrupted; /* killed because labbook was interrupted */
	double seconds;
	char *out;      /* captured text (owned; free it) */
	size_t out_len;
	size_t dropped; /* bytes past the cap, not kept */
};

/*
 * Run argv[0] (looked up in PATH) with the extra environment entries env
 * ("NAME=value", NULL-terminated, may be NULL), stdin from /dev/null.
 * The whole process group is killed at timeout seconds. Returns 0 once the
 * program ran, whatever its outcome (see r), or -1 if it could not start.
 */
int exec_run(char *const argv[], char *const env[], double timeout,
             size_t cap, struct run_result *r);

/*
 * Start argv with stdout and stderr appended to log_path; the caller reaps
 * it with waitpid. Returns the pid, or -1 (reported).
 */
pid_t exec_spawn(char *const argv[], const char *log_path);

/* Output of a short command, or NULL if it failed to run or exit 0. */
char *exec_capture(char *const argv[], double timeout);

/* Split a command-line string into words, honouring quotes. */
char **argv_split(const char *s, size_t *n);
void argv_free(char **argv);
/* Words joined for display, quoted where needed. Caller frees. */
char *argv_join(char *const argv[]);

/* Install SIGINT/SIGTERM handlers that stop the run cleanly. */
void exec_catch_signals(void);
/* Was labbook asked to stop? (the signal number, or 0) */
int exec_stopping(void);

#endif
