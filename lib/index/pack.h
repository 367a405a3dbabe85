/* fixscan: the commits of a repository's pack files, read directly.
 * Private to lib/index/.
 *
 * libgit2 serialises every pack read behind process-wide locks (its
 * window list and each pack's cache), so two threads reading commits
 * through it mostly take turns.  A full build reads every commit once:
 * this lists the objects of the packs whose type is commit (undeltified
 * ones: a commit stored as a delta, a loose commit or one in an alternate
 * is left to libgit2) and reads them, each thread its own range in pack
 * order, with nothing shared but the read-only mappings.  Mapping the
 * packs and their version-2 indexes and inflating (libdeflate, or zlib)
 * is lib/index/packfile.c's, the reader the diff comparison uses too. */
#ifndef FIXSCAN_INDEX_PACK_H
#define FIXSCAN_INDEX_PACK_H

#include <stddef.h>
#include <stdint.h>

/* The mapped packs of one objects directory; fsi_packs_free(). */
struct fsi_packs;

/* One commit object in a pack: the pack, its offset, its index entry. */
struct fsi_pack_obj {
	uint64_t off;
	uint32_t pos;
	uint32_t pack;
};

/* A thread's reading state: its decompressor (libdeflate's, or a zlib
 * stream) and output buffer.  Zeroed to start. */
struct fsi_pack_reader {
	void *dec;
	unsigned char *buf;
	size_t cap;
};

/* Map the packs (with a version-2 .idx) of OBJECTS_DIR/pack.  Returns 0
 * with *OUT NULL when there are none or out of memory: callers then read
 * through libgit2 as before. */
void fsi_packs_open(struct fsi_packs **out, const char *objects_dir);
void fsi_packs_free(struct fsi_packs *ps);

/* Index entries over all packs. */
size_t fsi_packs_total(const struct fsi_packs *ps);

/* Every entry of every pack, sorted by pack and offset, into *OUT
 * (malloc'd, *N of them); -1 out of memory. */
int fsi_packs_sorted(const struct fsi_packs *ps, struct fsi_pack_obj **out, size_t *n);

/* The undeltified commits among the NALL sorted entries ALL, in their
 * order, into *OUT (malloc'd, *N of them); -1 out of memory. */
int fsi_packs_scan(const struct fsi_packs *ps, const struct fsi_pack_obj *all, size_t nall,
		   struct fsi_pack_obj **out, size_t *n);

/* The ids of the N entries OBJS (fewer than 2^32), each given to
 * PUT(CTX, I, OID) for OBJS[I], in the order of the indexes rather than
 * of OBJS: the id tables are read once, front to back, and their pages
 * handed back as they are passed (reading them in pack order would touch
 * every page of them, and keep it).  -1 out of memory. */
int fsi_packs_oids(const struct fsi_packs *ps, const struct fsi_pack_obj *objs, size_t n,
		   void (*put)(void *ctx, size_t i, const unsigned char *oid), void *ctx);

/* Inflate commit O: its body into *DATA and *LEN (in R's buffer, valid
 * until the next read).  0, or 1 when it cannot be read here (corrupt, not
 * a commit): libgit2 will read it. */
int fsi_pack_read(const struct fsi_packs *ps, struct fsi_pack_reader *r,
		  const struct fsi_pack_obj *o, const char **data, size_t *len);
void fsi_pack_reader_free(struct fsi_pack_reader *r);

/* Let the kernel take back the mapped pages of pack PACK between offsets
 * FROM and TO (read-only mappings: they come back from the file when read
 * again), or of every pack and index (fsi_packs_drop_all): what a build
 * has read need not stay in its resident set. */
void fsi_packs_drop(const struct fsi_packs *ps, uint32_t pack, uint64_t from, uint64_t to);
void fsi_packs_drop_all(const struct fsi_packs *ps);

#endif
