/*
 * store.c - the one cache of what a build makes (store.h).
 *
 * The file:
 *
 *   labbook-store 1
 *   KEY LEN\n BYTES\n        one per entry, KEY 32 hex digits
 *   end COUNT SUM\n          SUM: the hash of every byte before "end"
 */
#include "base/store.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/exec.h"
#include "base/util.h"

#define STORE_MAGIC "labbook-store 1\n"

struct entry {
	char key[33];
	const char *data; /* into the file's text, or own */
	size_t len;
	char *own;        /* put by this build */
	int used;
};

struct store {
	char *path;
	char *text;       /* the file as read */
	struct entry *e;
	size_t n, nread;
	size_t *slot;     /* open addressing: index + 1, 0 empty */
	size_t cap;
	int changed;
	struct buf *notes; /* store_note's */
};

static size_t key_hash(const char *key)
{
	size_t h = 0;
	for (int i = 0; i < 16; i++)
		h = h * 31 + (unsigned char)key[i];
	return h;
}

static int key_ok(const char *k, size_t len)
{
	if (len != 32)
		return 0;
	for (size_t i = 0; i < 32; i++)
		if (!((k[i] >= '0' && k[i] <= '9') || (k[i] >= 'a' && k[i] <= 'f')))
			return 0;
	return 1;
}

static struct entry *find(const struct store *s, const char *key)
{
	if (!s->cap)
		return NULL;
	for (size_t k = key_hash(key) & (s->cap - 1); s->slot[k];
	     k = (k + 1) & (s->cap - 1))
		if (!memcmp(s->e[s->slot[k] - 1].key, key, 32))
			return &s->e[s->slot[k] - 1];
	return NULL;
}

static void slot_add(struct store *s, size_t i)
{
	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		free(s->slot);
		s->slot = xcalloc(cap, sizeof *s->slot);
		s->cap = cap;
		for (size_t j = 0; j < i; j++)
			slot_add(s, j);
	}
	size_t k = key_hash(s->e[i].key) & (s->cap - 1);
	while (s->slot[k])
		k = (k + 1) & (s->cap - 1);
	s->slot[k] = i + 1;
}

static struct entry *add(struct store *s, const char *key)
{
	struct entry *e = ARRAY_PUSH(s->e, s->n);
	memset(e, 0, sizeof *e);
	memcpy(e->key, key, 32);
	slot_add(s, s->n - 1);
	return e;
}

static void forget(struct store *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->e[i].own);
	free(s->e);
	free(s->slot);
	s->e = NULL;
	s->slot = NULL;
	s->n = s->nread = s->cap = 0;
}

/* Read the entries of text (len bytes) into s: 0, or -1 when the text is
 * not an intact store (then s holds none of it). */
static int parse(struct store *s, char *text, size_t len)
{
	size_t magic = strlen(STORE_MAGIC);
	if (len < magic + 40 || memcmp(text, STORE_MAGIC, magic) ||
	    text[len - 1] != '\n')
		return -1;
	/* The last line: "end COUNT SUM". */
	char *last = text + len - 1;
	while (last > text && last[-1] != '\n')
		last--;
	size_t count;
	char sum[33], want[33];
	int used = 0;
	if (sscanf(last, "end %zu %32[0-9a-f]%n", &count, want, &used) != 2 ||
	    last + used != text + len - 1 || strlen(want) != 32)
		return -1;
	struct hasher *h = hasher_new();
	hasher_add(h, text, (size_t)(last - text));
	hasher_done(h, sum);
	if (memcmp(sum, want, 32))
		return -1;
	char *p = text + magic;
	while (p < last) {
		char *sp = memchr(p, ' ', (size_t)(last - p));
		char *nl = sp ? memchr(sp, '\n', (size_t)(last - sp)) : NULL;
		if (!nl || !key_ok(p, (size_t)(sp - p)))
			goto bad;
		char *end;
		unsigned long long n = strtoull(sp + 1, &end, 10);
		if (end != nl || sp[1] < '0' || sp[1] > '9' ||
		    n >= (unsigned long long)(last - nl) || nl[1 + n] != '\n' ||
		    find(s, p))
			goto bad;
		struct entry *e = add(s, p);
		e->data = nl + 1;
		e->len = (size_t)n;
		nl[1 + n] = '\0';
		p = nl + 2 + n;
	}
	if (p != last || s->n != count)
		goto bad;
	s->nread = s->n;
	return 0;
bad:
	forget(s);
	return -1;
}

