/* fixscan: growable arrays and string pools for the index builder.
 * Header-only (static inline), so the walk, the builder and the writer
 * share them without depending on each other's object files. */
#ifndef FIXSCAN_INDEX_VEC_H
#define FIXSCAN_INDEX_VEC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VEC(type) struct { type *v; size_t n, cap; }

/* Make room for NEED elements of ELEM bytes in *V (capacity *CAP),
 * doubling; 0 or -1 when out of memory (*V is then unchanged). */
static inline int fsi_grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t nc;
	void *g;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 64;
	while (nc < need)
		nc *= 2;
	g = realloc(*v, nc * elem);
	if (!g)
		return -1;
	*v = g;
	*cap = nc;
	return 0;
}
#define VEC_RESERVE(vec, need) fsi_grow((void **)&(vec).v, &(vec).cap, (need), sizeof(*(vec).v))
#define VEC_PUSH(vec, x) (VEC_RESERVE(vec, (vec).n + 1) ? -1 : ((vec).v[(vec).n++] = (x), 0))

/* NUL-terminated strings one after another; offsets into P name them. */
struct fsi_pool {
	char *p;
	size_t n, cap;
};

/* Append S (LEN bytes) plus a NUL; returns its offset or -1. */
static inline long fsi_pool_add(struct fsi_pool *pl, const char *s, size_t len)
{
	long off;

	if (fsi_grow((void **)&pl->p, &pl->cap, pl->n + len + 1, 1))
		return -1;
	off = (long)pl->n;
	memcpy(pl->p + pl->n, s, len);
	pl->p[pl->n + len] = '\0';
	pl->n += len + 1;
	return off;
}

/* Sort the N elements of V (ELEM bytes each, at most 64), which begin
 * with a uint64_t key that CMP orders first (as unsigned), with little
 * scratch memory: one pass in place puts them in 256 buckets by the top
 * byte of the key, then qsort() sorts each bucket.  glibc's qsort() would
 * take a copy of the whole array as its scratch; this takes one bucket's. */
static inline void fsi_sort_key64(void *v, size_t n, size_t elem,
				  int (*cmp)(const void *, const void *))
{
	unsigned char *b = v, cur[64], next_el[64];
	size_t count[256] = { 0 }, start[256], next[256], i, d;
	uint64_t k;

	if (elem > 64 || elem < sizeof(k)) {
		qsort(v, n, elem, cmp);
		return;
	}
	for (i = 0; i < n; i++) {
		memcpy(&k, b + i * elem, sizeof(k));
		count[k >> 56]++;
	}
	for (d = 0, i = 0; d < 256; d++) {
		start[d] = next[d] = i;
		i += count[d];
	}
	for (d = 0; d < 256; d++) {
		size_t end = start[d] + count[d], dd;
		while (next[d] < end) {
			/* follow the cycle from the first unplaced element of
			 * bucket D until an element of D comes back to it */
			memcpy(cur, b + next[d] * elem, elem);
			memcpy(&k, cur, sizeof(k));
			for (dd = k >> 56; dd != d; dd = k >> 56) {
				size_t at = next[dd]++;
				memcpy(next_el, b + at * elem, elem);
				memcpy(b + at * elem, cur, elem);
				memcpy(cur, next_el, elem);
				memcpy(&k, cur, sizeof(k));
			}
			memcpy(b + next[d] * elem, cur, elem);
			next[d]++;
		}
	}
	for (d = 0; d < 256; d++)
		if (count[d] > 1)
			qsort(b + start[d] * elem, count[d], elem, cmp);
}

#endif
