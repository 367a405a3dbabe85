/* fixscan: reading and querying the fixes index (see index-private.h for
 * the file layout, index-build.c for how it is made). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/tags.h"
#include "index-private.h"

/* One mapped file: the cache, or the delta on top of it. */
struct layer {
	void *map;
	size_t map_len;
	const struct fs_disk_header *hdr;
	const struct fs_disk_commit *commits;
	size_t ncommits;
	const uint32_t *parents;
	const struct fs_disk_ref *refs;
	size_t nrefs;
	const uint32_t *refkeys;
	const struct fs_disk_hash *refsubj;
	size_t nrefsubj;
	const struct fs_disk_hash *subjects;
	size_t nsubjects;
	const uint32_t *releases;
	size_t nreleases;
	const struct fs_disk_branch *branches;
	size_t nbranches;
	const struct fs_disk_tip *tips;
	size_t ntips;
	const char *strings;
	size_t strings_len;
	const struct fs_disk_relset *relset;
	size_t nrelset;
	const uint16_t *relmap;
	size_t nrelmap;
	size_t cid_base; /* the number of its first commit */
	size_t ref_base; /* the global position of its first ref */
};

struct fs_index {
	char *cache_path;
	struct stat file;  /* the cache file when it was loaded */
	struct stat delta; /* its delta, st_ino 0 when there was none */
	struct layer layer[2];
	int nlayers;       /* 2 with a delta */
	size_t ncommits;
	size_t nrefs;
};

const char *fs_ref_kind_name(enum fs_ref_kind kind)
{
	switch (kind) {
	case FS_REF_UPSTREAM: return "upstream";
	case FS_REF_FIXES: return "fixes";
	case FS_REF_REVERTS: return "reverts";
	case FS_REF_REVERTS_UPSTREAM: return "reverts-upstream";
	case FS_REF_STABLE_DEP_OF: return "stable-dep-of";
	case FS_REF_PREREQUISITE: return "prerequisite";
	}
	return "unknown";
}

const char *fs_evidence_name(enum fs_evidence ev)
{
	switch (ev) {
	case FS_EVIDENCE_EXACT: return "exact";
	case FS_EVIDENCE_PREFIX: return "prefix";
	case FS_EVIDENCE_SUBJECT: return "subject";
	case FS_EVIDENCE_STABLE: return "stable";
	}
	return "unknown";
}

/* ---- release names ---------------------------------------------------- */

struct version {
	long part[4];
	long rc; /* -rcN, or LONG_MAX for a release */
	int ok;
};

static struct version parse_version(const char *s)
{
	struct version v = { { 0, 0, 0, 0 }, 0, 0 };
	char *end;
	int i;

	if (*s == 'v')
		s++;
	/* four numbers: v2.6.32.5 */
	for (i = 0; i < 4; i++) {
		if (*s < '0' || *s > '9')
			break;
		v.part[i] = strtol(s, &end, 10);
		s = end;
		if (*s != '.')
			break;
		s++;
	}
	v.ok = i > 0 || v.part[0] > 0;
	v.rc = 0x7fffffff;
	if (!strncmp(s, "-rc", 3))
		v.rc = strtol(s + 3, NULL, 10);
	return v;
}

int fs_release_cmp(const char *a, const char *b)
{
	struct version va = parse_version(a), vb = parse_version(b);
	int i;

	for (i = 0; i < 4; i++)
		if (va.part[i] != vb.part[i])
			return va.part[i] < vb.part[i] ? -1 : 1;
	if (va.rc != vb.rc)
		return va.rc < vb.rc ? -1 : 1;
	return strcmp(a, b);
}

/* ---- hashing ------------------------------------------------------------ */

#define CK_PRIME 0x100000001b3ull

static inline uint64_t ck_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * CK_PRIME;
	return h ^ (h >> 29);
}

void fs_idx_ck_init(struct fs_idx_ck *ck, uint64_t len)
{
	int k;

	for (k = 0; k < 4; k++)
		ck->lane[k] = (0x9e3779b97f4a7c15ull + (uint64_t)k) ^ len;
	ck->words = 0;
}

void fs_idx_ck_update(struct fs_idx_ck *ck, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t w[4];

	while (len >= 8 && (ck->words & 3)) {
		memcpy(w, p, 8);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
		p += 8;
		len -= 8;
	}
	while (len >= 32) {
		memcpy(w, p, 32);
		ck->lane[0] = ck_mix(ck->lane[0], w[0]);
		ck->lane[1] = ck_mix(ck->lane[1], w[1]);
		ck->lane[2] = ck_mix(ck->lane[2], w[2]);
		ck->lane[3] = ck_mix(ck->lane[3], w[3]);
		ck->words += 4;
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		memcpy(w, p, 8);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
		p += 8;
		len -= 8;
	}
	if (len) {
		/* Only the last piece may end in a partial word. */
		w[0] = 0;
		memcpy(w, p, len);
		ck->lane[ck->words & 3] = ck_mix(ck->lane[ck->words & 3], w[0]);
		ck->words++;
	}
}

uint64_t fs_idx_ck_final(const struct fs_idx_ck *ck)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ ck->words;
	int k;

	for (k = 0; k < 4; k++)
		h = ck_mix(h, ck->lane[k]);
	h *= CK_PRIME;
	return h ^ (h >> 32);
}

uint64_t fs_idx_checksum(const void *data, size_t len)
{
	struct fs_idx_ck ck;

	fs_idx_ck_init(&ck, len);
	fs_idx_ck_update(&ck, data, len);
	return fs_idx_ck_final(&ck);
}

uint64_t fs_idx_body_split(uint64_t len)
{
	return len / 2 / 32 * 32;
}

void fs_idx_body_ck_init(struct fs_idx_body_ck *ck, uint64_t len)
{
	ck->split = fs_idx_body_split(len);
	ck->pos = 0;
	fs_idx_ck_init(&ck->half[0], ck->split);
	fs_idx_ck_init(&ck->half[1], len - ck->split);
}

