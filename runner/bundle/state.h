/*
 * state.h - what an experiment's files in the bundle (results.h) say
 * about it: the state of its results, as the reader is told it, and its
 * meta.json and error.json read into one struct (their types are
 * base/record.h's). Reads the bundle only through results.h.
 */
#ifndef LB_STATE_H
#define LB_STATE_H

#include "base/record.h"
#include "bundle/results.h"

/*
 * The one place that decides the state of experiment id's results in b,
 * from the bundle and this build's facts alone, so a page that shows it
 * is the same on every build that finds the same bundle and sources:
 *   RESULT_NONE       it has no meta.json (no good results);
 *   RESULT_CHANGED    source_key (the current one; NULL: unknown) is not
 *                     the source_key its results were made from: its
 *                     source, arguments or flags changed since;
 *   RESULT_ELSEWHERE  b->here is 0: machine.json names another host or
 *                     GPU, or this build runs nothing (--no-run), so the
 *                     results are a record, not this machine's measurement;
 *   RESULT_THIS_BUILD its meta's "build" is the newest build id of the
 *                     bundle: the last build that ran experiments into it
 *                     (a build that runs nothing changes none of this);
 *   RESULT_EARLIER    an earlier build on this machine measured it.
 * A failed last attempt (error.json) is not a state: it is shown beside
 * the results it left standing.
 */
enum result_state result_state_decide(struct bundle *b, const char *id,
                                      const char *source_key);
/* The state as the page says it ("measured in this build"). */
const char *result_state_name(enum result_state s);
/* The state as one word, for a class attribute ("this-build"). */
const char *result_state_class(enum result_state s);
/* The machine of RESULT_ELSEWHERE as machine.json records it: its GPU's
 * name (or "no GPU") and its host, e.g. "NVIDIA H100 80GB HBM3, host
 * Linux 6.8.0 x86_64"; or "host H" where the experiment's meta says it ran
 * on another host, H (ran_on; NULL when it does not say). Caller frees. */
char *result_state_machine(const struct bundle *b, const char *ran_on);

/* Fill m for experiment id from the bundle (never fails; a file that is
 * not valid JSON was warned about on reading and counts as absent), its
 * state decided against source_key (result_state_decide). */
void results_meta_load(struct bundle *b, const char *id, const char *source_key,
                       struct result_meta *m);
void results_meta_free(struct result_meta *m);

#endif
