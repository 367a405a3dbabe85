/* fixscan: mapping and verifying the cache file and its delta (see
 * format.h for the layout). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/index.h"
#include "patchid.h"
#include "format.h"
#include "load.h"

static int section_ok(const struct fs_disk_header *h, enum fsi_section s,
		      size_t elem, size_t file_size)
{
	uint64_t off = h->sec[s].offset, n = h->sec[s].count;

	if (off % 8 || off < sizeof(*h) || off > file_size)
		return 0;
	if (elem && n > (file_size - off) / elem)
		return 0;
	return 1;
}

/* What every element of a layer's large tables must respect, known from
 * its header before the tables are read.  The checksum is no proof: it is
 * not cryptographic, so a crafted file can carry a valid one.  The tables
 * are checked in the pass that sums them (through a buffer, see below),
 * which costs no extra read. */
struct scan {
	const char *map;	/* the mapping, for elements across a piece's edge */
	const struct fs_disk_header *h;
	uint64_t cids;		/* commit numbers (global) are below this */
	uint64_t nrefs, nparents, nreleases, nbranches, strings_len;
};

static void scan_init(struct scan *v, const struct fsi_layer *L)
{
	const struct fs_disk_header *h = L->hdr;

	v->map = L->map;
	v->h = h;
	v->cids = h->sec[SEC_COMMITS].count +
		  ((h->flags & FS_IDX_DELTA) ? (uint64_t)h->base_commits : 0);
	v->nrefs = h->sec[SEC_REFS].count;
	v->nparents = h->sec[SEC_PARENTS].count;
	v->nreleases = h->sec[SEC_RELEASES].count;
	v->nbranches = h->sec[SEC_BRANCHES].count;
	v->strings_len = h->sec[SEC_STRINGS].count;
}

/* Is commit id A before B?  The first eight bytes decide nearly always. */
static inline int oid_before(const uint8_t *a, const uint8_t *b)
{
	uint64_t x, y;

	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	if (x != y)
		return __builtin_bswap64(x) < __builtin_bswap64(y);
	return memcmp(a + 8, b + 8, 12) < 0;
}

static int commits_ok(const struct scan *v, const struct fs_disk_commit *c, size_t n,
		      const struct fs_disk_commit *prev)
{
	size_t i;

	for (i = 0; i < n; prev = &c[i], i++)
		if (c[i].subject >= v->strings_len ||
		    (uint64_t)c[i].ref_first + c[i].nrefs > v->nrefs ||
		    (uint64_t)c[i].parent_first + c[i].nparents > v->nparents ||
		    c[i].release >= v->nreleases || c[i].branch >= v->nbranches ||
		    (prev && !oid_before(prev->oid, c[i].oid)))
			return 0;
	return 1;
}

static int refs_ok(const struct scan *v, const struct fs_disk_ref *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (r[i].keylen > 40 || r[i].kind < FS_REF_UPSTREAM ||
		    (r[i].kind > FS_REF_PREREQUISITE && r[i].kind != FSI_REF_SERIES) ||
		    r[i].source >= v->cids ||
		    r[i].subject >= v->strings_len)
			return 0;
	return 1;
}

static int u32s_ok(const uint32_t *x, size_t n, uint64_t bound)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] >= bound)
			return 0;
	return 1;
}

static int hashes_ok(const struct fs_disk_hash *x, size_t n, const struct fs_disk_hash *prev,
		     uint64_t bound)
{
	size_t i;

	for (i = 0; i < n; prev = &x[i], i++)
		if (x[i].value >= bound || (prev && prev->hash > x[i].hash))
			return 0;
	return 1;
}

/* Do the N elements of section S at E respect V?  PREV is the element
 * before them, or NULL before the first, for the tables that must be
 * sorted (a binary search in an unsorted one gives wrong answers
 * silently).  refkeys' order is not checked: that needs the refs it
 * points at, all of the file; a crafted order can only hide refs. */