struct store *store_open(const char *path)
{
	struct store *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	size_t len;
	s->text = file_read(path, &len);
	if (s->text && parse(s, s->text, len) != 0) {
		free(s->text);
		s->text = NULL;
	}
	return s;
}

const char *store_get(struct store *s, const char *key, size_t *len)
{
	struct entry *e = key_ok(key, strlen(key)) ? find(s, key) : NULL;
	if (!e)
		return NULL;
	e->used = 1;
	if (s->notes)
		buf_put(s->notes, e->key, 32);
	*len = e->len;
	return e->data;
}

void store_put_json(struct store *s, const char *key, cJSON *o)
{
	char *text = cJSON_PrintUnformatted(o);
	if (text)
		store_put(s, key, text, strlen(text));
	free(text);
	cJSON_Delete(o);
}

void store_put(struct store *s, const char *key, const void *data,
               size_t len)
{
	if (!key_ok(key, strlen(key)))
		return;
	if (s->notes)
		buf_put(s->notes, key, 32);
	struct entry *e = find(s, key);
	if (e && e->len == len && !memcmp(e->data, data, len)) {
		e->used = 1;
		return;
	}
	if (!e)
		e = add(s, key);
	free(e->own);
	e->own = xmalloc(len + 1);
	memcpy(e->own, data, len);
	e->own[len] = '\0';
	e->data = e->own;
	e->len = len;
	e->used = 1;
	s->changed = 1;
}

void store_note(struct store *s, struct buf *notes)
{
	s->notes = notes;
}

void store_keep(struct store *s, const char *keys, size_t len)
{
	char key[33];
	for (size_t i = 0; i + 32 <= len; i += 32) {
		memcpy(key, keys + i, 32);
		key[32] = '\0';
		struct entry *e = key_ok(key, 32) ? find(s, key) : NULL;
		if (e)
			e->used = 1;
	}
}

size_t store_count(const struct store *s)
{
	return s->n;
}

static int store_fill(int fd, void *arg)
{
	const struct buf *b = arg;
	return fd_write_all(fd, b->data, b->len);
}

int store_close(struct store *s)
{
	if (!s)
		return 0;
	int rc = 0;
	size_t kept = 0;
	for (size_t i = 0; i < s->n; i++)
		kept += s->e[i].used;
	/* Unchanged, and every entry read was used: the file stands. A build
	 * asked to stop may not have used what it would have: it writes none. */
	if (!exec_stopping() &&
	    (s->changed || kept != s->nread || (!s->text && kept))) {
		struct buf b = BUF_INIT;
		buf_puts(&b, STORE_MAGIC);
		for (size_t i = 0; i < s->n; i++) {
			const struct entry *e = &s->e[i];
			if (!e->used)
				continue;
			buf_printf(&b, "%.32s %zu\n", e->key, e->len);
			buf_put(&b, e->data, e->len);
			buf_putc(&b, '\n');
		}
		char sum[33];
		struct hasher *h = hasher_new();
		hasher_add(h, b.data, b.len);
		hasher_done(h, sum);
		buf_printf(&b, "end %zu %s\n", kept, sum);
		rc = mkdir_parents(s->path) == 0
		         ? file_write_atomic_with(s->path, store_fill, &b) : -1;
		buf_free(&b);
	}
	forget(s);
	free(s->text);
	free(s->path);
	free(s);
	return rc;
}
