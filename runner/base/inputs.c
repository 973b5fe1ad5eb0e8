/* inputs.c - the files and folders a build read (inputs.h). */
#include "base/inputs.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* The inputs noted so far: a set of paths, open addressing. */
static struct {
	char **slot;
	size_t cap, n;
	char *site;         /* "site/": paths under it are outputs */
	size_t site_len;
	int on;
} in;

static size_t path_hash(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static void set_add(const char *path)
{
	if (in.n * 2 >= in.cap) {
		size_t cap = in.cap ? 2 * in.cap : 256;
		char **slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < in.cap; i++)
			if (in.slot[i]) {
				size_t k = path_hash(in.slot[i]) & (cap - 1);
				while (slot[k])
					k = (k + 1) & (cap - 1);
				slot[k] = in.slot[i];
			}
		free(in.slot);
		in.slot = slot;
		in.cap = cap;
	}
	size_t k = path_hash(path) & (in.cap - 1);
	while (in.slot[k]) {
		if (!strcmp(in.slot[k], path))
			return;
		k = (k + 1) & (in.cap - 1);
	}
	in.slot[k] = xstrdup(path);
	in.n++;
}

void input_note(const char *path)
{
	if (!in.on || !path || !*path)
		return;
	if (!strncmp(path, "./", 2))
		path += 2;
	if (!strncmp(path, in.site, in.site_len))
		return;
	set_add(path);
}

static void set_clear(void)
{
	for (size_t i = 0; i < in.cap; i++)
		free(in.slot[i]);
	free(in.slot);
	free(in.site);
	memset(&in, 0, sizeof in);
}

void inputs_begin(const char *outputs)
{
	set_clear();
	const char *s = strncmp(outputs, "./", 2) ? outputs : outputs + 2;
	size_t len = strlen(s);
	while (len > 1 && s[len - 1] == '/')
		len--;
	in.site = xasprintf("%.*s/", (int)len, s);
	in.site_len = len + 1;
	in.on = 1;
}

void inputs_end(void)
{
	set_clear();
}

const char *inputs_next(size_t *it)
{
	while (*it < in.cap)
		if (in.slot[(*it)++])
			return in.slot[*it - 1];
	return NULL;
}
