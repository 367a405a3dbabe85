/* fixscan: commits, trees and blobs read from pack files directly (see
 * diffcmp-pack.h).
 *
 * The formats are git's: a version-2 .idx is "\377tOc", 2, a 256-entry
 * fan-out, the N sorted ids, N CRCs, N 32-bit offsets (high bit: an index
 * into the 64-bit table after them); a pack object is a type-and-size
 * varint, for an OFS_DELTA its base's distance back and for a REF_DELTA
 * its base's id, then a zlib stream.  A delta is two sizes (base,
 * result), then copy ops (bit 7; offset and size bytes as bits 0-6 say)
 * and insert ops (1-127 literal bytes). */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

#include "diffcmp-pack.h"

#define OBJ_OFS_DELTA 6
#define OBJ_REF_DELTA 7
/* Objects (and deltas) larger than this are left to libgit2. */
#define MAX_OBJECT (512u << 20)
/* Deeper delta chains are left to libgit2 (git makes at most 50 by
 * default, 250 with --aggressive). */
#define MAX_DEPTH 1000
/* The cache of objects made: slots, the largest kept, all kept. */
#define CACHE_SLOTS 1024
#define CACHE_MAX_ONE (4u << 20)
#define CACHE_MAX_ALL (96u << 20)

struct dcp_pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n, n64;
	const unsigned char *oids, *off32, *off64;
};

struct dcp_slot {
	unsigned char *data;
	size_t len;
	uint64_t off;
	uint32_t pack;
	int type;
};

struct fs_dcpack {
	struct dcp_pack *p;
	size_t n;
	void *dec;
	struct dcp_slot cache[CACHE_SLOTS];
	size_t cached;
	size_t last;  /* the pack the last object was found in: tried first */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- the files ---------------------------------------------------------- */

static const unsigned char *map_whole(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *m = MAP_FAILED;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > 0)
		m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	/* a few scattered pages are read: no pages around them mapped in */
	madvise(m, (size_t)st.st_size, MADV_RANDOM);
	*len = (size_t)st.st_size;
	return m;
}

static void unmap(struct dcp_pack *p)
{
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->data_len);
	memset(p, 0, sizeof(*p));
}

/* IDX_PATH (a "*.idx") and its pack into P: 0, or -1 when either is
 * missing or not what its header says. */
static int map_one(struct dcp_pack *p, const char *idx_path)
{
	size_t len = strlen(idx_path), need;
	char *pack_path = malloc(len + 2);

	memset(p, 0, sizeof(*p));
	if (!pack_path)
		return -1;
	memcpy(pack_path, idx_path, len - 4);
	strcpy(pack_path + len - 4, ".pack");
	p->idx = map_whole(idx_path, &p->idx_len);
	p->data = map_whole(pack_path, &p->data_len);
	free(pack_path);
	if (!p->idx || !p->data || p->idx_len < 8 + 1024 + 40 ||
	    memcmp(p->idx, "\377tOc", 4) || be32(p->idx + 4) != 2)
		goto bad;
	p->n = be32(p->idx + 8 + 255 * 4);
	need = 8 + 1024 + (size_t)p->n * 28 + 40;
	if (p->idx_len < need || (p->idx_len - need) % 8 || p->data_len < 12 + 20 ||
	    memcmp(p->data, "PACK", 4) || be32(p->data + 8) != p->n)
		goto bad;
	p->oids = p->idx + 8 + 1024;
	p->off32 = p->oids + (size_t)p->n * 24;
	p->off64 = p->off32 + (size_t)p->n * 4;
	p->n64 = (uint32_t)((p->idx_len - need) / 8);
	return 0;
bad:
	unmap(p);
	return -1;
}

struct fs_dcpack *fs_dcpack_open(const char *objects_dir)
{
	char *dir = malloc(strlen(objects_dir) + 6);
	struct fs_dcpack *d = NULL;
	struct dirent *de;
	DIR *dd = NULL;

	if (dir) {
		sprintf(dir, "%s/pack", objects_dir);
		dd = opendir(dir);
	}
	if (dd)
		d = calloc(1, sizeof(*d));
	while (d && (de = readdir(dd))) {
		size_t l = strlen(de->d_name);
		struct dcp_pack *np;
		char *path;

		if (l < 5 || strcmp(de->d_name + l - 4, ".idx"))
			continue;
		np = realloc(d->p, (d->n + 1) * sizeof(*np));
		path = np ? malloc(strlen(dir) + l + 2) : NULL;
		if (np)
			d->p = np;
		if (!path) {
			fs_dcpack_free(d);
			d = NULL;
			break;
		}
		sprintf(path, "%s/%s", dir, de->d_name);
		if (map_one(&d->p[d->n], path) == 0)
			d->n++;
		free(path);
	}
	if (dd)
		closedir(dd);
	free(dir);
	if (d && !d->n) {
		fs_dcpack_free(d);
		d = NULL;
	}
	return d;
}

