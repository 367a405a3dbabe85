/* fixscan: small libgit2 helpers shared by the library modules (private). */
#ifndef FIXSCAN_GIT_UTIL_H
#define FIXSCAN_GIT_UTIL_H

#include "fixscan/error.h"

/* git_libgit2_init() once per process, thread-safe. */
void fs_git_init(void);

/* Like fs_error_set(), then append ": <libgit2's last message>" when
 * libgit2 has one. */
int fs_error_set_git(struct fs_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
