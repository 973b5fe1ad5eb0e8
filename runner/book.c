#include "book.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
	e->cuda = e->source && !strcmp(path_ext(e->source), ".cu");
}

int book_load(const char *dir, struct book *bk)
{
	memset(bk, 0, sizeof *bk);
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
		struct chapter *ch = chapter_load(path);
		free(path);
		free(names[i]);
		static const char *reserved[] = {"index", "provenance", "runs",
		                                 "machines"};
		for (size_t k = 0; k < 4; k++)
			if (!strcmp(ch->name, reserved[k]))
				diag_at(ch->path, 0, "the page %s.html is labbook's own; "
				        "rename the chapter", ch->name);
		for (size_t k = 0; k < bk->nchs; k++)
			if (!strcmp(bk->chs[k]->name, ch->name))
				diag_at(ch->path, 0, "two chapters make the page %s.html "
				        "(the other is %s); rename one", ch->name,
				        bk->chs[k]->path);
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
	for (size_t i = 0; i < bk->nchs; i++)
		chapter_free(bk->chs[i]);
	free(bk->chs);
	memset(bk, 0, sizeof *bk);
}

struct exper *book_find(const struct book *bk, const char *id)
{
	for (size_t i = 0; i < bk->nexps; i++)
		if (!strcmp(bk->exps[i].id, id))
			return &bk->exps[i];
	return NULL;
}
