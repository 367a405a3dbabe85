/* fixscan: the objects of the diff comparison (commits, trees, blobs)
 * read from a repository's pack files directly (diffcmp-pack.c).
 * Private to lib/review/diffcmp.c.
 *
 * Through libgit2 each object of a large pack costs several times what
 * its inflating does (zlib, a lock per window and per cache, a parse into
 * its own structures); a review reads some ten objects per patch, most
 * of them deltas.  This reads them with the pack reader of packfile.h
 * (the packs mapped for scattered reads, libdeflate or zlib, deltas by
 * offset and by id within the packs) and keeps the objects it made in a
 * small cache.  An object it cannot read (a loose one, one in an
 * alternate or a promisor remote, a damaged pack) is left to libgit2.
 *
 * Ownership: fs_dcpack_free() frees the mappings and the cache; what
 * fs_dcpack_read() returns is the caller's (g_free()).  A handle is used by
 * one thread at a time (its cache and decompressor change on reads). */
#ifndef FIXSCAN_DIFFCMP_PACK_H
#define FIXSCAN_DIFFCMP_PACK_H

#include <stddef.h>

#define FS_DCPACK_COMMIT 1
#define FS_DCPACK_TREE 2
#define FS_DCPACK_BLOB 3

struct fs_dcpack;

/* The packs of OBJECTS_DIR/pack, mapped; NULL when there are none (or
 * out of memory): then libgit2 reads everything. */
struct fs_dcpack *fs_dcpack_open(const char *objects_dir);
void fs_dcpack_free(struct fs_dcpack *d);
/* fs_packs_trim() of D's packs. */
void fs_dcpack_trim(struct fs_dcpack *d);

/* Object OID (20 bytes), which must be of TYPE: 0 with *DATA (g_free(),
 * one byte more than *LEN, a NUL) and *LEN; -1 when it is not in these
 * packs, of another type, too large or cannot be read here. */
int fs_dcpack_read(struct fs_dcpack *d, const unsigned char *oid, int type,
		   unsigned char **data, size_t *len);

/* The commit-graph of OBJECTS_DIR (info/commit-graph, one file, no
 * chain): each commit's tree and first parent without reading either
 * commit.  NULL when there is none or it is not one this reads. */
struct fs_dcgraph;

struct fs_dcgraph *fs_dcgraph_open(const char *objects_dir);
void fs_dcgraph_free(struct fs_dcgraph *g);
/* Give back the pages of the commit-graph that lookups touched. */
void fs_dcgraph_trim(struct fs_dcgraph *g);

/* The tree of commit OID into TREE and its first parent's into
 * PARENT_TREE (20 bytes each; zeros when it has no parent): 0, or -1
 * when the graph does not have it (written before it was fetched). */
int fs_dcgraph_trees(const struct fs_dcgraph *g, const unsigned char *oid,
		     unsigned char *tree, unsigned char *parent_tree);

#endif
