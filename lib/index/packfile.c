/* fixscan: git's pack files read directly (see packfile.h).
 *
 * The formats are git's, all integers big-endian.  A version-2 .idx is
 * "\377tOc", 2, a 256-entry fan-out, the N sorted ids, N CRCs, N 32-bit
 * offsets (high bit: an index into the 64-bit table after them), two
 * checksums.  A pack is "PACK", version, count, then its entries: a
 * type-and-size varint, for an OFS_DELTA its base's distance back and for
 * a REF_DELTA its base's id, then a zlib stream.  A delta is two sizes
 * (base, result), then copy ops (bit 7; offset and size bytes as bits 0-6
 * say) and insert ops (1-127 literal bytes). */
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

#include <glib.h>

#include "packfile.h"

/* Objects (and deltas) larger than this are not read here. */
#define MAX_OBJECT (512u << 20)
/* Deeper delta chains are not read here (git makes at most 50 by
 * default, 250 with --aggressive). */
#define MAX_DEPTH 1000

/* ---- the files ---------------------------------------------------------- */

const unsigned char *fs_packs_map(const char *path, size_t *len, unsigned flags)
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
	if (flags & FS_PACKS_RANDOM)
		madvise(m, (size_t)st.st_size, MADV_RANDOM);
	*len = (size_t)st.st_size;
	return m;
}

static void unmap(struct fs_pack *p)
{
	if (p->idx)
		munmap((void *)p->idx, p->idx_len);
	if (p->data)
		munmap((void *)p->data, p->data_len);
	memset(p, 0, sizeof(*p));
}

/* IDX_PATH (a "*.idx") and its pack into P: 0, or -1 when either is
 * missing or not what its header says. */
static int map_one(struct fs_pack *p, const char *idx_path, unsigned flags)
{
	size_t len = strlen(idx_path), need;
	char *pack_path = malloc(len + 2);

	memset(p, 0, sizeof(*p));
	if (!pack_path)
		return -1;
	memcpy(pack_path, idx_path, len - 4);
	strcpy(pack_path + len - 4, ".pack");
	p->idx = fs_packs_map(idx_path, &p->idx_len, flags);
	p->data = fs_packs_map(pack_path, &p->data_len, flags);
	free(pack_path);
	if (!p->idx || !p->data || p->idx_len < 8 + 1024 + 40 ||
	    memcmp(p->idx, "\377tOc", 4) || fs_pack_be32(p->idx + 4) != 2)
		goto bad;
	p->n = fs_pack_be32(p->idx + 8 + 255 * 4);
	need = 8 + 1024 + (size_t)p->n * 28 + 40;
	if (p->idx_len < need || (p->idx_len - need) % 8 || p->data_len < 12 + 20 ||
	    memcmp(p->data, "PACK", 4) || fs_pack_be32(p->data + 8) != p->n)
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

int fs_packs_open(struct fs_packs *ps, const char *objects_dir, unsigned flags)
{
	char *dir = malloc(strlen(objects_dir) + 6);
	struct dirent *de;
	DIR *dd = NULL;
	int rc = 0;

	memset(ps, 0, sizeof(*ps));
	if (dir) {
		sprintf(dir, "%s/pack", objects_dir);
		dd = opendir(dir);
	}
	while (dd && (de = readdir(dd))) {
		size_t l = strlen(de->d_name);
		struct fs_pack *np;
		char *path;

		if (l < 5 || strcmp(de->d_name + l - 4, ".idx"))
			continue;
		np = realloc(ps->p, (ps->n + 1) * sizeof(*np));
		path = np ? malloc(strlen(dir) + l + 2) : NULL;
		if (np)
			ps->p = np;
		if (!path) {
			rc = -1;
			break;
		}
		sprintf(path, "%s/%s", dir, de->d_name);
		if (map_one(&ps->p[ps->n], path, flags) == 0) {
			ps->p[ps->n].first = ps->total;
			ps->total += ps->p[ps->n].n;
			ps->n++;
		}
		free(path);
	}
	if (dd)
		closedir(dd);
	free(dir);
	if (rc < 0 || !ps->n) {
		fs_packs_close(ps);
		return -1;
	}
	return 0;
}

void fs_packs_close(struct fs_packs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		unmap(&ps->p[i]);
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}

void fs_packs_trim(const struct fs_packs *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		madvise((void *)ps->p[i].data, ps->p[i].data_len, MADV_DONTNEED);
		madvise((void *)ps->p[i].idx, ps->p[i].idx_len, MADV_DONTNEED);
	}
}