void fs_idx_body_ck_update(struct fs_idx_body_ck *ck, const void *data, size_t len)
{
	const unsigned char *p = data;

	if (ck->pos < ck->split) {
		size_t n = ck->split - ck->pos < len ? (size_t)(ck->split - ck->pos) : len;
		fs_idx_ck_update(&ck->half[0], p, n);
		ck->pos += n;
		p += n;
		len -= n;
	}
	if (len) {
		fs_idx_ck_update(&ck->half[1], p, len);
		ck->pos += len;
	}
}

uint64_t fs_idx_body_fold(uint64_t first, uint64_t second)
{
	uint64_t h = ck_mix(0x9e3779b97f4a7c15ull, first);

	h = ck_mix(h, second) * CK_PRIME;
	return h ^ (h >> 32);
}

uint64_t fs_idx_body_ck_final(const struct fs_idx_body_ck *ck)
{
	return fs_idx_body_fold(fs_idx_ck_final(&ck->half[0]), fs_idx_ck_final(&ck->half[1]));
}

uint64_t fs_idx_file_checksum(const struct fs_disk_header *h, uint64_t body)
{
	struct fs_disk_header copy = *h;

	copy.checksum = body;
	return fs_idx_checksum(&copy, sizeof(copy));
}

uint64_t fs_idx_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

uint64_t fs_idx_subject_hash(const char *subject)
{
	char *norm;
	uint64_t h;

	if (!subject || !*subject)
		return 0;
	norm = fs_tags_normalize_subject(subject);
	if (!norm)
		return 0;
	h = *norm ? fs_idx_hash_str(norm) : 0;
	free(norm);
	return h;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void fs_idx_pack_hex(uint8_t key[20], const char *hex, size_t len)
{
	size_t i;

	memset(key, 0, 20);
	for (i = 0; i < len && i < 40; i++) {
		int v = hexval(hex[i]);
		if (v < 0)
			v = 0;
		key[i / 2] |= (uint8_t)(i % 2 ? v : v << 4);
	}
}

static void unpack_hex(char *out, const uint8_t *key, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = digits[i % 2 ? key[i / 2] & 15 : key[i / 2] >> 4];
	out[len] = '\0';
}

/* ---- loading ------------------------------------------------------------ */

static int section_ok(const struct fs_disk_header *h, enum fs_idx_section s,
		      size_t elem, size_t file_size)
{
	uint64_t off = h->sec[s].offset, n = h->sec[s].count;

	if (off % 8 || off < sizeof(*h) || off > file_size)
		return 0;
	if (elem && n > (file_size - off) / elem)
		return 0;
	return 1;
}

/* fs_idx_checksum() of LEN bytes of FD from OFFSET, read in pieces
 * through a buffer rather than the mapping, so that a lookup's resident
 * memory stays the few pages it touches rather than the whole file.
 * Returns 0 on a read error, which no valid file has as its checksum in
 * practice. */
static uint64_t checksum_fd(int fd, size_t offset, size_t len)
{
	enum { CHUNK = 1 << 20 };
	unsigned char *buf = malloc(CHUNK);
	struct fs_idx_ck ck;
	size_t done = 0;

	if (!buf)
		return 0;
	fs_idx_ck_init(&ck, len);
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
		fs_idx_ck_update(&ck, buf, got);
		done += got;
	}
	free(buf);
	return fs_idx_ck_final(&ck);
}

struct half_job {
	int fd;
	size_t offset, len;
	uint64_t sum;
};

static void *half_main(void *arg)
{
	struct half_job *j = arg;

	j->sum = checksum_fd(j->fd, j->offset, j->len);
	return NULL;
}

/* The body checksum of the LEN bytes of FD from OFFSET, the second half
 * summed by another thread (or this one, if none can start). */
static uint64_t body_checksum_fd(int fd, size_t offset, size_t len)
{
	size_t split = (size_t)fs_idx_body_split(len);
	struct half_job second = { fd, offset + split, len - split, 0 };
	pthread_t t;
	int threaded = pthread_create(&t, NULL, half_main, &second) == 0;
	uint64_t first = checksum_fd(fd, offset, split);

	if (threaded)
		pthread_join(t, NULL);
	else
		half_main(&second);
	return fs_idx_body_fold(first, second.sum);
}

static void layer_unmap(struct layer *L)
{
	if (L->map)
		munmap(L->map, L->map_len);
	memset(L, 0, sizeof(*L));
}

/* Map and check one file.  VERIFY 0 skips the checksum: only for a file
 * this process has just written and synced, under the lock.  ST gets the
 * file's status. */
static int layer_load(struct layer *L, const char *path, int verify, struct stat *st,
		      struct fs_error *err)
{
	static const size_t elem[SEC_COUNT] = {
		[SEC_COMMITS] = sizeof(struct fs_disk_commit),
		[SEC_PARENTS] = sizeof(uint32_t),
		[SEC_REFS] = sizeof(struct fs_disk_ref),
		[SEC_REFKEYS] = sizeof(uint32_t),
		[SEC_REFSUBJ] = sizeof(struct fs_disk_hash),
		[SEC_SUBJECTS] = sizeof(struct fs_disk_hash),
		[SEC_RELEASES] = sizeof(uint32_t),
		[SEC_BRANCHES] = sizeof(struct fs_disk_branch),
		[SEC_TIPS] = sizeof(struct fs_disk_tip),
		[SEC_STRINGS] = 1,
		[SEC_RELSET] = sizeof(struct fs_disk_relset),
		[SEC_RELMAP] = sizeof(uint16_t),
	};
	const struct fs_disk_header *h;
	int fd, rc = 0;
	size_t i;

