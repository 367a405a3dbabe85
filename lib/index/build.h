/* fixscan: building and updating the fixes index.  Private to lib/index/.
 *
 * fsi_build() runs in phases over one struct fsi_build, which owns every
 * temporary: the tips are read (tips.c), the new commits walked in
 * parallel (walk.c), releases and branches assigned on the in-memory
 * graph, the tables of the new file made in their final order, and the
 * file written (write.c).  Releases are assigned by tags in version order,
 * each claiming the commits it reaches that no earlier tag claimed, which
 * is exactly "the first release that contains the commit" without one
 * describe per commit. */
#ifndef FIXSCAN_INDEX_BUILD_H
#define FIXSCAN_INDEX_BUILD_H

#include <stdint.h>

#include <git2.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "format.h"
#include "load.h"
#include "tips.h"
#include "vec.h"
#include "walk.h"

struct fsi_build {
	const struct fs_index_opts *opts;
	const struct fsi_refs *reading; /* the refs to build from, or NULL */
	const char *cache_path;
	struct fs_index_stats *stats;
	git_repository *repo;
	struct fsi_tips ts;

	/* The previous index, when it is still a prefix of the repository:
	 * OLD its delta too, BASE its cache file (NONE, all empty, on a
	 * rebuild), NOLD the commits of BASE. */
	const struct fs_index *old;
	const struct fsi_layer *base;
	struct fsi_layer none;
	size_t nold;
	struct fsi_tip_hint old_tips; /* OLD's tips (n 0 on a rebuild) */

	struct fsi_walk *w;
	size_t nnodes;      /* nodes the walk made */
	size_t nnew;        /* of them, read commits (after build_order) */
	int delta;          /* write a delta beside the cache, not a cache */

	/* Per global id (old cids first, then new slots); for old commits
	 * release is only a release a newer tag gave them (see
	 * fsi_old_release), and branch is unused. */
	uint16_t *release;
	uint16_t *release_map; /* old release number -> new */
	VEC(uint32_t) claimed_old;
	uint8_t *branch;
	uint8_t *assigned;
	size_t ntotal;

	/* Release and branch tables of the new index. */
	VEC(const char *) rel_names;   /* [0] = "" */
	VEC(const char *) br_names;    /* [0] = "mainline" */
	VEC(uint16_t) br_fork;

	/* The final order: old commits and new ones merged by id. */
	uint32_t *new_order;    /* new slots in id order */
	uint32_t *final_of_new; /* slot -> final cid, UINT32_MAX if missing */
	uint32_t *final_of_old; /* old cid -> final cid */
	int32_t *final_src;     /* per final cid: old cid, or -(slot+1) */
	size_t nfinal;
	size_t keep_old;        /* old commits copied: 0 for a delta */
	size_t cid_off;         /* the number of the file's first commit */
	size_t kept_refs;

	/* Strings: the old pool, each pool of the walk, then NAMES. */
	size_t *str_base, *ref_base; /* per pool */
	struct fsi_pool names;
	size_t names_base;
	uint32_t *rel_off, *br_off, *tip_off, repo_off;

	/* The tables of the new file. */
	struct fs_disk_ref *refs;
	size_t nrefs;
	uint32_t *refkeys;
	VEC(struct fs_disk_hash) refsubj;
	VEC(struct fs_disk_hash) subjects;
	VEC(struct fs_disk_relset) relset;

	/* SEC_PENDING's bytes (pendidx.c), or NULL and 0 for none. */
	void *pending;
	size_t pending_len;
};

/* The release of old commit G, as a number in the new release table: one
 * a newer tag gave it in this build or the old delta, else its own. */
static inline unsigned fsi_old_release(const struct fsi_build *b, size_t g)
{
	return b->release[g] ? b->release[g] : b->release_map[b->base->commits[g].release];
}

/* Build or update the cache of OPTS->repo_path at CACHE_PATH from REFS
 * (a reading of the refs, or NULL to read them now).  OLD is the loaded
 * previous index or NULL.  STATS gets what was done, *FINGERPRINT the
 * fsi_refs_fingerprint() of the reading.  Returns 0 when it wrote a file,
 * 1 when OLD is up to date (nothing written), or an error code. */
