/* fixscan: reading what review --all-open needs besides the threads.
 *
 * The release tags of the stable branches with their dates (for "is the
 * newer branch still maintained"), read from the kernel repository, and
 * the stable maintainers' FAILED / "added to the stable tree" notices,
 * read from the mail store.  The crossbranch module judges with them.
 */
#ifndef FIXSCAN_NOTICES_H
#define FIXSCAN_NOTICES_H

#include <stddef.h>
#include <stdint.h>

#include "fixscan/crossbranch.h"
#include "fixscan/error.h"
#include "fixscan/store.h"

/* Every release tag of REPO_PATH that names a stable branch release
 * ("v5.15", "v5.15.3"; no -rc), with its date: the tagger's for an
 * annotated tag, the commit's for a light one.  *OUT is a new array of
 * *N, GLib's as its strings are (free with fs_cross_releases_free()).  Returns 0 or FS_EGIT /
 * FS_ENOMEM with ERR set. */
int fs_cross_read_releases(const char *repo_path, struct fs_cross_release **out, size_t *n,
			   struct fs_error *err);
void fs_cross_releases_free(struct fs_cross_release *v, size_t n);

/* The notices of STORE dated at or after SINCE (0: all), parsed
 * (fs_cross_notice_parse()); mails that are no notice or cannot be read
 * are left out.  Free with fs_cross_notices_free().  Returns 0 or
 * FS_ESTORE / FS_ENOMEM with ERR set. */
int fs_cross_load_notices(struct fs_store *store, int64_t since, struct fs_cross_notice **out,
			  size_t *n, struct fs_error *err);
void fs_cross_notices_free(struct fs_cross_notice *v, size_t n);

#endif
