/*
 * lock.h - one build of a project at a time.
 *
 * A build holds the project lock, an flock on LOCK_PATH in the book's
 * root, from its start to its end, and the lock of its bundle where that
 * lies outside the book, so two builds never write the same bundle,
 * experiment binaries or site at once. A build started meanwhile
 * says whose build it waits for and blocks until that one ends; SIGINT,
 * SIGTERM or SIGHUP end the wait. The kernel drops the lock when its
 * process ends, however it ends, so a lock is never stale. labbook watch
 * holds it only while it builds (each of its builds is a labbook build).
 */
#ifndef LB_LOCK_H
#define LB_LOCK_H

#define LOCK_PATH ".labbook.lock"

/*
 * Take the project lock in the current folder (the book's root), waiting
 * while another build holds it, and write this process's id into the file
 * for the next one to name. Returns the descriptor that holds the lock
 * (closing it, or exiting, releases it), or -1: reported, or interrupted
 * while waiting (exec_stopping() then says by which signal). In a folder
 * that cannot be written and has no lock file, it says so and returns a
 * descriptor that holds nothing. A bundle it will write (or NULL: none)
 * that lies outside the project, where another book may build into it, is
 * locked too, by its own LOCK_PATH, until this process ends.
 */
int lock_take(const char *bundle);

#endif
