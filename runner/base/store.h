/*
 * store.h - the one cache of what a build makes: each made thing (a page's
 * facts, a piece of a page, a chapter's part of the one-page book and of
 * the search index) kept under the hash of everything it was made from.
 *
 * A key is 32 hex digits (util.h's hasher). Whoever makes a thing hashes
 * what it reads into the key, so a thing found under its key is the thing
 * it would make now: there is no other rule for "stale".
 *
 * The store is one file, read whole when opened and written whole, through
 * a temporary file, when closed after a build that used it differently. An
 * entry that a build neither took nor put is dropped then, so the store
 * holds what the last build used and no more. The file ends with the number
 * of its entries and a checksum of every byte before: a file cut short,
 * changed, or not a store at all is an empty store (nothing is trusted,
 * everything is made again), never an error.
 */
#ifndef LB_STORE_H
#define LB_STORE_H

#include <stddef.h>

struct buf;
struct store;

/* The store in the file at path (missing or not intact: empty). The path
 * is kept for store_close. Never NULL. */
struct store *store_open(const char *path);

/*
 * The bytes kept under key, *len of them (NUL-terminated past the end),
 * or NULL. Borrowed from the store until store_close; the entry is kept.
 */
const char *store_get(struct store *s, const char *key, size_t *len);

/* Keep len bytes of data under key (a copy; what was there is replaced). */
void store_put(struct store *s, const char *key, const void *data,
               size_t len);
/* Keep the JSON object o, printed unformatted, under key; o is freed. */
struct cJSON;
void store_put_json(struct store *s, const char *key, struct cJSON *o);

/*
 * While notes is not NULL, append to it the key of each entry taken or put
 * (32 digits each, unseparated); NULL stops. A made thing that is kept
 * whole (a page) lists what it was made with, so that a later build that
 * keeps it keeps those too (store_keep).
 */
void store_note(struct store *s, struct buf *notes);
/* Keep the entries whose keys keys lists (len bytes, as store_note wrote
 * them): this build uses them, though it does not take them. */
void store_keep(struct store *s, const char *keys, size_t len);

/* Entries read, taken and put so far (for tests and --progress). */
size_t store_count(const struct store *s);

/*
 * Write what this build took and put, if that differs from what was read,
 * and free s (NULL: nothing). 0, or -1 when the file could not be written
 * (reported; the next build makes what it lacks again).
 */
int store_close(struct store *s);

#endif
