/*
 * results.h - the results bundle: results/<bundle>/.
 *
 *   machine.json       the GPU, toolchain, host, date, commit, derived limits,
 *                      and "measured" facts that experiments report
 *   <id>.jsonl         the records, one JSON object per line
 *   <id>.out           the captured stdout and stderr
 *   <id>.meta.json     command, exit status, duration, cache key, inputs
 *   <id>.error.json    the last failed attempt, when it failed; the good
 *                      results of an earlier run stay beside it
 *
 * Every file is written to a temporary name and renamed, so an interrupted
 * run never leaves half a file where a good one was.
 */
#ifndef LB_RESULTS_H
#define LB_RESULTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct exp_result {
	char *id;
	cJSON **rows;  /* the records, owned */
	size_t nrows;
	char *error;   /* a problem with the records file, or NULL */
	char *out;     /* captured text, or NULL */
	size_t out_len;
	cJSON *meta;    /* NULL when never run */
	cJSON *failure; /* the last failed attempt, or NULL */
};

struct bundle {
	char *dir;
	cJSON *machine; /* NULL when there is no machine.json */
	struct exp_result **exps; /* each owned; pointers stay valid */
	size_t nexps;
};

/* Open a bundle folder (it need not exist yet). Never NULL. */
struct bundle *bundle_open(const char *dir);
void bundle_free(struct bundle *b);

/* The results of one experiment, read on first use. Never NULL. */
struct exp_result *bundle_get(struct bundle *b, const char *id);

/* Read every result and machine.json again, after another process wrote
 * them; pointers from bundle_get stay valid. */
void bundle_reload(struct bundle *b);

/*
 * Parse records text (one JSON object per line) into rows. Blank lines are
 * skipped. On a bad line: -1, *err = "LINE: what is wrong" (caller frees),
 * and the rows parsed so far are kept.
 */
int records_parse(const char *text, cJSON ***rows, size_t *nrows, char **err);

/* machine.json: write it (b->machine takes m). 0 or -1. */
int bundle_set_machine(struct bundle *b, cJSON *m);

/*
 * A good run: the records in records_text, the captured text and meta
 * replace the experiment's files; its failure file is removed; "fact"
 * records are merged into machine.json. Takes ownership of meta. 0 or -1.
 */
int bundle_commit(struct bundle *b, const char *id, const char *records_text,
                  const char *out, size_t out_len, cJSON *meta);

/* Write extra records as <name>.jsonl (e.g. "ilp_ptxas"). 0 or -1. */
int bundle_put_records(struct bundle *b, const char *name, const char *text);

/*
 * A failed attempt: writes <id>.error.json (takes ownership of info) and
 * leaves the good files alone. 0 or -1.
 */
int bundle_fail(struct bundle *b, const char *id, cJSON *info);

/*
 * Add to h what identifies the files of experiment id as they are now (its
 * records, output, meta, failure, listing and derived records: names,
 * sizes and modification times), without reading them. "machine" stands
 * for machine.json.
 */
struct hasher;
void bundle_stamp(const struct bundle *b, const char *id, struct hasher *h);

/* A number or string field of machine.json, or of its "measured" object. */
const cJSON *machine_field(const struct bundle *b, const char *name);

/* JSON text of v, printed (caller frees). */
char *json_print(const cJSON *v);

/*
 * The parameters of a record, as "name=value ..." from its string and
 * whole-number fields, leaving out what a run measures (median_ms, reps,
 * correct, rate bounds F_lo / F_hi, ...). Records of the same point in
 * two runs or two bundles have the same parameters. Caller frees.
 */
char *record_params(const cJSON *row);
int record_is_measurement(const char *field);

/* Do records a and b (of two runs or two bundles) describe the same point:
 * no string field of a differs in b, nor a whole number where both are
 * whole? */
int record_same_point(const cJSON *a, const cJSON *b);

#endif
