/*
 * expr_tree.h - the tree expr_parse makes of an expression (expr.h): read
 * by expr_eval.c, which gives it a value, and by whoever needs to know its
 * shape (a claim's two sides). A tree is its holder's, freed with
 * expr_free; every string in it is the node's own.
 */
#ifndef LB_EXPR_TREE_H
#define LB_EXPR_TREE_H

#include <stddef.h>

#include "book/expr_value.h"

enum expr_kind {
	EX_NUM,     /* num */
	EX_STR,     /* str: a quoted string, or a bare word where one may go */
	EX_BOOL,    /* num, 0 or 1 */
	EX_REF,     /* str.field[conds]: a column of experiment str's records;
	               text is the reference as written */
	EX_MACHINE, /* machine.field, a fact of machine.json */
	EX_CALL,    /* str(kids...) */
	EX_NEG,     /* -kids[0] */
	EX_NOT,     /* !kids[0] */
	EX_MUL, EX_DIV, EX_ADD, EX_SUB, /* kids[0] op kids[1] */
	EX_CMP,     /* kids[0] op kids[1] */
	EX_AND, EX_OR,
	EX_CONDS,   /* conds alone: a chart's or a table's where: */
};

/* One condition of a filter: field op rhs. */
struct expr_cond {
	char *field;
	enum cmp_op op;
	struct expr *rhs;
};

struct expr {
	enum expr_kind kind;
	double num;
	char *str;
	char *field;
	char *text;
	enum cmp_op op;
	struct expr **kids;
	size_t nkids;
	struct expr_cond *conds;
	size_t nconds;
	size_t col; /* where it starts in the text, from 1 */
};

#endif
