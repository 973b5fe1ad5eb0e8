/* directive.c - the options of a directive block, checked against what
 * each kind takes. */
#include "book/directive.h"
#include "book/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"
#include "base/ccfacts.h"

struct opt_spec {
	const char *key;
	int required;
	int repeat;
	enum { V_TEXT, V_WORDS, V_ENV, V_SORT, V_INT, V_LOG, V_BOOL, V_SHOW,
	       V_GPUS, V_CC } type;
};

static const struct opt_spec experiment_opts[] = {
	{"source", 0, 0, V_TEXT},      {"args", 0, 0, V_WORDS},
	{"flags", 0, 0, V_WORDS},      {"timeout", 0, 0, V_INT},
	{"allow-error", 0, 0, V_BOOL}, {"show", 0, 0, V_SHOW},
	{"ncu", 0, 0, V_TEXT},         {"ncu-args", 0, 0, V_WORDS},
	{"env", 0, 0, V_ENV},          {"runs", 0, 0, V_INT},
	{"include", 0, 0, V_TEXT},     {"capture", 0, 1, V_TEXT},
	{"sweep", 0, 1, V_TEXT},       {"gpus", 0, 0, V_GPUS},
	{"requires", 0, 0, V_CC},      {"inputs", 0, 0, V_TEXT},
	{"run", 0, 0, V_TEXT},         {NULL, 0, 0, V_TEXT},
};

static const struct opt_spec chart_opts[] = {
	{"data", 1, 0, V_TEXT},   {"x", 1, 0, V_TEXT},
	{"y", 1, 0, V_TEXT},      {"series", 0, 0, V_TEXT},
	{"where", 0, 0, V_TEXT},  {"logx", 0, 0, V_LOG},
	{"logy", 0, 0, V_LOG},    {"limit", 0, 1, V_TEXT},
	{"xlabel", 0, 0, V_TEXT}, {"ylabel", 0, 0, V_TEXT},
	{"title", 0, 0, V_TEXT},  {"caption", 0, 0, V_TEXT},
	{"x-unit", 0, 0, V_TEXT}, {"y-unit", 0, 0, V_TEXT},
	{"y-scale", 0, 0, V_TEXT},
	{"label", 0, 1, V_TEXT},  {"series-label", 0, 0, V_TEXT},
	{"highlight", 0, 0, V_TEXT},
	{"machines", 0, 0, V_TEXT},
	{NULL, 0, 0, V_TEXT},
};

static const struct opt_spec table_opts[] = {
	{"data", 1, 0, V_TEXT},  {"columns", 1, 0, V_TEXT},
	{"where", 0, 0, V_TEXT}, {"sort", 0, 0, V_SORT},
	{"caption", 0, 0, V_TEXT}, {NULL, 0, 0, V_TEXT},
};

static const struct opt_spec sass_opts[] = {
	{"experiment", 1, 0, V_TEXT}, {"kernel", 1, 0, V_TEXT},
	{"mark", 0, 0, V_TEXT},       {"caption", 0, 0, V_TEXT},
	{NULL, 0, 0, V_TEXT},
};

static const struct {
	const char *name;
	enum dir_kind kind;
	const struct opt_spec *opts;
} kinds[] = {
	{"experiment", DIR_EXPERIMENT, experiment_opts},
	{"chart", DIR_CHART, chart_opts},
	{"table", DIR_TABLE, table_opts},
	{"sass", DIR_SASS, sass_opts},
};

const char *dir_kind_name(enum dir_kind k)
{
	return kinds[k].name;
}

const char *dir_opt(const struct directive *d, const char *key)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, key))
			return d->opts[i].value;
	return NULL;
}

int dir_opt_line(const struct directive *d, const char *key)
{
	for (size_t i = 0; i < d->nopts; i++)
		if (!strcmp(d->opts[i].key, key))
			return d->opts[i].line;
	return d->line;
}

void dir_fail(const char *path, struct directive *d, int line,
              const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_keepv(&d->error, path, line, fmt, ap);
	va_end(ap);
}

static int is_ident(const char *s, int dash_ok)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && !(dash_ok && *s == '-'))
			return 0;
	return 1;
}