	memset(L, 0, sizeof(*L));
	fd = open(path, O_RDONLY | O_CLOEXEC);
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
	h = L->hdr = L->map;
	if (memcmp(h->magic, FS_IDX_MAGIC, 8)) {
		rc = fs_error_set(err, FS_ECORRUPT, "'%s' is not a fixscan cache", path);
		goto out;
	}
	if (h->version != FS_IDX_VERSION || h->bom != FS_IDX_BOM) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' has format version %u, not %u",
				  path, h->version, FS_IDX_VERSION);
		goto out;
	}
	if (h->file_size != L->map_len) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is truncated", path);
		goto out;
	}
	for (i = 0; i < SEC_COUNT; i++) {
		if (!section_ok(h, i, elem[i], L->map_len)) {
			rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' has a bad section table", path);
			goto out;
		}
	}
	if (verify &&
	    fs_idx_file_checksum(h, body_checksum_fd(fd, sizeof(*h), L->map_len - sizeof(*h))) !=
	    h->checksum) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' fails its checksum", path);
		goto out;
	}
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
#undef SEC
	/* Cheap structural checks, so a file with a valid checksum but wrong
	 * contents (a bug, not a disk error) cannot send lookups astray. */
	if (L->strings_len == 0 || L->strings[L->strings_len - 1] != '\0' ||
	    L->nreleases == 0 || L->nbranches == 0 ||
	    h->sec[SEC_REFKEYS].count != L->nrefs) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
		goto out;
	}
	/* The large tables are not walked here: the checksum vouches for
	 * them, and walking them would make every lookup resident in all of
	 * the file (220 MB at kernel scale) instead of the pages it needs. */
	for (i = 0; i < L->nreleases; i++)
		if (L->releases[i] >= L->strings_len)
			goto inconsistent;
	for (i = 0; i < L->nbranches; i++)
		if (L->branches[i].name >= L->strings_len ||
		    L->branches[i].fork >= L->nreleases)
			goto inconsistent;
	for (i = 0; i < L->ntips; i++)
		if (L->tips[i].name >= L->strings_len)
			goto inconsistent;
	for (i = 0; i < L->nrelset; i++)
		if (L->relset[i].release >= L->nreleases ||
		    (i && L->relset[i].cid <= L->relset[i - 1].cid))
			goto inconsistent;
	for (i = 0; i < L->nrelmap; i++)
		if (L->relmap[i] >= L->nreleases)
			goto inconsistent;
	goto out;
inconsistent:
	rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
out:
	close(fd);
	if (rc < 0)
		layer_unmap(L);
	return rc;
}

char *fs_idx_delta_path(const char *path)
{
	char *d = NULL;

	return asprintf(&d, "%s.delta", path) < 0 ? NULL : d;
}

/* Does delta D extend cache B?  A delta left from before B was replaced
 * does not. */
static int delta_fits(const struct layer *b, const struct layer *d)
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

static int idx_load(struct fs_index **out, const char *path, int verify,
		    struct fs_error *err)
{
	struct fs_index *idx = calloc(1, sizeof(*idx));
	char *dpath = NULL;
	int rc;

	*out = NULL;
	if (!idx || !(idx->cache_path = strdup(path)) || !(dpath = fs_idx_delta_path(path))) {
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
	if (idx->ncommits > UINT32_MAX / 2) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
		goto out;
	}
	*out = idx;
	idx = NULL;
out:
	free(dpath);
	fs_index_free(idx);
	return rc;
}

int fs_idx_load(struct fs_index **out, const char *path, struct fs_error *err)
{
	return idx_load(out, path, 1, err);
}

static int same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Are the cache file at PATH and its delta still those IDX was loaded
 * from? */
static int same_file(const struct fs_index *idx, const char *path)
{
	struct stat st;
	char *dpath = fs_idx_delta_path(path);
	int same;

	if (!dpath)
		return 0;
	same = stat(path, &st) == 0 && same_stat(&st, &idx->file);
	if (same && stat(dpath, &st) == 0)
		same = idx->delta.st_ino && same_stat(&st, &idx->delta);
	else if (same)
		same = idx->delta.st_ino == 0;
	free(dpath);
	return same;
}

const struct fs_disk_header *fs_idx_header(const struct fs_index *idx)
{
	return idx->layer[0].hdr;
}

const void *fs_idx_section(const struct fs_index *idx, enum fs_idx_section s,
			   uint64_t *count)
{
	const struct layer *L = &idx->layer[0];

	*count = L->hdr->sec[s].count;
	return (const char *)L->map + L->hdr->sec[s].offset;
}

uint32_t fs_idx_flags(const struct fs_index *idx)
{
	uint32_t f = idx->layer[0].hdr->flags;

	if (idx->nlayers > 1)
		f |= idx->layer[1].hdr->flags;
	return f & ~FS_IDX_DELTA;
}

const void *fs_idx_delta_section(const struct fs_index *idx, enum fs_idx_section s,
				 uint64_t *count)
{
	const struct layer *L = &idx->layer[1];

	if (idx->nlayers < 2) {
		*count = 0;
		return NULL;
	}
	*count = L->hdr->sec[s].count;
	return (const char *)L->map + L->hdr->sec[s].offset;
}

const struct fs_disk_tip *fs_idx_tips(const struct fs_index *idx, uint64_t *count,
				      const char **strings)
{
	const struct layer *L = &idx->layer[idx->nlayers - 1];

	*count = L->ntips;
	*strings = L->strings;
	return L->tips;
}

void fs_index_trim(struct fs_index *idx)
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
	free(idx->cache_path);
	free(idx);
}

/* ---- opening, with the cache kept up to date ---------------------------- */

