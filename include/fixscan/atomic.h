/* fixscan: replacing a file whole, and the locks of its writers.
 *
 * Every file fixscan writes and later reads back (the fixes index and
 * its stamps, the CVE cache, the drafts state file, the digest's note)
 * is replaced the one way git's tempfile API does it: the new content
 * goes to a temporary "<path>.tmp.XXXXXX" in the same directory (so the
 * rename stays on one file system), is written whole and fsynced, is
 * renamed over PATH, and the directory is fsynced.  Until the rename
 * PATH keeps its old content; after it, PATH has the whole new one.  On
 * any failure -- ENOSPC, EDQUOT or EIO at write, fsync or close, a
 * directory that refuses the rename -- the temporary is removed and the
 * error names PATH (or the temporary, when it is the one that failed)
 * and the reason: nothing is left half-written and nothing earlier is
 * lost.
 *
 * Maildirs have a protocol of their own (tmp/ then new/ or cur/, see
 * maildir.h) but share the pieces below it: fs_write_all() and
 * fs_fsync_dir().
 */
#ifndef FIXSCAN_ATOMIC_H
#define FIXSCAN_ATOMIC_H

#include <stddef.h>
#include <sys/types.h>

#include "fixscan/error.h"

/* A replacement being written; opaque. */
struct fs_atomic;

enum fs_atomic_flags {
	/* Create PATH's directory (and its parents, mode 0700) when missing. */
	FS_ATOMIC_MKDIR = 1 << 0,
	/* Do not fsync the file before the rename: for a file whose damage
	 * a checksum catches and costs only a rebuild (the index's delta). */
	FS_ATOMIC_NO_FSYNC = 1 << 1,
};

/* Start replacing PATH: create its temporary.  WHAT names PATH in errors
 * ("the drafts state file"; NULL: the path alone).  Returns 0 with *OUT
 * set, or FS_EIO with ERR naming the directory or the temporary and the
 * reason (nothing is left behind). */
int fs_atomic_begin(struct fs_atomic **out, const char *path, const char *what,
		    unsigned flags, struct fs_error *err);

/* Append LEN bytes of DATA to the replacement.  Returns 0, or FS_EIO with
 * ERR set; after a failure the replacement can only be aborted. */
int fs_atomic_write(struct fs_atomic *a, const void *data, size_t len, struct fs_error *err);

/* Write LEN bytes of DATA at offset OFF of the replacement (a header
 * filled in last), not moving the append position.  As fs_atomic_write(). */
int fs_atomic_pwrite(struct fs_atomic *a, const void *data, size_t len, off_t off,
		     struct fs_error *err);

/* Finish: fsync (unless FS_ATOMIC_NO_FSYNC), close, rename over PATH,
 * fsync the directory.  Frees A whatever happens.  Returns 0, or FS_EIO
 * with ERR set: before the rename PATH is untouched and the temporary
 * gone; only a failed fsync of the directory comes after the rename, and
 * then PATH holds the whole new content (which a crash may yet undo). */
int fs_atomic_commit(struct fs_atomic *a, struct fs_error *err);

/* Give up: remove the temporary, leave PATH as it was, free A.  A may be
 * NULL. */
void fs_atomic_abort(struct fs_atomic *a);

/* The temporary's path, for a message.  Borrowed from A. */
const char *fs_atomic_temp_path(const struct fs_atomic *a);

/* Replace PATH with the LEN bytes of DATA: begin, write, commit. */
int fs_atomic_replace(const char *path, const void *data, size_t len, const char *what,
		      unsigned flags, struct fs_error *err);

/* Whether NAME (a file name, no directory) is a temporary of BASE as
 * fs_atomic_begin() names them: BASE ".tmp." and six characters. */
int fs_atomic_is_temp_of(const char *name, const char *base);

/* Write all LEN bytes of DATA to FD, again after EINTR and short writes.
 * Returns 0, or -1 with errno set (a write that takes nothing is ENOSPC). */
int fs_write_all(int fd, const void *data, size_t len);

/* fsync() the directory DIR, so a name just made in it survives a crash.
 * Returns 0, or -1 with errno set. */
int fs_fsync_dir(const char *dir);

enum fs_lock_flags {
	FS_LOCK_CREATE = 1 << 0, /* PATH is a lock file, created when missing
				  * (else PATH is an existing directory) */
};

/* Take the exclusive flock() on PATH, waiting up to WAIT seconds (< 0:
 * as long as it takes).  The lock goes with the process, SIGKILL
 * included: none is ever left stale.  On a file system without locks
 * (ENOLCK, EOPNOTSUPP: some NFS set-ups) the descriptor comes back
 * unlocked.  WHAT names PATH in errors.  Returns the descriptor (release
 * with fs_lock_release()), or FS_ELOCKED (held all along by another
 * process: "another fixscan is writing into WHAT 'PATH' (waited N s)") or
 * FS_EIO with ERR set, errno telling why. */
int fs_lock_take(const char *path, unsigned flags, double wait, const char *what,
		 struct fs_error *err);
void fs_lock_release(int fd);

#endif
