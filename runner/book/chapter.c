/*
 * chapter.c - a chapter as a whole: named after its path, read, checked
 * (UTF-8, not empty), hashed, its controls made visible, then parsed
 * (chapter_parse.c); and freed.
 */
#include "book/chapter.h"
#include "book/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

/* A chapter named after its path, with nothing parsed yet. */
static struct chapter *chapter_new(const char *path)
{
	struct chapter *ch = xcalloc(1, sizeof *ch);
	ch->path = xstrdup(path);
	char *stem = path_stem(path);
	const char *name = stem;
	while (isdigit((unsigned char)*name))
		name++;
	if (name != stem && (*name == '-' || *name == '_'))
		name++;
	else
		name = stem;
	ch->name = xstrdup(*name ? name : stem);
	struct buf href = BUF_INIT;
	buf_puts_url(&href, ch->name);
	ch->href = buf_detach(&href);
	ch->title_section = -1;
	free(stem);
	return ch;
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

struct chapter *chapter_parse_text(const char *path, const char *src,
                                   size_t len)
{
	struct chapter *ch = chapter_new(path);
	int bad_line;
	if (!utf8_valid(src, len, &bad_line)) {
		ch->error = xasprintf("%s:%d: not valid UTF-8; save the chapter "
		                      "as UTF-8", path, bad_line);
		diag_at(path, bad_line, "not valid UTF-8; save the chapter as UTF-8");
	} else if (is_blank(src, len)) {
		ch->error = xasprintf("%s: the chapter is empty; start it with a "
		                      "'# Title' line", path);
		diag_at(path, 0, "the chapter is empty; start it with a '# Title' line");
	} else {
		struct hasher *h = hasher_new();
		hasher_add(h, src, len);
		hasher_done(h, ch->hash);
		/* STX and ETX, as the parse's own tokens use them, and any
		 * other control are shown as their pictures. */
		size_t safe_len;
		char *safe = source_make_safe(src, len, &safe_len);
		chapter_parse_markdown(ch, safe ? safe : src, safe ? safe_len : len);
		free(safe);
	}
	if (!ch->title)
		ch->title = xstrdup(ch->name);
	return ch;
}

struct chapter *chapter_load(const char *path)
{
	size_t len;
	char *src = file_read(path, &len);
	if (!src) {
		int err = errno;
		struct chapter *ch = chapter_new(path);
		ch->error = xasprintf("%s: cannot read: %s", path, strerror(err));
		diag_at(path, 0, "cannot read: %s", strerror(err));
		ch->title = xstrdup(ch->name);
		return ch;
	}
	struct chapter *ch = chapter_parse_text(path, src, len);
	free(src);
	return ch;
}

void chapter_free(struct chapter *ch)
{
	if (!ch)
		return;
	for (size_t i = 0; i < ch->ndirs; i++) {
		struct directive *d = &ch->dirs[i];
		for (size_t k = 0; k < d->nopts; k++) {
			free(d->opts[k].key);
			free(d->opts[k].value);
			expr_free(d->opts[k].tree);
			argv_free(d->opts[k].reads);
		}
		free(d->opts);
		free(d->id);
		free(d->error);
	}
	for (size_t i = 0; i < ch->nvalues; i++) {
		free(ch->values[i].text);
		free(ch->values[i].fmt);
		free(ch->values[i].label);
		free(ch->values[i].parse_err);
		expr_free(ch->values[i].tree);
		argv_free(ch->values[i].reads);
	}
	for (size_t i = 0; i < ch->nexercises; i++)
		free(ch->exercises[i].label);
	free(ch->exercises);
	for (size_t i = 0; i < ch->nnames; i++)
		argv_free(ch->names[i].v);
	free(ch->names);
	for (size_t i = 0; i < ch->nsections; i++) {
		struct section *s = &ch->sections[i];
		pieces_free(&s->html);
		pieces_free(&s->title);
		pieces_free(&s->words);
		free(s->id);
	}
	free(ch->dirs);
	free(ch->values);
	free(ch->sections);
	pieces_free(&ch->body);
	pieces_free(&ch->lead);
	free(ch->path);
	free(ch->name);
	free(ch->href);
	free(ch->title);
	free(ch->error);
	free(ch);
}
