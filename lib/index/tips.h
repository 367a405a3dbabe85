/* fixscan: the refs and tags of the kernel repository that the index
 * reads (its "tips"), chosen by the options the caller resolved.  Private
 * to lib/index/. */
#ifndef FIXSCAN_INDEX_TIPS_H
#define FIXSCAN_INDEX_TIPS_H

#include <git2.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "vec.h"

#define FSI_LINE_MAX 32

struct fsi_tip {
	char *name;       /* full ref name */
	int kind;         /* enum fs_tip_kind */
	git_oid oid;      /* the commit it points at (tags peeled) */
	char *release;    /* tags: "v4.4.7"; NULL for branches */
	char *branch;     /* stable refs and stable tags: "linux-4.4.y" */
	int stable_tag;   /* a vX.Y.Z tag */
	char line[FSI_LINE_MAX]; /* tags: "4.4", "2.6.32" */
};

/* Owns its tips and their strings; free with fsi_tips_clear(). */
struct fsi_tips {
	VEC(struct fsi_tip) t; /* sorted by name */
	char *mainline;        /* the mainline ref's name */
	int shallow;
};

/* Open the repository at PATH, exactly there (no discovery). */
int fsi_repo_open(git_repository **out, const char *path, struct fs_error *err);

/* Collect the mainline ref, the stable refs and the release tags of REPO
 * (at OPTS->repo_path) as OPTS->mainline and OPTS->stable_globs choose,
 * sorted by name.  Returns 0, or FS_ENOTFOUND (no such mainline), FS_EGIT,
 * FS_ENOMEM with ERR set and TS empty. */
int fsi_tips_read(git_repository *repo, const struct fs_index_opts *opts,
		  struct fsi_tips *ts, struct fs_error *err);
void fsi_tips_clear(struct fsi_tips *ts);

/* The tip named NAME (a full ref name), or NULL. */
struct fsi_tip *fsi_tips_find(const struct fsi_tips *ts, const char *name);

/* Whether NAME ("v4.4.7", without refs/tags/) is a release tag; if so its
 * line goes to LINE and *STABLE says whether it is a stable release. */
int fsi_classify_tag(const char *name, char line[FSI_LINE_MAX], int *stable);

#endif
