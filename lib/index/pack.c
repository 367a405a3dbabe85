/* fixscan: reading commits from pack files directly (see pack.h).
 *
 * A version-2 pack index is: "\377tOc", version 2, a 256-entry fan-out
 * table, the N object ids sorted, N CRCs, N 32-bit offsets (the high bit
 * set: an index into the 64-bit offset table that follows), then two
 * checksums.  A pack is "PACK", version, count, then objects, each a
 * type-and-size varint header and the zlib stream of its body (deltas
 * first name their base).  All integers are big-endian. */
#include <dirent.h>
#include <fcntl.h>
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

#include "pack.h"

#define OBJ_COMMIT 1
/* A commit larger than this is not read here. */
#define MAX_COMMIT (64u << 20)
/* Index entries scanned between two drops of the mapped pages. */
#define SCAN_DROP_EVERY (1u << 14)

struct fsi_pack {
	const unsigned char *idx, *data;
	size_t idx_len, data_len;
	uint32_t n, n64;
	const unsigned char *oids, *off32, *off64;
	size_t first; /* its first entry in the concatenated numbering */
};

struct fsi_packs {
	struct fsi_pack *p;
	size_t n;
	size_t total;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void *map_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *m;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*len = (size_t)st.st_size;
	return m;
}

static void unmap_pack(struct fsi_pack *p)
{
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->data_len);
}

/* Map IDX_PATH and its pack into P; 0, or -1 when either is missing or
 * not what it should be. */
static int map_pack(struct fsi_pack *p, const char *idx_path)
{
	char pack_path[4096];
	size_t len = strlen(idx_path), need;

	memset(p, 0, sizeof(*p));
	if (len < 4 || len >= sizeof(pack_path))
		return -1;
	memcpy(pack_path, idx_path, len - 4);
	strcpy(pack_path + len - 4, ".pack");
	p->idx = map_file(idx_path, &p->idx_len);
	p->data = map_file(pack_path, &p->data_len);
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
	unmap_pack(p);
	memset(p, 0, sizeof(*p));
	return -1;
}