/* ---- finding an object -------------------------------------------------- */

/* The ids of P's entries LO to HI (not included) that OID can be
 * between, narrowed by where it would be if the ids were spread evenly
 * (they are hashes): a few pages of the index are touched rather than
 * the dozen a bisection of a large pack's fan-out bucket takes.  Both
 * ends are checked, so an uneven spread only costs a wider range. */
static void narrow(const struct fs_pack *p, const unsigned char *oid, uint32_t *lo,
		   uint32_t *hi)
{
	uint64_t t = fs_pack_be64(oid), kl, kh;
	uint32_t guess, w, a, b;

	if (*hi - *lo <= 64)
		return;
	kl = fs_pack_be64(p->oids + (size_t)*lo * 20);
	kh = fs_pack_be64(p->oids + (size_t)(*hi - 1) * 20);
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

/* OID's entry in P: its position, or -1. */
static int64_t find_in(const struct fs_pack *p, const unsigned char *oid)
{
	const unsigned char *fan = p->idx + 8;
	uint32_t lo = oid[0] ? fs_pack_be32(fan + 4 * (oid[0] - 1)) : 0;
	uint32_t hi = fs_pack_be32(fan + 4 * oid[0]);

	if (hi > p->n || lo > hi)
		return -1;
	narrow(p, oid, &lo, &hi);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = memcmp(p->oids + (size_t)mid * 20, oid, 20);

		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int fs_packs_find(const struct fs_packs *ps, const unsigned char *oid, size_t *last,
		  uint32_t *pack, uint64_t *off)
{
	size_t first = last && *last < ps->n ? *last : 0, i;

	for (i = 0; i < ps->n; i++) {
		/* FIRST, then the others in order */
		size_t k = i == 0 ? first : i - 1 < first ? i - 1 : i;
		const struct fs_pack *p = &ps->p[k];
		int64_t pos = find_in(p, oid);

		if (pos < 0)
			continue;
		*pack = (uint32_t)k;
		if (last)
			*last = k;
		*off = fs_pack_offset(p, (uint32_t)pos);
		return *off >= 12 && *off < p->data_len - 20 ? 0 : -1;
	}
	return -1;
}

/* ---- reading one -------------------------------------------------------- */

int fs_pack_entry(const struct fs_pack *p, uint64_t off, struct fs_pack_entry *e)
{
	const unsigned char *h, *end = p->data + p->data_len - 20;
	unsigned shift = 4;

	if (off < 12 || off >= p->data_len - 20)
		return -1;
	h = p->data + off;
	e->type = (*h >> 4) & 7;
	e->size = *h & 15;
	while (*h & 0x80) {
		if (++h >= end || shift > 56)
			return -1;
		e->size |= (uint64_t)(*h & 0x7f) << shift;
		shift += 7;
	}
	h++;
	if (h >= end)
		return -1;
	e->h = h;
	e->avail = (size_t)(end - h);
	return 0;
}

#ifdef HAVE_LIBDEFLATE
int fs_pack_inflate(void **dec, const unsigned char *in, size_t avail, unsigned char *out,
		    size_t size)
{
	size_t used, got;

	if (!*dec && !(*dec = libdeflate_alloc_decompressor()))
		return -1;
	if (libdeflate_zlib_decompress_ex(*dec, in, avail, out, size, &used, &got) !=
	    LIBDEFLATE_SUCCESS || got != size)
		return -1;
	return 0;
}

void fs_pack_inflater_free(void *dec)
{
	if (dec)
		libdeflate_free_decompressor(dec);
}
#else
int fs_pack_inflate(void **dec, const unsigned char *in, size_t avail, unsigned char *out,
		    size_t size)
{
	z_stream *z = *dec;
	unsigned char spare;

	if (!z) {
		z = calloc(1, sizeof(*z));
		if (!z || inflateInit(z) != Z_OK) {
			free(z);
			return -1;
		}
		*dec = z;
	} else if (inflateReset(z) != Z_OK) {
		return -1;
	}
	z->next_in = (unsigned char *)in;
	z->avail_in = (uInt)(avail > (1u << 30) ? 1u << 30 : avail);
	z->next_out = size ? out : &spare;
	z->avail_out = (uInt)size;
	/* a stream longer than SIZE does not end: Z_BUF_ERROR */
	if (inflate(z, Z_FINISH) != Z_STREAM_END || z->total_out != size)
		return -1;
	return 0;
}

void fs_pack_inflater_free(void *dec)
{
	if (dec)
		inflateEnd(dec);
	free(dec);
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

/* BASE (BLEN bytes) with delta DELTA (DLEN) applied, into *OUT (g_free(),
 * NUL-terminated) and *OLEN. */
static int apply_delta(const unsigned char *base, size_t blen, const unsigned char *delta,
		       size_t dlen, unsigned char **out, size_t *olen)
{
	const unsigned char *p = delta, *end = delta + dlen;
	size_t want_base, size, at = 0;
	unsigned char *res;

	if (delta_size(&p, end, &want_base) < 0 || want_base != blen ||
	    delta_size(&p, end, &size) < 0 || !(res = g_try_malloc(size + 1)))
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
	g_free(res);
	return -1;
}

/* The base of delta E (at PACK:OFF; an OFS_DELTA's distance, or a
 * REF_DELTA's id): its pack and offset; E's stream moved past it. */
static int delta_base(const struct fs_packs *ps, struct fs_pack_reader *r, uint32_t pack,
		      uint64_t off, struct fs_pack_entry *e, uint32_t *bpack, uint64_t *boff)
{
	const unsigned char *h = e->h, *end = e->h + e->avail;
	uint64_t back;
	unsigned char c;

	if (e->type == FS_PACK_REF_DELTA) {
		if (e->avail < 20)
			return -1;
		e->h += 20;
		e->avail -= 20;
		return fs_packs_find(ps, h, &r->last, bpack, boff);
	}
	c = *h++;
	back = c & 0x7f;
	while (c & 0x80) {
		if (h >= end || back > (UINT64_MAX >> 8))
			return -1;
		c = *h++;
		back = ((back + 1) << 7) | (c & 0x7f);
	}
	if (back == 0 || back > off - 12)
		return -1;
	e->avail -= (size_t)(h - e->h);
	e->h = h;
	*bpack = pack;
	*boff = off - back;
	return 0;
}

/* fs_packs_read() DEPTH deltas down. */
static int read_at(const struct fs_packs *ps, struct fs_pack_reader *r, uint32_t pack,
		   uint64_t off, int depth, int *type, unsigned char **out, size_t *len)
{
	struct fs_pack_entry e;
	unsigned char *body, *base = NULL;
	uint64_t boff = 0;
	uint32_t bpack = 0;
	size_t blen;
	int rc;

	if (r->cache) {
		rc = r->cache->get(r->cache->ctx, pack, off, type, out, len);
		if (rc <= 0)
			return rc;
	}
	if (depth > MAX_DEPTH || fs_pack_entry(&ps->p[pack], off, &e) < 0 ||
	    e.size > MAX_OBJECT || e.type == 0 || e.type == 5)
		return -1;
	if ((e.type == FS_PACK_OFS_DELTA || e.type == FS_PACK_REF_DELTA) &&
	    delta_base(ps, r, pack, off, &e, &bpack, &boff) < 0)
		return -1;
	if (!e.avail || !(body = g_try_malloc((size_t)e.size + 1)))
		return -1;
	if (fs_pack_inflate(&r->dec, e.h, e.avail, body, (size_t)e.size) < 0) {
		g_free(body);
		return -1;
	}
	body[e.size] = '\0';
	if (e.type < FS_PACK_OFS_DELTA) {
		*type = e.type;
		*out = body;
		*len = (size_t)e.size;
	} else {
		rc = read_at(ps, r, bpack, boff, depth + 1, type, &base, &blen);
		if (rc == 0)
			rc = apply_delta(base, blen, body, (size_t)e.size, out, len);
		g_free(base);
		g_free(body);
		if (rc < 0)
			return -1;
	}
	if (r->cache)
		r->cache->put(r->cache->ctx, pack, off, *type, *out, *len);
	return 0;
}

int fs_packs_read(const struct fs_packs *ps, struct fs_pack_reader *r, uint32_t pack,
		  uint64_t off, int *type, unsigned char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	if (pack >= ps->n)
		return -1;
	return read_at(ps, r, pack, off, 0, type, out, len);
}

void fs_pack_reader_free(struct fs_pack_reader *r)
{
	fs_pack_inflater_free(r->dec);
	r->dec = NULL;
}
