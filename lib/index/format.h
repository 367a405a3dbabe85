/* fixscan: the on-disk layout of the fixes index, and the checksum, hashes
 * and hex packing both the reader (load.c, query.c) and the writer
 * (write.c) use (format.c).  The one definition of the file's structures;
 * private to lib/index/.
 *
 * A cache file is a header followed by sections, each 8-byte aligned:
 *
 *   commits   struct fs_disk_commit[], sorted by oid
 *   parents   uint32_t[], commit numbers, grouped per commit
 *   refs      struct fs_disk_ref[], grouped per commit in changelog order
 *   refkeys   uint32_t[], ref positions sorted by (key, keylen)
 *   refsubj   struct fs_disk_hash[], quoted-subject hash -> ref position
 *   subjects  struct fs_disk_hash[], subject hash -> commit number
 *   releases  uint32_t[] string offsets of release names, version order;
 *             entry 0 is "" (no release)
 *   branches  struct fs_disk_branch[]; entry 0 is mainline
 *   tips      struct fs_disk_tip[]: the refs and tags indexed, for updates
 *   strings   NUL-terminated strings; offset 0 is ""
 *   relset    struct fs_disk_relset[] (a delta only, see below)
 *   relmap    uint16_t[] (a delta only)
 *
 * An update writes a delta beside the cache ("<cache>.delta") instead of
 * rewriting it, while the commits since the cache are few: the same layout
 * holding only those commits.  Commit numbers go on from the cache's (a
 * delta's first commit is number base_commits), as do ref positions
 * (base_refs); parents and ref sources are global numbers, and section
 * positions (ref_first, refkeys, refsubj values) are the delta's own.  The
 * delta's release and branch tables and tips are complete and replace the
 * cache's: the branch table keeps the cache's numbers, relmap renumbers the
 * cache's releases, and relset gives the release of cache commits that a
 * tag newer than the cache has claimed.  base_checksum ties a delta to its
 * cache: a delta whose cache was replaced is stale and ignored.
 *
 * All integers are in host byte order: the cache is a local file, rebuilt
 * when the version or the byte-order mark differs.  The checksum covers
 * the whole file: the body, then the header with the body's checksum in
 * place of its own (so a flipped section count or flag is caught too, and
 * the loader need not walk the big tables to distrust them).
 */
#ifndef FIXSCAN_INDEX_FORMAT_H
#define FIXSCAN_INDEX_FORMAT_H

#include <stdint.h>

#include "fixscan/index.h"

#define FS_IDX_MAGIC "FSIDX\0\r\n"
#define FS_IDX_VERSION 7
#define FS_IDX_BOM 0x01020304u

enum fsi_section {
	SEC_COMMITS,
	SEC_PARENTS,
	SEC_REFS,
	SEC_REFKEYS,
	SEC_REFSUBJ,
	SEC_SUBJECTS,
	SEC_RELEASES,
	SEC_BRANCHES,
	SEC_TIPS,
	SEC_STRINGS,
	SEC_RELSET,
	SEC_RELMAP,
	SEC_PENDING, /* bytes: the pending commits, see below */
	SEC_COUNT
};

struct fs_disk_section {
	uint64_t offset; /* from the start of the file */
	uint64_t count;  /* elements (bytes for strings) */
};

struct fs_disk_header {
	char magic[8];
	uint32_t version;
	uint32_t bom;
	uint64_t file_size;
	uint64_t checksum;
	uint32_t repo_path;   /* string offset */
	uint32_t flags;       /* FS_IDX_SHALLOW, FS_IDX_DELTA */
	uint64_t base_checksum; /* a delta: the checksum of its cache */
	uint32_t base_commits;  /* a delta: commits in its cache */
	uint32_t base_refs;     /* a delta: refs in its cache */
	struct fs_disk_section sec[SEC_COUNT];
};

#define FS_IDX_SHALLOW 1u
#define FS_IDX_DELTA 2u

