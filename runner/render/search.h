/*
 * search.h - the search index and the search page (search.c).
 */
#ifndef LB_SEARCH_H
#define LB_SEARCH_H

#include <stddef.h>

#include "render/render.h"

/* Chapter i's entries of the search index: JSON objects joined by commas,
 * one per section (caller frees). */
char *search_entries(const struct site_ctx *s, size_t i);
/* Write search-index.js: chapter i's entries from entries[i], or, where
 * that is NULL, kept in the store under key[i]. 0 or -1 (reported). */
int search_index_write(const struct site_ctx *s, char (*key)[33],
                       char *const *entries);
/* Write search.html if it changed. 0 or -1. */
int search_page(const struct site_ctx *s);

#endif
