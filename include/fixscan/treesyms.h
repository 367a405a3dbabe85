/* fixscan: what a kernel tree has, by name, and where mainline got a
 * name from.
 *
 * The identifier set of a tree (lib/index/treesyms*.c): every identifier
 * token of every C source and header (.c, .h) of the tree, comments and
 * strings included (what "the branch has anywhere"), and for the sets
 * asked with FS_IDSET_DEFS, which files define each name (at file scope,
 * as a member or as an enum constant: fs_csyms_each_definition()).  It
 * is built from the tree's blobs, read through the own pack reader, once
 * per tree, and kept in the cache directory (beside the fixes index) as
 * "idset-<tree id>-<flags>.ids": checksummed, written to a temporary
 * file and renamed into place, rebuilt when it fails its checks.  The set
 * of a new tree starts from a cached set of a tree of the same line of
 * history (a branch's previous tip), or of another, when their tree
 * diff is small: only the blobs that changed are read.  Eight sets are
 * kept; the least recently used go.
 *
 * Names are kept as 64-bit hashes: two names of one hash (about one
 * chance in 10^7 for a tree of kernel size) would make a name look
 * present, which can only cost a finding, never make a false one.
 *
 * The history of a name (lib/index/treesyms-hist.c): the mainline commit that
 * brought a name into the files where mainline defines it, between a
 * branch's fork and an upstream commit, found by bisecting the first-
 * parent chains of that range on whether the files have the name.
 *
 * Ownership: a struct fs_treesyms owns the sets it returns (valid until
 * fs_treesyms_free()) and its repository; one thread at a time.
 */
#ifndef FIXSCAN_TREESYMS_H
#define FIXSCAN_TREESYMS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/index.h"

struct fs_treesyms;
struct fs_idset;

/* fs_treesyms_set() flags: also where each name is defined. */
#define FS_IDSET_DEFS 1u

/* What the last fs_treesyms_set() did. */
struct fs_treesyms_stats {
	size_t blobs_read;   /* blobs it read */
	size_t files;        /* C files of the tree */
	bool cached;         /* it found the set in the cache */
	bool incremental;    /* it started from another tree's set */
};

/* Open the repository at REPO_PATH, its sets kept in the cache
 * directory beside its index (base/cache.h: $XDG_CACHE_HOME/fixscan,
 * created when missing), "idset-<repository>-<hash>-<tree>-<flags>.ids".
 * Returns 0, or FS_ENOTFOUND (no such path, no cache directory), FS_EGIT
 * or FS_ENOMEM with ERR set. */
int fs_treesyms_open(struct fs_treesyms **out, const char *repo_path, struct fs_error *err);
void fs_treesyms_free(struct fs_treesyms *t);
/* Give back the pages of the packs and of the sets' files that reading
 * touched (they come back from the page cache when read again). */
void fs_treesyms_trim(struct fs_treesyms *t);
/* Keep what the run learned for the next (the files of the commits
 * fs_treesyms_changed_paths() read); a file that cannot be written is
 * said once through fs_treesyms_take_note().  fs_treesyms_free() does
 * it too. */
void fs_treesyms_save(struct fs_treesyms *t);

/* The set of the tree of commit HEX (a full id), with FLAGS; LINE names
 * its line of history ("linux-4.4.y", "mainline") so that the set of the
 * line's next tip starts from it.  Returns 0 with *OUT (owned by T),
 * FS_ENOTFOUND when the clone lacks the commit, its tree or a blob of it
 * (a clone made with --filter=blob:none: fs_treesyms_take_note() then
 * says so, once), FS_EPARSE (a damaged tree), FS_ENOMEM.  A cache file
 * that fails its checks is rebuilt; one that cannot be written is built
 * again next time. */
int fs_treesyms_set(struct fs_treesyms *t, const char *hex, const char *line, unsigned flags,
		    const struct fs_idset **out, struct fs_error *err);
const struct fs_treesyms_stats *fs_treesyms_last(const struct fs_treesyms *t);

/* The first time the clone lacked objects, or a set could not be written
 * to its file, a note saying so (borrowed, until fs_treesyms_free()); NULL
 * before that and once it was taken. */
const char *fs_treesyms_take_note(struct fs_treesyms *t);

/* Whether the tree of S has NAME anywhere. */
bool fs_idset_has(const struct fs_idset *s, const char *name);
/* The files of S that define NAME (a set with FS_IDSET_DEFS), in path
 * order: up to MAX in PATHS (borrowed from S), how many in all. */
size_t fs_idset_defined_in(const struct fs_idset *s, const char *name, const char **paths,
			   size_t max);
/* Distinct names and C files of S. */
size_t fs_idset_names(const struct fs_idset *s);
size_t fs_idset_files(const struct fs_idset *s);

/* Whether the tree of commit HEX has a file (or a directory) at PATH: 1,
 * 0, or a negative FS_E* code (FS_ENOTFOUND: no such commit). */
int fs_treesyms_has_path(struct fs_treesyms *t, const char *hex, const char *path,
			 struct fs_error *err);

/* The files commit HEX changes or deletes, of those its first parent
 * has (not the files it adds; none for a root commit), in path order:
 * *PATHS a new NULL-terminated array (g_strfreev()), *N their number.
 * Trees only: a blobless clone answers too.  0, FS_ENOTFOUND, FS_EPARSE,
 * FS_ENOMEM. */
int fs_treesyms_changed_paths(struct fs_treesyms *t, const char *hex, char ***paths, size_t *n,
			      struct fs_error *err);

/* The mainline commit that brought NAME into PATHS (the NPATHS files
 * where mainline defines it): among the ancestors of UPSTREAM's first
 * parent that are not in release FORK (the branch's fork, "v4.4") and
 * are no merges, the one whose files have NAME and whose first parent's
 * do not.  Returns 0 with *OUT, 1 when there is none to name (the files
 * lack NAME before UPSTREAM, or had it at the fork), or a negative FS_E*
 * code (FS_ENOTFOUND: objects the clone lacks). */
int fs_treesyms_introduced(struct fs_treesyms *t, const struct fs_index *idx, const char *name,
			   const char *const *paths, size_t npaths, fs_cid upstream,
			   const char *fork, fs_cid *out, struct fs_error *err);

/* The commit of BRANCH's tree as of release BASE (its tag; NULL: the
 * branch's tip as indexed; BRANCH NULL: mainline's tip) into HEX.  0, or
 * FS_ENOTFOUND. */
int fs_treesyms_branch_commit(const struct fs_index *idx, const char *branch, const char *base,
			      char hex[41]);

#endif
