/*
 * claims_cmd.h - labbook claims: every claim of a book, judged on a
 * bundle and those compared with it (judge/judge.h), one line each: where
 * it is, whether it holds, its margin against the noise, and its teeth.
 */
#ifndef LB_CLAIMS_CMD_H
#define LB_CLAIMS_CMD_H

/*
 * Run "labbook claims" with its arguments (argv[0] is "claims"): find the
 * book as labbook build does (-C, --chapters), judge its claims on
 * --results (default results/local) and each --compare bundle, and print
 * them, the hardware claims and then the static checks (those that read
 * only compiler output), with a summary; --json FILE ("-": stdout) writes
 * them as JSON too. Returns 0; 1 when, under --strict, a claim does not
 * hold, cannot fail or is fragile on some bundle, or a problem was
 * reported; 2 for a wrong command line.
 */
int claims_main(int argc, char **argv);

#endif
