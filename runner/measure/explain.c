/* explain.c - labbook explain: what the next build does with one
 * experiment, and why (explain.h). */
#define _GNU_SOURCE
#include "measure/explain.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"
#include "base/ccfacts.h"
#include "bundle/state.h"
#include "measure/build.h"
#include "measure/command.h"
#include "measure/machine.h"
#include "measure/toolchain.h"
#include "measure/why.h"

/* printf to stdout, with each control byte but a newline of what a bundle
 * or a chapter said (a meta's text) shown as \xNN: a terminal is never
 * driven by it. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	struct buf b = BUF_INIT, t = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	for (const char *line = b.data ? b.data : "", *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		char *one = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
		buf_puts_term(&t, one);
		free(one);
		if (!nl)
			break;
		buf_putc(&t, '\n');
	}
	fputs(t.data ? t.data : "", stdout);
	buf_free(&b);
	buf_free(&t);
}

#define EXPLAIN_NEAREST 3

static const char *meta_text(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(o ? cJSON_GetObjectItemCaseSensitive(o, key)
	                              : NULL);
}

/* "a, b, c": the ids of bk nearest to id, in order of distance, then of
 * the book. Caller frees. */
static char *nearest_ids(const struct book *bk, const char *id)
{
	struct buf b = BUF_INIT;
	size_t *d = xmalloc((bk->nexps + 1) * sizeof *d);
	for (size_t i = 0; i < bk->nexps; i++)
		d[i] = str_distance(id, bk->exps[i].id);
	for (size_t k = 0; k < EXPLAIN_NEAREST && k < bk->nexps; k++) {
		size_t best = 0;
		for (size_t i = 1; i < bk->nexps; i++)
			if (d[i] < d[best])
				best = i;
		buf_printf(&b, "%s%s", k ? ", " : "", bk->exps[best].id);
		d[best] = (size_t)-1;
	}
	free(d);
	buf_puts(&b, "");
	return buf_detach(&b);
}

/* The experiment id names: one of the book's, or the one a derived id
 * (ilp_ptxas) comes from, said so. NULL when none (reported). */
static struct exper *explain_find(const struct book *bk, const char *id)
{
	struct exper *e = book_find(bk, id);
	if (e)
		return e;
	for (int d = DERIVED_PTXAS; d <= DERIVED_NCU; d++) {
		const char *us = strrchr(id, '_');
		char *base = us ? xstrndup(id, (size_t)(us - id)) : NULL;
		char *again = base ? derived_id(base, (enum derived)d) : NULL;
		e = again && !strcmp(again, id) ? book_find(bk, base) : NULL;
		free(again);
		free(base);
		if (e) {
			say("%s is made by the build of experiment '%s'; it runs "
			       "when '%s' runs.\n", id, e->id, e->id);
			return e;
		}
	}
	if (!bk->nexps) {
		diag("no experiment '%s': the book has no experiments", id);
		return NULL;
	}
	char *near = nearest_ids(bk, id);
	diag("no experiment '%s' in the book; the nearest: %s", id, near);
	free(near);
	return NULL;
}

static void print_lines(char *const *lines)
{
	for (; lines && *lines; lines++)
		say("  - %s\n", *lines);
}

/* Where and when the results in b were recorded, as a clause. */
static char *recorded_words(const struct bundle *b, const cJSON *meta)
{
	char *machine = result_state_machine(b, meta_text(meta, "host"));
	const char *date = meta_text(meta, "date");
	char *s = xasprintf("%s (%s%s%s)", b->dir, machine, date ? ", " : "",
	                    date ? date : "");
	free(machine);
	return s;
}

/* The next build does not run e: it renders what b holds, and says how
 * far that lies from e's inputs now. */
static void explain_rendered(const struct exper *e, const struct bundle *b,
                             const cJSON *meta, const struct toolchain *tc,
                             const char *why)
{
	say("%s (%s:%d) will not run on the next build: %s.\n", e->id,
	       e->ch->path, e->dir->line, why);
	if (!meta) {
		say("It has no results in %s, so its page will say it was not "
		       "measured.\n", b->dir);
		return;
	}
	char *where = recorded_words(b, meta);
	say("Its page is rendered from the results recorded in %s.\n", where);
	free(where);
	size_t n;
	char **lines = why_changed(e, b, meta, NULL, &n);
	if (n) {
		say("Since they were recorded (its box will say they changed):\n");
		print_lines(lines);
	} else {
		say("Its source, headers, inputs, arguments and flags are as they "
		       "were when they were recorded.\n");
	}
	argv_free(lines);
	const char *had = meta_text(b->machine, "nvcc");
	if (e->cuda && had && tc->nvcc_version && strcmp(had, tc->nvcc_version))
		say("nvcc here is '%s'; they were made with '%s'.\n",
		       tc->nvcc_version, had);
}