static int run_ok(const struct scan *v, enum fsi_section s, const void *e, size_t n,
		  const void *prev)
{
	switch (s) {
	case SEC_COMMITS: return commits_ok(v, e, n, prev);
	case SEC_PARENTS: return u32s_ok(e, n, v->cids);
	case SEC_REFS: return refs_ok(v, e, n);
	case SEC_REFKEYS: return u32s_ok(e, n, v->nrefs);
	case SEC_REFSUBJ: return hashes_ok(e, n, prev, v->nrefs);
	case SEC_SUBJECTS: return hashes_ok(e, n, prev, v->cids);
	default: return 1; /* the small tables: layer_consistent() walks them */
	}
}

/* Check the elements of the large tables that start in BUF, LEN bytes of
 * the file from OFF: the pieces of the checksum pass cover the body once,
 * so each element is checked once.  Those whole in BUF are checked there;
 * the one across its end, and the one before the first (for the order),
 * in the mapping: a page or two per piece.  Returns 1 if all are good. */
static int scan_piece(const struct scan *v, const unsigned char *buf, uint64_t off, size_t len)
{
	int s;

	for (s = SEC_COMMITS; s <= SEC_SUBJECTS; s++) {
		uint64_t size = fsi_section_elem[s], start = v->h->sec[s].offset;
		uint64_t n = v->h->sec[s].count, i, j;
		const void *prev;

		if (!n || start + n * size <= off || start >= off + len)
			continue;
		i = off > start ? (off - start + size - 1) / size : 0;
		/* [i, j) lie whole in BUF */
		j = (off + len - start) / size;
		if (j > n)
			j = n;
		prev = i ? v->map + start + (i - 1) * size : NULL;
		if (j > i && !run_ok(v, s, buf + (start + i * size - off), j - i, prev))
			return 0;
		if (j < n && start + j * size < off + len &&
		    !run_ok(v, s, v->map + start + j * size, 1,
			    j ? v->map + start + (j - 1) * size : NULL))
			return 0;
	}
	return 1;
}

/* fsi_checksum() of LEN bytes of FD from OFFSET, read in pieces
 * through a buffer rather than the mapping, so that a lookup's resident
 * memory stays the few pages it touches rather than the whole file.
 * Each piece is checked against V as it goes by; *BAD is set if one
 * fails.  Returns 0 on a read error, which no valid file has as its
 * checksum in practice. */
static uint64_t checksum_fd(int fd, size_t offset, size_t len, const struct scan *v, int *bad)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *buf = malloc(CHUNK);
	struct fsi_ck ck;
	size_t done = 0;

	if (!buf)
		return 0;
	fsi_ck_init(&ck, len);
	while (done < len) {
		size_t want = len - done < CHUNK ? len - done : CHUNK, got = 0;
		/* whole pieces: all but the last must be whole words */
		while (got < want) {
			ssize_t r = pread(fd, buf + got, want - got, (off_t)(offset + done + got));
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				free(buf);
				return 0;
			}
			got += (size_t)r;
		}
		fsi_ck_update(&ck, buf, got);
		if (!*bad && !scan_piece(v, buf, offset + done, got))
			*bad = 1;
		done += got;
	}
	free(buf);
	return fsi_ck_final(&ck);
}

struct half_job {
	int fd;
	size_t offset, len;
	const struct scan *v;
	int bad;
	uint64_t sum;
};

static void *half_main(void *arg)
{
	struct half_job *j = arg;

	j->sum = checksum_fd(j->fd, j->offset, j->len, j->v, &j->bad);
	return NULL;
}

/* The body checksum of the LEN bytes of FD from OFFSET, the second half
 * summed by another thread (or this one, if none can start).  *BAD is set
 * if an element fails its check against V. */
static uint64_t body_checksum_fd(int fd, size_t offset, size_t len, const struct scan *v,
				 int *bad)
{
	size_t split = (size_t)fsi_body_split(len);
	struct half_job second = { fd, offset + split, len - split, v, 0, 0 };
	pthread_t t;
	int threaded = pthread_create(&t, NULL, half_main, &second) == 0;
	uint64_t first = checksum_fd(fd, offset, split, v, bad);

	if (threaded)
		pthread_join(t, NULL);
	else
		half_main(&second);
	*bad |= second.bad;
	return fsi_body_fold(first, second.sum);
}

static void layer_unmap(struct fsi_layer *L)
{
	if (L->map)
		munmap(L->map, L->map_len);
	memset(L, 0, sizeof(*L));
}