#ifdef HAVE_LIBDEFLATE
static void free_dec(void *dec)
{
	libdeflate_free_decompressor(dec);
}
#else
static void free_dec(void *dec)
{
	if (dec)
		inflateEnd(dec);
	free(dec);
}
#endif

void fs_dcpack_free(struct fs_dcpack *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		unmap(&d->p[i]);
	for (i = 0; i < CACHE_SLOTS; i++)
		free(d->cache[i].data);
	free_dec(d->dec);
	free(d->p);
	free(d);
}

/* ---- finding an object -------------------------------------------------- */

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* The ids of P's entries LO to HI (not included) that OID can be
 * between, narrowed by where it would be if the ids were spread evenly
 * (they are hashes): a few pages of the index are touched rather than
 * the dozen a bisection of a large pack's fan-out bucket takes.  Both
 * ends are checked, so an uneven spread only costs a wider range. */
static void narrow(const struct dcp_pack *p, const unsigned char *oid, uint32_t *lo,
		   uint32_t *hi)
{
	uint64_t t = be64(oid), kl, kh;
	uint32_t guess, w, a, b;

	if (*hi - *lo <= 64)
		return;
	kl = be64(p->oids + (size_t)*lo * 20);
	kh = be64(p->oids + (size_t)(*hi - 1) * 20);
	if (t < kl || t > kh || kh == kl)
		return;
	guess = *lo + (uint32_t)((double)(t - kl) / (double)(kh - kl) * (double)(*hi - 1 - *lo));
	for (w = 32; w < *hi - *lo; w *= 4) {
		a = guess - *lo > w ? guess - w : *lo;
		b = *hi - guess > w + 1 ? guess + w + 1 : *hi;
		if ((a == *lo || memcmp(p->oids + (size_t)a * 20, oid, 20) <= 0) &&
		    (b == *hi || memcmp(p->oids + (size_t)(b - 1) * 20, oid, 20) >= 0)) {
			*lo = a;
			*hi = b;
			return;
		}
	}
}

/* The offset of P's entry POS; -1 when the index is damaged. */
static int entry_offset(const struct dcp_pack *p, uint32_t pos, uint64_t *off)
{
	uint32_t o = be32(p->off32 + (size_t)pos * 4);
	const unsigned char *q;

	if (!(o & 0x80000000u)) {
		*off = o;
	} else {
		o &= 0x7fffffffu;
		if (o >= p->n64)
			return -1;
		q = p->off64 + (size_t)o * 8;
		*off = be64(q);
	}
	return *off >= 12 && *off < p->data_len - 20 ? 0 : -1;
}

/* Where OID is: its pack and offset; -1 when in none.  The pack of the
 * last one found is tried first (a clone that fetched has many packs; an
 * upstream commit's objects are mostly in one). */
static int find(struct fs_dcpack *d, const unsigned char *oid, uint32_t *pack, uint64_t *off)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		size_t k = i == 0 ? d->last : i - 1 < d->last ? i - 1 : i;
		const struct dcp_pack *p = &d->p[k];
		const unsigned char *fan = p->idx + 8;
		uint32_t lo = oid[0] ? be32(fan + 4 * (oid[0] - 1)) : 0, hi = be32(fan + 4 * oid[0]);

		if (hi > p->n || lo > hi)
			continue;
		narrow(p, oid, &lo, &hi);
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			int c = memcmp(p->oids + (size_t)mid * 20, oid, 20);

			if (c == 0) {
				*pack = (uint32_t)k;
				d->last = k;
				return entry_offset(p, mid, off);
			}
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	return -1;
}

/* ---- reading one ------------------------------------------------------- */

#ifdef HAVE_LIBDEFLATE
/* Inflate the zlib stream at IN (AVAIL bytes at most) into OUT, which it
 * must fill exactly (SIZE bytes). */
