/*
 * explain_cmd.h - labbook explain ID [the build options]: the command
 * line of measure/explain.h.
 */
#ifndef LB_EXPLAIN_CMD_H
#define LB_EXPLAIN_CMD_H

/*
 * Run "labbook explain" with its arguments (argv[0] is "explain"): find
 * the book as labbook build does (-C, --chapters), open the bundle
 * (--results, default results/local), and say what a build with the same
 * options would do with the experiment and why (book_explain). The build
 * options that change no decision (--site, --title, -j, ...) are taken
 * and ignored, so a build's command line can be given as it is. Returns
 * the exit status: 0 explained, 1 an unknown id or a problem reported,
 * 2 a wrong command line.
 */
int explain_main(int argc, char **argv);

#endif