struct fs_disk_relset {
	uint32_t cid;     /* a commit of the cache, ascending */
	uint16_t release; /* in the delta's release table */
	uint16_t pad;
};

struct fs_disk_commit {
	uint8_t oid[20];
	uint32_t subject;      /* string offset */
	uint32_t ref_first;    /* position of its first ref */
	uint32_t parent_first; /* position of its first parent */
	uint16_t release;      /* releases index, 0 = none */
	uint8_t branch;        /* branches index, 0 = mainline */
	uint8_t nrefs;
	uint8_t nparents;
	uint8_t flags;
	uint16_t author;       /* fsi_author_hash() of its author's address */
};

/* The Link table (format 7): a commit applied from a numbered posting
 * has, as its last ref, one of this private kind: key the 16 hex digits
 * of fs_fnv1a_str() (base/hash.h) of its series key (fixscan/posting.h), pad its part.
 * Never returned as a reference (query.c). */
#define FSI_REF_SERIES 7

struct fs_disk_ref {
	uint8_t key[20];  /* hex digits packed two per byte, zero padded */
	uint8_t keylen;   /* hex digits */
	uint8_t kind;     /* enum fs_ref_kind */
	uint16_t pad;     /* FSI_REF_SERIES: the part; else 0 */
	uint32_t source;  /* commit number */
	uint32_t subject; /* string offset, 0 = none */
};

struct fs_disk_hash {
	uint64_t hash;
	uint32_t value;
	uint32_t pad;
};

struct fs_disk_branch {
	uint32_t name;  /* string offset */
	uint16_t fork;  /* releases index of the release it forked from, 0 = unknown */
	uint16_t pad;
};

enum fs_tip_kind { FS_TIP_MAINLINE = 1, FS_TIP_STABLE = 2, FS_TIP_TAG = 3, FS_TIP_PENDING = 4 };

struct fs_disk_tip {
	uint32_t name;      /* full ref name, string offset */
	uint32_t kind;      /* enum fs_tip_kind */
	uint8_t oid[20];    /* the commit it leads to (tags peeled) */
	uint8_t target[20]; /* the id the ref holds: a tag object's, or oid */
};

/* ---- the pending commits (SEC_PENDING) -----------------------------------
 *
 * The commits reachable from the pending refs (fixscan.pending) and not
 * from mainline, kept apart from the commits table: none of them is ever a
 * mainline commit, a branch's commit or a fix that lookups other than
 * fs_index_pending_fixes() see.  The section is a byte blob, complete in
 * every file (a delta's replaces the cache's), each part 8-byte aligned
 * from the section's start:
 *
 *   struct fs_disk_pending_head
 *   struct fs_disk_ptip[ntips]        the pending refs, sorted by name
 *   struct fs_disk_pcommit[ncommits]  sorted by oid
 *   uint32_t parents[nparents]        pcommit numbers (mainline parents
 *                                     are left out)
 *   struct fs_disk_pref[nrefs]        Fixes: and revert ids, grouped per
 *                                     commit in changelog order
 *   uint32_t refkeys[nrefs]           ref positions sorted by (key, keylen)
 *   char strings[strings_len]         offset 0 is ""
 *
 * An empty section (count 0) is no pending ref. */
struct fs_disk_pending_head {
	uint32_t ntips, ncommits, nparents, nrefs, strings_len, pad;
};

struct fs_disk_ptip {
	uint32_t name;      /* full ref name, string offset */
	uint32_t pad;
	uint8_t oid[20];    /* the commit it leads to */
	uint8_t target[20]; /* the id the ref holds */
};

struct fs_disk_pcommit {
	uint8_t oid[20];
	uint32_t subject;      /* string offset */
	uint32_t parent_first;
	uint32_t ref_first;
	uint16_t nparents;
	uint16_t nrefs;
	uint16_t tip;          /* the first pending ref (by name) reaching it */
	uint16_t pad;
};