static void check_value(const char *path, struct directive *d,
                        const struct opt_spec *spec, struct dir_opt *o)
{
	const char *v = o->value;
	char *end;
	switch (spec->type) {
	case V_TEXT:
		if (!*v)
			dir_fail(path, d, o->line, "option '%s' has no value", o->key);
		break;
	case V_WORDS: { /* split as a shell splits, and nothing expanded */
		char *why = NULL;
		if (!*v)
			dir_fail(path, d, o->line, "option '%s' has no value", o->key);
		else if (argv_quotes_closed(v, &why) != 0)
			dir_fail(path, d, o->line, "option '%s': %s", o->key, why);
		free(why);
		break;
	}
	case V_ENV: { /* NAME=value words */
		char *why = NULL;
		size_t n = 0;
		if (argv_quotes_closed(v, &why) != 0) {
			dir_fail(path, d, o->line, "option '%s': %s", o->key, why);
			free(why);
			break;
		}
		char **w = argv_split(v, &n);
		for (size_t i = 0; i < n; i++) {
			char *eq = strchr(w[i], '=');
			if (eq)
				*eq = '\0';
			if (!eq || !is_ident(w[i], 0)) {
				if (eq)
					*eq = '=';
				dir_fail(path, d, o->line, "option 'env': '%s' is not "
				         "NAME=value (a name of letters, digits and _, "
				         "not starting with a digit)", w[i]);
				break;
			}
		}
		argv_free(w);
		break;
	}
	case V_SORT: { /* FIELD, then asc or desc */
		size_t n = 0;
		char **w = argv_split(v, &n);
		if (n < 1 || n > 2 || (n == 2 && strcmp(w[1], "asc") &&
		                       strcmp(w[1], "desc")))
			dir_fail(path, d, o->line, "option 'sort' wants a field, then "
			         "asc or desc (sort: gbps desc), not '%s'", v);
		argv_free(w);
		break;
	}
	case V_INT:
		errno = 0;
		long n = strtol(v, &end, 10);
		if (*end || end == v || errno || n <= 0)
			dir_fail(path, d, o->line,
			         "option '%s' wants a positive whole number, not '%s'",
			         o->key, v);
		break;
	case V_LOG: /* a log base: gnuplot takes none below 2 */
		errno = 0;
		long b = strtol(v, &end, 10);
		if (*end || end == v || errno || b < 2 || b > 1000000)
			dir_fail(path, d, o->line,
			         "option '%s' wants the base of its log scale, a whole "
			         "number from 2 (2 or 10), not '%s'", o->key, v);
		break;
	case V_BOOL:
		if (strcmp(v, "true") && strcmp(v, "false"))
			dir_fail(path, d, o->line,
			         "option '%s' wants true or false, not '%s'", o->key, v);
		break;
	case V_CC: {
		int cc;
		if (cc_requirement(v, &cc) != 0)
			dir_fail(path, d, o->line, "option '%s' wants a compute "
			         "capability (sm_90, or cc >= 9.0), not '%s'", o->key,
			         v);
		break;
	}
	case V_GPUS:
		if (strcmp(v, "all") && strcmp(v, "one"))
			dir_fail(path, d, o->line, "option '%s' wants all (every GPU "
			         "at once, alone) or one, not '%s'", o->key, v);
		break;
	case V_SHOW: {
		char *copy = xstrdup(v), *save = NULL;
		for (char *w = strtok_r(copy, ", ", &save); w;
		     w = strtok_r(NULL, ", ", &save))
			if (strcmp(w, "source") && strcmp(w, "command") &&
			    strcmp(w, "output") && strcmp(w, "none"))
				dir_fail(path, d, o->line,
				         "option 'show' lists '%s'; it takes source, "
				         "command, output or none", w);
		free(copy);
		break;
	}
	}
}

/* Does the text before colon name one of specs? */
static int opt_named(const struct opt_spec *specs, const char *t,
                     const char *colon)
{
	if (!colon)
		return 0;
	char *key = xstrndup(t, (size_t)(colon - t));
	int known = 0;
	for (const struct opt_spec *s = specs; s->key && !known; s++)
		known = !strcmp(s->key, str_trim(key));
	free(key);
	return known;
}

/* Parse o's expression, when it has one (a chart's or a table's where:,
 * the expression of a chart's limit: before its '|'), into o->tree, at
 * load; or report why it cannot be. */
static void opt_tree(const char *path, struct directive *d, struct dir_opt *o)
{
	int where = !strcmp(o->key, "where");
	if (!(where && (d->kind == DIR_CHART || d->kind == DIR_TABLE)) &&
	    !(d->kind == DIR_CHART && !strcmp(o->key, "limit")))
		return;
	char *text = xstrdup(o->value), *err = NULL, *bar = strchr(text, '|');
	if (bar && !where)
		*bar = '\0';
	int rc = where ? conds_parse(text, &o->tree, &err, NULL)
	               : expr_parse(text, &o->tree, &err, NULL);
	expr_ids(o->tree, &o->reads, &o->nreads);
	if (rc != 0 && d->kind == DIR_CHART)
		dir_fail(path, d, o->line, "chart '%s': %s: %s", d->id ? d->id : "",
		         o->key, err);
	else if (rc != 0)
		dir_fail(path, d, o->line, "table: %s: %s", o->key, err);
	free(err);
	free(text);
}

/*
 * An experiment names what it runs once: a source: to compile (or to run
 * under python3), or a run: command that runs as written, with nothing
 * compiled; flags: and include: are a compile's, so they go with
 * source: only. A run: whose quote is left open is refused, as sweep:'s.
 */
