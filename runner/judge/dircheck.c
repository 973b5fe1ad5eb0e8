/*
 * dircheck.c - the data of each directive checked on the base before the
 * site is made (judge.h): each problem reported once, at its directive's
 * line, and handed to render/ as the message its page shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/diag.h"
#include "base/store.h"
#include "base/util.h"
#include "book/format.h"
#include "bundle/results.h"
#include "judge/chart_pick.h"
#include "judge/judge.h"
#include "judge/machine_set.h"
#include "judge/view.h"

/* Add to h the files and state on b of experiment id and of what d's
 * options read. */
static void dir_key_bundle(struct hasher *h, const struct directive *d,
                           const char *id, const struct bundle *b)
{
	hasher_add_str(h, id);
	bundle_stamp(b, id, h);
	for (size_t i = 0; i < d->nopts; i++)
		for (size_t j = 0; j < d->opts[i].nreads; j++) {
			const char *x = d->opts[i].reads[j];
			int xf[2] = {bundle_outdated(b, x), bundle_needs(b, x)};
			hasher_add_str(h, x);
			hasher_add(h, xf, sizeof xf);
			bundle_stamp(b, x, h);
		}
}

/* The key of directive d's check on ms: d as written, and the files and
 * state of experiment id, its data, and of what its options read, on the
 * base, and on every machine of ms when d is a chart that overlays them. */
static void dir_key(const struct directive *d, const char *id,
                    const struct machine_set *ms, char out[33])
{
	const struct bundle *b = ms->b[0];
	struct hasher *h = hasher_new();
	int facts[4] = {(int)d->kind, d->line, bundle_outdated(b, id),
	                bundle_needs(b, id)};
	hasher_add_self(h);
	hasher_add_str(h, "dircheck");
	hasher_add(h, facts, sizeof facts);
	hasher_add_str(h, d->id ? d->id : "");
	for (size_t i = 0; i < d->nopts; i++) {
		int line = d->opts[i].line;
		hasher_add_str(h, d->opts[i].key);
		hasher_add_str(h, d->opts[i].value ? d->opts[i].value : "");
		hasher_add(h, &line, sizeof line);
	}
	size_t nb = d->kind == DIR_CHART && dir_opt(d, "machines") ? ms->n : 1;
	for (size_t m = 0; m < nb; m++) {
		hasher_add_str(h, ms->names[m]);
		dir_key_bundle(h, d, id, ms->b[m]);
	}
	hasher_done(h, out);
}

/* The problem of {sass} directive d on b into *k: its listing, when the
 * card can run the experiment and b holds a build of its source. */
static void dir_check_sass(const struct directive *d, struct bundle *b,
                           struct dir_check *k)
{
	const char *exp = dir_opt(d, "experiment");
	if (bundle_needs(b, exp) || bundle_outdated(b, exp))
		return;
	free(view_sass_read(b, exp, dir_opt(d, "kernel"), &k->why));
	k->line = d->line;
}

/* Parse one column ("field "label" %fmt"); NULL or a message (caller frees). */
static char *column_parse(const char *text, struct table_col *col)
{
	const char *p = text;
	size_t n = strcspn(p, " \t\"%");
	col->field = xstrndup(p, n);
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"') {
		const char *end = strchr(p + 1, '"');
		if (!end)
			return xasprintf("table: the header of column '%s' has no "
			                 "closing '\"'", col->field);
		col->label = xstrndup(p + 1, (size_t)(end - p - 1));
		p = end + 1;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	if (*p)
		col->fmt = xstrdup(p);
	if (!*col->field)
		return xasprintf("table: a column of '%s' has no field", text);
	if (col->fmt && !format_valid(col->fmt))
		return xasprintf("table: '%s' is not a format for column '%s'",
		                 col->fmt, col->field);
	return NULL;
}

char *table_columns_parse(const char *spec, struct table_col **cols, size_t *ncols)
{
	char *msg = NULL;
	const char *p = spec;
	while (*p && !msg) {
		const char *q = p;
		int quoted = 0;
		while (*q && (quoted || *q != ',')) {
			quoted ^= *q == '"';
			q++;
		}
		char *one = xstrndup(p, (size_t)(q - p));
		struct table_col *col = ARRAY_PUSH(*cols, *ncols);
		memset(col, 0, sizeof *col);
		msg = column_parse(str_trim(one), col);
		free(one);
		p = *q ? q + 1 : q;
	}
	return msg;
}

