/*
 * results.h - the results bundle, results/<bundle>/. This file owns the
 * bundle: every path into it, every listing of it, the names of derived
 * experiments and the rules of the record schema. Nobody else builds a
 * bundle path or reads the folder.
 *
 *   machine.json       the GPU, toolchain, host, date, commit, derived limits,
 *                      and "measured" facts that experiments report
 *   <id>.jsonl         the records, one JSON object per line
 *   <id>.out           the captured stdout and stderr
 *   <id>.meta.json     the last good run (see struct result_meta)
 *   <id>.error.json    the last failed attempt, when it failed; the good
 *                      results of an earlier run stay beside it
 *   <id>_ptxas.jsonl   derived experiments (enum derived): resources per
 *   <id>_sass.jsonl    kernel from the compiler, SASS instruction counts,
 *   <id>_ncu.jsonl     Nsight Compute metrics
 *   <id>.sass          the SASS listing
 *
 * An experiment's files commit as a whole (bundle_commit): each is written
 * to a temporary name, then all are renamed, meta.json last. If anything
 * fails, the new files are removed, the old set stays, and error.json says
 * why. An interrupted run never leaves half a file where a good one was.
 *
 * Errors: functions that can fail return 0 or -1 and report once (util.h).
 * Every *_free accepts NULL.
 */
#ifndef LB_RESULTS_H
#define LB_RESULTS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/record.h"

/* Limits on what an experiment may leave in the bundle. */
#define RESULTS_OUTPUT_CAP (1u << 20)   /* captured text kept; the rest is counted */
#define RESULTS_RECORDS_CAP (16u << 20) /* records file; over it the run fails */

struct bundle {
	char *dir;
	cJSON *machine; /* NULL when there is no machine.json */
	int machine_bad; /* machine.json is there but not a JSON object */
	struct exp_result **exps; /* each owned; pointers stay valid */
	size_t nexps;
	struct bundle_index *index; /* id -> exps[i], private */
	char **outdated;            /* bundle_mark_outdated's ids, owned */
	size_t noutdated;
	char **needs;    /* bundle_mark_needs's ids, owned, and the compute */
	int *needs_cc;   /* capability each needs (90 for 9.0) */
	size_t nneeds;
	char *build;      /* this build's id once bundle_run_begin let it write
	                   * (a build that runs experiments); NULL: no file of
	                   * the bundle is written */
	int here;         /* its machine.json names the machine this build runs
	                   * on (book_run sets it; 0 under --no-run) */
	char *last_build; /* the newest build id its files record, read once
	                   * (result_state_decide), or NULL */
	int last_build_read;
};

/* Open a bundle folder (it need not exist yet). Never NULL. */
struct bundle *bundle_open(const char *dir);
void bundle_free(struct bundle *b);

/* The results of one experiment, read on first use. Never NULL. */
struct exp_result *bundle_get(struct bundle *b, const char *id);
/* How many records experiment id has: its lines that are not blank, read
 * without being parsed unless they already are. */
size_t bundle_records_count(struct bundle *b, const char *id);
/* The same entry with only meta and failure read, which is all a plan
 * needs: the records and output are read when bundle_get asks. */
struct exp_result *bundle_get_meta(struct bundle *b, const char *id);

/* Read every result and machine.json again, after another process wrote
 * them; pointers from bundle_get stay valid. */
void bundle_reload(struct bundle *b);

/* ---- names and paths ------------------------------------------------------ */

enum bundle_file {
	BF_RECORDS, /* <id>.jsonl */
	BF_OUTPUT,  /* <id>.out */
	BF_META,    /* <id>.meta.json */
	BF_ERROR,   /* <id>.error.json */
	BF_LISTING, /* <id>.sass */
};

/* The path of one file of experiment id (derived ids too). Caller frees. */
char *bundle_path(const struct bundle *b, const char *id, enum bundle_file f);
/* <bundle>/.tmp, where a run's records are written before they are
 * checked (not part of the bundle). Caller frees. */
char *bundle_scratch_dir(const struct bundle *b);
/*
 * A new, empty file in the scratch folder for one run's records of
 * experiment id, named for this process and a count (file_temp_name) and
 * created here, so no other run, earlier or killed, writes into it. The
 * path, or NULL (reported). Caller frees, and removes the file.
 */
char *bundle_scratch_new(const struct bundle *b, const char *id);
/* The path of machine.json. Caller frees. */
char *bundle_machine_path(const struct bundle *b);

/* Experiments derived from an experiment's build and run. */
enum derived {
	DERIVED_PTXAS, /* <id>_ptxas: per kernel, from nvcc -Xptxas=-v */
	DERIVED_SASS,  /* <id>_sass: per kernel and mnemonic, from cuobjdump */
	DERIVED_NCU,   /* <id>_ncu: per profiled launch, from Nsight Compute */
};
/* "ilp" -> "ilp_ptxas". Caller frees. */
char *derived_id(const char *id, enum derived d);