/* What of a machine e's key covers, as key.c makes it. */
static const char *key_covers(const struct exper *e, const struct toolchain *tc)
{
	int gpu = command_on_gpu(e, tc);
	if (e->cuda)
		return "the GPU, its driver and nvcc";
	if (command_is_python(e))
		return gpu ? "the GPU, its driver and the Python interpreter"
		           : "the Python interpreter";
	if (e->run)
		return gpu ? "the GPU and its driver" : "nothing of the machine";
	return "the C compiler";
}

/* Its results are up to date: when they were made, and why they were. */
static void explain_cached(const struct exper *e, const struct bundle *b,
                           const cJSON *meta, const struct toolchain *tc)
{
	const char *date = meta_text(meta, "date"), *build = meta_text(meta, "build");
	say("%s (%s:%d) is cached: nothing its key covers changed since it ran "
	       "%s%s%s%s.\n", e->id, e->ch->path, e->dir->line,
	       date ? "on " : "", date ? date : "in an earlier build",
	       build ? ", in the build of " : "", build ? build : "");
	if (!machine_is_here(b, tc)) {
		char *machine = result_state_machine(b, meta_text(meta, "host"));
		say("Its results were measured on another machine (%s); its key "
		       "covers %s, not the host.\n", machine,
		       key_covers(e, tc));
		free(machine);
	}
	const cJSON *ran = meta ? cJSON_GetObjectItemCaseSensitive(meta,
	                                                          "ran_because")
	                        : NULL;
	if (!cJSON_IsArray(ran) || !cJSON_GetArraySize(ran)) {
		say("Its results do not say why it ran then (they were recorded "
		       "before labbook kept that).\n");
		return;
	}
	say("It ran then because:\n");
	const cJSON *w;
	cJSON_ArrayForEach(w, ran)
		if (cJSON_IsString(w))
			say("  - %s\n", w->valuestring);
}

int book_explain(struct book *bk, struct bundle *b, const char *id,
                 const struct run_opts *o)
{
	struct exper *e = explain_find(bk, id);
	if (!e)
		return -1;
	struct toolchain tc;
	toolchain_init(&tc, bk, o);
	int workers = o->gpus > 0 ? o->gpus : tc.ngpus;
	if (tc.ndevs && workers > (int)tc.ndevs)
		workers = (int)tc.ndevs;
	toolchain_use(&tc, workers);
	int lacks = o->run && !o->compile_only && exper_card_lacks(e, &tc);
	int go = book_plan_exper(e, b, &tc, o);
	const cJSON *meta = bundle_get_meta(b, e->id)->meta;
	if (go < 0) {
		say("%s (%s:%d) will fail on the next build: %s.\n", e->id,
		       e->ch->path, e->dir->line, e->why ? e->why : "see above");
	} else if (lacks) {
	{
		char w[48];
		say("%s (%s:%d) will not run here: it needs compute capability "
		       "%s.\n", e->id, e->ch->path, e->dir->line,
		       cc_need_words(e->need_cc, w, sizeof w));
	}
	} else if (go && command_on_gpu(e, &tc) && !o->compile_only &&
	           machine_check(b, &tc)) {
		say("%s (%s:%d) will not run on the next build: %s was measured "
		       "on another GPU (see above).\n", e->id, e->ch->path,
		       e->dir->line, b->dir);
	} else if (go) {
		say("%s (%s:%d) will %s on the next build, because:\n", e->id,
		       e->ch->path, e->dir->line,
		       o->compile_only ? "be compiled" : "run");
		if (o->compile_only)
			say("  - --compile-only compiles every experiment\n");
		print_lines(e->reasons);
	} else if (!o->run && !o->compile_only) {
		explain_rendered(e, b, meta, &tc, "--no-run runs nothing");
	} else if (e->cuda && !tc.nvcc) {
		explain_rendered(e, b, meta, &tc, "nvcc was not found");
	} else if (e->cuda && !tc.gpu) {
		explain_rendered(e, b, meta, &tc, "there is no GPU here");
	} else {
		explain_cached(e, b, meta, &tc);
	}
	toolchain_free(&tc);
	return 0;
}