/* The problem of {table} directive d on b into *k, with jo its judged
 * options there: its columns, its records, its where:, the fields it
 * shows and sorts by, and the rows its where: leaves. */
static void dir_check_table(const struct directive *d, struct bundle *b,
                            const struct judged_opt *jo, struct dir_check *k)
{
	const char *data = dir_opt(d, "data"), *sort = dir_opt(d, "sort");
	if (bundle_needs(b, data))
		return;
	const struct exp_result *r = bundle_get(b, data);
	static const struct filter everything = {0};
	const struct filter *where = &everything;
	const char *opt = "columns";
	struct table_col *cols = NULL;
	size_t ncols = 0;
	char *msg = table_columns_parse(dir_opt(d, "columns"), &cols, &ncols);
	if (!msg && !r->nrows)
		msg = xasprintf("table: no results for experiment '%s' yet", data);
	for (size_t i = 0; !msg && i < d->nopts; i++) {
		if (strcmp(d->opts[i].key, "where"))
			continue;
		where = &jo[i].where;
		if (!jo[i].ok) {
			msg = xasprintf("table: where: %s", jo[i].why);
			opt = "where";
			k->quiet = 1;
		}
		char *missing = msg ? NULL : filter_field_missing(r, data, where);
		if (missing) {
			msg = xasprintf("table: where: %s", missing);
			free(missing);
			opt = "where";
		}
	}
	for (size_t c = 0; !msg && c < ncols; c++)
		if (!field_known(r, cols[c].field)) {
			char *why = field_others(r, cols[c].field);
			msg = xasprintf("table: experiment '%s' has no field '%s'; %s",
			                data, cols[c].field, why);
			free(why);
		}
	if (!msg && sort) {
		char *field = xstrndup(sort, strcspn(sort, " "));
		if (!field_known(r, field)) {
			char *why = field_others(r, field);
			msg = xasprintf("table: sort: experiment '%s' has no field '%s'; "
			                "%s", data, field, why);
			free(why);
			opt = "sort";
		}
		free(field);
	}
	size_t nrows = 0;
	for (size_t i = 0; !msg && i < r->nrows; i++)
		nrows += filter_match(where, r->rows[i]);
	/* As a chart says when it has nothing to draw. */
	if (!msg && !nrows && dir_opt(d, "where")) {
		msg = xasprintf("table: no records of '%s' meet its where: (%s)",
		                data, dir_opt(d, "where"));
		opt = "where";
	}
	for (size_t c = 0; c < ncols; c++) {
		free(cols[c].field);
		free(cols[c].label);
		free(cols[c].fmt);
	}
	free(cols);
	if (msg) {
		k->why = msg;
		k->line = dir_opt_line(d, opt);
		k->quiet |= bundle_outdated(b, data);
	} else if (r->error) {
		k->partial = xstrdup(r->error);
	}
}

/* The problem of {chart} directive di of chapter c (path) into *k: what
 * picking its points found (chart_pick.h), quiet where its data or a
 * limit are of another version of a source (its page says so). */
static void dir_check_chart(struct machine_set *ms, size_t c, size_t di,
                            const struct directive *d, const char *path,
                            struct dir_check *k)
{
	const char *data = dir_opt(d, "data");
	if (bundle_needs(ms->b[0], data))
		return;
	int outdated = bundle_outdated(ms->b[0], data);
	const struct judged_opt *jo = judge_opts(ms->jb, c, di, 0);
	for (size_t i = 0; i < d->nopts; i++)
		outdated |= jo[i].outdated;
	struct chart_pick pk;
	if (chart_pick(ms, c, di, d, path, &pk) != 0) {
		k->why = pk.why;
		pk.why = NULL;
		k->line = pk.line;
		k->quiet = pk.quiet || outdated;
		k->warn = pk.warn;
	} else if (pk.partial) {
		k->partial = xstrdup(pk.partial);
	}
	chart_pick_free(&pk);
}

/* The check kept in store as text (dir_check), into *k: 0, or -1 when
 * text is none that dir_check wrote. */
