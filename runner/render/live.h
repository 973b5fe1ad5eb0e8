/*
 * live.h - how a page of a live build reloads itself: live.js, which every
 * such page loads, and the stamp it checks (live-stamp.js), which labbook
 * watch writes anew after a build that changed the site. A build without
 * --live removes both, so a published site carries neither.
 */
#ifndef LB_LIVE_H
#define LB_LIVE_H

/* The script element a live page carries. */
#define LIVE_SCRIPT_HTML "<script src=\"live.js\" defer></script>\n"

/*
 * Put the reload script into the site folder (live), or remove it and the
 * stamp (not live). 0, or -1 when a file could not be written (reported).
 */
int live_site_assets(const char *site, int live);

/* Write a new stamp into site: open live pages reload. */
void live_stamp_write(const char *site);

#endif
