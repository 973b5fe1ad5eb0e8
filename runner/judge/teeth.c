/*
 * teeth.c - a claim's data perturbed (judge.h): each experiment's fields
 * that it reads scaled together, then each record's alone, up and down,
 * until the claim flips; the smallest such change is its teeth, and that
 * change over the noise of what was changed its margin. A truth value a
 * claim selects records by (correct=true) is turned over instead. The
 * records are changed in place and restored, bit for bit, before the next
 * change.
 */
#include "judge/judge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "book/expr.h"
#include "bundle/compare.h"

/* The factors tried, in order; the first that flips is refined. */
static const double levels[] = {1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 4.0, 8.0};
#define NLEVELS (sizeof levels / sizeof levels[0])
/* A column of more records than this is changed one record at a time
 * only at its first and last records and, of those that hold its least,
 * its greatest and each middle value, the noisiest. */
#define ROWS_EACH 8

/* One thing to change: numbers scaled together, or one truth value
 * turned over. */
struct target {
	cJSON **cells;
	double *orig;
	size_t n;
	int flag;      /* FLAG_TRUTH: a truth value, turned over; FLAG_ONE: a
	                  count of 0, made 1 (no factor moves a zero) */
	double noise;  /* relative; NAN: exact (compiler output, counts) */
	char *what;    /* in words, for messages */
};

enum { FLAG_NONE, FLAG_TRUTH, FLAG_ONE };

struct teeth {
	struct eval_memo memo;
	const struct expr *x;
	struct bundle *b;
	struct bundle *repeat;
	int holds;
	size_t *evals;
	struct target *t;
	size_t nt;
};

static int is_static(const char *id)
{
	size_t n = strlen(id);
	return (n > 6 && !strcmp(id + n - 6, "_ptxas")) ||
	       (n > 5 && !strcmp(id + n - 5, "_sass"));
}

/* Is field of every record of r that has it a whole number: a count,
 * exact, with no noise? */
static int field_counts(const struct exp_result *r, const char *field)
{
	for (size_t k = 0; k < r->nrows; k++) {
		double x;
		if (row_number(r->rows[k], field, &x) &&
		    (x != floor(x) || fabs(x) > 9007199254740992.0))
			return 0;
	}
	return 1;
}

/* Does row hold a median time, and so a noise (compare.h)? */
static int record_timed(const cJSON *row)
{
	return cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, RECORD_MEDIAN));
}

/* The index of row among r's records, looked for from *from on (a read's
 * records come in their experiment's order), and *from set past it. */
static size_t row_index(const struct exp_result *r, const cJSON *row,
                        size_t *from)
{
	for (size_t j = 0; j < r->nrows; j++) {
		size_t k = (*from + j) % r->nrows;
		if (r->rows[k] == row) {
			*from = k + 1;
			return k;
		}
	}
	return r->nrows;
}

/* The target named what (owned), made if new. */
static struct target *target_get(struct teeth *t, char *what, double noise)
{
	for (size_t i = 0; i < t->nt; i++)
		if (!strcmp(t->t[i].what, what)) {
			free(what);
			if (noise > t->t[i].noise)
				t->t[i].noise = noise;
			return &t->t[i];
		}
	struct target *tg = ARRAY_PUSH(t->t, t->nt);
	memset(tg, 0, sizeof *tg);
	tg->what = what;
	tg->noise = noise;
	return tg;
}

/* Add cell to tg; a cell added twice is kept once (targets_dedup). */
static void target_add(struct target *tg, cJSON *cell)
{
	*ARRAY_PUSH(tg->cells, tg->n) = cell;
	tg->orig = xrealloc(tg->orig, tg->n * sizeof *tg->orig);
	tg->orig[tg->n - 1] = cell->valuedouble;
}

static int cmp_cell(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(cJSON *const *)a;
	uintptr_t y = (uintptr_t)*(cJSON *const *)b;
	return (x > y) - (x < y);
}

/* Each target's cells, each once, with the value it had. */
static void targets_dedup(struct teeth *t)
{
	for (size_t i = 0; i < t->nt; i++) {
		struct target *tg = &t->t[i];
		if (tg->n < 2)
			continue;
		qsort(tg->cells, tg->n, sizeof *tg->cells, cmp_cell);
		size_t k = 0;
		for (size_t j = 0; j < tg->n; j++)
			if (!k || tg->cells[j] != tg->cells[k - 1])
				tg->cells[k++] = tg->cells[j];
		tg->n = k;
		for (size_t j = 0; j < k; j++)
			tg->orig[j] = tg->cells[j]->valuedouble;
	}
}

/* Is field of row a time, or a rate made from one (lab.h's rates carry
 * their range, FIELD_lo and FIELD_hi, from the fastest and slowest
 * repetitions)? */