struct fs_disk_pref {
	uint8_t key[20];  /* hex digits packed two per byte, zero padded */
	uint8_t keylen;
	uint8_t kind;     /* FS_REF_FIXES or FS_REF_REVERTS */
	uint16_t pad;
	uint32_t commit;  /* pcommit number */
};

/* The checksum of a byte range: 64-bit words mixed into four independent
 * lanes (so the multiplications overlap), folded at the end.  Streamed:
 * init with the total length, update with pieces (all but the last a
 * multiple of 8 bytes), final. */
struct fsi_ck {
	uint64_t lane[4];
	uint64_t words;
};
void fsi_ck_init(struct fsi_ck *ck, uint64_t len);
void fsi_ck_update(struct fsi_ck *ck, const void *data, size_t len);
uint64_t fsi_ck_final(const struct fsi_ck *ck);
uint64_t fsi_checksum(const void *data, size_t len);

/* The checksum of a cache file's body: that of its first and second
 * halves (split at a multiple of 32 bytes), folded, so that a loader can
 * sum the two halves at once on two cores.  Streamed like the above. */
struct fsi_body_ck {
	struct fsi_ck half[2];
	uint64_t split, pos;
};
uint64_t fsi_body_split(uint64_t len);
void fsi_body_ck_init(struct fsi_body_ck *ck, uint64_t len);
void fsi_body_ck_update(struct fsi_body_ck *ck, const void *data, size_t len);
uint64_t fsi_body_fold(uint64_t first, uint64_t second);
uint64_t fsi_body_ck_final(const struct fsi_body_ck *ck);
/* The file's checksum from header H and BODY, the fsi_checksum() of
 * everything after the header: that of H with BODY as its checksum. */
uint64_t fsi_file_checksum(const struct fs_disk_header *h, uint64_t body);
/* A 16-bit hash of the address in AUTHOR ("Name <addr>", or the bare
 * address; case-insensitive), never 0; 0 when AUTHOR is NULL or has none.
 * The index keeps it per commit to tell commits of one subject apart by
 * author, not to name anyone. */
uint16_t fsi_author_hash(const char *author, size_t len);
/* Hash of a subject after fs_trailers_normalize_subject(); 0 when empty. */
uint64_t fsi_subject_hash(const char *subject);

/* The first position in [0, N) whose element does not sort before a key,
 * for tables sorted by keys whose leading 64 bits are evenly spread
 * (object ids, hashes).  AT(i, DATA) is element i's leading 64 bits (big
 * endian for ids, so that they sort as the bytes do), BEFORE(i, DATA)
 * whether element i sorts before the key, K the key's leading 64 bits.
 * A few probes where the key should be narrow the range, then it is
 * halved: on the cache's mapped tables each probe far from the last one
 * is a page fault, and a plain binary search makes some twenty of them
 * per lookup.  Any order of keys gives the right answer; an uneven one
 * only costs the probes. */
size_t fsi_interp_lower_bound(size_t n, uint64_t k, uint64_t (*at)(size_t, const void *),
			      int (*before)(size_t, const void *), const void *data);

/* The leading 64 bits of a 20-byte id or packed key, big endian. */
uint64_t fsi_be64(const uint8_t *p);

/* The value of hex digit C, or -1. */
int fsi_hexval(int c);

/* Pack HEX (lower or upper case, LEN digits) into KEY[20]. */
void fsi_pack_hex(uint8_t key[20], const char *hex, size_t len);

/* Unpack the first LEN hex digits of KEY into OUT (LEN + 1 bytes). */
void fsi_unpack_hex(char *out, const uint8_t *key, size_t len);

/* The element size of each section (1 for strings). */
extern const size_t fsi_section_elem[SEC_COUNT];

/* The delta file beside the cache file PATH (a new string, g_free()). */
char *fsi_delta_path(const char *path);

#endif
