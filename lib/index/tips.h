/* fixscan: the refs and tags of the kernel repository that the index
 * reads (its "tips"), chosen by the options the caller resolved.  Private
 * to lib/index/. */
#ifndef FIXSCAN_INDEX_TIPS_H
#define FIXSCAN_INDEX_TIPS_H

#include <stdint.h>

#include <git2.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "format.h"
#include "vec.h"

#define FSI_LINE_MAX 32

struct fsi_tip {
	char *name;       /* full ref name */
	int kind;         /* enum fs_tip_kind */
	git_oid oid;      /* the commit it points at (tags peeled) */
	git_oid target;   /* the id the ref holds (a tag object's, or oid) */
	char *release;    /* tags: "v4.4.7"; NULL for branches */
	char *branch;     /* stable refs and stable tags: "linux-4.4.y" */
	int stable_tag;   /* a vX.Y.Z tag */
	char line[FSI_LINE_MAX]; /* tags: "4.4", "2.6.32" */
};

/* Owns its tips and their strings; free with fsi_tips_clear(). */
struct fsi_tips {
	VEC(struct fsi_tip) t; /* sorted by name */
	/* The pending refs (opts->pending_globs), kind FS_TIP_PENDING,
	 * sorted by name: apart from T, which the main walk reads. */
	VEC(struct fsi_tip) pending;
	char *mainline;        /* the mainline ref's name */
	int shallow;
	/* the fsi_refs_fingerprint() of the reading they were made from */
	uint64_t fingerprint;
};

/* Open the repository at PATH, exactly there (no discovery). */
int fsi_repo_open(git_repository **out, const char *path, struct fs_error *err);

/* One reading of the refs the index reads: the mainline's candidates,
 * the stable refs, the release tags, each with the id it holds (symbolic
 * refs resolved, tags not peeled).  No object is read: it costs a
 * listing of the refs, not the object database's pack indexes.  Owned by
 * the caller; free with fsi_refs_free(). */
struct fsi_refs;

/* Read the refs of REPO as OPTS chooses them.  Returns 0, or FS_EGIT /
 * FS_ENOMEM with ERR set and *OUT NULL. */
int fsi_refs_read(git_repository *repo, const struct fs_index_opts *opts,
		  struct fsi_refs **out, struct fs_error *err);
void fsi_refs_free(struct fsi_refs *refs);

/* A 64-bit fingerprint of REFS: every name and id, with OPTS's mainline
 * and globs.  Equal fingerprints mean the same tips, because a tag
 * object's target never changes; the order refs are listed in does not
 * count (packing the refs changes nothing).  Never 0. */
uint64_t fsi_refs_fingerprint(const struct fsi_refs *refs);

/* The tips an index was built from (sorted by name, as written), to
 * tell where a ref that still holds the same id leads without reading
 * the object database.  Points into the index's mapping. */
struct fsi_tip_hint {
	const struct fs_disk_tip *v;
	size_t n;
	const char *strings;
};

/* The tip of H named NAME (a full ref name), or NULL. */
const struct fs_disk_tip *fsi_tip_hint_find(const struct fsi_tip_hint *h, const char *name);

/* Collect the mainline ref, the stable refs and the release tags of REPO
 * (at OPTS->repo_path) as OPTS->mainline and OPTS->stable_globs choose,
 * sorted by name, from REFS (a reading made with the same OPTS) or, when
 * NULL, from a reading made now; TS->fingerprint is that reading's.
 * HINT (or NULL) saves peeling the tags that did not move.  Returns 0, or
 * FS_ENOTFOUND (no such mainline), FS_EGIT, FS_ENOMEM with ERR set and TS
 * empty. */
int fsi_tips_read(git_repository *repo, const struct fs_index_opts *opts,
		  const struct fsi_refs *refs, const struct fsi_tip_hint *hint,
		  struct fsi_tips *ts, struct fs_error *err);
void fsi_tips_clear(struct fsi_tips *ts);

/* The refs tried, in order, for the mainline when fixscan.mainline is
 * not set; FSI_NMAINLINE_DEFAULTS of them. */
#define FSI_NMAINLINE_DEFAULTS 3
extern const char *const fsi_mainline_defaults[FSI_NMAINLINE_DEFAULTS];

/* The tip named NAME (a full ref name), or NULL. */
struct fsi_tip *fsi_tips_find(const struct fsi_tips *ts, const char *name);

/* Whether NAME ("v4.4.7", without refs/tags/) is a release tag; if so its
 * line goes to LINE and *STABLE says whether it is a stable release. */
int fsi_classify_tag(const char *name, char line[FSI_LINE_MAX], int *stable);

#endif
