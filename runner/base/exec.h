/*
 * exec.h - run programs: with a timeout, in their own process group, with
 * their stdout and stderr captured together (up to a cap). Programs are
 * started from argv arrays, never through a shell.
 *
 * Waiting never sleeps: labbook blocks in poll on the output pipe, a pidfd
 * for the child's exit and a pipe that SIGINT, SIGTERM and SIGHUP write
 * to, so it wakes the moment any of them happens. (On a kernel without
 * pidfd, the wait for an exit is cut into 20 ms slices.)
 *
 * Nothing a program started outlives labbook: the leader of its process
 * group is a small keeper process, forked from labbook, that runs the
 * program and waits for it, and kills the whole group when labbook dies,
 * even by SIGKILL (PR_SET_PDEATHSIG). Only a process that leaves the group
 * (setsid) escapes it.
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
	int escaped;    /* a process it started left its process group
	                 * (setsid) and still held its output when it exited;
	                 * it was not killed */
};

/*
 * Run argv[0] (looked up in PATH) with the extra environment entries env
 * ("NAME=value", NULL-terminated, may be NULL), stdin from /dev/null.
 * The whole process group is killed at timeout seconds. Returns 0 once the
 * program ran, whatever its outcome (see r), or -1 if it could not start.
 */
int exec_run(char *const argv[], char *const env[], double timeout,
             size_t cap, struct run_result *r);
/* The same, running the program at path (looked up in PATH) with argv as
 * its arguments, so argv[0] may be any name the program should see. */
int exec_run_as(const char *path, char *const argv[], char *const env[],
                double timeout, size_t cap, struct run_result *r);

/* A program started in the background (parallel compiles). */
struct exec_proc {
	pid_t pid;      /* 0: the slot is free */
	int pidfd;
	double start, timeout;
	int done;       /* it ended and was reaped; status says how */
	int status;     /* as from waitpid */
	int timed_out;  /* killed at its timeout */
	int interrupted; /* killed because labbook was interrupted */
};

/*
 * Start argv in its own process group with stdout and stderr written to
 * log_path. 0, or -1 (reported).
 */
int exec_start(struct exec_proc *p, char *const argv[], const char *log_path,
               double timeout);
/*
 * Wait until one of the started processes in ps[0..n) ends, passes its
 * timeout (its group is killed) or labbook is asked to stop (every group
 * is killed). Returns the index of one that is done (reaped), or -1 when
 * none is running.
 */
int exec_wait_any(struct exec_proc *ps, size_t n);
/* Release what exec_start took; the slot becomes free. NULL-safe. */
void exec_proc_close(struct exec_proc *p);

/*
 * Wait until the flock on fd is taken (LOCK_EX), or labbook is asked to
 * stop. 0 once it holds the lock, or -1: stopped (exec_stopping() says
 * by which signal) or the wait failed (reported).
 */
int exec_flock_wait(int fd);

/* Output of a short command, or NULL if it failed to run or exit 0. */
char *exec_capture(char *const argv[], double timeout);

/*
 * Split a command-line string into words with the shell's quoting rules
 * ('...', "...", backslash), but no shell: nothing is expanded. Returns a
 * NULL-terminated array (caller frees with argv_free); *n gets the count.
 */
char **argv_split(const char *s, size_t *n);
/* Is every quote of s closed, as argv_split reads quotes (a backslash
 * escapes the next character, except inside '...')? 0, or -1 with *why
 * (caller frees): the quote, its column, and s marked there. */
int argv_quotes_closed(const char *s, char **why);
/* Append the words of s (argv_split) to the NULL-terminated-to-be array
 * *argv of *n words, built by ARRAY_PUSH. */
void argv_append_split(char ***argv, size_t *n, const char *s);
void argv_free(char **argv);
/* Words joined for display and for a shell: a word of anything but
 * letters, digits and _@%+=:,./- is put in single quotes ('\'' for a
 * quote), so the line runs as the words it shows. Caller frees. */
char *argv_join(char *const argv[]);

/* Install SIGINT, SIGTERM and SIGHUP handlers that stop the run cleanly. */
void exec_catch_signals(void);
/* Was labbook asked to stop? (the signal number, or 0) */
int exec_stopping(void);
/* In a process labbook forked to work on its own (a GPU worker): take a
 * wake-up pipe of its own, so the parent's signals do not wake it. */
void exec_forked(void);
/*
 * In a child just forked from parent: have the kernel send it sig when
 * parent dies, however it dies. 0, or -1 when parent is gone already (the
 * child should end at once) or the kernel refused.
 */
int exec_die_with_parent(pid_t parent, int sig);

#endif
