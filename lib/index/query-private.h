/* fixscan: what the lookups of the index share (private to
 * lib/index/query*.c): query.c the commits, their attributes and
 * subjects; query-refs.c the references between commits; query-branch.c
 * releases and branches. */
#ifndef FIXSCAN_INDEX_QUERY_PRIVATE_H
#define FIXSCAN_INDEX_QUERY_PRIVATE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/index.h"
#include "format.h"
#include "load.h"

static inline const struct fsi_layer *fsi_layer_of(const struct fs_index *idx, fs_cid c)
{
	return idx->nlayers > 1 && c >= idx->layer[1].cid_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_commit *fsi_commit_at(const struct fs_index *idx, fs_cid c,
						     const struct fsi_layer **lp)
{
	const struct fsi_layer *L = fsi_layer_of(idx, c);

	if (lp)
		*lp = L;
	return &L->commits[c - L->cid_base];
}

static inline const struct fsi_layer *fsi_ref_layer(const struct fs_index *idx, size_t pos)
{
	return idx->nlayers > 1 && pos >= idx->layer[1].ref_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_ref *fsi_ref_at(const struct fs_index *idx, size_t pos)
{
	const struct fsi_layer *L = fsi_ref_layer(idx, pos);

	return &L->refs[pos - L->ref_base];
}

static inline const char *fsi_lstr(const struct fsi_layer *L, uint32_t off)
{
	return off < L->strings_len ? L->strings + off : "";
}

static inline const uint8_t *fsi_oid_of(const struct fs_index *idx, fs_cid c)
{
	return fsi_commit_at(idx, c, NULL)->oid;
}

/* A growable array of ref positions or commits, for the lookups below. */
struct fsi_u32vec {
	uint32_t *v;
	size_t n, cap;
};

static inline int fsi_u32_push(struct fsi_u32vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		uint32_t *g = realloc(a->v, cap * sizeof(*g));
		if (!g)
			return -1;
		a->v = g;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

/* Compare the first LEN hex digits of KEY with OID. */
static inline int fsi_prefix_cmp(const uint8_t *key, size_t len, const uint8_t *oid)
{
	size_t full = len / 2;
	int c = memcmp(key, oid, full);

	if (c || len % 2 == 0)
		return c;
	return (int)(key[full] >> 4) - (int)(oid[full] >> 4);
}

struct fsi_prefix_key {
	const struct fsi_layer *L;
	const uint8_t *key;
	size_t len;
};

/* ---- query.c ---- */

/* C's release, as a number in the newest layer's release table. */
unsigned fsi_release_of(const struct fs_index *idx, fs_cid c);
/* qsort_r() order of commits (DATA the index) by id. */
int fsi_cid_oid_cmp(const void *a, const void *b, void *data);
/* The reference at global position POS, as fs_index_commit_refs() gives
 * it. */
void fsi_fill_ref(const struct fs_index *idx, size_t pos, struct fs_index_ref *out);
/* The first of the N hashes A (sorted) that is not below H. */
size_t fsi_hash_lower_bound(const struct fs_disk_hash *a, size_t n, uint64_t h);

/* ---- query-refs.c ---- */

/* The positions of every ref of a kind in KINDS that names commit C: by
 * its id or an abbreviation of it (4..40 digits), or by C's subject, and
 * that fs_index_ref_target() resolves to C.  Each once, in source order.
 * Returns 0 or -1 when out of memory. */
int fsi_refs_naming(const struct fs_index *idx, fs_cid c, unsigned kinds,
		    struct fsi_u32vec *out);
/* Every stable backport of C into OUT (by id, each once); 0 or -1. */
int fsi_backports_all(const struct fs_index *idx, fs_cid c, struct fsi_u32vec *out);

#endif
