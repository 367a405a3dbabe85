/* fixscan: error reporting shared by every module.
 *
 * Library functions never print and never exit.  They return 0 on success
 * or a negative FS_E* code, and describe the failure once, where it
 * happens, in a caller-supplied struct fs_error.  The command line prints
 * that message once, as "fixscan: <message>".
 */
#ifndef FIXSCAN_ERROR_H
#define FIXSCAN_ERROR_H

#include <stddef.h>

enum fs_error_code {
	FS_OK = 0,
	FS_EGENERIC = -1,   /* anything without a better code */
	FS_EUSAGE = -2,     /* bad command-line usage */
	FS_EIO = -3,        /* a file could not be read or written */
	FS_EPARSE = -4,     /* input is not in the expected format */
	FS_ENOTFOUND = -5,  /* a commit, ref, message or file does not exist */
	FS_EAMBIGUOUS = -6, /* an abbreviated id names more than one commit */
	FS_EGIT = -7,       /* libgit2 failed */
	FS_ELOCKED = -8,    /* a database or cache is locked by another process */
	FS_ENOMEM = -9,     /* out of memory */
	FS_ECORRUPT = -10,  /* a cache file failed its checks */
	FS_ESTORE = -11,    /* notmuch failed */
};

#define FS_ERROR_MESSAGE_MAX 1024

struct fs_error {
	int code;                           /* an enum fs_error_code */
	char message[FS_ERROR_MESSAGE_MAX]; /* lowercase, no final full stop */
};

#define FS_ERROR_INIT { .code = 0 }

/* Record an error and return CODE, so callers can write
 * "return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path, strerror(errno));".
 * ERR may be NULL, in which case only the code is returned.  A message that
 * does not fit is truncated. */
int fs_error_set(struct fs_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the recorded message with "<fmt>: ", keeping the code: used when
 * a caller adds context such as the file name.  Returns err->code. */
int fs_error_prefix(struct fs_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Forget any recorded error. */
void fs_error_clear(struct fs_error *err);

#endif