static int check_parse(const char *text, size_t len, struct dir_check *k)
{
	cJSON *j = cJSON_ParseWithLength(text, len);
	const cJSON *line = cJSON_GetObjectItem(j, "line");
	const cJSON *why = cJSON_GetObjectItem(j, "why");
	const cJSON *partial = cJSON_GetObjectItem(j, "partial");
	int rc = -1;
	if (cJSON_IsNumber(line) && (!why || cJSON_IsString(why)) &&
	    (!partial || cJSON_IsString(partial))) {
		k->line = line->valueint;
		k->quiet = cJSON_IsTrue(cJSON_GetObjectItem(j, "quiet"));
		k->warn = cJSON_IsTrue(cJSON_GetObjectItem(j, "warn"));
		k->why = why ? xstrdup(why->valuestring) : NULL;
		k->partial = partial ? xstrdup(partial->valuestring) : NULL;
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
}

/*
 * The check of directive di of chapter c (ch) on the base of ms into *k:
 * kept in store under d's key, or made now and kept there (as JSON: its
 * line, why, quiet, warn and partial).
 */
static void dir_check(const struct chapter *ch, size_t c, size_t di,
                      struct machine_set *ms, struct store *store,
                      struct dir_check *k)
{
	const struct directive *d = &ch->dirs[di];
	struct bundle *b = ms->b[0];
	const char *id = d->kind == DIR_SASS         ? dir_opt(d, "experiment")
	                 : d->kind == DIR_EXPERIMENT ? d->id
	                                             : dir_opt(d, "data");
	if (d->error || !id)
		return;
	char key[33];
	size_t len;
	const char *kept = NULL;
	if (store) {
		dir_key(d, id, ms, key);
		kept = store_get(store, key, &len);
	}
	if (kept && check_parse(kept, len, k) == 0)
		return;
	const struct judged_opt *jo = judge_opts(ms->jb, c, di, 0);
	if (d->kind == DIR_SASS) {
		dir_check_sass(d, b, k);
	} else if (d->kind == DIR_TABLE) {
		dir_check_table(d, b, jo, k);
	} else if (d->kind == DIR_CHART) {
		dir_check_chart(ms, c, di, d, ch->path, k);
	} else if (!bundle_needs(b, id) && bundle_get(b, id)->error) {
		k->partial = xstrdup(bundle_get(b, id)->error);
	}
	if (store) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddNumberToObject(j, "line", k->line);
		if (k->why)
			cJSON_AddStringToObject(j, "why", k->why);
		if (k->partial)
			cJSON_AddStringToObject(j, "partial", k->partial);
		cJSON_AddBoolToObject(j, "quiet", k->quiet);
		cJSON_AddBoolToObject(j, "warn", k->warn);
		store_put_json(store, key, j);
	}
}

/* Report the problem k of d at its line, as a build says it. */
static void dir_report(const struct chapter *ch, const struct directive *d,
                       const struct dir_check *k)
{
	if (d->kind == DIR_SASS)
		diag_at(ch->path, k->line, "{sass}: %s", k->why);
	else if (k->warn)
		warn_at(ch->path, k->line, "%s", k->why);
	else
		diag_at(ch->path, k->line, "%s", k->why);
}

/* The exercises of chapter c of bk into jc: each label must be the first
 * of its name among the book's exercises. */
static void judge_exercises(const struct book *bk, size_t c,
                            struct judged_chapter *jc)
{
	const struct chapter *ch = bk->chs[c];
	jc->nexercises = ch->nexercises;
	jc->ex_why = xcalloc(ch->nexercises + 1, sizeof *jc->ex_why);
	for (size_t k = 0; k < ch->nexercises; k++) {
		const struct exercise *x = &ch->exercises[k];
		const struct exercise *first = NULL;
		const struct chapter *in = NULL;
		for (size_t i = 0; x->label && !first && i <= c; i++)
			for (size_t j = 0; !first && j < (i < c ? bk->chs[i]->nexercises
			                                        : k); j++) {
				const struct exercise *y = &bk->chs[i]->exercises[j];
				if (y->label && !strcmp(y->label, x->label)) {
					first = y;
					in = bk->chs[i];
				}
			}
		if (!first)
			continue;
		jc->ex_why[k] = xasprintf("the exercise label '%s' is used twice; "
		                          "first at %s:%d", x->label, in->path,
		                          first->line);
		diag_at(ch->path, x->line, "%s", jc->ex_why[k]);
	}
}

/* Warn of the names in chart d's machines: that are none of ms's, unless
 * d draws nothing here (the card cannot run it, or it reads results of
 * another version of a source: its page says so); jo: its options judged
 * on the base. */
