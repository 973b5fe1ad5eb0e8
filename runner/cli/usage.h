/*
 * usage.h - the help texts of labbook's commands, as main.c prints them:
 * usage_labbook for "labbook --help" and a wrong command line, and one
 * per command for "labbook COMMAND --help".
 */
#ifndef LB_USAGE_H
#define LB_USAGE_H

extern const char usage_labbook[];
extern const char usage_build[];
extern const char usage_watch[];
extern const char usage_eval[];
extern const char usage_compare[];
extern const char usage_init[];

#endif