static char *default_cache_path(const char *repo_path, struct fs_error *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *abs = realpath(repo_path, NULL);
	char *dir = NULL, *path = NULL, *name, *p;
	size_t n;

	if (!abs) {
		fs_error_set(err, FS_ENOTFOUND, "cannot open repository '%s': %s",
			     repo_path, strerror(errno));
		return NULL;
	}
	/* "R" and "R/.git" (what repository discovery gives) are one
	 * repository and share one cache. */
	n = strlen(abs);
	if (n > 5 && !strcmp(abs + n - 5, "/.git"))
		abs[n - 5] = '\0';
	if (xdg && *xdg == '/')
		n = asprintf(&dir, "%s/fixscan", xdg);
	else if (home && *home)
		n = asprintf(&dir, "%s/.cache/fixscan", home);
	else {
		free(abs);
		fs_error_set(err, FS_ENOTFOUND,
			     "no cache directory: set XDG_CACHE_HOME or HOME");
		return NULL;
	}
	(void)n;
	/* A readable name plus a hash, so two repositories whose paths map to
	 * the same readable name still get their own file. */
	name = strdup(abs);
	for (p = name; p && *p; p++)
		if (*p == '/')
			*p = '_';
	if (!name || asprintf(&path, "%s/%.80s-%016llx.idx", dir, name + (name[0] == '_'),
			      (unsigned long long)fs_idx_hash_str(abs)) < 0)
		path = NULL;
	if (!path)
		fs_error_set(err, FS_ENOMEM, "out of memory");
	free(name);
	free(dir);
	free(abs);
	return path;
}

static int mkdir_p(const char *dir)
{
	char *tmp = strdup(dir), *p;
	int rc = 0;

	if (!tmp)
		return -1;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
		rc = -1;
	free(tmp);
	return rc;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int fs_index_open(struct fs_index **out, const struct fs_index_opts *opts,
		  struct fs_index_stats *stats, struct fs_error *err)
{
	struct fs_index_stats local;
	struct fs_index *old = NULL;
	struct fs_error load_err = FS_ERROR_INIT;
	char *cache_path = NULL, *lock_path = NULL, *dir, *slash;
	double start = now_seconds();
	int lock_fd = -1, rc, fresh;

	*out = NULL;
	if (!stats)
		stats = &local;
	memset(stats, 0, sizeof(*stats));
	if (!opts->repo_path)
		return fs_error_set(err, FS_EUSAGE, "no kernel repository given");
	if (opts->cache_path)
		cache_path = strdup(opts->cache_path);
	else
		cache_path = default_cache_path(opts->repo_path, err);
	if (!cache_path)
		return err && err->code ? err->code : fs_error_set(err, FS_ENOMEM, "out of memory");

	/* Fast path: a valid cache whose tips match the repository. */
	if (!opts->rebuild) {
		rc = fs_idx_load(&old, cache_path, &load_err);
		if (rc == 0) {
			if (opts->no_update)
				goto done;
			rc = fs_idx_up_to_date(old, opts->repo_path, err);
			if (rc < 0)
				goto out;
			if (rc == 1)
				goto done;
			/* Kept: if nobody replaces the file meanwhile, it is
			 * the base of the update. */
		}
	}

	dir = strdup(cache_path);
	if (!dir) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (slash && mkdir_p(dir) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot create cache directory '%s': %s",
				  dir, strerror(errno));
		free(dir);
		goto out;
	}
	free(dir);
	if (asprintf(&lock_path, "%s.lock", cache_path) < 0) {
		lock_path = NULL;
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	lock_fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock_fd < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot open '%s': %s", lock_path, strerror(errno));
		goto out;
	}
	/* One updater at a time; the second finds the work done. */
	while (flock(lock_fd, LOCK_EX) < 0) {
		if (errno != EINTR) {
			rc = fs_error_set(err, FS_EIO, "cannot lock '%s': %s", lock_path,
					  strerror(errno));
			goto out;
		}
	}
	/* Another process may have updated the cache while this one waited;
	 * a cache renamed over it is a new file. */
	if (old && same_file(old, cache_path))
		goto build;
	fs_index_free(old);
	old = NULL;
	fs_error_clear(&load_err);
	rc = opts->rebuild ? FS_ENOTFOUND : fs_idx_load(&old, cache_path, &load_err);
	if (rc == 0) {
		fresh = fs_idx_up_to_date(old, opts->repo_path, err);
		if (fresh < 0) {
			rc = fresh;
			goto out;
		}
		if (fresh == 1)
			goto done;
	} else if (rc == FS_ECORRUPT) {
		snprintf(stats->note, sizeof(stats->note), "%s; rebuilding it",
			 load_err.message);
	}
build:
	rc = fs_idx_build(opts, cache_path, old, stats, err);
	if (rc < 0)
		goto out;
	fs_index_free(old);
	old = NULL;
	rc = idx_load(&old, cache_path, 0, err);
	if (rc < 0)
		goto out;
done:
	stats->commits = old->ncommits;
	stats->seconds = now_seconds() - start;
	*out = old;
	old = NULL;
	rc = 0;
out:
	if (lock_fd >= 0)
		close(lock_fd);
	free(lock_path);
	free(cache_path);
	fs_index_free(old);
	return rc;
}

const char *fs_index_cache_path(const struct fs_index *idx)
{
	return idx->cache_path;
}

size_t fs_index_count(const struct fs_index *idx)
{
	return idx->ncommits;
}

/* ---- lookups ------------------------------------------------------------ */

static inline const struct layer *top(const struct fs_index *idx)
{
	return &idx->layer[idx->nlayers - 1];
}

