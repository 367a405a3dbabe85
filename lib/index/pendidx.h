/* fixscan: the pending commits of the index (SEC_PENDING, see format.h):
 * reading them from the pending refs, the section's bytes, and its view
 * in a loaded file.  Private to lib/index/.
 *
 * An update reads from git only the commits that the previous section
 * does not hold: a pending ref that moved forward costs its new commits,
 * and one rebuilt from scratch every day (linux-next) costs the commits
 * that are new in it, the subsystem trees it merges keeping their ids.
 * What the refs no longer reach (a ref removed, rewound, rebased, or
 * merged into mainline) is left out of the new section. */
#ifndef FIXSCAN_INDEX_PENDIDX_H
#define FIXSCAN_INDEX_PENDIDX_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "fixscan/error.h"
#include "format.h"
#include "tips.h"

/* A section's parts, pointing into its bytes; all zero for none. */
struct fsi_pending_view {
	const struct fs_disk_ptip *tips;
	size_t ntips;
	const struct fs_disk_pcommit *commits;
	size_t ncommits;
	const uint32_t *parents;
	size_t nparents;
	const struct fs_disk_pref *refs;
	const uint32_t *refkeys;
	size_t nrefs;
	const char *strings;
	size_t strings_len;
};

/* View the LEN bytes at DATA (8-byte aligned) as a section, checking
 * every bound.  LEN 0 is an empty view.  Returns 0, or -1 when the bytes
 * are not a valid section. */
int fsi_pending_view(struct fsi_pending_view *v, const void *data, size_t len);

/* Whether TS's pending refs are exactly the tips of V. */
int fsi_pending_tips_unchanged(const struct fsi_pending_view *v, const struct fsi_tips *ts);

/* Whether commit OID is mainline (reached from the mainline ref). */
typedef int (*fsi_is_mainline_fn)(void *data, const git_oid *oid);

/* Read the commits TS->pending reach and IS_MAINLINE says are not
 * mainline, those of OLD (may be NULL) taken from it rather than from
 * REPO, and make the section's bytes: *OUT (malloc'ed, caller frees; NULL
 * with *LEN 0 when there is no pending ref).  *NCOMMITS gets the commits
 * in it, *NREAD those read from git.  Returns 0 or FS_ENOMEM with ERR
 * set; a commit git cannot give (a shallow clone) is left out. */
int fsi_pending_build(git_repository *repo, const struct fsi_tips *ts,
		      const struct fsi_pending_view *old, fsi_is_mainline_fn is_mainline,
		      void *data, void **out, size_t *len, size_t *ncommits, size_t *nread,
		      struct fs_error *err);

#endif