static int time_field(const cJSON *row, const char *field)
{
	static const char *const ends[] = {"ms", "us", "_ns", "gbps", "gflops",
	                                   "tflops", "gelems", "gops"};
	size_t n = strlen(field);
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
		size_t e = strlen(ends[i]);
		if (n >= e && !strcmp(field + n - e, ends[i]))
			return 1;
	}
	char *lo = xasprintf("%s_lo", field);
	int has = cJSON_GetObjectItemCaseSensitive(row, lo) != NULL;
	free(lo);
	return has;
}

/* |field in the repeat's record k - field in row| / |field in row|, where
 * the repeat has that point; else 0. */
static double repeat_field_diff(struct teeth *t, const char *id,
                                const cJSON *row, const char *field, size_t k)
{
	double x, y;
	if (!t->repeat || !row_number(row, field, &x) || x == 0)
		return 0;
	struct exp_result *r = bundle_get(t->repeat, id);
	if (k >= r->nrows || !record_same_point(row, r->rows[k]) ||
	    !row_number(r->rows[k], field, &y))
		return 0;
	return fabs(y - x) / fabs(x);
}

/* The noise of field in record i (k in its experiment er) of read rd, as
 * compare would judge it: for a time, or a rate made from one, of a timed
 * record, the record's (its repetitions' quartiles, its runs' spread, the
 * repeat's time); else, where runs were merged, the field's runs' spread
 * (FIELD_lo to FIELD_hi) over its value; either way, or alone, the field's
 * own difference from the repeat. None at all (NAN) is exact: a count, a
 * computed error that repeats bit for bit. At least COMPARE_MIN_NOISE. */
static double cell_noise(struct teeth *t, const struct eval_read *rd,
                         struct exp_result *er, size_t i, size_t k)
{
	const cJSON *row = rd->rows[i];
	double noise = NAN, x, lo, hi;
	if (record_timed(row) && time_field(row, rd->field)) {
		noise = compare_point_noise(t->b, t->repeat, er->id, k);
	} else {
		char *lo_f = xasprintf("%s_lo", rd->field);
		char *hi_f = xasprintf("%s_hi", rd->field);
		if (row_number(row, rd->field, &x) && row_number(row, lo_f, &lo) &&
		    row_number(row, hi_f, &hi) && x != 0)
			noise = (hi - lo) / fabs(x);
		free(lo_f);
		free(hi_f);
	}
	double rep = repeat_field_diff(t, er->id, row, rd->field, k);
	if (rep > 0)
		noise = isnan(noise) ? rep : fmax(noise, rep);
	return isnan(noise) ? noise : fmax(noise, COMPARE_MIN_NOISE);
}

/* The values of read rd's field, sorted, for row_chosen (*m of them;
 * caller frees). */
static double *read_sorted(const struct eval_read *rd, size_t *m)
{
	double *v = xcalloc(rd->n + 1, sizeof *v);
	*m = 0;
	for (size_t k = 0; k < rd->n; k++)
		if (row_number(rd->rows[k], rd->field, &v[*m]))
			(*m)++;
	qsort(v, *m, sizeof *v, cmp_double);
	return v;
}

/* Which of the records changed alone record i of read rd (v: its m
 * values sorted) may be: ROW_ALWAYS, the first or the last, or any of a
 * few; else it holds the least (ROW_LEAST), the greatest (ROW_MOST) or a
 * middle value (ROW_MID, ROW_MID2: an even count has two); 0: none. */
enum { ROW_LEAST = 1, ROW_MOST = 2, ROW_MID = 4, ROW_MID2 = 8, ROW_ALWAYS = 16 };
static unsigned row_class(const struct eval_read *rd, size_t i,
                          const double *v, size_t m)
{
	if (rd->n <= ROWS_EACH || i == 0 || i + 1 == rd->n)
		return ROW_ALWAYS;
	double x;
	if (!m || !row_number(rd->rows[i], rd->field, &x))
		return 0;
	size_t lo = 0, hi = m; /* below: the values less than x */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t below = lo;
	hi = m; /* above: the values greater than x */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t above = m - lo;
	int middle = below <= rd->n / 2 && above <= rd->n / 2;
	return (x == v[0] ? ROW_LEAST : 0) | (x == v[m - 1] ? ROW_MOST : 0) |
	       (middle && x == v[(m - 1) / 2] ? ROW_MID : 0) |
	       (middle && x != v[(m - 1) / 2] ? ROW_MID2 : 0);
}

/* Targets of the truth values read rd selects by: in the first record of
 * its experiment that holds each of true and false, turned over. */
