/*
 * live.h - what a site built live (labbook watch, --live) carries
 * (live.c): every page loads live.js, which reloads the page when the
 * stamp LIVE_STAMP_FILE, that watch writes after a build that changed the
 * site, changes. A site built without --live carries neither file.
 */
#ifndef LB_LIVE_H
#define LB_LIVE_H

/* The stamp live.js checks, in the site folder. */
#define LIVE_STAMP_FILE "live-stamp.js"
/* The script element a live page carries. */
#define LIVE_SCRIPT_HTML "<script src=\"live.js\" defer></script>\n"

/*
 * Put live.js into the site folder (live), or remove it and the stamp
 * (not live). 0, or -1 when a file could not be written (reported).
 */
int live_assets_write(const char *site, int live);

#endif
