/* fixscan: patch-ids of indexed commits, read from the repository on
 * demand (patchid.c); private to lib/index/. */
#ifndef FIXSCAN_INDEX_PATCHID_H
#define FIXSCAN_INDEX_PATCHID_H

#include <git2.h>

#include "fixscan/index.h"

/* The patch-id of C (git patch-id --stable, through libgit2) into *OUT:
 * 1, or 0 when the repository or the trees are not there (a clone
 * without trees: then nothing can be compared).  Each commit is read
 * once per index. */
int fsi_patchid(const struct fs_index *idx, fs_cid c, git_oid *out);

/* Free what fsi_patchid() kept in IDX (the repository, the answers). */
void fsi_patchid_free(struct fs_index *idx);

#endif
