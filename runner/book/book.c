/* book.c - the book: every chapter of the chapters folder in order, and the
 * experiments they declare, checked against each other (book.h). */
#include "book/book.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "base/exec.h"
#include "base/util.h"
#include "base/ccfacts.h"
#include "book/sweep.h"
#include "bundle/capture.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The pages and files labbook writes itself: no chapter may take them. */
static const char *const reserved[] = {"index", "provenance", "runs",
                                       "search", "search-index", "style",
                                       "machines", "book", "print", "live",
                                       "live-stamp", NULL};

/* Can a chapter's name be a page's file name? Any language and spaces
 * are fine (links percent-encode it); control characters and invalid
 * UTF-8 are not, nor a name that would hide the page (".x"). */
static int name_plain(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return *name && *name != '.' && utf8_valid(name, strlen(name), NULL);
}

static int chapter_name_ok(const struct book *bk, const struct chapter *ch)
{
	for (const char *const *r = reserved; *r; r++)
		if (!strcmp(ch->name, *r)) {
			diag_at(ch->path, 0, "the page %s.html is labbook's own; rename "
			        "the chapter", ch->name);
			return 0;
		}
	if (!name_plain(ch->name)) {
		diag_at(ch->path, 0, "the page name has control characters or "
		        "is not UTF-8, or starts with '.'; rename the chapter");
		return 0;
	}
	for (size_t k = 0; k < bk->nchs; k++)
		if (!strcmp(bk->chs[k]->name, ch->name)) {
			diag_at(ch->path, 0, "two chapters make the page %s.html (the "
			        "other is %s); rename one", ch->name, bk->chs[k]->path);
			return 0;
		}
	return 1;
}

/* A chart id names its files under fig/, and a reference names a chart or
 * a table by its id: one of each per id in the book. */
static void charts_check(struct book *bk)
{
	for (size_t i = 0; i < bk->nchs; i++) {
		struct chapter *ch = bk->chs[i];
		for (size_t k = 0; k < ch->ndirs; k++) {
			struct directive *d = &ch->dirs[k];
			if ((d->kind != DIR_CHART && d->kind != DIR_TABLE) || !d->id ||
			    d->error)
				continue;
			const struct directive *first = NULL;
			const struct chapter *where = NULL;
			for (size_t j = 0; j <= i && !first; j++)
				for (size_t m = 0; m < bk->chs[j]->ndirs; m++) {
					const struct directive *o = &bk->chs[j]->dirs[m];
					if (o == d)
						break;
					if (o->kind == d->kind && o->id && !strcmp(o->id, d->id)) {
						first = o;
						where = bk->chs[j];
						break;
					}
				}
			if (first) {
				const char *kind = dir_kind_name(d->kind);
				diag_at(ch->path, d->line, "%s '%s' is declared twice; "
				        "first at %s:%d", kind, d->id, where->path,
				        first->line);
				d->error = xasprintf("%s:%d: %s '%s' is declared twice; "
				                     "first at %s:%d", ch->path, d->line, kind,
				                     d->id, where->path, first->line);
			}
		}
	}
}

/* Does data name an experiment of the book, or records derived from one
 * ("ilp_ptxas")? */
static int data_known(const struct book *bk, const char *data)
{
	if (book_find(bk, data))
		return 1;
	char *base = xstrdup(data);
	int found = 0;
	for (char *u = strrchr(base, '_'); !found && u; u = strrchr(base, '_')) {
		*u = '\0';
		found = book_find(bk, base) != NULL;
	}
	free(base);
	return found;
}

/* A chart or table must draw from an experiment the book declares. */
static void data_check(struct book *bk)
{
	for (size_t i = 0; i < bk->nchs; i++) {
		struct chapter *ch = bk->chs[i];
		for (size_t k = 0; k < ch->ndirs; k++) {
			struct directive *d = &ch->dirs[k];
			const char *data = dir_opt(d, "data");
			if ((d->kind != DIR_CHART && d->kind != DIR_TABLE) || d->error ||
			    !data || data_known(bk, data))
				continue;
			int line = dir_opt_line(d, "data");
			diag_at(ch->path, line, "{%s} data: no experiment '%s' in the "
			        "book", dir_kind_name(d->kind), data);
			d->error = xasprintf("%s:%d: no experiment '%s' in the book",
			                     ch->path, line, data);
		}
	}
}

/* Index exps[i] for book_find, growing the index as exps grows. */
static void book_index(struct book *bk, size_t i)
{
	if (2 * (i + 1) > bk->nslots) {
		free(bk->slot);
		bk->nslots = bk->nslots ? 2 * bk->nslots : 64;
		bk->slot = xcalloc(bk->nslots, sizeof *bk->slot);
		for (size_t k = 0; k < i; k++)
			book_index(bk, k);
	}
	size_t k = str_hash(bk->exps[i].id) & (bk->nslots - 1);
	while (bk->slot[k])
		k = (k + 1) & (bk->nslots - 1);
	bk->slot[k] = i + 1;
}

