/* fixscan: which git repository is a kernel tree.
 *
 * The index only makes sense of a Linux clone: a mainline ref and the
 * mainline release tags (v4.4, v4.5-rc1, v2.6.32).  The command line asks
 * here before it indexes anything, so that fixscan's own checkout, or any
 * other repository the current directory happens to be in, is refused
 * with a reason instead of quietly indexed. */
#ifndef FIXSCAN_REPO_H
#define FIXSCAN_REPO_H

#include "fixscan/error.h"

/* The repository containing directory DIR (git's discovery, upwards
 * from DIR), as a new string (g_free()): its work tree without the final
 * slash, or the git directory of a bare one.  FS_ENOTFOUND when DIR is
 * in none. */
int fs_repo_discover(const char *dir, char **out, struct fs_error *err);

/* Whether the repository at PATH (exactly there) is a kernel tree: it has
 * the mainline ref (MAINLINE as git would expand it, "origin/master" or a
 * full name; NULL: the first of origin/master, master, main, as the index
 * takes them) and at least one mainline release tag (refs/tags/vX.Y,
 * vX.Y-rcN, v2.6.X).  Returns 0 when it is; FS_ENOTFOUND with ERR set to
 * "PATH: not a kernel tree: <why>" when it is not; FS_EGIT with ERR set
 * when PATH cannot be opened as a repository. */
int fs_repo_check_kernel(const char *path, const char *mainline, struct fs_error *err);

#endif