static int inflate_exact(struct fs_dcpack *d, const unsigned char *in, size_t avail,
			 unsigned char *out, size_t size)
{
	size_t used, got;

	if (!d->dec && !(d->dec = libdeflate_alloc_decompressor()))
		return -1;
	if (libdeflate_zlib_decompress_ex(d->dec, in, avail, out, size, &used, &got) !=
	    LIBDEFLATE_SUCCESS || got != size)
		return -1;
	return 0;
}
#else
static int inflate_exact(struct fs_dcpack *d, const unsigned char *in, size_t avail,
			 unsigned char *out, size_t size)
{
	z_stream *z = d->dec;
	unsigned char spare;

	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z || inflateInit(z) != Z_OK) {
			free(z);
			return -1;
		}
		d->dec = z;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)in;
	z->avail_in = (uInt)(avail > (1u << 30) ? 1u << 30 : avail);
	z->next_out = size ? out : &spare;
	z->avail_out = (uInt)size;
	if (inflate(z, Z_FINISH) != Z_STREAM_END || z->total_out != size)
		return -1;
	return 0;
}
#endif

/* A delta's size varint at *P (before END). */
static int delta_size(const unsigned char **p, const unsigned char *end, size_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char c;

	do {
		if (*p >= end || shift > 56)
			return -1;
		c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	if (v > MAX_OBJECT)
		return -1;
	*out = (size_t)v;
	return 0;
}

/* BASE (BLEN bytes) with delta DELTA (DLEN) applied, into *OUT (malloc'd,
 * NUL-terminated) and *OLEN. */
static int apply_delta(const unsigned char *base, size_t blen, const unsigned char *delta,
		       size_t dlen, unsigned char **out, size_t *olen)
{
	const unsigned char *p = delta, *end = delta + dlen;
	size_t want_base, size, at = 0;
	unsigned char *res;

	if (delta_size(&p, end, &want_base) < 0 || want_base != blen ||
	    delta_size(&p, end, &size) < 0 || !(res = malloc(size + 1)))
		return -1;
	while (p < end) {
		unsigned char c = *p++;

		if (c & 0x80) {
			size_t off = 0, n = 0;
			int i;

			for (i = 0; i < 4; i++)
				if (c & (1u << i)) {
					if (p >= end)
						goto bad;
					off |= (size_t)*p++ << (8 * i);
				}
			for (i = 0; i < 3; i++)
				if (c & (0x10u << i)) {
					if (p >= end)
						goto bad;
					n |= (size_t)*p++ << (8 * i);
				}
			if (!n)
				n = 0x10000;
			if (off > blen || n > blen - off || n > size - at)
				goto bad;
			memcpy(res + at, base + off, n);
			at += n;
		} else if (c) {
			if (c > (size_t)(end - p) || c > size - at)
				goto bad;
			memcpy(res + at, p, c);
			p += c;
			at += c;
		} else {
			goto bad;
		}
	}
	if (at != size)
		goto bad;
	res[size] = '\0';
	*out = res;
	*olen = size;
	return 0;
bad:
	free(res);
	return -1;
}

static struct dcp_slot *slot_of(struct fs_dcpack *d, uint32_t pack, uint64_t off)
{
	uint64_t h = (off ^ ((uint64_t)pack << 40)) * 0x9e3779b97f4a7c15ull;

	return &d->cache[h >> 54];  /* 10 bits: CACHE_SLOTS */
}

/* Keep a copy of object DATA (LEN bytes, TYPE) made at PACK:OFF. */
static void cache_put(struct fs_dcpack *d, uint32_t pack, uint64_t off, int type,
		      const unsigned char *data, size_t len)
{
	struct dcp_slot *s = slot_of(d, pack, off);
	unsigned char *copy;

	if (len > CACHE_MAX_ONE)
		return;
	d->cached -= s->data ? s->len : 0;
	free(s->data);
	s->data = NULL;
	if (d->cached + len > CACHE_MAX_ALL || !(copy = malloc(len + 1)))
		return;
	memcpy(copy, data, len + 1);
	*s = (struct dcp_slot){ copy, len, off, pack, type };
	d->cached += len;
}

static int read_at(struct fs_dcpack *d, uint32_t pack, uint64_t off, int depth, int *type,
		   unsigned char **out, size_t *len);

/* The base of the delta whose header ends at H (an OFS_DELTA's distance,
 * or a REF_DELTA's id): its pack and offset; H moved past it. */
static int delta_base(struct fs_dcpack *d, uint32_t pack, uint64_t off, int kind,
		      const unsigned char **h, const unsigned char *end, uint32_t *bpack,
		      uint64_t *boff)
{
	if (kind == OBJ_REF_DELTA) {
		if (end - *h < 20)
			return -1;
		*h += 20;
		return find(d, *h - 20, bpack, boff);
	}
	{
		uint64_t back;
		unsigned char c = *(*h)++;

		back = c & 0x7f;
		while (c & 0x80) {
			if (*h >= end || back > (UINT64_MAX >> 8))
				return -1;
			c = *(*h)++;
			back = ((back + 1) << 7) | (c & 0x7f);
		}
		if (back == 0 || back > off - 12)
			return -1;
		*bpack = pack;
		*boff = off - back;
		return 0;
	}
}

/* The object at PACK:OFF, DEPTH deltas down: its type, a malloc'd copy
 * (NUL-terminated) and its length. */
static int read_at(struct fs_dcpack *d, uint32_t pack, uint64_t off, int depth, int *type,
		   unsigned char **out, size_t *len)
{
	const struct dcp_pack *p = &d->p[pack];
	const unsigned char *h = p->data + off, *end = p->data + p->data_len - 20;
	struct dcp_slot *s = slot_of(d, pack, off);
	unsigned char *body, *base = NULL;
	uint64_t size, boff = 0;
	uint32_t bpack = 0;
	unsigned shift = 4;
	size_t blen;
	int kind, rc;

	if (s->data && s->off == off && s->pack == pack) {
		if (!(*out = malloc(s->len + 1)))
			return -1;
		memcpy(*out, s->data, s->len + 1);
		*len = s->len;
		*type = s->type;
		return 0;
	}
	if (depth > MAX_DEPTH || off >= p->data_len - 20)
		return -1;
	kind = (*h >> 4) & 7;
	size = *h & 15;
	while (*h & 0x80) {
		if (++h >= end || shift > 56)
			return -1;
		size |= (uint64_t)(*h & 0x7f) << shift;
		shift += 7;
	}
	h++;
	if (size > MAX_OBJECT || h >= end || kind == 0 || kind == 5)
		return -1;
	if ((kind == OBJ_OFS_DELTA || kind == OBJ_REF_DELTA) &&
	    delta_base(d, pack, off, kind, &h, end, &bpack, &boff) < 0)
		return -1;
	if (h >= end || !(body = malloc((size_t)size + 1)))
		return -1;
	if (inflate_exact(d, h, (size_t)(end - h), body, (size_t)size) < 0) {
		free(body);
		return -1;
	}
	body[size] = '\0';
	if (kind < OBJ_OFS_DELTA) {
		*type = kind;
		*out = body;
		*len = (size_t)size;
	} else {
		rc = read_at(d, bpack, boff, depth + 1, type, &base, &blen);
		if (rc == 0)
			rc = apply_delta(base, blen, body, (size_t)size, out, len);
		free(base);
		free(body);
		if (rc < 0)
			return -1;
	}
	cache_put(d, pack, off, *type, *out, *len);
	return 0;
}

int fs_dcpack_read(struct fs_dcpack *d, const unsigned char *oid, int type,
		   unsigned char **data, size_t *len)
{
	uint64_t off;
	uint32_t pack;
	int got;

	*data = NULL;
	*len = 0;
	if (!d || find(d, oid, &pack, &off) < 0 || read_at(d, pack, off, 0, &got, data, len) < 0)
		return -1;
	if (got != type) {
		free(*data);
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
		uint64_t from = be64(e + 4), to = be64(e + 16);

		if (be32(e) != id)
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
	g->map = map_whole(path, &g->len);
	if (!g->map || g->len < 8 || memcmp(g->map, "CGPH", 4) || g->map[4] != 1 ||
	    g->map[5] != 1 || g->map[7] != 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x4f494446u, &g->fan, &fan_len) < 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x4f49444cu, &g->oids, &oid_len) < 0 ||
	    graph_chunk(g->map, g->len, g->map[6], 0x43444154u, &g->data, &data_len) < 0 ||
	    fan_len != 1024)
		goto bad;
	g->n = be32(g->fan + 255 * 4);
	if (oid_len != (uint64_t)g->n * 20 || data_len != (uint64_t)g->n * 36)
		goto bad;
	free(path);
	return g;
bad:
	free(path);
	fs_dcgraph_free(g);
	return NULL;
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
	lo = oid[0] ? be32(g->fan + 4 * (oid[0] - 1)) : 0;
	hi = be32(g->fan + 4 * oid[0]);
	if (hi > g->n || lo > hi)
		return -1;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(g->oids + (size_t)mid * 20, oid, 20);

		if (c == 0) {
			const unsigned char *e = g->data + (size_t)mid * 36;

			p1 = be32(e + 20);
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