/* Check the header of the file mapped in L (PATH, for messages): magic,
 * version, size, section table and, when VERIFY, the checksum read
 * through FD and every element of the large tables (see struct scan). */
static int header_ok(const struct fsi_layer *L, const char *path, int fd, int verify,
		     struct fs_error *err)
{
	const struct fs_disk_header *h = L->hdr;
	struct scan v;
	int bad = 0;
	size_t i;

	if (memcmp(h->magic, FS_IDX_MAGIC, 8))
		return fs_error_set(err, FS_ECORRUPT, "'%s' is not a fixscan cache", path);
	if (h->bom != FS_IDX_BOM)
		return fs_error_set(err, FS_ECORRUPT,
				    "cache '%s' was written on a machine of the other byte order",
				    path);
	if (h->version != FS_IDX_VERSION)
		return fs_error_set(err, FS_ECORRUPT, "cache '%s' has format version %u, not %u",
				    path, h->version, FS_IDX_VERSION);
	if (h->file_size != L->map_len)
		return fs_error_set(err, FS_ECORRUPT, "cache '%s' is truncated", path);
	for (i = 0; i < SEC_COUNT; i++)
		if (!section_ok(h, i, fsi_section_elem[i], L->map_len))
			return fs_error_set(err, FS_ECORRUPT, "cache '%s' has a bad section table",
					    path);
	if (!verify)
		return 0;
	scan_init(&v, L);
	if (fsi_file_checksum(h, body_checksum_fd(fd, sizeof(*h), L->map_len - sizeof(*h),
						   &v, &bad)) != h->checksum)
		return fs_error_set(err, FS_ECORRUPT, "cache '%s' fails its checksum", path);
	if (bad)
		return fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
	return 0;
}

static void layer_point(struct fsi_layer *L)
{
	const struct fs_disk_header *h = L->hdr;

#define SEC(s) ((const void *)((const char *)L->map + h->sec[s].offset))
	L->commits = SEC(SEC_COMMITS);
	L->ncommits = h->sec[SEC_COMMITS].count;
	L->parents = SEC(SEC_PARENTS);
	L->refs = SEC(SEC_REFS);
	L->nrefs = h->sec[SEC_REFS].count;
	L->refkeys = SEC(SEC_REFKEYS);
	L->refsubj = SEC(SEC_REFSUBJ);
	L->nrefsubj = h->sec[SEC_REFSUBJ].count;
	L->subjects = SEC(SEC_SUBJECTS);
	L->nsubjects = h->sec[SEC_SUBJECTS].count;
	L->releases = SEC(SEC_RELEASES);
	L->nreleases = h->sec[SEC_RELEASES].count;
	L->branches = SEC(SEC_BRANCHES);
	L->nbranches = h->sec[SEC_BRANCHES].count;
	L->tips = SEC(SEC_TIPS);
	L->ntips = h->sec[SEC_TIPS].count;
	L->strings = SEC(SEC_STRINGS);
	L->strings_len = h->sec[SEC_STRINGS].count;
	L->relset = SEC(SEC_RELSET);
	L->nrelset = h->sec[SEC_RELSET].count;
	L->relmap = SEC(SEC_RELMAP);
	L->nrelmap = h->sec[SEC_RELMAP].count;
	L->pending = SEC(SEC_PENDING);
	L->pending_len = h->sec[SEC_PENDING].count;
#undef SEC
}

/* Cheap structural checks, so a file with a valid checksum but wrong
 * contents (a bug, not a disk error) cannot send lookups astray.  The
 * large tables are not walked here: the checksum vouches for them, and
 * walking them would make every lookup resident in all of the file
 * (220 MB at kernel scale) instead of the pages it needs. */
static int layer_consistent(const struct fsi_layer *L)
{
	size_t i;

	if (L->strings_len == 0 || L->strings[L->strings_len - 1] != '\0' ||
	    L->nreleases == 0 || L->nbranches == 0 ||
	    L->hdr->sec[SEC_REFKEYS].count != L->nrefs)
		return 0;
	for (i = 0; i < L->nreleases; i++)
		if (L->releases[i] >= L->strings_len)
			return 0;
	for (i = 0; i < L->nbranches; i++)
		if (L->branches[i].name >= L->strings_len ||
		    L->branches[i].fork >= L->nreleases)
			return 0;
	for (i = 0; i < L->ntips; i++)
		if (L->tips[i].name >= L->strings_len)
			return 0;
	for (i = 0; i < L->nrelset; i++)
		if (L->relset[i].release >= L->nreleases ||
		    (i && L->relset[i].cid <= L->relset[i - 1].cid))
			return 0;
	for (i = 0; i < L->nrelmap; i++)
		if (L->relmap[i] >= L->nreleases)
			return 0;
	return 1;
}