static void plan_experiment(struct book *bk, struct chapter *ch,
                            struct directive *d)
{
	struct exper *dup = book_find(bk, d->id);
	if (dup) {
		diag_at(ch->path, d->line, "experiment '%s' is declared twice; "
		        "first at %s:%d", d->id, dup->ch->path, dup->dir->line);
		if (!d->error)
			d->error = xasprintf("%s:%d: experiment '%s' is declared "
			                     "twice; first at %s:%d", ch->path, d->line,
			                     d->id, dup->ch->path, dup->dir->line);
		return;
	}
	struct exper *e = ARRAY_PUSH(bk->exps, bk->nexps);
	memset(e, 0, sizeof *e);
	e->id = xstrdup(d->id);
	book_index(bk, bk->nexps - 1);
	e->ch = ch;
	e->dir = d;
	e->source = dir_opt(d, "source");
	e->args = dir_opt(d, "args");
	e->flags = dir_opt(d, "flags");
	e->ncu = dir_opt(d, "ncu");
	e->ncu_args = dir_opt(d, "ncu-args");
	e->env = dir_opt(d, "env");
	const char *t = dir_opt(d, "timeout");
	e->timeout = t ? atof(t) : 0;
	const char *runs = dir_opt(d, "runs");
	e->runs = runs ? atoi(runs) : 0;
	const char *ae = dir_opt(d, "allow-error");
	e->allow_error = ae && !strcmp(ae, "true");
	e->include = dir_opt(d, "include");
	e->data = dir_opt(d, "inputs");
	const char *gpus = dir_opt(d, "gpus");
	e->all_gpus = gpus && !strcmp(gpus, "all");
	const char *req = dir_opt(d, "requires");
	if (!req || cc_requirement(req, &e->need_cc) != 0)
		e->need_cc = 0;
	e->cuda = e->source && !strcmp(path_ext(e->source), ".cu");
	char **words = e->source ? argv_split(e->source, NULL) : NULL;
	for (char **w = words; w && *w; w++)
		e->cuda |= !strcmp(path_ext(*w), ".cu");
	argv_free(words);
	e->run = dir_opt(d, "run");
	if (e->run)
		e->source = e->run;
}

void book_mark_needs(const struct book *bk, struct bundle *b)
{
	for (size_t i = 0; i < bk->nexps; i++)
		bundle_mark_needs(b, bk->exps[i].id, bk->exps[i].need_cc);
}

int book_load(const char *dir, struct book *bk)
{
	memset(bk, 0, sizeof *bk);
	input_note(dir);
	DIR *dp = opendir(dir);
	if (!dp) {
		diag("cannot read the chapters folder %s: %s", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp)))
		if (de->d_name[0] != '.' && !strcmp(path_ext(de->d_name), ".md"))
			*ARRAY_PUSH(names, n) = xstrdup(de->d_name);
	closedir(dp);
	if (n)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(dir, names[i]);
		struct stat st;
		free(names[i]);
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			diag_at(path, 0, "is %s, not a chapter file; rename it or move "
			        "it out of %s", S_ISDIR(st.st_mode) ? "a folder"
			        : "not a regular file", dir);
			free(path);
			continue;
		}
		if (path_check_inside(path) != 0) {
			free(path);
			continue;
		}
		struct chapter *ch = chapter_load(path);
		free(path);
		if (!chapter_name_ok(bk, ch)) {
			chapter_free(ch);
			continue;
		}
		*ARRAY_PUSH(bk->chs, bk->nchs) = ch;
		for (size_t k = 0; k < ch->ndirs; k++) {
			struct directive *d = &ch->dirs[k];
			if (d->kind == DIR_EXPERIMENT && d->id && !d->error)
				plan_experiment(bk, ch, d);
		}
	}
	free(names);
	if (!n)
		warn_at(dir, 0, "no chapters (*.md) found");
	charts_check(bk);
	data_check(bk);
	return 0;
}

void book_free(struct book *bk)
{
	for (size_t i = 0; i < bk->nexps; i++) {
		struct exper *e = &bk->exps[i];
		free(e->id);
		exper_build_free(e);
	}
	free(bk->exps);
	free(bk->slot);
	for (size_t i = 0; i < bk->nchs; i++)
		chapter_free(bk->chs[i]);
	free(bk->chs);
	memset(bk, 0, sizeof *bk);
}

struct exper *book_find(const struct book *bk, const char *id)
{
	if (!bk->nslots)
		return NULL;
	for (size_t k = str_hash(id) & (bk->nslots - 1); bk->slot[k];
	     k = (k + 1) & (bk->nslots - 1))
		if (!strcmp(bk->exps[bk->slot[k] - 1].id, id))
			return &bk->exps[bk->slot[k] - 1];
	return NULL;
}

void exper_fail(struct exper *e, char *why)
{
	e->state = ST_FAILED;
	free(e->why);
	e->why = why;
}

void exper_build_free(struct exper *e)
{
	if (!e)
		return;
	free(e->why);
	free(e->compile_cmd);
	free(e->run_cmd);
	argv_free(e->compile_argv);
	argv_free(e->run_argv);
	argv_free(e->env_words);
	free(e->source_norm);
	free(e->flags_norm);
	argv_free(e->sources);
	argv_free(e->includes);
	argv_free(e->data_files);
	argv_free(e->reasons);
	e->data_files = e->reasons = NULL;
	cJSON_Delete(e->key_parts);
	e->key_parts = NULL;
	capture_free(e->capture);
	sweep_free(e->sweep);
	e->sources = e->includes = NULL;
	e->nsources = 0;
	e->capture = NULL;
	e->sweep = NULL;
	argv_free(e->inputs);
	e->why = e->compile_cmd = e->run_cmd = e->source_norm = NULL;
	e->flags_norm = NULL;
	e->inputs = NULL;
	e->ninputs = 0;
	e->compile_argv = e->run_argv = e->env_words = NULL;
}
