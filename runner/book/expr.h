/*
 * expr.h - the inline expression language over a results bundle.
 *
 *   machine.sm_count                     a field of machine.json
 *   ilp.gflops[view=sm, ilp=8]           a column: a field of the records
 *                                        that match every condition
 *   max(X) min mean median sum count first last argmax(X, f) argmin(X, f)
 *   abs sqrt log2 log10 pow round        numbers
 *   + - * /  < <= > >= == !=  && || !    arithmetic, comparison, logic
 *
 * A column used where one value is needed must select exactly one record.
 * Functions return 0 on success and -1 on failure with *err set to a
 * message (the caller frees it and reports it with its file and line).
 *
 *   expr.c        the tokens, values, filters and the grammar
 *   expr_names.c  references into the bundle, and the functions
 *   format.c      value_format and format_valid
 */
#ifndef LB_EXPR_H
#define LB_EXPR_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/buf.h"
#include "bundle/results.h"

enum val_type { VAL_NONE, VAL_NUM, VAL_STR, VAL_BOOL, VAL_COL };

struct column {
	const cJSON **rows; /* borrowed from the bundle; the array is owned */
	size_t n;
	char *field;
	char *expr; /* the reference as written, for messages */
};

struct value {
	enum val_type type;
	double num; /* VAL_NUM, and VAL_BOOL as 0 or 1 */
	char *str;  /* VAL_STR */
	struct column col;
};

void value_free(struct value *v);

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
};

/* expr_eval, and what it read in *facts (when not NULL). */
int expr_eval_at(const char *text, struct bundle *b, struct value *out,
                 char **err, struct eval_facts *facts);
/* Evaluate text against b into *out (freed with value_free). */
int expr_eval(const char *text, struct bundle *b, struct value *out,
              char **err);

/* Reduce a value to one number, string or boolean (a one-record column). */
int value_scalar(struct value *v, char **err);

/*
 * Append v formatted with fmt (one printf conversion such as "%.1f"; NULL
 * picks one by magnitude) to out, HTML-escaped when html is set.
 */
int value_format(struct value *v, const char *fmt, int html, struct buf *out,
                 char **err);

/* Is fmt one printf conversion for a number, with literal text around? */
int format_valid(const char *fmt);

/* A list of conditions, as in "[view=sm, ilp>=2]" or a chart's where:. */
struct cond;
struct filter {
	struct cond *conds;
	size_t n;
};

int filter_parse(const char *text, struct bundle *b, struct filter *f,
                 char **err);
int filter_match(const struct filter *f, const cJSON *row);
void filter_free(struct filter *f);

/* The value of field in row as a number; 0 when it is not one. */
int row_number(const cJSON *row, const char *field, double *out);

#endif
