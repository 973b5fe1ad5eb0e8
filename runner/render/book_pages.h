/*
 * book_pages.h - the pages about the book rather than of it (book_pages.c):
 * provenance.html, runs.html and, where bundles are compared,
 * machines.html; where a bundle's history is asked for, history.html.
 */
#ifndef LB_BOOK_PAGES_H
#define LB_BOOK_PAGES_H

#include "render/render.h"

/* Each writes its page if it changed. 0 or -1. */
int provenance_page(const struct site_ctx *s);
int machines_html_page(const struct site_ctx *s);
int runs_page(const struct site_ctx *s);
int history_html_page(const struct site_ctx *s);

#endif