/*
 * The source key (meta.json's source_key: the hash of the sources it was
 * built from) of experiment id, or of the experiment a derived id comes
 * from; NULL when none is recorded. Borrowed from b.
 */
const char *bundle_source_key(struct bundle *b, const char *id);
/* The line of experiment id's records file that holds its record k
 * (0-based, as in exp_result's rows), or 0 when it cannot be told. */
int bundle_record_line(const struct bundle *b, const char *id, size_t k);

/*
 * The ids of every experiment with a records file in the bundle (derived
 * ones included), sorted. *ids is a NULL-terminated array the caller frees
 * with argv_free (exec.h). 0, or -1 when the folder cannot be read
 * (reported).
 */
int bundle_list(const struct bundle *b, char ***ids, size_t *n);

/*
 * The SASS listing of experiment id, with every "Function : NAME" header
 * line followed, in listings recorded now, by "Demangled : NAME" (see
 * listing_kernels). NULL when there is none.
 */
char *bundle_listing_read(const struct bundle *b, const char *id);

/* ---- writing --------------------------------------------------------------- */

/*
 * Only a build that runs experiments writes the bundle; a rendering never
 * does. bundle_run_begin lets this build write b and gives it the id its
 * files record ("build"). Before it, bundle_commit and bundle_set_machine
 * refuse (-1, reported), and bundle_fail keeps the failure in memory only.
 */
void bundle_run_begin(struct bundle *b);

/* machine.json: write it (b->machine takes m). 0 or -1. */
int bundle_set_machine(struct bundle *b, cJSON *m);

/* What one good run of an experiment leaves. Any pointer may be NULL:
 * that file is not written (a derived file of an earlier run then stays). */
struct result_files {
	const char *records;  /* records text (made by records_text) */
	const char *out;      /* captured text, out_len bytes */
	size_t out_len;
	const char *derived[3]; /* records text per enum derived */
	const char *listing;  /* SASS listing */
};

/*
 * A good run: f and meta replace the experiment's files as a whole (see
 * the top); its error.json is removed; "fact" records are merged into
 * machine.json. Takes ownership of meta. On failure: -1 (reported), the
 * old files stay, and error.json (stage "save") says why.
 */
int bundle_commit(struct bundle *b, const char *id, const struct result_files *f,
                  cJSON *meta);

/*
 * A failed attempt: writes <id>.error.json (takes ownership of info), and
 * leaves the good files alone; before bundle_run_begin, it is kept in
 * memory only, for the pages of this build. 0 or -1.
 */
int bundle_fail(struct bundle *b, const char *id, cJSON *info);

/* ---- records --------------------------------------------------------------- */

/*
 * Parse records text (len bytes, one JSON object per line; bytes, so a NUL
 * is an error on its line, not the end) into rows, appended to *rows.
 * Blank lines are skipped. On a bad line: -1, *err = "LINE: what is wrong"
 * (caller frees), and the rows parsed so far are kept.
 */
int records_parse_n(const char *text, size_t len, cJSON ***rows, size_t *nrows,
                    char **err);
/* The same for NUL-terminated text. */
int records_parse(const char *text, cJSON ***rows, size_t *nrows, char **err);
/* The line of text (1-based) that holds record k (0-based, blank lines
 * skipped as records_parse_n skips them), or 0 when there is none. */
int records_line_of(const char *text, size_t len, size_t k);
/* Does each record of rows (n of them, parsed from text) name each field
 * once? 0, or -1 with *err = "LINE: field 'F' appears twice" (caller
 * frees): which value such a record means is a guess. A program's new
 * records are checked so; a bundle is read as written, the first value
 * of a field named twice counting. */
int records_fields_once(const char *text, size_t len, cJSON *const *rows,
                        size_t n, char **err);

/* Replace control characters and invalid UTF-8 in every string of rows
 * (text_make_safe). Returns how many strings changed. */
size_t records_make_safe(cJSON **rows, size_t n);

/* rows as records text, one compact JSON object per line. Caller frees. */
char *records_text(cJSON *const *rows, size_t n);

/*
 * Add to h what identifies the files of experiment id as they are now (its
 * records, output, meta, failure, listing and derived records: names,
 * sizes and modification times), without reading them. "machine" stands
 * for machine.json.
 */
struct hasher;
void bundle_stamp(const struct bundle *b, const char *id, struct hasher *h);

/*
 * Mark experiment id outdated in b, with the records derived from it, when
 * b holds no results of it or holds them from another source: its meta.json
 * records a source key other than source_key (NULL or "" compares none),
 * or it says the run found nothing to measure here (not_measured). Reads
 * meta.json alone.
 */
void bundle_mark_outdated(struct bundle *b, const char *id,
                          const char *source_key);
/* Was id marked (an experiment, or records derived from one)? */
int bundle_outdated(const struct bundle *b, const char *id);

