/* fixscan: the objects of the diff comparison (commits, trees, blobs)
 * read from a repository's pack files directly (diffcmp-pack.c).
 * Private to lib/diffcmp.c.
 *
 * Through libgit2 each object of a large pack costs several times what
 * its inflating does (zlib, a lock per window and per cache, a parse into
 * its own structures); a review reads some ten objects per patch, most
 * of them deltas.  This reader maps the version-2 pack indexes and packs,
 * inflates with libdeflate (or zlib), applies deltas (OFS_DELTA and
 * REF_DELTA within the packs) and keeps the bases it made in a small
 * cache.  An object it cannot read (a loose one, one in an alternate or
 * a promisor remote, a damaged pack) is left to libgit2.
 *
 * Ownership: fs_dcpack_free() frees the mappings and the cache; what
 * fs_dcpack_read() returns is the caller's (free()). */
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

/* Object OID (20 bytes), which must be of TYPE: 0 with *DATA (malloc'd,
 * one byte more than *LEN, a NUL) and *LEN; -1 when it is not in these
 * packs, of another type, too large or cannot be read here. */
int fs_dcpack_read(struct fs_dcpack *d, const unsigned char *oid, int type,
		   unsigned char **data, size_t *len);

#endif
