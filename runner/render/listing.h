/*
 * listing.h - a kernel's SASS from the bundle, as HTML: the function's
 * instructions, one per line, those whose mnemonic is in a mark list
 * highlighted, with a count of each marked mnemonic.
 */
#ifndef LB_LISTING_H
#define LB_LISTING_H

#include "base/buf.h"

struct bundle_view;

/*
 * Append the SASS of kernel (its demangled name, e.g. "fma_chains<8>") of
 * experiment exp in v's bundle (view_sass). marks is a comma-separated
 * list of mnemonics or NULL. Returns 0, or -1 with *err set (caller frees).
 */
int listing_sass(struct buf *out, const struct bundle_view *v,
                 const char *exp, const char *kernel, const char *marks,
                 char **err);

#endif
