/*
 * watch.h - labbook watch: build, then build again on every save.
 *
 * watch_main runs "labbook build" with the options it was given (in a child
 * process, so each build is the ordinary one, with its cache and its
 * write-if-changed), then blocks on inotify and a signalfd until something
 * the book is made from changes:
 *
 *   - a chapter (*.md in the chapters folder)
 *   - a template (the templates folder)
 *   - the results bundle (a bundle copied in, or edited by hand)
 *   - an experiment's source and every project file its last build
 *     included, as its meta in the bundle lists them (the files its cache
 *     key covers)
 *
 * Events are drained until the folders are quiet for a moment, so an
 * editor's burst (a temporary file, a rename) makes one build. Each build
 * prints one line: what changed, which experiments ran or could not run,
 * which pages were rewritten, and how long it took; its file:line errors
 * come from the build itself, above that line.
 *
 * The builds are made with --live: every page loads live.js, which reloads
 * the page when watch writes a new stamp (live-stamp.js) after a build that
 * changed the site. A build without --live removes both files, so a
 * published site carries neither.
 *
 * SIGINT, SIGTERM or SIGHUP stops the build under way the way it stops any
 * build (the bundle and the site stay consistent) and then watch itself;
 * a build whose watch died gets SIGTERM.
 *
 *   watch.c        the loop: each build, the wait for a change, its line
 *   watch_track.c  what is watched, and which events are changes
 *   watch_live.c   the stamp live.js checks (render/live.c: live.js)
 */
#ifndef LB_WATCH_H
#define LB_WATCH_H

/* Where the book's parts are, relative to its root (the current folder). */
struct watch_opts {
	const char *chapters, *results, *site, *templates;
	int no_run; /* the builds run nothing (--no-run) */
};

/*
 * Run labbook watch, in the book's root, with the build options
 * argv[0..argc) (main.c found the places in o from them). Each build gets
 * those options, --live and the root. Returns the exit status: 2 when the
 * first build rejected the options, else 128 + the signal that stopped it,
 * or 1 when watching could not start (reported).
 */
int watch_main(const struct watch_opts *o, int argc, char **argv);

#endif
