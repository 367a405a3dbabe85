/* fixscan: the commits of the packs, listed and read in pack order (see
 * pack.h); the packs are mapped, their entries' headers read and inflated
 * by the pack reader the diff comparison uses too (packfile.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pack.h"
#include "packfile.h"

/* A commit larger than this is not read here. */
#define MAX_COMMIT (64u << 20)
/* Index entries scanned between two drops of the mapped pages. */
#define SCAN_DROP_EVERY (1u << 14)

/* The packs, mapped for reading from front to back (read ahead). */
struct fsi_packs {
	struct fs_packs s;
};

void fsi_packs_open(struct fsi_packs **out, const char *objects_dir)
{
	struct fsi_packs *ps = calloc(1, sizeof(*ps));

	*out = NULL;
	if (!ps || fs_packs_open(&ps->s, objects_dir, 0) < 0) {
		free(ps);
		return;
	}
	*out = ps;
}

void fsi_packs_free(struct fsi_packs *ps)
{
	if (!ps)
		return;
	fs_packs_close(&ps->s);
	free(ps);
}

size_t fsi_packs_total(const struct fsi_packs *ps)
{
	return ps ? ps->s.total : 0;
}

/* Let the kernel take back the whole pages of P's index between FROM and
 * TO (byte offsets). */
static void drop_idx(const struct fs_pack *p, size_t from, size_t to)
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
	struct fsi_pack_obj *v = malloc((ps->s.total + 1) * sizeof(*v)), *tmp;
	size_t k, i, at = 0, most = 0;

	*out = NULL;
	*n = 0;
	for (k = 0; k < ps->s.n; k++)
		if (ps->s.p[k].n > most)
			most = ps->s.p[k].n;
	tmp = malloc((most + 1) * sizeof(*tmp));
	if (!v || !tmp) {
		free(v);
		free(tmp);
		return -1;
	}
	for (k = 0; k < ps->s.n; k++) {
		const struct fs_pack *p = &ps->s.p[k];
		for (i = 0; i < p->n; i++) {
			v[at + i].off = fs_pack_offset(p, (uint32_t)i);
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
		const struct fs_pack *p = &ps->s.p[all[i].pack];
		uint64_t off = all[i].off;
		if (i && all[i].pack != all[i - 1].pack)
			dropped = off;
		/* what was passed need not stay resident */
		if ((i & (SCAN_DROP_EVERY - 1)) == SCAN_DROP_EVERY - 1) {
			fsi_packs_drop(ps, all[i].pack, dropped, off);
			dropped = off;
		}
		if (off < 12 || off >= p->data_len - 20 || ((p->data[off] >> 4) & 7) != FS_PACK_COMMIT)
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
	uint32_t *at = calloc(ps->s.total + 1, sizeof(*at));
	size_t i, k;

	if (!at || n >= UINT32_MAX) {
		free(at);
		return -1;
	}
	for (i = 0; i < n; i++)
		at[ps->s.p[objs[i].pack].first + objs[i].pos] = (uint32_t)(i + 1);
	for (k = 0; k < ps->s.n; k++) {
		const struct fs_pack *p = &ps->s.p[k];
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

int fsi_pack_read(const struct fsi_packs *ps, struct fsi_pack_reader *r,
		  const struct fsi_pack_obj *o, const char **data, size_t *len)
{
	struct fs_pack_entry e;

	if (fs_pack_entry(&ps->s.p[o->pack], o->off, &e) < 0 || e.type != FS_PACK_COMMIT ||
	    e.size > MAX_COMMIT)
		return 1;
	if (e.size + 1 > r->cap) {
		size_t nc = r->cap ? r->cap : 4096;
		unsigned char *nb;
		while (nc < e.size + 1)
			nc *= 2;
		nb = realloc(r->buf, nc);
		if (!nb)
			return 1;
		r->buf = nb;
		r->cap = nc;
	}
	if (fs_pack_inflate(&r->dec, e.h, e.avail, r->buf, (size_t)e.size) < 0)
		return 1;
	*data = (const char *)r->buf;
	*len = (size_t)e.size;
	return 0;
}

void fsi_pack_reader_free(struct fsi_pack_reader *r)
{
	fs_pack_inflater_free(r->dec);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

void fsi_packs_drop(const struct fsi_packs *ps, uint32_t pack, uint64_t from, uint64_t to)
{
	const struct fs_pack *p;
	uintptr_t a, e;
	long pg = sysconf(_SC_PAGESIZE);

	if (pack >= ps->s.n || pg <= 0)
		return;
	p = &ps->s.p[pack];
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
	if (ps)
		fs_packs_trim(&ps->s);
}