static inline const struct layer *layer_of(const struct fs_index *idx, fs_cid c)
{
	return idx->nlayers > 1 && c >= idx->layer[1].cid_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_commit *commit_at(const struct fs_index *idx, fs_cid c,
						     const struct layer **lp)
{
	const struct layer *L = layer_of(idx, c);

	if (lp)
		*lp = L;
	return &L->commits[c - L->cid_base];
}

static inline const struct layer *ref_layer(const struct fs_index *idx, size_t pos)
{
	return idx->nlayers > 1 && pos >= idx->layer[1].ref_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_ref *ref_at(const struct fs_index *idx, size_t pos)
{
	const struct layer *L = ref_layer(idx, pos);

	return &L->refs[pos - L->ref_base];
}

static const char *lstr(const struct layer *L, uint32_t off)
{
	return off < L->strings_len ? L->strings + off : "";
}

/* C's release, as a number in the newest layer's release table. */
static unsigned release_of(const struct fs_index *idx, fs_cid c)
{
	const struct layer *L, *T = top(idx);
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	size_t lo = 0, hi;

	if (L == T)
		return dc->release;
	/* A cache commit under a delta: claimed by a newer tag, or its own
	 * release renumbered. */
	hi = T->nrelset;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (T->relset[mid].cid < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < T->nrelset && T->relset[lo].cid == c)
		return T->relset[lo].release;
	return T->relmap[dc->release];
}

static const uint8_t *oid_of(const struct fs_index *idx, fs_cid c)
{
	return commit_at(idx, c, NULL)->oid;
}

static int cid_oid_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;

	return memcmp(oid_of(idx, *(const fs_cid *)a), oid_of(idx, *(const fs_cid *)b), 20);
}

/* A growable array of ref positions or commits, for the lookups below. */
struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static int u32_push(struct u32vec *a, uint32_t x)
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
static int prefix_cmp(const uint8_t *key, size_t len, const uint8_t *oid)
{
	size_t full = len / 2;
	int c = memcmp(key, oid, full);

	if (c || len % 2 == 0)
		return c;
	return (int)(key[full] >> 4) - (int)(oid[full] >> 4);
}

/* First commit of L whose id is >= the prefix. */
static size_t lower_bound_prefix(const struct layer *L, const uint8_t *key, size_t len)
{
	size_t lo = 0, hi = L->ncommits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (prefix_cmp(key, len, L->commits[mid].oid) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int valid_hex(const char *hex, size_t *len)
{
	size_t n = 0;

	while (hex[n] && hexval(hex[n]) >= 0)
		n++;
	*len = n;
	return hex[n] == '\0' && n >= 4 && n <= 40;
}

size_t fs_index_resolve_all(const struct fs_index *idx, const char *hex,
			    fs_cid *out, size_t max)
{
	uint8_t key[20];
	size_t len, i, n = 0;
	struct u32vec all = { NULL, 0, 0 };
	int l;

	if (!valid_hex(hex, &len))
		return 0;
	fs_idx_pack_hex(key, hex, len);
	if (idx->nlayers == 1) {
		const struct layer *L = &idx->layer[0];
		for (i = lower_bound_prefix(L, key, len);
		     i < L->ncommits && prefix_cmp(key, len, L->commits[i].oid) == 0; i++) {
			if (n < max)
				out[n] = (fs_cid)i;
			n++;
		}
		return n;
	}
	/* Two layers: the first MAX in id order over both, as one file
	 * would give them.  Out of memory gives what was gathered. */
	for (l = 0; l < idx->nlayers; l++) {
		const struct layer *L = &idx->layer[l];
		for (i = lower_bound_prefix(L, key, len);
		     i < L->ncommits && prefix_cmp(key, len, L->commits[i].oid) == 0; i++)
			if (u32_push(&all, (uint32_t)(L->cid_base + i)) < 0)
				break;
	}
	if (all.n > 1)
		qsort_r(all.v, all.n, sizeof(*all.v), cid_oid_cmp, (void *)idx);
	for (i = 0; i < all.n && i < max; i++)
		out[i] = all.v[i];
	n = all.n;
	free(all.v);
	return n;
}

int fs_index_resolve(const struct fs_index *idx, const char *hex, fs_cid *out,
		     struct fs_error *err)
{
	fs_cid found[4];
	size_t len, n, i;
	char list[200] = "", one[41];

	if (!valid_hex(hex, &len))
		return fs_error_set(err, FS_EUSAGE, "'%s' is not a commit id (4 to 40 hex digits)",
				    hex);
	n = fs_index_resolve_all(idx, hex, found, 4);
	if (n == 0)
		return fs_error_set(err, FS_ENOTFOUND, "unknown commit '%s'", hex);
	if (n > 1) {
		for (i = 0; i < n && i < 4; i++) {
			fs_index_commit_hex(idx, found[i], one);
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.12s",
				 i ? ", " : "", one);
		}
		return fs_error_set(err, FS_EAMBIGUOUS, "commit id '%s' is ambiguous: %s%s",
				    hex, list, n > 4 ? ", ..." : "");
	}
	*out = found[0];
	return 0;
}

void fs_index_commit_hex(const struct fs_index *idx, fs_cid c, char hex[41])
{
	unpack_hex(hex, oid_of(idx, c), 40);
}

const char *fs_index_commit_subject(const struct fs_index *idx, fs_cid c)
{
	const struct layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);

	return lstr(L, dc->subject);
}

const char *fs_index_commit_branch(const struct fs_index *idx, fs_cid c)
{
	const struct fs_disk_commit *dc = commit_at(idx, c, NULL);

	/* The newest layer's table keeps the numbers of the older one. */
	if (dc->branch == 0)
		return "mainline";
	return lstr(top(idx), top(idx)->branches[dc->branch].name);
}

bool fs_index_commit_is_mainline(const struct fs_index *idx, fs_cid c)
{
	return commit_at(idx, c, NULL)->branch == 0;
}

const char *fs_index_commit_release(const struct fs_index *idx, fs_cid c)
{
	unsigned r = release_of(idx, c);

	return r ? lstr(top(idx), top(idx)->releases[r]) : NULL;
}

static void fill_ref(const struct fs_index *idx, size_t pos, struct fs_index_ref *out)
{
	const struct layer *L = ref_layer(idx, pos);
	const struct fs_disk_ref *r = &L->refs[pos - L->ref_base];

	out->kind = r->kind;
	unpack_hex(out->hex, r->key, r->keylen);
	out->subject = r->subject ? lstr(L, r->subject) : NULL;
	out->source = r->source;
}

size_t fs_index_commit_refs(const struct fs_index *idx, fs_cid c,
			    struct fs_index_ref *out, size_t max)
{
	const struct layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	size_t i;

	for (i = 0; i < dc->nrefs && i < max; i++)
		fill_ref(idx, L->ref_base + dc->ref_first + i, &out[i]);
	return dc->nrefs;
}

static int subjects_equal(const char *a, const char *b)
{
	char *na = fs_tags_normalize_subject(a);
	char *nb = fs_tags_normalize_subject(b);
	int eq = na && nb && !strcmp(na, nb);

	free(na);
	free(nb);
	return eq;
}

static size_t hash_lower_bound(const struct fs_disk_hash *a, size_t n, uint64_t h)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid].hash < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t fs_index_find_subject(const struct fs_index *idx, const char *subject,
			     fs_cid *out, size_t max)
{
	uint64_t h = fs_idx_subject_hash(subject);
	struct u32vec found = { NULL, 0, 0 };
	size_t i, n = 0, pass, first;
	int l;

	if (!h)
		return 0;
	/* Two passes so that mainline commits come first; each pass in id
	 * order, whichever layer holds the commits. */
	for (pass = 0; pass < 2; pass++) {
		first = found.n;
		for (l = 0; l < idx->nlayers; l++) {
			const struct layer *L = &idx->layer[l];
			for (i = hash_lower_bound(L->subjects, L->nsubjects, h);
			     i < L->nsubjects && L->subjects[i].hash == h; i++) {
				fs_cid c = L->subjects[i].value;
				if (fs_index_commit_is_mainline(idx, c) != (pass == 0))
					continue;
				if (!subjects_equal(subject, fs_index_commit_subject(idx, c)))
					continue;
				if (u32_push(&found, c) < 0)
					goto done;
			}
		}
		if (found.n - first > 1)
			qsort_r(found.v + first, found.n - first, sizeof(*found.v), cid_oid_cmp,
				(void *)idx);
	}
done:
	for (i = 0; i < found.n; i++) {
		if (n < max)
			out[n] = found.v[i];
		n++;
	}
	free(found.v);
	return n;
}