void fsi_packs_open(struct fsi_packs **out, const char *objects_dir)
{
	char dir[4096], path[4096 + 256];
	struct fsi_packs *ps;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	if (snprintf(dir, sizeof(dir), "%s/pack", objects_dir) >= (int)sizeof(dir))
		return;
	d = opendir(dir);
	if (!d)
		return;
	ps = calloc(1, sizeof(*ps));
	while (ps && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct fsi_pack *np;
		if (l < 5 || strcmp(de->d_name + l - 4, ".idx"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		np = realloc(ps->p, (ps->n + 1) * sizeof(*ps->p));
		if (!np) {
			fsi_packs_free(ps);
			ps = NULL;
			break;
		}
		ps->p = np;
		if (map_pack(&ps->p[ps->n], path) < 0)
			continue;
		ps->p[ps->n].first = ps->total;
		ps->total += ps->p[ps->n].n;
		ps->n++;
	}
	closedir(d);
	if (ps && !ps->n) {
		fsi_packs_free(ps);
		ps = NULL;
	}
	*out = ps;
}

void fsi_packs_free(struct fsi_packs *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->n; i++)
		unmap_pack(&ps->p[i]);
	free(ps->p);
	free(ps);
}

size_t fsi_packs_total(const struct fsi_packs *ps)
{
	return ps ? ps->total : 0;
}

/* The offset of entry POS of P, or 0 when the index is damaged. */
static uint64_t entry_offset(const struct fsi_pack *p, uint32_t pos)
{
	uint32_t o = be32(p->off32 + (size_t)pos * 4);
	const unsigned char *q;

	if (!(o & 0x80000000u))
		return o;
	o &= 0x7fffffffu;
	if (o >= p->n64)
		return 0;
	q = p->off64 + (size_t)o * 8;
	return (uint64_t)be32(q) << 32 | be32(q + 4);
}

/* Let the kernel take back the whole pages of P's index between FROM and
 * TO (byte offsets). */
static void drop_idx(const struct fsi_pack *p, size_t from, size_t to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a, e;

	if (pg <= 0)
		return;
	if (to > p->idx_len)
		to = p->idx_len;
	a = ((uintptr_t)(p->idx + from) + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	e = (uintptr_t)(p->idx + to) & ~((uintptr_t)pg - 1);
	if (e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
}

static int obj_cmp(const void *a, const void *b)
{
	const struct fsi_pack_obj *x = a, *y = b;

	if (x->pack != y->pack)
		return x->pack < y->pack ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Sort the N entries of V by offset (one pack's: a radix sort on 16-bit
 * digits, as many passes as the largest offset needs), TMP as scratch. */
static void sort_by_offset(struct fsi_pack_obj *v, struct fsi_pack_obj *tmp, size_t n)
{
	static const size_t RADIX = 1u << 16;
	size_t *count = calloc(RADIX, sizeof(*count)), i, d;
	uint64_t max = 0;
	unsigned shift;

	if (!count) {
		qsort(v, n, sizeof(*v), obj_cmp);
		return;
	}
	for (i = 0; i < n; i++)
		if (v[i].off > max)
			max = v[i].off;
	for (shift = 0; shift < 64 && (max >> shift); shift += 16) {
		size_t sum = 0;
		memset(count, 0, RADIX * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(v[i].off >> shift) & (RADIX - 1)]++;
		for (d = 0; d < RADIX; d++) {
			size_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(v[i].off >> shift) & (RADIX - 1)]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(count);
}

int fsi_packs_sorted(const struct fsi_packs *ps, struct fsi_pack_obj **out, size_t *n)
{
	struct fsi_pack_obj *v = malloc((ps->total + 1) * sizeof(*v)), *tmp;
	size_t k, i, at = 0, most = 0;

	*out = NULL;
	*n = 0;
	for (k = 0; k < ps->n; k++)
		if (ps->p[k].n > most)
			most = ps->p[k].n;
	tmp = malloc((most + 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -1;
	}
	for (k = 0; k < ps->n; k++) {
		const struct fsi_pack *p = &ps->p[k];
		for (i = 0; i < p->n; i++) {
			v[at + i].off = entry_offset(p, (uint32_t)i);
			v[at + i].pos = (uint32_t)i;
			v[at + i].pack = (uint32_t)k;
		}
		drop_idx(p, (size_t)(p->off32 - p->idx), p->idx_len);
		sort_by_offset(v + at, tmp, p->n);
		at += p->n;
	}
	free(tmp);
	*out = v;
	*n = at;
	return 0;
}

int fsi_packs_scan(const struct fsi_packs *ps, const struct fsi_pack_obj *all, size_t nall,
		   struct fsi_pack_obj **out, size_t *n)
{
	struct fsi_pack_obj *v = NULL, *g;
	size_t nv = 0, cap = 0, i;
	uint64_t dropped = nall ? all[0].off : 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < nall; i++) {
		const struct fsi_pack *p = &ps->p[all[i].pack];
		uint64_t off = all[i].off;
		if (i && all[i].pack != all[i - 1].pack)
			dropped = off;
		/* what was passed need not stay resident */
		if ((i & (SCAN_DROP_EVERY - 1)) == SCAN_DROP_EVERY - 1) {
			fsi_packs_drop(ps, all[i].pack, dropped, off);
			dropped = off;
		}
		if (off < 12 || off >= p->data_len - 20 || ((p->data[off] >> 4) & 7) != OBJ_COMMIT)
			continue;
		if (nv == cap) {
			cap = cap ? cap * 2 : 4096;
			g = realloc(v, cap * sizeof(*v));
			if (!g) {
				free(v);
				return -1;
			}
			v = g;
		}
		v[nv++] = all[i];
	}
	*out = v;
	*n = nv;
	return 0;
}

int fsi_packs_oids(const struct fsi_packs *ps, const struct fsi_pack_obj *objs, size_t n,
		   void (*put)(void *ctx, size_t i, const unsigned char *oid), void *ctx)
{
	/* entry (concatenated numbering) -> its place in OBJS + 1, 0 = none */
	uint32_t *at = calloc(ps->total + 1, sizeof(*at));
	size_t i, k;

	if (!at || n >= UINT32_MAX) {
		free(at);
		return -1;
	}
	for (i = 0; i < n; i++)
		at[ps->p[objs[i].pack].first + objs[i].pos] = (uint32_t)(i + 1);
	for (k = 0; k < ps->n; k++) {
		const struct fsi_pack *p = &ps->p[k];
		const uint32_t *a = at + p->first;
		size_t dropped = (size_t)(p->oids - p->idx);
		for (i = 0; i < p->n; i++) {
			if (a[i])
				put(ctx, a[i] - 1, p->oids + i * 20);
			if ((i & (SCAN_DROP_EVERY - 1)) == SCAN_DROP_EVERY - 1) {
				size_t to = (size_t)(p->oids - p->idx) + i * 20;
				drop_idx(p, dropped, to);
				dropped = to;
			}
		}
		drop_idx(p, dropped, (size_t)(p->off32 - p->idx));
	}
	free(at);
	return 0;
}

#ifdef HAVE_LIBDEFLATE
/* Inflate the zlib stream at IN (at most AVAIL bytes, the stream ends
 * before) into r->buf, which must come to SIZE bytes exactly. */
static int inflate_to(struct fsi_pack_reader *r, const unsigned char *in, size_t avail,
		      size_t size)
{
	size_t used, out;

	if (!r->dec && !(r->dec = libdeflate_alloc_decompressor()))
		return -1;
	if (libdeflate_zlib_decompress_ex(r->dec, in, avail, r->buf, size, &used, &out) !=
	    LIBDEFLATE_SUCCESS || out != size)
		return -1;
	return 0;
}

static void free_dec(void *dec)
{
	libdeflate_free_decompressor(dec);
}
#else
static int inflate_to(struct fsi_pack_reader *r, const unsigned char *in, size_t avail,
		      size_t size)
{
	z_stream *z = r->dec;

	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z || inflateInit(z) != Z_OK) {
			free(z);
			return -1;
		}
		r->dec = z;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)in;
	z->avail_in = (uInt)(avail > (1u << 30) ? 1u << 30 : avail);
	z->next_out = r->buf;
	z->avail_out = (uInt)size + 1;
	if (inflate(z, Z_FINISH) != Z_STREAM_END || z->total_out != size)
		return -1;
	return 0;
}

static void free_dec(void *dec)
{
	if (dec)
		inflateEnd(dec);
	free(dec);
}
#endif

int fsi_pack_read(const struct fsi_packs *ps, struct fsi_pack_reader *r,
		  const struct fsi_pack_obj *o, const char **data, size_t *len)
{
	const struct fsi_pack *p = &ps->p[o->pack];
	const unsigned char *h = p->data + o->off, *end = p->data + p->data_len - 20;
	uint64_t size;
	unsigned shift = 4;

	if (((*h >> 4) & 7) != OBJ_COMMIT)
		return 1;
	size = *h & 15;
	while (*h & 0x80) {
		if (++h >= end || shift > 56)
			return 1;
		size |= (uint64_t)(*h & 0x7f) << shift;
		shift += 7;
	}
	h++;
	if (size > MAX_COMMIT || h >= end)
		return 1;
	if (size + 1 > r->cap) {
		size_t nc = r->cap ? r->cap : 4096;
		unsigned char *nb;
		while (nc < size + 1)
			nc *= 2;
		nb = realloc(r->buf, nc);
		if (!nb)
			return 1;
		r->buf = nb;
		r->cap = nc;
	}
	if (inflate_to(r, h, (size_t)(end - h), (size_t)size) < 0)
		return 1;
	*data = (const char *)r->buf;
	*len = (size_t)size;
	return 0;
}

void fsi_pack_reader_free(struct fsi_pack_reader *r)
{
	free_dec(r->dec);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

void fsi_packs_drop(const struct fsi_packs *ps, uint32_t pack, uint64_t from, uint64_t to)
{
	const struct fsi_pack *p;
	uintptr_t a, e;
	long pg = sysconf(_SC_PAGESIZE);

	if (pack >= ps->n || pg <= 0)
		return;
	p = &ps->p[pack];
	if (to > p->data_len)
		to = p->data_len;
	/* whole pages inside [from, to) only */
	a = ((uintptr_t)(p->data + from) + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	e = (uintptr_t)(p->data + to) & ~((uintptr_t)pg - 1);
	if (e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
}

void fsi_packs_drop_all(const struct fsi_packs *ps)
{
	size_t i;

	for (i = 0; ps && i < ps->n; i++) {
		madvise((void *)ps->p[i].data, ps->p[i].data_len, MADV_DONTNEED);
		madvise((void *)ps->p[i].idx, ps->p[i].idx_len, MADV_DONTNEED);
	}
}
