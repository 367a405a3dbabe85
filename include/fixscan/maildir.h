/* fixscan: the one maildir writer, for drafts and the digest.
 *
 * A message goes into a maildir the way maildir(5) asks: written to
 * tmp/ under a unique name, fsynced, then linked (where links are not
 * supported: renamed with RENAME_NOREPLACE) into new/
 * or cur/, and the folder fsynced.  A reader of new/ and cur/ therefore
 * never sees a partial file, and a failed write leaves nothing behind.
 *
 * Reading is limited to the header blocks of the files in new/ and cur/:
 * enough to find the messages fixscan wrote before (by a header of its
 * own) without reading the bodies of the user's other mail.
 */
#ifndef FIXSCAN_MAILDIR_H
#define FIXSCAN_MAILDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"

/* Create DIR (and its parents) with cur/, new/ and tmp/ when missing.
 * WHAT is how the error names DIR ("the drafts folder"; NULL means "the
 * maildir").  Returns 0, or FS_EIO with ERR naming DIR and the reason. */
int fs_maildir_create(const char *dir, const char *what, struct fs_error *err);

enum fs_maildir_box {
	FS_MAILDIR_NEW, /* new/: unseen mail, no flags */
	FS_MAILDIR_CUR, /* cur/, with ":2," and the flags */
};

/* One message to write. */
struct fs_maildir_msg {
	const char *text;          /* the whole message */
	size_t len;                /* bytes of TEXT */
	enum fs_maildir_box box;
	const char *flags;         /* for cur/: "D", "S", ... (NULL: none) */
	const char *label;         /* put in the file name, so the file can be
				    * found by name (NULL: none); no '/' or ':' */
	const char *what;          /* how errors name it: "the draft"
				    * (NULL: "the message") */
};

/* A maildir file name: "<secs>.M<usecs>P<pid>Q<count>R<random>[.LABEL].<host>",
 * unique per host, process and call.  New string (g_free()). */
char *fs_maildir_unique_name(const char *label);

/* Write MSG into the maildir DIR (which must exist; see
 * fs_maildir_create()).  Returns 0 with *PATH set to the new file
 * (g_free()), or FS_EIO with ERR naming the file or folder that failed
 * and *PATH NULL; nothing is left in tmp/ either way. */
int fs_maildir_write(char **path, const char *dir, const struct fs_maildir_msg *msg,
		     struct fs_error *err);

/* A file found by fs_maildir_scan(). */
struct fs_maildir_file {
	char *path;     /* DIR/cur/NAME or DIR/new/NAME */
	char *headers;  /* its header block, CRs dropped, ending in "\n" */
};

/* A list of found files; start with FS_MAILDIR_FILES_INIT, release with
 * fs_maildir_files_clear(). */
struct fs_maildir_files {
	struct fs_maildir_file *v;
	size_t n;
};
#define FS_MAILDIR_FILES_INIT { .v = NULL }
void fs_maildir_files_clear(struct fs_maildir_files *f);

/* Append to OUT every regular file of DIR/cur and DIR/new (in that
 * order; hidden files skipped) that has the header HEADER.  With
 * NAME_PART, only files whose name contains it are opened at all.  A
 * missing or unreadable folder or file is skipped: what cannot be read
 * cannot be ours to replace. */
void fs_maildir_scan(struct fs_maildir_files *out, const char *dir, const char *header,
		     const char *name_part);

/* The value of header NAME (any case) in the header block HEADERS, with
 * continuation lines joined and white space at the ends removed, or NULL.
 * Not cleaned of control characters.  New string (g_free()). */
char *fs_maildir_header(const char *headers, const char *name);

/* How long a writer waits for another one writing into the same folder
 * to finish (fs_maildir_lock()): seconds, long enough for a whole series
 * of drafts indexed on a loaded machine. */
#define FS_MAILDIR_LOCK_WAIT 120.0

/* Take the lock that makes one writer at a time of the folder DIR (which
 * must exist): flock() on the directory, waiting up to WAIT seconds.
 * The lock goes with the process, SIGKILL included: no stale lock is
 * ever left; on a file system that has no locks (ENOLCK, EOPNOTSUPP:
 * some NFS set-ups) the descriptor comes back unlocked, and writers are
 * not kept apart there.  WHAT names DIR in errors (NULL: "the maildir").
 * Returns
 * the descriptor holding it (release with fs_maildir_unlock()), or
 * FS_ELOCKED (another process held it all along) / FS_EIO with ERR set. */
int fs_maildir_lock(const char *dir, double wait, const char *what, struct fs_error *err);
void fs_maildir_unlock(int fd);

/* Remove from DIR/tmp what a killed fs_maildir_write() of this host left
 * there: files named as fs_maildir_unique_name() names them, by a
 * process that is gone, whose Message-Id starts with ID_PREFIX (or that
 * stop before a whole header line).  Call it holding fs_maildir_lock().
 * Returns how many were removed. */
size_t fs_maildir_sweep_tmp(const char *dir, const char *id_prefix);

/* fs_maildir_sweep_tmp() for the files whose Message-Id (without <>)
 * OURS(ID, DATA) says is ours. */
size_t fs_maildir_sweep_tmp_by(const char *dir, bool (*ours)(const char *id, void *data),
			       void *data);

#endif