static void flags_make(struct teeth *t, const struct eval_read *rd,
                       struct exp_result *er)
{
	for (size_t c = 0; c < rd->nconds; c++) {
		int seen[2] = {0, 0};
		for (size_t k = 0; k < er->nrows; k++) {
			cJSON *cell = cJSON_GetObjectItemCaseSensitive(er->rows[k],
			                                               rd->conds[c]);
			if (!cJSON_IsBool(cell) || seen[cJSON_IsTrue(cell)]++)
				continue;
			struct target *tg = target_get(
			    t, xasprintf("%s.%s of record %zu made %s", rd->id,
			                 rd->conds[c], k + 1,
			                 cJSON_IsTrue(cell) ? "false" : "true"),
			    NAN);
			tg->flag = FLAG_TRUTH;
			target_add(tg, cell);
		}
	}
}

/* The targets of what claim x read on b (reads): each measured fact of
 * machine.json alone, whose noise is not recorded; each experiment's
 * fields together; each record's alone; and the truth values it selects
 * by. */
static void targets_make(struct teeth *t, const struct eval_reads *reads)
{
	for (size_t i = 0; i < reads->nmeasured; i++) {
		cJSON *cell = (cJSON *)reads->measured[i];
		target_add(target_get(t, xasprintf("machine.%s", cell->string),
		                      COMPARE_MIN_NOISE),
		           cell);
	}
	for (size_t r = 0; r < reads->n; r++) {
		const struct eval_read *rd = &reads->v[r];
		struct exp_result *er = bundle_get(t->b, rd->id);
		int exact = is_static(rd->id) || field_counts(er, rd->field);
		flags_make(t, rd, er);
		size_t m, from = 0, every = SIZE_MAX;
		double *v = read_sorted(rd, &m);
		/* Of the records that hold the least, the greatest or a middle
		 * value, one each is changed alone: the noisiest, which is the
		 * nearest to flipping in noise bands. */
		size_t *ks = xcalloc(rd->n + 1, sizeof *ks);
		double *noise = xcalloc(rd->n + 1, sizeof *noise);
		unsigned *cls = xcalloc(rd->n + 1, sizeof *cls);
		size_t best[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
		for (size_t i = 0; i < rd->n; i++) {
			cJSON *cell = cJSON_GetObjectItemCaseSensitive(
			    (cJSON *)rd->rows[i], rd->field);
			if (!cJSON_IsNumber(cell))
				continue;
			ks[i] = row_index(er, rd->rows[i], &from);
			noise[i] = exact ? NAN : cell_noise(t, rd, er, i, ks[i]);
			if (every == SIZE_MAX)
				every = (size_t)(target_get(t, xasprintf("every %s.%s",
				                                         rd->id, rd->field),
				                            noise[i]) - t->t);
			else if (noise[i] > t->t[every].noise)
				t->t[every].noise = noise[i];
			target_add(&t->t[every], cell);
			cls[i] = row_class(rd, i, v, m);
			for (int c = 0; c < 4; c++)
				if ((cls[i] & 1u << c) &&
				    (best[c] == SIZE_MAX || noise[i] > noise[best[c]]))
					best[c] = i;
		}
		for (int c = 0; c < 4; c++)
			if (best[c] != SIZE_MAX)
				cls[best[c]] |= ROW_ALWAYS;
		for (size_t i = 0; i < rd->n; i++) {
			if (!(cls[i] & ROW_ALWAYS))
				continue;
			cJSON *cell = cJSON_GetObjectItemCaseSensitive(
			    (cJSON *)rd->rows[i], rd->field);
			size_t k = ks[i];
			target_add(target_get(t, xasprintf("%s.%s of record %zu",
			                                   rd->id, rd->field, k + 1),
			                      noise[i]),
			           cell);
			if (exact && cell->valuedouble == 0) {
				struct target *tg = target_get(
				    t, xasprintf("%s.%s of record %zu made 1", rd->id,
				                 rd->field, k + 1), NAN);
				tg->flag = FLAG_ONE;
				target_add(tg, cell);
			}
		}
		free(ks);
		free(noise);
		free(cls);
		free(v);
	}
	targets_dedup(t);
}

/* Change tg's cells: numbers scaled by f from what they were, a zero
 * made 1 (f != 1) or 0, truth values turned over (twice: back). */
static void target_set(struct target *tg, double f)
{
	for (size_t i = 0; i < tg->n; i++) {
		cJSON *c = tg->cells[i];
		if (tg->flag == FLAG_TRUTH)
			c->type = (c->type & ~0xFF) |
			          (cJSON_IsTrue(c) ? cJSON_False : cJSON_True);
		else if (tg->flag == FLAG_ONE)
			cJSON_SetNumberValue(c, f != 1 ? 1.0 : tg->orig[i]);
		else
			cJSON_SetNumberValue(c, tg->orig[i] * f);
	}
}

/* Does x, with target tg changed by f, give the other truth? */
static int flips(struct teeth *t, struct target *tg, double f)
{
	target_set(tg, f);
	struct value v;
	char *err = NULL;
	struct eval_facts facts = {0};
	facts.memo = &t->memo;
	int rc = expr_eval_tree(t->x, t->b, &v, &err, &facts);
	(*t->evals)++;
	int flipped = rc == 0 && value_scalar(&v, &err) == 0 &&
	              v.type != VAL_STR && (v.num != 0) != t->holds;
	value_free(&v);
	free(err);
	/* Back as it was. */
	target_set(tg, tg->flag == FLAG_TRUTH ? 0 : 1);
	return flipped;
}

/* The smallest factor (> 1) that flips x when tg is scaled by it or by
 * its inverse, *down set for the inverse; 0 when none of levels does. */
static double target_flip(struct teeth *t, struct target *tg, int *down)
{
	/* What holds holds over a range of its data: when neither end of the
	 * scale flips it, nothing between does. (What fails may fail on both
	 * sides of a range that holds, so it is tried at every level.) */
	double top = levels[NLEVELS - 1];
	if (t->holds && !flips(t, tg, top) && !flips(t, tg, 1 / top))
		return 0;
	double prev = 1;
	for (size_t l = 0; l < NLEVELS; l++) {
		for (int d = 0; d < 2; d++) {
			if (!flips(t, tg, d ? 1 / levels[l] : levels[l]))
				continue;
			/* Between the last level that did not flip and this one. */
			double lo = prev, hi = levels[l];
			for (int s = 0; s < 8; s++) {
				double mid = sqrt(lo * hi);
				if (flips(t, tg, d ? 1 / mid : mid))
					hi = mid;
				else
					lo = mid;
			}
			*down = d;
			return hi;
		}
		prev = levels[l];
	}
	return 0;
}

/* Fold target tg, which flips x at factor fac (0: never; down: scaled
 * down), into verdict v. */
static void teeth_fold(struct verdict *v, const struct target *tg, double fac,
                       int down)
{
	if (tg->flag) {
		if (!v->flip) {
			v->flip = xstrdup(tg->what);
			v->teeth = TEETH_BITES;
		}
		return;
	}
	if (!v->factor || fac < v->factor) {
		v->factor = fac;
		free(v->flip);
		v->flip = xasprintf("%s x%.4g", tg->what, down ? 1 / fac : fac);
		v->teeth = fac < JUDGE_LOOSE ? TEETH_BITES : TEETH_LOOSE;
	}
	if (isnan(tg->noise))
		return;
	double change = down ? 1 - 1 / fac : fac - 1;
	double margin = change / tg->noise;
	if (margin < v->margin)
		v->margin = margin;
}

void judge_teeth(const struct expr *x, int holds, struct bundle *b,
                 struct bundle *repeat, struct verdict *v, size_t *evals)
{
	struct eval_reads reads = {0};
	struct eval_facts f = {0};
	struct value val;
	char *err = NULL;
	struct teeth t = {{0}, x, b, repeat, holds, evals, NULL, 0};
	const char **fields = NULL;
	size_t nfields = 0;
	f.reads = &reads;
	if (expr_eval_tree(x, b, &val, &err, &f) == 0) {
		targets_make(&t, &reads);
		/* The fields whose values change: those read, and the truth
		 * values turned over, which may select other records. */
		for (size_t i = 0; i < reads.n; i++)
			*ARRAY_PUSH(fields, nfields) = reads.v[i].field;
		for (size_t i = 0; i < t.nt; i++)
			if (t.t[i].flag == FLAG_TRUTH)
				*ARRAY_PUSH(fields, nfields) = t.t[i].cells[0]->string;
		t.memo.fields = fields;
		t.memo.nfields = nfields;
	}
	value_free(&val);
	free(err);
	v->teeth = TEETH_CANNOT;
	v->factor = 0;
	v->margin = INFINITY;
	v->is_static = reads.n > 0;
	for (size_t i = 0; i < reads.n; i++)
		v->is_static &= is_static(reads.v[i].id);
	for (size_t i = 0; i < t.nt; i++) {
		struct target *tg = &t.t[i];
		int down = 0;
		double fac = 0;
		if (tg->flag)
			fac = flips(&t, tg, 2) ? 1 : 0;
		else
			fac = target_flip(&t, tg, &down);
		if (fac > 0)
			teeth_fold(v, tg, fac, down);
	}
	v->fragile = v->margin < JUDGE_FRAGILE;
	for (size_t i = 0; i < t.nt; i++) {
		free(t.t[i].cells);
		free(t.t[i].orig);
		free(t.t[i].what);
	}
	free(t.t);
	eval_memo_free(&t.memo);
	free(fields);
	eval_reads_free(&reads);
}
