/*
 * expr_func.h - what the names in an expression stand for, once the parser
 * (expr.h) has read what they apply to: a reference, machine.FIELD or
 * experiment.FIELD[conditions], read from the bundle; and a function,
 * max(X) ... pow(x, y), applied to its arguments. Nothing here reads
 * expression text.
 *
 * Functions that can fail return 0 on success and -1 on failure with *err
 * set to a message that the caller frees. A value they fill is the
 * caller's, freed with value_free.
 */
#ifndef LB_EXPR_FUNC_H
#define LB_EXPR_FUNC_H

#include <stddef.h>

#include "book/expr_value.h"
#include "bundle/results.h"

/* What an evaluation read, beyond its value. */
struct eval_facts {
	/* An experiment whose results here predate its source
	 * (bundle_outdated): a failure is then data this bundle lacks, not a
	 * mistake in the text. */
	int outdated;
	/* The problem of a records file that is malformed, of the first
	 * experiment read that has one (the bundle owns it), else NULL: the
	 * value stands on the records before the bad line. */
	const char *partial;
	const char *partial_id;
	/* What was read needs a compute capability the card lacks (90 for
	 * 9.0; -1: one no capability in the facts table has): the value
	 * does not apply to this card, which is not a mistake in the text. */
	int need_cc;
	/* When not NULL, each column read is added to it (expr_reads). */
	struct eval_reads *reads;
	/* When not NULL, the records each reference selects are kept here
	 * and taken again by later evaluations of the same tree. */
	struct eval_memo *memo;
};

/* The records references selected, for evaluating trees many times over
 * one bundle, whose records' values may change but not which records
 * there are: only a reference whose conditions compare with constants,
 * on fields other than fields[0..nfields) (those whose values change), is
 * kept, and found again by its text (the same text selects the same
 * records). Freed with eval_memo_free; it borrows the trees. */
struct eval_memo {
	struct memo_entry {
		const char *text;
		const cJSON **rows;
		size_t n;
	} *v;
	size_t n;
	size_t *slot;  /* by the hash of text: index in v + 1, 0 empty */
	size_t nslots; /* a power of two, over twice n */
	const char *const *fields;
	size_t nfields;
};
void eval_memo_free(struct eval_memo *m);

/* The columns an evaluation read: experiment id's field over rows (the
 * records the column selected, borrowed from the bundle), and whether it
 * read a fact of machine.json. Freed with eval_reads_free. */
struct eval_read {
	const char *id;    /* borrowed from the bundle */
	char *field;
	const cJSON **rows;
	size_t n;
	char **conds;      /* the fields its conditions compare */
	size_t nconds;
};
struct eval_reads {
	struct eval_read *v;
	size_t n;
	int machine;
	/* The facts of machine.json that a run measured ("measured": {...})
	 * it read: their cells (the bundle's) and names. */
	const cJSON **measured;
	size_t nmeasured;
};
void eval_reads_free(struct eval_reads *r);

/* The value of machine.FIELD into *out (what it held is freed): a number,
 * string or truth value of machine.json. Notes in facts whether
 * machine.json is outdated. */
int ref_machine(struct bundle *b, const char *field, struct eval_facts *facts,
                struct value *out, char **err);

/* The records of experiment id into *r (the bundle's), for a reference
 * id.FIELD; fails when it has none. Notes in facts whether they are
 * outdated or malformed, even when it fails. */
int ref_records(struct bundle *b, const char *id, struct eval_facts *facts,
                struct exp_result **r, char **err);

/* The column of field over the records of r that meet f and hold field
 * (not null) into *out (what it held is freed); text is the reference as
 * written, kept for messages. Fails, listing r's fields, when no record
 * has field; *out is then a column all the same. */
int ref_column(const struct exp_result *r, const char *field,
               const struct filter *f, const char *text, struct value *out,
               char **err);

/* Is argument i of function fn a field name, read as a bare word (the f
 * of argmax(X, f)): 1 or 0. */
int func_word_arg(const char *fn, size_t i);

/* fn applied to its arguments args[0..nargs) into *out (what it held is
 * freed). Arguments may be reduced to scalars in place; they stay the
 * caller's. Fails for an unknown function, wrong arguments, or a result
 * that is not a finite number. */
int func_call(const char *fn, struct value *args, size_t nargs,
              struct value *out, char **err);

#endif
