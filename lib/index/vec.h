/* fixscan: growable arrays and string pools for the index builder.
 * Header-only (static inline), so the walk, the builder and the writer
 * share them without depending on each other's object files. */
#ifndef FIXSCAN_INDEX_VEC_H
#define FIXSCAN_INDEX_VEC_H

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

#endif