/*
 * Mark experiment id, with the records derived from it, as needing compute
 * capability cc (90 for 9.0) when b's card has less (or none): what reads
 * it says so, and it is neither run nor a failure.
 */
void bundle_mark_needs(struct bundle *b, const char *id, int cc);
/* The compute capability that experiment id needs and b's card lacks,
 * or 0. */
int bundle_needs(const struct bundle *b, const char *id);
/* The compute capability of b's card (90 for 9.0), or 0 when machine.json
 * names none. */
int bundle_cc(const struct bundle *b);

/* A number or string field of machine.json, or of its "measured" object. */
const cJSON *machine_field(const struct bundle *b, const char *name);

/*
 * machine.NAME from the facts table (ccfacts.h) for b's compute capability:
 * 0 with *out; 1 when the card has no such unit, with the least compute
 * capability that has one in *need (0: none); -1 when the table does not
 * give it here (not its name, another capability, or one the runtime
 * reported into machine.json, which is the card's own and wins).
 */
int machine_fact(const struct bundle *b, const char *name, double *out,
                 int *need);

/* JSON text of v, printed (caller frees). */
char *json_print(const cJSON *v);

/*
 * The record schema. A record is a flat JSON object. Its fields are
 * parameters (what the point is: strings and whole numbers) or
 * measurements (what a run found). These are measurements, by name:
 *   median_ms min_ms max_ms q1_ms q3_ms mean_ms spread reps clock_mhz
 *   throttled batch ms runs run_min_ms run_max_ms run_spread
 *   correct      false: the point is wrong; never drawn, counted apart
 *   host_bound   true: it measures the host more than the GPU; compare
 *                shows it apart and never fails on it
 * and F_lo, F_hi (the bounds of a rate F), and F itself when F_lo exists
 * or when F_unit names its unit (a captured value, capture.h).
 * A record {"fact": NAME, "value": V} is a fact for machine.json.
 * A record {"not_measured": WHY} says that the program found nothing to
 * measure on this machine (the link between GPUs, where there is one GPU):
 * its meta keeps WHY, and what reads it is "not measured on this machine".
 */
#define RECORD_CORRECT "correct"
#define RECORD_HOST_BOUND "host_bound"
/* lab.h's flag on a point timed under a lowered SM clock. */
#define RECORD_THROTTLED "throttled"
#define RECORD_NOT_MEASURED "not_measured"
#define RECORD_MEDIAN "median_ms"

/*
 * The parameters of a record, as "name=value ..." from its string and
 * whole-number fields, leaving out measurements. Records of the same point
 * in two runs or two bundles have the same parameters. Caller frees.
 */
char *record_params(const cJSON *row);
/* Is a field of this name a measurement (see above)? */
int record_is_measurement(const char *field);
/* Is field a measurement of row: by name, or a rate with F_lo? */
int record_field_measured(const cJSON *row, const char *field);
/* The name of a rate's bound: bound_name("gbps", 0) = "gbps_lo", 1: _hi.
 * Caller frees. */
char *record_bound_name(const char *field, int hi);
/* Is the record marked "correct": false? */
int record_wrong(const cJSON *row);
/* Is the row's field key true? */
int record_flag(const cJSON *row, const char *key);
/* Is the record marked "host_bound": true? */
int record_host_bound(const cJSON *row);
/* WHY of the first record {"not_measured": WHY} of rows, or NULL. */
const char *records_not_measured(cJSON *const *rows, size_t n);

/* Do records a and b (of two runs or two bundles) describe the same point:
 * no string field of a differs in b, nor a whole number where both are
 * whole? */
int record_same_point(const cJSON *a, const cJSON *b);

/* For bundle_write.c, which writes what results.c reads: the entry of id
 * already read, or NULL; and freeing what r holds (its rows, output, meta
 * and failure), keeping r. */
struct exp_result *bundle_index_get(const struct bundle *b, const char *id);
void bundle_result_clear(struct exp_result *r);
/* For state.c: the newest build id that any meta.json or error.json of b
 * records (the last build that ran experiments into it), read once and
 * kept in b->last_build; NULL when none does. Borrowed from b. */
const char *bundle_last_build(struct bundle *b);

/* Make every string of item, keys included, valid UTF-8 (invalid bytes
 * become U+FFFD, text_make_safe), so that JSON written from a bundle's
 * text is JSON whatever the bundle holds. */
void json_utf8_fix(cJSON *item);
/*
 * A command's --json PATH: doc (json_utf8_fix'd, printed) to the standard
 * output when path is "-", else written to path whole (file_write_atomic).
 * It never writes over what it may have read: a file that exists and is
 * not a .json file (a chapter), or any file in a bundle's folder (one that
 * holds machine.json). 0, or -1 (reported, naming opt).
 */
int json_write_out(cJSON *doc, const char *path, const char *opt);

#endif