/* Pick the commit a subject names: the one among CANDIDATES (ids that
 * matched a prefix) if any, else the single mainline match. */
static fs_cid subject_pick(const struct fs_index *idx, const char *subject,
			   const fs_cid *cand, size_t ncand)
{
	fs_cid found[16];
	size_t n = fs_index_find_subject(idx, subject, found, 16), i, j;

	if (n == 0)
		return FS_CID_NONE;
	for (i = 0; i < n && i < 16; i++)
		for (j = 0; j < ncand; j++)
			if (found[i] == cand[j])
				return found[i];
	return found[0];
}

fs_cid fs_index_ref_target(const struct fs_index *idx,
			   const struct fs_index_ref *ref,
			   enum fs_evidence *ev, bool *mismatch)
{
	enum fs_evidence local_ev;
	bool local_mm;
	fs_cid cand[8], c;
	size_t n;

	if (!ev)
		ev = &local_ev;
	if (!mismatch)
		mismatch = &local_mm;
	*mismatch = false;
	n = fs_index_resolve_all(idx, ref->hex, cand, 8);
	if (n == 1) {
		c = cand[0];
		if (ref->subject && !subjects_equal(ref->subject, fs_index_commit_subject(idx, c))) {
			fs_cid s = subject_pick(idx, ref->subject, NULL, 0);
			if (s != FS_CID_NONE && s != c) {
				*mismatch = true;
				*ev = FS_EVIDENCE_SUBJECT;
				return s;
			}
		}
		*ev = strlen(ref->hex) == 40 ? FS_EVIDENCE_EXACT : FS_EVIDENCE_PREFIX;
		return c;
	}
	if (ref->subject) {
		c = subject_pick(idx, ref->subject, cand, n < 8 ? n : 8);
		if (c != FS_CID_NONE) {
			*ev = FS_EVIDENCE_SUBJECT;
			*mismatch = n == 0;
			return c;
		}
	}
	return FS_CID_NONE;
}

/* The first position in refkeys whose ref key is >= (KEY, LEN). */
static int refkey_cmp(const struct fs_disk_ref *r, const uint8_t *key, size_t len)
{
	int c = memcmp(r->key, key, 20);

	if (c)
		return c;
	return (int)r->keylen - (int)len;
}

