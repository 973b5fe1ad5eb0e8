/*
 * history_cmd.h - labbook history: a results bundle over the commits that
 * recorded it (bundle/history.h), each recording judged against the one
 * before as labbook compare judges two bundles; the steps beyond noise
 * and what changed then; --check for CI, --json for tools. The history
 * that labbook build --history puts on the site is judge/history_site.h's.
 */
#ifndef LB_HISTORY_CMD_H
#define LB_HISTORY_CMD_H

#include "judge/history_site.h"

/*
 * Run "labbook history" with its arguments (argv[0] is "history").
 * Returns 0; 1 when --check finds the latest recording slower beyond
 * noise than the one before it on the same card and driver; 2 for a wrong
 * command line or a bundle whose history cannot be read.
 */
int history_main(int argc, char **argv);

#endif
