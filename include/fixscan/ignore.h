/* fixscan: the ignore file.
 *
 * A reviewer silences a finding they know to be no issue (a fix that does
 * not apply to stable, a report that was about something else) by naming
 * the pair in a file; the finding is still computed and shown as ignored,
 * but it no longer counts.
 */
#ifndef FIXSCAN_IGNORE_H
#define FIXSCAN_IGNORE_H

#include "fixscan/error.h"

struct fs_ignore;

/* The ignore file: lines "<commit> <target> <reason...>", '#' comments.
 * COMMIT is the finding's commit (a fix, revert or report), TARGET the
 * patch's upstream commit; either may be abbreviated, or "*" for any.
 * A missing file is an empty list.  Returns 0, or FS_EIO / FS_EPARSE with
 * ERR naming the file and line.  Free with fs_ignore_free(). */
int fs_ignore_load(struct fs_ignore **out, const char *path, struct fs_error *err);
/* The reason a (commit, target) pair is silenced, or NULL; borrowed. */
const char *fs_ignore_match(const struct fs_ignore *ign, const char *commit,
			    const char *target);
void fs_ignore_free(struct fs_ignore *ign);

#endif