/* A cache file that passed the full verification (checksum and every
 * table element) once need not pass it on every open: that costs a read
 * of the whole file, 0.8 s at kernel scale, for a command that then
 * looks up a few hundred ids.  "<cache>.verified" holds the identity of
 * the file that passed: device, inode, size, modification and change
 * times.  Any write to the file changes its change time, and a rebuilt
 * cache is a new inode, so a file that matches is the one that passed. */

int fsi_stat_text(const struct stat *st, char *buf, size_t n)
{
	return snprintf(buf, n, "%llu %llu %lld %lld.%09ld %lld.%09ld",
			(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
			(long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
			(long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
}

static void stamp_text(const struct stat *st, char *buf, size_t n)
{
	char id[FSI_STAMP_MAX / 2];

	fsi_stat_text(st, id, sizeof(id));
	snprintf(buf, n, "fixscan-verified 1 %s\n", id);
}

int fsi_stamp_matches(const char *path, const char *suffix, const char *want)
{
	char have[FSI_STAMP_MAX], *spath = NULL;
	size_t len = strlen(want);
	ssize_t got;
	int fd;

	if (asprintf(&spath, "%s%s", path, suffix) < 0)
		return 0;
	fd = open(spath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	free(spath);
	if (fd < 0)
		return 0;
	got = read(fd, have, sizeof(have));
	close(fd);
	return got >= 0 && (size_t)got == len && !memcmp(want, have, len);
}

void fsi_stamp_write(const char *path, const char *suffix, const char *text)
{
	char *spath = NULL;

	if (asprintf(&spath, "%s%s", path, suffix) < 0)
		return;
	/* Not synced, and a failure is not an error: a stamp lost costs
	 * the next command a check, never a wrong answer. */
	(void)fs_atomic_replace(spath, text, strlen(text), NULL, FS_ATOMIC_NO_FSYNC, NULL);
	free(spath);
}

/* Map and check one file.  VERIFY 0 skips the checksum.  ST gets the
 * file's status. */
static int layer_load(struct fsi_layer *L, const char *path, int verify, struct stat *st,
		      struct fs_error *err)
{
	char stamp[FSI_STAMP_MAX];
	int fd, rc = 0;

	memset(L, 0, sizeof(*L));
	/* Non-blocking: a FIFO put at the path must not hang every command;
	 * it is refused below.  The flag does not matter to a regular
	 * file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return fs_error_set(err, FS_ENOTFOUND, "no cache '%s'", path);
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	}
	if (fstat(fd, st) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st->st_mode)) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is not a regular file", path);
		goto out;
	}
	if ((size_t)st->st_size < sizeof(struct fs_disk_header)) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is truncated (%lld bytes)",
				  path, (long long)st->st_size);
		goto out;
	}
	L->map_len = st->st_size;
	L->map = mmap(NULL, L->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (L->map == MAP_FAILED) {
		L->map = NULL;
		rc = fs_error_set(err, FS_EIO, "cannot map '%s': %s", path, strerror(errno));
		goto out;
	}
	/* Lookups are binary searches: read-ahead around each fault would
	 * only pull in pages nobody asked for. */
	madvise(L->map, L->map_len, MADV_RANDOM);
	L->hdr = L->map;
	if (verify) {
		stamp_text(st, stamp, sizeof(stamp));
		if (fsi_stamp_matches(path, FSI_VERIFIED_SUFFIX, stamp))
			verify = 0;
		else
			verify = 2; /* stamp it when it passes */
	}
	rc = header_ok(L, path, fd, verify, err);
	if (rc < 0)
		goto out;
	layer_point(L);
	if (!layer_consistent(L))
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
	else if (verify == 2)
		fsi_stamp_write(path, FSI_VERIFIED_SUFFIX, stamp);
out:
	close(fd);
	if (rc < 0)
		layer_unmap(L);
	return rc;
}

/* Does delta D extend cache B?  A delta left from before B was replaced
 * does not. */
static int delta_fits(const struct fsi_layer *b, const struct fsi_layer *d)
{
	size_t i;

	if (!(d->hdr->flags & FS_IDX_DELTA) || d->hdr->base_checksum != b->hdr->checksum ||
	    d->hdr->base_commits != b->ncommits || d->hdr->base_refs != b->nrefs ||
	    d->nrelmap != b->nreleases || d->nbranches < b->nbranches)
		return 0;
	for (i = 1; i < b->nbranches; i++)
		if (strcmp(b->strings + b->branches[i].name, d->strings + d->branches[i].name))
			return 0;
	return d->nrelset == 0 || d->relset[d->nrelset - 1].cid < b->ncommits;
}

int fsi_load(struct fs_index **out, const char *path, int verify,
		    struct fs_error *err)
{
	struct fs_index *idx = calloc(1, sizeof(*idx));
	char *dpath = NULL;
	int rc;

	*out = NULL;
	if (!idx || !(idx->cache_path = strdup(path)) || !(dpath = fsi_delta_path(path))) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	rc = layer_load(&idx->layer[0], path, verify, &idx->file, err);
	if (rc < 0)
		goto out;
	idx->nlayers = 1;
	if (idx->layer[0].hdr->flags & FS_IDX_DELTA) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
		goto out;
	}
	{
		struct fs_error derr = FS_ERROR_INIT;
		rc = layer_load(&idx->layer[1], dpath, verify, &idx->delta, &derr);
		if (rc == FS_ENOTFOUND) {
			memset(&idx->delta, 0, sizeof(idx->delta));
		} else if (rc < 0) {
			/* A damaged delta loses the commits it held: the
			 * caller rebuilds, as for a damaged cache. */
			rc = fs_error_set(err, derr.code, "%s", derr.message);
			goto out;
		} else if (delta_fits(&idx->layer[0], &idx->layer[1])) {
			idx->nlayers = 2;
		} else {
			layer_unmap(&idx->layer[1]);
		}
		rc = 0;
	}
	idx->layer[1].cid_base = idx->layer[0].ncommits;
	idx->layer[1].ref_base = idx->layer[0].nrefs;
	idx->ncommits = idx->layer[0].ncommits + (idx->nlayers > 1 ? idx->layer[1].ncommits : 0);
	idx->nrefs = idx->layer[0].nrefs + (idx->nlayers > 1 ? idx->layer[1].nrefs : 0);
	if (idx->ncommits > UINT32_MAX / 2 ||
	    fsi_pending_view(&idx->pending, fsi_top(idx)->pending, fsi_top(idx)->pending_len) < 0) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
		goto out;
	}
	*out = idx;
	idx = NULL;
out:
	g_free(dpath);
	fs_index_free(idx);
	return rc;
}


static int same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Are the cache file at PATH and its delta still those IDX was loaded
 * from? */
int fsi_same_file(const struct fs_index *idx, const char *path)
{
	struct stat st;
	char *dpath = fsi_delta_path(path);
	int same;

	if (!dpath)
		return 0;
	same = stat(path, &st) == 0 && same_stat(&st, &idx->file);
	if (same && stat(dpath, &st) == 0)
		same = idx->delta.st_ino && same_stat(&st, &idx->delta);
	else if (same)
		same = idx->delta.st_ino == 0;
	g_free(dpath);
	return same;
}

void fs_index_trim(const struct fs_index *idx)
{
	int l;

	for (l = 0; l < idx->nlayers; l++)
		madvise(idx->layer[l].map, idx->layer[l].map_len, MADV_DONTNEED);
}

void fs_index_free(struct fs_index *idx)
{
	if (!idx)
		return;
	layer_unmap(&idx->layer[0]);
	layer_unmap(&idx->layer[1]);
	fsi_patchid_free(idx);
	free(idx->cache_path);
	free(idx);
}


const char *fs_index_cache_path(const struct fs_index *idx)
{
	return idx->cache_path;
}

size_t fs_index_count(const struct fs_index *idx)
{
	return idx->ncommits;
}
