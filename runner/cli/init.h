/*
 * init.h - a new book, and the files an installed labbook brings along.
 *
 * An installed labbook lives in PREFIX/bin; its page template and
 * stylesheet in PREFIX/share/labbook/templates, and lab.h and lab.py in
 * PREFIX/share/labbook. Run from a source tree (build/labbook), the same
 * files are the tree's templates/, kernels/lab.h and kernels/lab.py.
 */
#ifndef LB_INIT_H
#define LB_INIT_H

/*
 * Write a starter book into dir (created if missing): a chapter with an
 * experiment in C that needs no GPU, a chart, an inline value, a claim, a
 * Makefile, and lab.h and lab.py for CUDA and Python experiments to come
 * (each where labbook finds it). Prints what it wrote, and the command
 * that builds it (the folder quoted for the shell). A
 * folder that holds anything is refused, naming what is there; with force
 * the book is written beside it, and each file it replaces is named (a
 * folder or other non-file in the way is never replaced). Nothing is
 * written unless every file can be. 0, or -1 (reported).
 */
int init_book(const char *dir, int force);

/*
 * The templates folder to use when none was given: ./templates when the
 * book has its own, else the one installed with labbook, else the source
 * tree's. Caller frees.
 */
char *init_templates_find(void);

#endif