static size_t refkeys_lower_bound(const struct layer *L, const uint8_t *key, size_t len)
{
	size_t lo = 0, hi = L->nrefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (refkey_cmp(&L->refs[L->refkeys[mid]], key, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort A and drop repeats. */
static void u32_uniq(struct u32vec *a)
{
	size_t i, j;

	if (a->n < 2)
		return;
	qsort(a->v, a->n, sizeof(*a->v), u32_cmp);
	for (i = 1, j = 1; i < a->n; i++)
		if (a->v[i] != a->v[j - 1])
			a->v[j++] = a->v[i];
	a->n = j;
}

/* Refs by the commit carrying them, mainline before stable (a fix's own
 * ref before its backports' copies), then by id; one commit's refs in
 * changelog order.  Positions follow the order a build happened to read
 * commits in (threads, cache and delta), so they cannot order answers. */
static int refpos_source_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;
	uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
	fs_cid sa = ref_at(idx, pa)->source, sb = ref_at(idx, pb)->source;

	if (sa != sb) {
		int ma = fs_index_commit_is_mainline(idx, sa);
		int mb = fs_index_commit_is_mainline(idx, sb);
		if (ma != mb)
			return mb - ma;
		return memcmp(oid_of(idx, sa), oid_of(idx, sb), 20);
	}
	return pa < pb ? -1 : pa > pb;
}

/* The positions of every ref of a kind in KINDS that names commit C: by
 * its id or an abbreviation of it (4..40 digits), or by C's subject, and
 * that fs_index_ref_target() resolves to C.  Each once, in
 * refpos_source_cmp() order.  Returns 0 or -1 when out of memory. */
static int refs_naming(const struct fs_index *idx, fs_cid c, unsigned kinds,
		       struct u32vec *out)
{
	const uint8_t *oid = oid_of(idx, c);
	struct u32vec cand = { NULL, 0, 0 };
	struct fs_index_ref ref;
	uint8_t key[20];
	size_t i;
	uint64_t h;
	int l;

	out->n = 0;
	h = fs_idx_subject_hash(fs_index_commit_subject(idx, c));
	/* Every ref naming C by 4 or more digits starts with C's first four:
	 * they all lie in the one run of refs whose keys start so (sorted by
	 * key), a handful, so one search and a short scan find them. */
	memset(key, 0, 20);
	memcpy(key, oid, 2);
	for (l = 0; l < idx->nlayers; l++) {
		const struct layer *L = &idx->layer[l];
		for (i = refkeys_lower_bound(L, key, 4); i < L->nrefs; i++) {
			uint32_t pos = L->refkeys[i];
			const struct fs_disk_ref *r = &L->refs[pos];
			if (memcmp(r->key, oid, 2))
				break;
			if (r->keylen < 4 || prefix_cmp(r->key, r->keylen, oid) != 0 ||
			    !(kinds & FS_REF_BIT(r->kind)))
				continue;
			if (u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
		for (i = h ? hash_lower_bound(L->refsubj, L->nrefsubj, h) : L->nrefsubj;
		     i < L->nrefsubj && L->refsubj[i].hash == h; i++) {
			uint32_t pos = L->refsubj[i].value;
			if ((kinds & FS_REF_BIT(L->refs[pos].kind)) &&
			    u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
	}
	u32_uniq(&cand);
	for (i = 0; i < cand.n; i++) {
		fill_ref(idx, cand.v[i], &ref);
		if (fs_index_ref_target(idx, &ref, NULL, NULL) == c && u32_push(out, cand.v[i]) < 0)
			goto oom;
	}
	if (out->n > 1)
		qsort_r(out->v, out->n, sizeof(*out->v), refpos_source_cmp, (void *)idx);
	free(cand.v);
	return 0;
oom:
	free(cand.v);
	return -1;
}

size_t fs_index_refs_to(const struct fs_index *idx, fs_cid c, unsigned kinds,
			struct fs_index_ref *out, size_t max)
{
	struct u32vec pos = { NULL, 0, 0 };
	size_t i, n;

	/* Out of memory reports what was found so far; there is no error
	 * return in this interface. */
	refs_naming(idx, c, kinds, &pos);
	for (i = 0; i < pos.n && i < max; i++)
		fill_ref(idx, pos.v[i], &out[i]);
	n = pos.n;
	free(pos.v);
	return n;
}

/* Every stable backport of C into OUT (by id, each once). */
static int backports_all(const struct fs_index *idx, fs_cid c, struct u32vec *out)
{
	struct u32vec pos = { NULL, 0, 0 };
	size_t i;
	int rc;

	out->n = 0;
	rc = refs_naming(idx, c, FS_REF_BIT(FS_REF_UPSTREAM), &pos);
	for (i = 0; rc == 0 && i < pos.n; i++) {
		fs_cid s = ref_at(idx, pos.v[i])->source;
		if (s != c && !fs_index_commit_is_mainline(idx, s) && u32_push(out, s) < 0)
			rc = -1;
	}
	free(pos.v);
	u32_uniq(out);
	if (out->n > 1)
		qsort_r(out->v, out->n, sizeof(*out->v), cid_oid_cmp, (void *)idx);
	return rc;
}

size_t fs_index_backports(const struct fs_index *idx, fs_cid c, fs_cid *out,
			  size_t max)
{
	struct u32vec bp = { NULL, 0, 0 };
	size_t i, n;

	backports_all(idx, c, &bp);
	for (i = 0; i < bp.n && i < max; i++)
		out[i] = bp.v[i];
	n = bp.n;
	free(bp.v);
	return n;
}

fs_cid fs_index_upstream_of(const struct fs_index *idx, fs_cid c)
{
	const struct layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	struct fs_index_ref ref;
	size_t i;

	for (i = 0; i < dc->nrefs; i++) {
		if (L->refs[dc->ref_first + i].kind != FS_REF_UPSTREAM)
			continue;
		fill_ref(idx, L->ref_base + dc->ref_first + i, &ref);
		fs_cid u = fs_index_ref_target(idx, &ref, NULL, NULL);
		if (u != FS_CID_NONE && u != c)
			return u;
	}
	return FS_CID_NONE;
}

static int fix_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;
	const struct fs_index_fix *x = a, *y = b;

	if (x->fixed != y->fixed)
		return x->fixed < y->fixed ? -1 : 1;
	return memcmp(oid_of(idx, x->fixer), oid_of(idx, y->fixer), 20);
}

/* The first entry of SORTED (N entries, by fixed) whose fixed is C. */
static size_t fixed_lower_bound(const struct fs_index_fix *sorted, size_t n, fs_cid c)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid].fixed < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Reorder a breadth-first result into a tree walk (each fix followed by
 * the fixes of it), siblings by id, so the output does not depend on the
 * order the index happens to store references in.  Every fixer appears
 * once and its FIXED was found before it, so the entries form a tree under
 * ROOT. */
static int tree_order(const struct fs_index *idx, fs_cid root,
		      struct fs_index_fix *res, size_t n)
{
	struct fs_index_fix *sorted = malloc(n * sizeof(*sorted));
	size_t *stack = malloc(n * sizeof(*stack)); /* positions in SORTED */
	size_t nout = 0, nstack = 0, lo, hi;
	fs_cid parent = root;

	if (!sorted || !stack) {
		free(sorted);
		free(stack);
		return -1;
	}
	memcpy(sorted, res, n * sizeof(*sorted));
	qsort_r(sorted, n, sizeof(*sorted), fix_cmp, (void *)idx);
	for (;;) {
		/* Children of PARENT form one run in SORTED; push them in
		 * reverse so the smallest id comes out first. */
		lo = fixed_lower_bound(sorted, n, parent);
		for (hi = lo; hi < n && sorted[hi].fixed == parent; hi++)
			;
		while (hi > lo && nstack < n)
			stack[nstack++] = --hi;
		if (!nstack)
			break;
		res[nout] = sorted[stack[--nstack]];
		parent = res[nout++].fixer;
	}
	free(sorted);
	free(stack);
	return 0;
}

int fs_index_fixes_of(const struct fs_index *idx, fs_cid root,
		      struct fs_index_fix **out)
{
	/* RES doubles as the breadth-first queue, with the root as an
	 * implicit first entry; SEEN holds every commit already in it. */
	struct fs_index_fix *res = NULL;
	size_t n = 0, cap = 0, head = 0, i, j;
	struct u32vec names = { NULL, 0, 0 }, pos = { NULL, 0, 0 };
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	fs_cid cur = root;
	unsigned depth = 0;
	const unsigned kinds = FS_REF_BIT(FS_REF_FIXES) | FS_REF_BIT(FS_REF_REVERTS) |
			       FS_REF_BIT(FS_REF_REVERTS_UPSTREAM);

	*out = NULL;
	/* Keys are cid + 1: NULL is no key for a GHashTable of pointers. */
	g_hash_table_add(seen, GUINT_TO_POINTER(root + 1));
	for (;;) {
		/* CUR is named by its own id and by its backports' ids. */
		if (backports_all(idx, cur, &names) < 0)
			goto oom;
		for (i = 0; i <= names.n; i++) {
			fs_cid name = i == 0 ? cur : names.v[i - 1];
			if (refs_naming(idx, name, kinds, &pos) < 0)
				goto oom;
			for (j = 0; j < pos.n; j++) {
				struct fs_index_ref ref;
				enum fs_evidence ev;
				bool mm;
				fs_cid f, up;

				fill_ref(idx, pos.v[j], &ref);
				f = ref.source;
				/* A stable backport of a fix carries the fix's
				 * Fixes: line too; it stands for its mainline
				 * commit, which is the fix to report. */
				if (!fs_index_commit_is_mainline(idx, f) &&
				    (up = fs_index_upstream_of(idx, f)) != FS_CID_NONE)
					f = up;
				if (f == cur || g_hash_table_contains(seen, GUINT_TO_POINTER(f + 1)))
					continue;
				if (n == cap) {
					size_t nc = cap ? cap * 2 : 16;
					struct fs_index_fix *g = realloc(res, nc * sizeof(*g));
					if (!g)
						goto oom;
					res = g;
					cap = nc;
				}
				fs_index_ref_target(idx, &ref, &ev, &mm);
				if (i > 0)
					ev = FS_EVIDENCE_STABLE;
				res[n].fixer = f;
				res[n].fixed = cur;
				res[n].depth = depth + 1;
				res[n].revert = ref.kind != FS_REF_FIXES;
				res[n].evidence = ev;
				n++;
				g_hash_table_add(seen, GUINT_TO_POINTER(f + 1));
			}
		}
		if (head == n)
			break;
		cur = res[head].fixer;
		depth = res[head].depth;
		head++;
	}
	free(names.v);
	free(pos.v);
	g_hash_table_destroy(seen);
	if (n > 1 && tree_order(idx, root, res, n) < 0) {
		free(res);
		return FS_ENOMEM;
	}
	if (n > INT32_MAX) {
		free(res);
		return FS_ENOMEM;
	}
	*out = res;
	return (int)n;
oom:
	free(names.v);
	free(pos.v);
	g_hash_table_destroy(seen);
	free(res);
	return FS_ENOMEM;
}

static int release_index(const struct fs_index *idx, const char *name)
{
	const struct layer *T = top(idx);
	size_t i;

	for (i = 1; i < T->nreleases; i++)
		if (!strcmp(lstr(T, T->releases[i]), name))
			return (int)i;
	return -1;
}

static int branch_index(const struct fs_index *idx, const char *name)
{
	const struct layer *T = top(idx);
	size_t i;

	for (i = 1; i < T->nbranches; i++)
		if (!strcmp(lstr(T, T->branches[i].name), name))
			return (int)i;
	return -1;
}

bool fs_index_has_branch(const struct fs_index *idx, const char *branch)
{
	return branch_index(idx, branch) > 0;
}

const char *fs_index_branch_fork(const struct fs_index *idx, const char *branch)
{
	const struct layer *T = top(idx);
	int b = branch_index(idx, branch);

	if (b <= 0 || !T->branches[b].fork)
		return NULL;
	return lstr(T, T->releases[T->branches[b].fork]);
}

bool fs_index_in_branch(const struct fs_index *idx, fs_cid c, const char *branch,
			const char *base)
{
	const struct layer *T = top(idx);
	const struct fs_disk_commit *dc = commit_at(idx, c, NULL);
	unsigned rel = release_of(idx, c);
	int b = branch_index(idx, branch), r;

	if (b <= 0)
		return false;
	if (dc->branch == 0) {
		uint16_t fork = T->branches[b].fork;
		return fork && rel && rel <= fork;
	}
	if (dc->branch != b)
		return false;
	if (!base)
		return true;
	if (!rel)
		return false;
	r = release_index(idx, base);
	if (r > 0)
		return rel <= (unsigned)r;
	return fs_release_cmp(lstr(T, T->releases[rel]), base) <= 0;
}
