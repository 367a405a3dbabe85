/* fixscan: git's pack files read directly (packfile.c), the one reader
 * under the index build (index/pack.c: every commit once, in pack order,
 * several threads) and the diff comparison (diffcmp-pack.c: a few objects
 * by id, most of them deltas).  Private to lib/.
 *
 * libgit2 reads a pack behind process-wide locks (its window list and
 * each pack's cache), with zlib, and parses each object into its own
 * structures.  This maps the packs and their version-2 indexes, finds an
 * object by id, reads an entry's header, inflates (libdeflate, or zlib)
 * and applies deltas (OFS_DELTA, and REF_DELTA whose base is in the
 * packs).  What it cannot read (a loose object, one in an alternate or a
 * promisor remote, a damaged pack) its users leave to libgit2.
 *
 * Ownership: fs_packs_close() unmaps what fs_packs_open() mapped.  The
 * mappings are read-only: any number of threads may read them at once.
 * A struct fs_pack_reader is one thread's; what fs_packs_read() returns
 * is the caller's (g_free()). */
#ifndef FIXSCAN_PACKFILE_H
#define FIXSCAN_PACKFILE_H

#include <stddef.h>
#include <stdint.h>

/* Object types, as a pack entry's header numbers them. */
#define FS_PACK_COMMIT 1
#define FS_PACK_TREE 2
#define FS_PACK_BLOB 3
#define FS_PACK_TAG 4
#define FS_PACK_OFS_DELTA 6
#define FS_PACK_REF_DELTA 7

/* One pack and its index, mapped; read-only to the users.  The index's
 * tables: OIDS the N sorted ids, OFF32 their 32-bit offsets (the high bit
 * set: an entry of OFF64, which has N64). */
struct fs_pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n, n64;
	const unsigned char *oids, *off32, *off64;
	size_t first; /* its first entry in the numbering across all packs */
};

/* The packs of one objects directory: P[0..N), TOTAL entries in all. */
struct fs_packs {
	struct fs_pack *p;
	size_t n;
	size_t total;
};

/* fs_packs_open() and fs_packs_map() flags: the mappings are read at a
 * few scattered places (MADV_RANDOM: no pages around them read ahead). */
#define FS_PACKS_RANDOM 1u

/* Map the packs (with a version-2 .idx) of OBJECTS_DIR/pack into *PS: 0,
 * or -1 with *PS empty when there are none or out of memory. */
int fs_packs_open(struct fs_packs *ps, const char *objects_dir, unsigned flags);
void fs_packs_close(struct fs_packs *ps);
/* Give back the pages of PS's mappings that reading touched: they stay
 * mapped and come back from the page cache when read again. */
void fs_packs_trim(const struct fs_packs *ps);

/* The whole file PATH mapped read-only (*LEN bytes; munmap() it), or NULL
 * when it is missing or empty. */
const unsigned char *fs_packs_map(const char *path, size_t *len, unsigned flags);

static inline uint32_t fs_pack_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t fs_pack_be64(const unsigned char *p)
{
	return (uint64_t)fs_pack_be32(p) << 32 | fs_pack_be32(p + 4);
}

/* The offset of P's entry POS as the index gives it (unchecked against
 * the pack), or 0 when the index is damaged. */
static inline uint64_t fs_pack_offset(const struct fs_pack *p, uint32_t pos)
{
	uint32_t o = fs_pack_be32(p->off32 + (size_t)pos * 4);

	if (!(o & 0x80000000u))
		return o;
	o &= 0x7fffffffu;
	if (o >= p->n64)
		return 0;
	return fs_pack_be64(p->off64 + (size_t)o * 8);
}

/* Where object OID (20 bytes) is: *PACK and *OFF (inside the pack); -1
 * when it is in none.  *LAST, when given, is the pack tried first and
 * becomes the one it was found in (a clone that fetched has many packs;
 * the objects of one commit are mostly in one). */
int fs_packs_find(const struct fs_packs *ps, const unsigned char *oid, size_t *last,
		  uint32_t *pack, uint64_t *off);

/* The header of the entry at P's offset OFF: its TYPE (FS_PACK_*), the
 * SIZE of its body (a delta's, for a delta), and where its zlib stream or
 * a delta's base begins, H, with AVAIL bytes before the pack's checksum. */
struct fs_pack_entry {
	int type;
	uint64_t size;
	const unsigned char *h;
	size_t avail;
};

/* 0, or -1 when OFF is outside the pack or the header runs past it. */
int fs_pack_entry(const struct fs_pack *p, uint64_t off, struct fs_pack_entry *e);

/* Inflate the zlib stream at IN (at most AVAIL bytes, the stream ends
 * before) into OUT, which it must fill exactly (SIZE bytes).  *DEC is the
 * decompressor, made on first use (NULL to start, one thread's); free it
 * with fs_pack_inflater_free().  0, or -1. */
int fs_pack_inflate(void **dec, const unsigned char *in, size_t avail, unsigned char *out,
		    size_t size);
void fs_pack_inflater_free(void *dec);

/* A cache of the objects fs_packs_read() makes, kept by its user.  GET:
 * a GLib copy (g_malloc(), NUL-terminated) of the object made at PACK:OFF, its
 * type and length, and 0; 1 when it is not kept; -1 out of memory.  PUT:
 * the object just made there (it copies what it keeps). */
struct fs_pack_cache {
	int (*get)(void *ctx, uint32_t pack, uint64_t off, int *type, unsigned char **out,
		   size_t *len);
	void (*put)(void *ctx, uint32_t pack, uint64_t off, int type, const unsigned char *data,
		    size_t len);
	void *ctx;
};

/* One thread's reading state; zeroed to start (CACHE may be set, or
 * NULL), fs_pack_reader_free() at the end. */
struct fs_pack_reader {
	void *dec;
	size_t last;
	const struct fs_pack_cache *cache;
};

/* A direct-mapped cache of the objects a reader made, by pack and
 * offset (lib/index/objcache.c): 2^SLOT_BITS slots; an object over
 * MAX_ONE bytes is not kept, nor one that would take all kept over
 * MAX_ALL.  A delta read after its base (pack order) finds the base
 * here.  NULL when out of memory; fs_objcache_free() releases it. */
struct fs_objcache;
struct fs_objcache *fs_objcache_new(unsigned slot_bits, size_t max_one, size_t max_all);
void fs_objcache_free(struct fs_objcache *c);
/* The hooks of C for fs_pack_reader.cache (C must outlive the reader). */
struct fs_pack_cache fs_objcache_hooks(struct fs_objcache *c);

/* The object at PACK:OFF with its deltas applied: its type (1-4), a
 * GLib copy in *OUT (g_free(); one byte more than *LEN, a NUL), and 0; -1 when
 * it cannot be read here (damaged, a base outside the packs, an object or
 * delta over 512 MiB, a chain over 1000 deltas deep). */
int fs_packs_read(const struct fs_packs *ps, struct fs_pack_reader *r, uint32_t pack,
		  uint64_t off, int *type, unsigned char **out, size_t *len);
void fs_pack_reader_free(struct fs_pack_reader *r);

#endif