static void run_check(const char *path, struct directive *d)
{
	const char *run = dir_opt(d, "run");
	char *why = NULL;
	if (!run) {
		if (!dir_opt(d, "source"))
			dir_fail(path, d, d->line, "{experiment} is missing its "
			         "'source' option (or 'run', a command that runs as "
			         "written)");
		return;
	}
	int line = dir_opt_line(d, "run");
	static const char *const compiled[] = {"source", "flags", "include"};
	for (size_t i = 0; i < sizeof compiled / sizeof *compiled; i++)
		if (dir_opt(d, compiled[i]))
			dir_fail(path, d, line, "experiment '%s': run: runs a command "
			         "as written and compiles nothing, so it takes no %s: "
			         "(line %d); give source: alone to have labbook build "
			         "the program, or run: alone with the files the "
			         "command reads in inputs:", d->id ? d->id : "",
			         compiled[i], dir_opt_line(d, compiled[i]));
	if (*run && argv_quotes_closed(run, &why) != 0) {
		dir_fail(path, d, line, "experiment '%s': run: %s", d->id ? d->id
		         : "", why);
		free(why);
	}
}

void directive_parse(const char *path, struct directive *d,
                            const char *info, const char *body)
{
	const char *close = strchr(info, '}');
	char *name = xstrndup(info + 1, close ? (size_t)(close - info - 1) : 0);
	const struct opt_spec *specs = NULL;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (!strcmp(name, kinds[k].name)) {
			d->kind = kinds[k].kind;
			specs = kinds[k].opts;
		}
	if (!specs) {
		dir_fail(path, d, d->line,
		         "unknown directive '{%s}'; known: {experiment}, {chart}, "
		         "{table}, {sass}, and the callouts {note}, {warning}, "
		         "{exercise}", close ? name : info);
		free(name);
		return;
	}
	free(name);

	char *copy = xstrdup(close + 1);
	char *rest = str_trim(copy);
	if (*rest)
		d->id = xstrdup(rest);
	free(copy);
	if (d->kind != DIR_TABLE && d->kind != DIR_SASS && !d->id)
		dir_fail(path, d, d->line, "{%s} needs an id after the braces, e.g. "
		         "'```{%s} name'", kinds[d->kind].name, kinds[d->kind].name);
	else if (d->id && !is_ident(d->id, d->kind != DIR_EXPERIMENT))
		dir_fail(path, d, d->line,
		         "'%s' is not a valid id: use letters, digits and _%s",
		         d->id, d->kind != DIR_EXPERIMENT ? " or -" : "");

	int line = d->line;
	for (const char *p = body; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *text = xstrndup(p, n);
		char *t = str_trim(text);
		line++;
		p += n + (nl ? 1 : 0);
		if (!*t || *t == '#') {
			free(text);
			continue;
		}
		char *colon = strchr(t, ':');
		/* An indented line that names no option continues the one
		 * before it ("source: a.cu" then "    b.cu"). */
		if (t != text && d->nopts && !opt_named(specs, t, colon)) {
			struct dir_opt *prev = &d->opts[d->nopts - 1];
			char *v = xasprintf("%s %s", prev->value, t);
			free(prev->value);
			prev->value = v;
			free(text);
			continue;
		}
		if (!colon) {
			dir_fail(path, d, line, "expected 'key: value', found '%s'", t);
			free(text);
			continue;
		}
		*colon = '\0';
		char *key = str_trim(t);
		char *value = str_trim(colon + 1);
		const struct opt_spec *spec = NULL;
		for (const struct opt_spec *s = specs; s->key; s++)
			if (!strcmp(s->key, key))
				spec = s;
		if (!spec) {
			struct buf known = BUF_INIT;
			for (const struct opt_spec *s = specs; s->key; s++)
				buf_printf(&known, "%s%s", s == specs ? "" : ", ", s->key);
			dir_fail(path, d, line, "unknown option '%s'; {%s} takes %s",
			         key, kinds[d->kind].name, known.data);
			buf_free(&known);
			free(text);
			continue;
		}
		if (!spec->repeat && dir_opt(d, key)) {
			dir_fail(path, d, line, "option '%s' given twice (first at line %d)",
			         key, dir_opt_line(d, key));
			free(text);
			continue;
		}
		struct dir_opt *o = ARRAY_PUSH(d->opts, d->nopts);
		o->key = xstrdup(key);
		o->value = xstrdup(value);
		o->line = line;
		o->tree = NULL;
		o->reads = NULL;
		o->nreads = 0;
		check_value(path, d, spec, o);
		free(text);
	}
	for (const struct opt_spec *s = specs; s->key; s++)
		if (s->required && !dir_opt(d, s->key))
			dir_fail(path, d, d->line, "{%s} is missing its '%s' option",
			         kinds[d->kind].name, s->key);
	if (d->kind == DIR_EXPERIMENT)
		run_check(path, d);
	for (size_t i = 0; i < d->nopts; i++)
		opt_tree(path, d, &d->opts[i]);
}

