/*
 * usage.h - the help texts of labbook's commands, as main.c prints them:
 * usage_labbook for "labbook --help" and a wrong command line, and one
 * per command for "labbook COMMAND --help"; and what a wrong command line
 * is told (usage_fail), with the nearest option or command.
 */
#ifndef LB_USAGE_H
#define LB_USAGE_H

extern const char usage_labbook[];
extern const char usage_build[];
extern const char usage_watch[];
extern const char usage_explain[];
extern const char usage_eval[];
extern const char usage_compare[];
extern const char usage_history[];
extern const char usage_claims[];
extern const char usage_init[];


/* A wrong command line of "labbook CMD" (cmd "explain ", with its space;
 * "" for labbook itself): the problem and where the options are told, on
 * stderr. Returns 2, the exit status. */
int usage_fail(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same for what getopt_long returned as c ('?' an unknown option, ':'
 * one without its value), as it left argv, optind and optopt. */
int usage_fail_getopt(const char *cmd, int c, char **argv);
/* An unknown command: the commands, and the nearest one. Returns 2. */
int usage_fail_command(const char *cmd);
/* "--json" with no value (the last word, or one before another option)
 * means stdout, for every command: it is made "--json=-" in argv. */
void usage_json_alone(int argc, char **argv);

#endif
