/*
 * html_close.h - a chapter's HTML made self-contained (html_close.c), so
 * that nothing a chapter's raw HTML opens reaches the page around it or
 * the chapters after it in the one-page book.
 */
#ifndef LB_HTML_CLOSE_H
#define LB_HTML_CLOSE_H

#include "base/buf.h"

/*
 * Rewrite html in place so that it closes everything it opens, in order,
 * at its end: a comment, a CDATA section in SVG or MathML, a raw-text
 * element (textarea, title, style, xmp, iframe, noembed, noframes,
 * noscript) and every element left open (details, div hidden, video,
 * svg, ...). A tag cut off before its '>' is written as text, and an end
 * tag that closes nothing html opened is dropped. The tags that act on
 * the whole page wherever they stand (html, head, body, base, link, meta,
 * script, plaintext, frameset, frame, object, embed) are written as text.
 * Linear in the length of html; never fails.
 */
void html_close(struct buf *html);

#endif
