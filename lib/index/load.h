/* fixscan: a loaded index, the cache file and its delta mapped and
 * verified.  The one definition of struct fs_index; private to lib/index/.
 * The reader (query.c) and the builder (build.c, write.c, on the previous
 * index) read these structures directly, so that only the loader and the
 * opener depend on load.o. */
#ifndef FIXSCAN_INDEX_LOAD_H
#define FIXSCAN_INDEX_LOAD_H

#include <stddef.h>
#include <sys/stat.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "format.h"
#include "pendidx.h"

/* One mapped file: the cache, or the delta on top of it.  Every pointer
 * points into the mapping. */
struct fsi_layer {
	void *map;
	size_t map_len;
	const struct fs_disk_header *hdr;
	const struct fs_disk_commit *commits;
	size_t ncommits;
	const uint32_t *parents;
	const struct fs_disk_ref *refs;
	size_t nrefs;
	const uint32_t *refkeys;
	const struct fs_disk_hash *refsubj;
	size_t nrefsubj;
	const struct fs_disk_hash *subjects;
	size_t nsubjects;
	const uint32_t *releases;
	size_t nreleases;
	const struct fs_disk_branch *branches;
	size_t nbranches;
	const struct fs_disk_tip *tips;
	size_t ntips;
	const char *strings;
	size_t strings_len;
	const struct fs_disk_relset *relset;
	size_t nrelset;
	const uint16_t *relmap;
	size_t nrelmap;
	const void *pending;   /* SEC_PENDING's bytes */
	size_t pending_len;
	size_t cid_base; /* the number of its first commit */
	size_t ref_base; /* the global position of its first ref */
};

struct fs_index {
	char *cache_path;
	struct stat file;  /* the cache file when it was loaded */
	struct stat delta; /* its delta, st_ino 0 when there was none */
	struct fsi_layer layer[2];
	int nlayers;       /* 2 with a delta */
	size_t ncommits;
	size_t nrefs;
	/* The pending commits: the newer layer's SEC_PENDING. */
	struct fsi_pending_view pending;
	/* The repository, for what the cache does not keep (patchid.c):
	 * its path (NULL: none), opened on first use, and the patch-ids read
	 * so far (cid + 1 -> git_oid). */
	char *repo_path;
	void *repo;
	void *patchids;
};

/* Load the cache file PATH and the delta beside it, when that fits.
 * VERIFY 0 skips the checksums: only for files this process has just
 * written and synced, under the lock.  Returns 0, or FS_ECORRUPT / FS_EIO /
 * FS_ENOTFOUND / FS_ENOMEM with ERR explaining why it cannot be used. */
int fsi_load(struct fs_index **out, const char *path, int verify, struct fs_error *err);

/* Whether the cache file at PATH and its delta are still those IDX was
 * loaded from. */
int fsi_same_file(const struct fs_index *idx, const char *path);

/* Stamps: small files beside the cache ("<cache>.verified", "<cache>.refs")
 * whose whole text vouches for something about the files as they are
 * identified in it.  FSI_STAMP_MAX bounds a stamp's text. */
#define FSI_STAMP_MAX 256
#define FSI_VERIFIED_SUFFIX ".verified"

/* The identity of a file in a stamp: device, inode, size, modification
 * and change times.  Any write changes the change time, and a file
 * renamed into place is another inode.  Returns what snprintf() does. */
int fsi_stat_text(const struct stat *st, char *buf, size_t n);

/* Whether "PATH SUFFIX" holds exactly WANT. */
int fsi_stamp_matches(const char *path, const char *suffix, const char *want);

/* Put TEXT in "PATH SUFFIX", atomically (a temporary renamed over it).
 * Best effort: a stamp that is missing only costs the work it saves. */
void fsi_stamp_write(const char *path, const char *suffix, const char *text);

/* The newer of the two layers: the one whose tips, releases and branches
 * are current. */
static inline const struct fsi_layer *fsi_top(const struct fs_index *idx)
{
	return &idx->layer[idx->nlayers - 1];
}

/* The delta layer, or NULL without one. */
static inline const struct fsi_layer *fsi_delta(const struct fs_index *idx)
{
	return idx->nlayers > 1 ? &idx->layer[1] : NULL;
}

/* FS_IDX_SHALLOW when the cache or its delta was made from a shallow
 * clone. */
static inline uint32_t fsi_flags(const struct fs_index *idx)
{
	uint32_t f = idx->layer[0].hdr->flags;

	if (idx->nlayers > 1)
		f |= idx->layer[1].hdr->flags;
	return f & ~FS_IDX_DELTA;
}

#endif
