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

/* Give back this process's resident pages of the pack and pack index
 * files libgit2 has mapped.  The mappings stay; a later read faults its
 * pages in again from the page cache.  A walk over every commit would
 * otherwise keep the whole pack resident (most of git log's RSS too),
 * though it reads each part once. */
void fs_git_drop_pack_pages(void);

#endif
