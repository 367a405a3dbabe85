/* fixscan: commits, trees and blobs read from pack files directly (see
 * diffcmp-pack.h): the pack reader of packfile.h, with a cache of the
 * objects it made and the commit-graph. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <glib.h>

#include "diffcmp-pack.h"
#include "index/packfile.h"

/* The cache of objects made: slots (2^10), the largest kept, all kept. */
#define CACHE_SLOT_BITS 10
#define CACHE_MAX_ONE (4u << 20)
#define CACHE_MAX_ALL (96u << 20)

struct fs_dcpack {
	struct fs_packs packs;
	struct fs_pack_reader r;
	struct fs_pack_cache cache_of;
	struct fs_objcache *cache;
};

struct fs_dcpack *fs_dcpack_open(const char *objects_dir)
{
	struct fs_dcpack *d = calloc(1, sizeof(*d));

	/* a few scattered pages are read: none around them mapped in */
	if (!d || !(d->cache = fs_objcache_new(CACHE_SLOT_BITS, CACHE_MAX_ONE, CACHE_MAX_ALL)) ||
	    fs_packs_open(&d->packs, objects_dir, FS_PACKS_RANDOM) < 0) {
		if (d)
			fs_objcache_free(d->cache);
		free(d);
		return NULL;
	}
	d->cache_of = fs_objcache_hooks(d->cache);
	d->r.cache = &d->cache_of;
	return d;
}

void fs_dcpack_free(struct fs_dcpack *d)
{
	if (!d)
		return;
	fs_packs_close(&d->packs);
	fs_pack_reader_free(&d->r);
	fs_objcache_free(d->cache);
	free(d);
}

void fs_dcpack_trim(struct fs_dcpack *d)
{
	if (d)
		fs_packs_trim(&d->packs);
}

int fs_dcpack_read(struct fs_dcpack *d, const unsigned char *oid, int type,
		   unsigned char **data, size_t *len)
{
	uint64_t off;
	uint32_t pack;
	int got;

	*data = NULL;
	*len = 0;
	if (!d || fs_packs_find(&d->packs, oid, &d->r.last, &pack, &off) < 0 ||
	    fs_packs_read(&d->packs, &d->r, pack, off, &got, data, len) < 0)
		return -1;
	if (got != type) {
		g_free(*data);
		*data = NULL;
		return -1;
	}
	return 0;
}

/* ---- the commit-graph ---------------------------------------------------- */

/* A commit-graph file (git's objects/info/commit-graph, version 1, SHA-1,
 * no base graphs): "CGPH", 1, 1, the number of chunks, 0; a table of
 * (id, 64-bit offset) for each chunk and one more for the end; chunk OIDF
 * a 256-entry fan-out, OIDL the N sorted ids, CDAT per commit its tree's
 * id, its first and second parent's positions (0x70000000: none) and 8
 * bytes of generation and date. */
#define GRAPH_NO_PARENT 0x70000000u

struct fs_dcgraph {
	const unsigned char *map;
	size_t len;
	const unsigned char *fan, *oids, *data;
	uint32_t n;
};

/* Chunk ID's start and length in G's file; -1 when there is none. */
static int graph_chunk(const unsigned char *map, size_t len, unsigned nchunks, uint32_t id,
		       const unsigned char **at, uint64_t *size)
{
	unsigned i;

	if (len < 8 + ((size_t)nchunks + 1) * 12)
		return -1;
	for (i = 0; i < nchunks; i++) {
		const unsigned char *e = map + 8 + (size_t)i * 12;
		uint64_t from = fs_pack_be64(e + 4), to = fs_pack_be64(e + 16);

		if (fs_pack_be32(e) != id)
			continue;
		if (from > to || to > len)
			return -1;
		*at = map + from;
		*size = to - from;
		return 0;
	}
	return -1;
}

struct fs_dcgraph *fs_dcgraph_open(const char *objects_dir)
{
	char *path = malloc(strlen(objects_dir) + 20);
	struct fs_dcgraph *g = calloc(1, sizeof(*g));
	uint64_t fan_len = 0, oid_len = 0, data_len = 0;

	if (!path || !g)
		goto bad;
	sprintf(path, "%s/info/commit-graph", objects_dir);
	g->map = fs_packs_map(path, &g->len, FS_PACKS_RANDOM);
	if (!g->map || g->len < 8 || memcmp(g->map, "CGPH", 4) || g->map[4] != 1 ||
	    g->map[5] != 1 || g->map[7] != 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x4f494446u, &g->fan, &fan_len) < 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x4f49444cu, &g->oids, &oid_len) < 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x43444154u, &g->data, &data_len) < 0 ||
	    fan_len != 1024)
		goto bad;
	g->n = fs_pack_be32(g->fan + 255 * 4);
	if (oid_len != (uint64_t)g->n * 20 || data_len != (uint64_t)g->n * 36)
		goto bad;
	free(path);
	return g;
bad:
	free(path);
	fs_dcgraph_free(g);
	return NULL;
}

void fs_dcgraph_trim(struct fs_dcgraph *g)
{
	if (g)
		madvise((void *)g->map, g->len, MADV_DONTNEED);
}

void fs_dcgraph_free(struct fs_dcgraph *g)
{
	if (!g)
		return;
	if (g->map)
		munmap((void *)g->map, g->len);
	free(g);
}

int fs_dcgraph_trees(const struct fs_dcgraph *g, const unsigned char *oid,
		     unsigned char *tree, unsigned char *parent_tree)
{
	uint32_t lo, hi, p1;

	if (!g)
		return -1;
	lo = oid[0] ? fs_pack_be32(g->fan + 4 * (oid[0] - 1)) : 0;
	hi = fs_pack_be32(g->fan + 4 * oid[0]);
	if (hi > g->n || lo > hi)
		return -1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(g->oids + (size_t)mid * 20, oid, 20);

		if (c == 0) {
			const unsigned char *e = g->data + (size_t)mid * 36;

			p1 = fs_pack_be32(e + 20);
			if (p1 != GRAPH_NO_PARENT && p1 >= g->n)
				return -1;
			memcpy(tree, e, 20);
			if (p1 == GRAPH_NO_PARENT)
				memset(parent_tree, 0, 20);
			else
				memcpy(parent_tree, g->data + (size_t)p1 * 36, 20);
			return 0;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