static void dir_check_machines(const struct chapter *ch,
                               const struct directive *d,
                               const struct machine_set *ms,
                               const struct judged_opt *jo)
{
	const char *spec = dir_opt(d, "machines"), *data = dir_opt(d, "data");
	if (d->kind != DIR_CHART || d->error || !spec || ms->n < 2 ||
	    (data && (bundle_needs(ms->b[0], data) ||
	              bundle_outdated(ms->b[0], data))))
		return;
	for (size_t i = 0; i < d->nopts; i++)
		if (jo[i].outdated)
			return;
	size_t *idx = xcalloc(ms->n, sizeof *idx);
	struct buf unknown = BUF_INIT;
	machines_pick(ms, spec, idx, &unknown);
	if (unknown.len)
		warn_at(ch->path, dir_opt_line(d, "machines"), "chart '%s': no bundle "
		        "named %s among the machines compared", d->id, unknown.data);
	buf_free(&unknown);
	free(idx);
}

/* A use of an experiment's partial records on a page. */
struct partial_use {
	int line;
	const char *id, *why;
};

static int cmp_use(const void *a, const void *b)
{
	const struct partial_use *x = a, *y = b;
	return (x->line > y->line) - (x->line < y->line);
}

/* Report, once per experiment, at its first use on chapter c's page,
 * that what the page shows of an experiment stands on the records before
 * a malformed line: its directives' (the checks of jc) and its values'. */
static void judge_partials(const struct judged_book *jb,
                           const struct chapter *ch, size_t c,
                           const struct judged_chapter *jc)
{
	struct partial_use *u = NULL;
	size_t n = 0;
	for (size_t di = 0; di < ch->ndirs; di++)
		if (jc->checks[di].partial && !jc->checks[di].why)
			*ARRAY_PUSH(u, n) = (struct partial_use){
				ch->dirs[di].line,
				ch->dirs[di].kind == DIR_EXPERIMENT ? ch->dirs[di].id
				: dir_opt(&ch->dirs[di], "data"),
				jc->checks[di].partial};
	for (size_t i = 0; i < ch->nvalues; i++) {
		const struct verdict *v = judge_get(jb, c, i, 0);
		if (v->partial && (v->kind == VERDICT_VALUE ||
		                   v->kind == VERDICT_HOLDS ||
		                   v->kind == VERDICT_FAILS))
			*ARRAY_PUSH(u, n) = (struct partial_use){
				ch->values[i].line, v->partial_id, v->partial};
	}
	if (n)
		qsort(u, n, sizeof *u, cmp_use);
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && strcmp(u[j].id, u[i].id))
			j++;
		if (j == i)
			diag_at(ch->path, u[i].line, "experiment '%s': %s; what this "
			        "page shows of it stands on the records before that "
			        "line (run it again to repair)", u[i].id, u[i].why);
	}
	free(u);
}

void judge_dirs_check(struct judged_book *jb, const struct book *bk,
                      struct machine_set *ms, struct store *store)
{
	for (size_t c = 0; c < bk->nchs && c < jb->nchs; c++) {
		const struct chapter *ch = bk->chs[c];
		struct judged_chapter *jc = &jb->chs[c];
		jc->ndirs = ch->ndirs;
		jc->checks = xcalloc(jb->nbundles * ch->ndirs + 1, sizeof *jc->checks);
		for (size_t di = 0; di < ch->ndirs; di++) {
			struct dir_check *k = &jc->checks[di];
			dir_check(ch, c, di, ms, store, k);
			if (k->why && !k->quiet)
				dir_report(ch, &ch->dirs[di], k);
			dir_check_machines(ch, &ch->dirs[di], ms,
			                   judge_opts(jb, c, di, 0));
		}
		judge_partials(jb, ch, c, jc);
		judge_exercises(bk, c, jc);
	}
}

const struct dir_check *judge_dir(const struct judged_book *jb, size_t c,
                                  size_t di, size_t m)
{
	static const struct dir_check none;
	const struct judged_chapter *jc = &jb->chs[c];
	if (!jc->checks || di >= jc->ndirs)
		return &none;
	return &jc->checks[m * jc->ndirs + di];
}

const char *judge_exercise(const struct judged_book *jb, size_t c, size_t k)
{
	const struct judged_chapter *jc = &jb->chs[c];
	return jc->ex_why && k < jc->nexercises ? jc->ex_why[k] : NULL;
}