int fsi_build(const struct fs_index_opts *opts, const char *cache_path,
	      const struct fsi_refs *refs, const struct fs_index *old,
	      struct fs_index_stats *stats, uint64_t *fingerprint, struct fs_error *err);

/* Out of memory, said in ERR: the build's one answer to a failed
 * allocation. */
#define FSI_OOM(err) fs_error_set((err), FS_ENOMEM, "out of memory")

/* The phases fsi_build() runs after the walk, each 0 or an error code
 * with ERR set. */

/* ---- build-claim.c ---- */

/* Parents of global id G, as global ids, for the release walks. */
size_t fsi_build_parents_of(struct fsi_build *b, size_t g, const uint32_t **out,
			    uint32_t *scratch);

/* Whether tip T of an update points where it did in the old index.  Its
 * commit is then the cache's, or a commit of the old delta that the walk
 * holds as a node: the walk need not start from it, and a claim from it
 * matters only in the second case (the cache's commits keep their release
 * and branch, see settled_release()).  Looking every unchanged tag up in
 * the cache's table cost more than the rest of a small update. */
int fsi_build_tip_unchanged(const struct fsi_build *b, const struct fsi_tip *t);

/* The release table: the old names plus the tags, in version order. */
int fsi_build_release_table(struct fsi_build *b, struct fs_error *err);

/* The branch table: old branches keep their numbers' names; new ones
 * follow.  Each knows the release it forked from. */
int fsi_build_branch_table(struct fsi_build *b, struct fs_error *err);

/* Old commits keep their release (renumbered); cache commits a tag newer
 * than the cache claimed (the old delta's relset) keep that one. */
int fsi_build_old_releases(struct fsi_build *b, struct fs_error *err);

/* Releases: tags in version order; a commit belongs to the first tag
 * that reaches it. */
int fsi_build_claim_releases(struct fsi_build *b, struct fs_error *err);

/* Branches of new commits: mainline first (its ref and tags), then each
 * stable ref and stable tag. */
int fsi_build_claim_branches(struct fsi_build *b, struct fs_error *err);

/* ---- build-tables.c ---- */

/* The final order: old commits and new ones merged by id.  A delta holds
 * the nodes only, numbered after the cache's commits, which keep their
 * numbers. */
int fsi_build_order(struct fsi_build *b, struct fs_error *err);

/* Strings: the old pool, each pool of the walk, then the names of
 * releases, branches, tips and the repository. */
int fsi_build_strings(struct fsi_build *b, struct fs_error *err);

/* Refs: old refs as they were (sources renumbered), then each pool's
 * refs in pool order.  Refs of commits that turned out missing were never
 * made; every source is a final commit.  The pools' refs are freed
 * then: what follows reads B->refs. */
int fsi_build_refs(struct fsi_build *b, struct fs_error *err);

/* refkeys: the old order kept, new refs sorted and merged in. */
int fsi_build_refkeys(struct fsi_build *b, struct fs_error *err);

/* Hashes of the quoted subjects of Fixes: tags, for tags whose id is
 * wrong. */
int fsi_build_refsubj(struct fsi_build *b, struct fs_error *err);

/* Subject hashes of commits. */
int fsi_build_subjects(struct fsi_build *b, struct fs_error *err);

/* A delta's view of the cache's commits: those a tag newer than the
 * cache has claimed.  (relmap, the cache's releases renumbered, is
 * release_map.) */
int fsi_build_relset(struct fsi_build *b, struct fs_error *err);

/* The pending commits (SEC_PENDING), on the claimed graph: an update
 * takes the old section's commits from it, a rebuild reads them all. */
int fsi_build_pending(struct fsi_build *b, struct fs_error *err);

/* ---- write.c ---- */

/* Write the file B describes: a delta beside the cache when B->delta,
 * else the cache, through a temporary file renamed into place. */
int fsi_write(const struct fsi_build *b, struct fs_error *err);

#endif
