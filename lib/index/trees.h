/* fixscan: trees and blobs of a repository, read for the identifier sets
 * (treesyms*.c) and the history of a name (treesyms-hist.c).  Private to
 * lib/index/.
 *
 * Objects are read from the packs directly (packfile.h), with a cache of
 * the objects made (delta bases are read again and again: a tree's blobs
 * read in pack order are mostly deltas of their neighbours), and through
 * libgit2 what is not in a pack (loose objects, alternates).  A clone made
 * with --filter=blob:none has its trees and no blobs: a blob is then
 * FS_ENOTFOUND.
 *
 * Ownership: fsi_objects_close() releases what fsi_objects_open() took;
 * what the readers return is the caller's (GLib's: g_free()).  One thread at a
 * time. */
#ifndef FIXSCAN_INDEX_TREES_H
#define FIXSCAN_INDEX_TREES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fixscan/error.h"
#include "packfile.h"

struct fs_dcgraph;

struct fsi_objects {
	struct fs_packs packs;
	bool have_packs;
	struct fs_pack_reader r;
	struct fs_pack_cache cache_of;
	struct fs_objcache *cache;
	void *repo;  /* git_repository *, opened on first use */
	void *odb;   /* its git_odb * */
	char *path;
	struct fs_dcgraph *graph; /* the commit-graph, or NULL */
	size_t read; /* objects read, for the tests' and the bench's counts */
	bool readahead; /* fsi_objects_readahead() */
};

/* Open the objects of the repository at REPO_PATH (a work tree or a git
 * directory).  Returns 0, or FS_ENOTFOUND / FS_EGIT / FS_ENOMEM. */
int fsi_objects_open(struct fsi_objects *o, const char *repo_path, struct fs_error *err);
void fsi_objects_close(struct fsi_objects *o);

/* Object OID of TYPE (FS_PACK_COMMIT, _TREE, _BLOB): *DATA (malloc'd, a
 * NUL after its *LEN bytes).  0, FS_ENOTFOUND (not in this clone, or of
 * another type), FS_ENOMEM. */
int fsi_object_read(struct fsi_objects *o, const uint8_t *oid, int type, unsigned char **data,
		    size_t *len);

/* Give back the resident pages of the packs read so far (the mappings
 * are read-only: pages read again come from the page cache): a build that
 * reads a whole tree's blobs need not keep the packs in its memory. */
void fsi_objects_drop(struct fsi_objects *o);

/* Whether the packs' data is read ahead around each read (a build reads
 * blobs in pack order) or not (lookups read a few scattered objects: the
 * default).  The .idx files are always read at random. */
void fsi_objects_readahead(struct fsi_objects *o, bool on);

/* Where OID is in the packs, for reading in pack order: *KEY (pack in
 * the high bits, offset in the low), or UINT64_MAX when it is not in a
 * pack. */
uint64_t fsi_object_place(struct fsi_objects *o, const uint8_t *oid);

/* The tree of commit OID and of its first parent (zeros when it has
 * none), and its number of parents.  0, FS_ENOTFOUND, FS_EPARSE,
 * FS_ENOMEM. */
int fsi_commit_trees(struct fsi_objects *o, const uint8_t *oid, uint8_t *tree,
		     uint8_t *parent_tree, unsigned *nparents);

/* One entry of a tree object. */
struct fsi_tree_entry {
	const char *name;
	size_t len;
	unsigned mode;     /* 040000 a tree, 0100644/0100755 a blob, 0120000 a
			    * link, 0160000 a submodule */
	const uint8_t *oid;
};

static inline bool fsi_mode_tree(unsigned mode)
{
	return (mode & 0170000) == 0040000;
}

static inline bool fsi_mode_file(unsigned mode)
{
	return (mode & 0170000) == 0100000;
}

/* The entry at *P (before END) into E, *P moved past it: 1, 0 at the end,
 * -1 when the tree is damaged. */
int fsi_tree_next(const unsigned char **p, const unsigned char *end, struct fsi_tree_entry *e);

/* The entry at PATH ("a/b/c.c") under TREE: its OID and MODE.  0,
 * FS_ENOTFOUND (no such path), FS_EPARSE, FS_ENOMEM. */
int fsi_tree_path(struct fsi_objects *o, const uint8_t *tree, const char *path, uint8_t *oid,
		  unsigned *mode);

/* What differs between two trees, file by file: called with the path
 * and the old and new blob ids (NULL: no such file on that side). */
typedef int (*fsi_diff_fn)(void *ctx, const char *path, const uint8_t *old_oid,
			   const uint8_t *new_oid);

/* Every file (regular, of any name) under TREE, with FN(CTX, path, NULL,
 * oid); a nonzero return stops the walk and is returned.  0, FS_ENOTFOUND
 * (a tree missing), FS_EPARSE, FS_ENOMEM. */
int fsi_tree_walk(struct fsi_objects *o, const uint8_t *tree, fsi_diff_fn fn, void *ctx);

/* The files that differ between trees OLD and NEW (a file only in OLD
 * has NEW_OID NULL and the other way round; a file that became a
 * directory is both).  Subtrees of the same id are not read.  Returns as
 * fsi_tree_walk() does. */
int fsi_tree_diff(struct fsi_objects *o, const uint8_t *old_tree, const uint8_t *new_tree,
		  fsi_diff_fn fn, void *ctx);

/* Hex (40 digits and a NUL) of a 20-byte id, and back: 0, or -1. */
void fsi_hex(const uint8_t *oid, char *hex);
int fsi_unhex(const char *hex, uint8_t *oid);

#endif
