/* fixscan: reading and querying the fixes index (see index-private.h for
 * the file layout, index-build.c for how it is made). */
#include <errno.h>
#include <fcntl.h>
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

struct fs_index {
	char *cache_path;
	struct stat file; /* of the cache file when it was loaded */
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
	const char *strings;
	size_t strings_len;
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

/* fs_idx_checksum() of LEN bytes of FD from OFFSET, read in chunks; the
 * chunks are multiples of 8 bytes, so the result is the same.  Returns 0
 * on a read error, which no valid file has as its checksum in practice. */
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
		size_t want = len - done < CHUNK ? len - done : CHUNK;
		ssize_t got = pread(fd, buf, want, (off_t)(offset + done));
		if (got <= 0) {
			free(buf);
			return 0;
		}
		fs_idx_ck_update(&ck, buf, (size_t)got);
		done += (size_t)got;
	}
	free(buf);
	return fs_idx_ck_final(&ck);
}

/* VERIFY 0 skips the checksum: only for a file this process has just
 * written and synced, under the lock. */
static int idx_load(struct fs_index **out, const char *path, int verify,
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
	};
	struct fs_index *idx = NULL;
	const struct fs_disk_header *h;
	struct stat st;
	int fd, rc = 0;
	size_t i;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return fs_error_set(err, FS_ENOTFOUND, "no cache '%s'", path);
		return fs_error_set(err, FS_EIO, "cannot open '%s': %s", path,
				    strerror(errno));
	}
	if (fstat(fd, &st) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if ((size_t)st.st_size < sizeof(struct fs_disk_header)) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is truncated (%lld bytes)",
				  path, (long long)st.st_size);
		goto out;
	}
	idx = calloc(1, sizeof(*idx));
	if (!idx || !(idx->cache_path = strdup(path))) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	idx->file = st;
	idx->map_len = st.st_size;
	idx->map = mmap(NULL, idx->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (idx->map == MAP_FAILED) {
		idx->map = NULL;
		rc = fs_error_set(err, FS_EIO, "cannot map '%s': %s", path, strerror(errno));
		goto out;
	}
	/* Lookups are binary searches: read-ahead around each fault would
	 * only pull in pages nobody asked for. */
	madvise(idx->map, idx->map_len, MADV_RANDOM);
	h = idx->hdr = idx->map;
	if (memcmp(h->magic, FS_IDX_MAGIC, 8)) {
		rc = fs_error_set(err, FS_ECORRUPT, "'%s' is not a fixscan cache", path);
		goto out;
	}
	if (h->version != FS_IDX_VERSION || h->bom != FS_IDX_BOM) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' has format version %u, not %u",
				  path, h->version, FS_IDX_VERSION);
		goto out;
	}
	if (h->file_size != idx->map_len) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is truncated", path);
		goto out;
	}
	for (i = 0; i < SEC_COUNT; i++) {
		if (!section_ok(h, i, elem[i], idx->map_len)) {
			rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' has a bad section table", path);
			goto out;
		}
	}
	/* The checksum reads the file through a small buffer, not through
	 * the mapping, so that a lookup's resident memory stays the few
	 * pages it touches rather than the whole file. */
	if (verify &&
	    fs_idx_file_checksum(h, checksum_fd(fd, sizeof(*h), idx->map_len - sizeof(*h))) !=
	    h->checksum) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' fails its checksum", path);
		goto out;
	}
#define SEC(s) ((const void *)((const char *)idx->map + h->sec[s].offset))
	idx->commits = SEC(SEC_COMMITS);
	idx->ncommits = h->sec[SEC_COMMITS].count;
	idx->parents = SEC(SEC_PARENTS);
	idx->refs = SEC(SEC_REFS);
	idx->nrefs = h->sec[SEC_REFS].count;
	idx->refkeys = SEC(SEC_REFKEYS);
	idx->refsubj = SEC(SEC_REFSUBJ);
	idx->nrefsubj = h->sec[SEC_REFSUBJ].count;
	idx->subjects = SEC(SEC_SUBJECTS);
	idx->nsubjects = h->sec[SEC_SUBJECTS].count;
	idx->releases = SEC(SEC_RELEASES);
	idx->nreleases = h->sec[SEC_RELEASES].count;
	idx->branches = SEC(SEC_BRANCHES);
	idx->nbranches = h->sec[SEC_BRANCHES].count;
	idx->strings = SEC(SEC_STRINGS);
	idx->strings_len = h->sec[SEC_STRINGS].count;
#undef SEC
	/* Cheap structural checks, so a file with a valid checksum but wrong
	 * contents (a bug, not a disk error) cannot send lookups astray. */
	if (idx->strings_len == 0 || idx->strings[idx->strings_len - 1] != '\0' ||
	    idx->nreleases == 0 || idx->nbranches == 0 ||
	    h->sec[SEC_REFKEYS].count != idx->nrefs) {
		rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
		goto out;
	}
	/* The large tables are not walked here: the checksum vouches for
	 * them, and walking them would make every lookup resident in all of
	 * the file (220 MB at kernel scale) instead of the pages it needs. */
	for (i = 0; i < idx->nreleases; i++)
		if (idx->releases[i] >= idx->strings_len) {
			rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
			goto out;
		}
	for (i = 0; i < idx->nbranches; i++)
		if (idx->branches[i].name >= idx->strings_len ||
		    idx->branches[i].fork >= idx->nreleases) {
			rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
			goto out;
		}
	{
		uint64_t ntips;
		const struct fs_disk_tip *tips = fs_idx_section(idx, SEC_TIPS, &ntips);
		for (i = 0; i < ntips; i++)
			if (tips[i].name >= idx->strings_len) {
				rc = fs_error_set(err, FS_ECORRUPT, "cache '%s' is inconsistent", path);
				goto out;
			}
	}
	*out = idx;
	idx = NULL;
out:
	close(fd);
	fs_index_free(idx);
	return rc;
}

int fs_idx_load(struct fs_index **out, const char *path, struct fs_error *err)
{
	return idx_load(out, path, 1, err);
}

/* Is the cache file at PATH still the one IDX was loaded from? */
static int same_file(const struct fs_index *idx, const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_dev == idx->file.st_dev &&
	       st.st_ino == idx->file.st_ino && st.st_size == idx->file.st_size &&
	       st.st_mtim.tv_sec == idx->file.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == idx->file.st_mtim.tv_nsec;
}

const struct fs_disk_header *fs_idx_header(const struct fs_index *idx)
{
	return idx->hdr;
}

const void *fs_idx_section(const struct fs_index *idx, enum fs_idx_section s,
			   uint64_t *count)
{
	*count = idx->hdr->sec[s].count;
	return (const char *)idx->map + idx->hdr->sec[s].offset;
}

void fs_index_free(struct fs_index *idx)
{
	if (!idx)
		return;
	if (idx->map)
		munmap(idx->map, idx->map_len);
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

static const char *str(const struct fs_index *idx, uint32_t off)
{
	return off < idx->strings_len ? idx->strings + off : "";
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

/* First commit whose id is >= the prefix. */
static size_t lower_bound_prefix(const struct fs_index *idx, const uint8_t *key,
				 size_t len)
{
	size_t lo = 0, hi = idx->ncommits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (prefix_cmp(key, len, idx->commits[mid].oid) > 0)
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

	if (!valid_hex(hex, &len))
		return 0;
	fs_idx_pack_hex(key, hex, len);
	for (i = lower_bound_prefix(idx, key, len);
	     i < idx->ncommits && prefix_cmp(key, len, idx->commits[i].oid) == 0; i++) {
		if (n < max)
			out[n] = (fs_cid)i;
		n++;
	}
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
	unpack_hex(hex, idx->commits[c].oid, 40);
}

const char *fs_index_commit_subject(const struct fs_index *idx, fs_cid c)
{
	return str(idx, idx->commits[c].subject);
}

const char *fs_index_commit_branch(const struct fs_index *idx, fs_cid c)
{
	if (idx->commits[c].branch == 0)
		return "mainline";
	return str(idx, idx->branches[idx->commits[c].branch].name);
}

bool fs_index_commit_is_mainline(const struct fs_index *idx, fs_cid c)
{
	return idx->commits[c].branch == 0;
}

const char *fs_index_commit_release(const struct fs_index *idx, fs_cid c)
{
	uint16_t r = idx->commits[c].release;

	return r ? str(idx, idx->releases[r]) : NULL;
}

static void fill_ref(const struct fs_index *idx, size_t pos, struct fs_index_ref *out)
{
	const struct fs_disk_ref *r = &idx->refs[pos];

	out->kind = r->kind;
	unpack_hex(out->hex, r->key, r->keylen);
	out->subject = r->subject ? str(idx, r->subject) : NULL;
	out->source = r->source;
}

size_t fs_index_commit_refs(const struct fs_index *idx, fs_cid c,
			    struct fs_index_ref *out, size_t max)
{
	const struct fs_disk_commit *dc = &idx->commits[c];
	size_t i;

	for (i = 0; i < dc->nrefs && i < max; i++)
		fill_ref(idx, dc->ref_first + i, &out[i]);
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
	size_t i, n = 0, pass;

	if (!h)
		return 0;
	/* Two passes so that mainline commits come first. */
	for (pass = 0; pass < 2; pass++) {
		for (i = hash_lower_bound(idx->subjects, idx->nsubjects, h);
		     i < idx->nsubjects && idx->subjects[i].hash == h; i++) {
			fs_cid c = idx->subjects[i].value;
			if ((idx->commits[c].branch == 0) != (pass == 0))
				continue;
			if (!subjects_equal(subject, fs_index_commit_subject(idx, c)))
				continue;
			if (n < max)
				out[n] = c;
			n++;
		}
	}
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

static size_t refkeys_lower_bound(const struct fs_index *idx, const uint8_t *key,
				  size_t len)
{
	size_t lo = 0, hi = idx->nrefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (refkey_cmp(&idx->refs[idx->refkeys[mid]], key, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

/* The positions of every ref of a kind in KINDS that names commit C: by
 * its id or an abbreviation of it (4..40 digits), or by C's subject, and
 * that fs_index_ref_target() resolves to C.  In ref position order, each
 * once.  Returns 0 or -1 when out of memory. */
static int refs_naming(const struct fs_index *idx, fs_cid c, unsigned kinds,
		       struct u32vec *out)
{
	const uint8_t *oid = idx->commits[c].oid;
	struct u32vec cand = { NULL, 0, 0 };
	struct fs_index_ref ref;
	uint8_t key[20];
	size_t len, i;
	uint64_t h;

	out->n = 0;
	for (len = 4; len <= 40; len++) {
		memset(key, 0, 20);
		memcpy(key, oid, len / 2);
		if (len % 2)
			key[len / 2] = oid[len / 2] & 0xf0;
		for (i = refkeys_lower_bound(idx, key, len); i < idx->nrefs; i++) {
			uint32_t pos = idx->refkeys[i];
			if (refkey_cmp(&idx->refs[pos], key, len))
				break;
			if ((kinds & FS_REF_BIT(idx->refs[pos].kind)) && u32_push(&cand, pos) < 0)
				goto oom;
		}
	}
	h = fs_idx_subject_hash(fs_index_commit_subject(idx, c));
	for (i = h ? hash_lower_bound(idx->refsubj, idx->nrefsubj, h) : idx->nrefsubj;
	     i < idx->nrefsubj && idx->refsubj[i].hash == h; i++) {
		uint32_t pos = idx->refsubj[i].value;
		if ((kinds & FS_REF_BIT(idx->refs[pos].kind)) && u32_push(&cand, pos) < 0)
			goto oom;
	}
	u32_uniq(&cand);
	for (i = 0; i < cand.n; i++) {
		fill_ref(idx, cand.v[i], &ref);
		if (fs_index_ref_target(idx, &ref, NULL, NULL) == c && u32_push(out, cand.v[i]) < 0)
			goto oom;
	}
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

/* Every stable backport of C into OUT (sorted, each once). */
static int backports_all(const struct fs_index *idx, fs_cid c, struct u32vec *out)
{
	struct u32vec pos = { NULL, 0, 0 };
	size_t i;
	int rc;

	out->n = 0;
	rc = refs_naming(idx, c, FS_REF_BIT(FS_REF_UPSTREAM), &pos);
	for (i = 0; rc == 0 && i < pos.n; i++) {
		fs_cid s = idx->refs[pos.v[i]].source;
		if (s != c && idx->commits[s].branch != 0 && u32_push(out, s) < 0)
			rc = -1;
	}
	free(pos.v);
	u32_uniq(out);
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
	const struct fs_disk_commit *dc = &idx->commits[c];
	struct fs_index_ref ref;
	size_t i;

	for (i = 0; i < dc->nrefs; i++) {
		if (idx->refs[dc->ref_first + i].kind != FS_REF_UPSTREAM)
			continue;
		fill_ref(idx, dc->ref_first + i, &ref);
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
	return memcmp(idx->commits[x->fixer].oid, idx->commits[y->fixer].oid, 20);
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
				if (idx->commits[f].branch != 0 &&
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
	size_t i;

	for (i = 1; i < idx->nreleases; i++)
		if (!strcmp(str(idx, idx->releases[i]), name))
			return (int)i;
	return -1;
}

static int branch_index(const struct fs_index *idx, const char *name)
{
	size_t i;

	for (i = 1; i < idx->nbranches; i++)
		if (!strcmp(str(idx, idx->branches[i].name), name))
			return (int)i;
	return -1;
}

bool fs_index_has_branch(const struct fs_index *idx, const char *branch)
{
	return branch_index(idx, branch) > 0;
}

const char *fs_index_branch_fork(const struct fs_index *idx, const char *branch)
{
	int b = branch_index(idx, branch);

	if (b <= 0 || !idx->branches[b].fork)
		return NULL;
	return str(idx, idx->releases[idx->branches[b].fork]);
}

bool fs_index_in_branch(const struct fs_index *idx, fs_cid c, const char *branch,
			const char *base)
{
	const struct fs_disk_commit *dc = &idx->commits[c];
	int b = branch_index(idx, branch);
	const char *rel;

	if (b <= 0)
		return false;
	if (dc->branch == 0) {
		uint16_t fork = idx->branches[b].fork;
		return fork && dc->release && dc->release <= fork;
	}
	if (dc->branch != b)
		return false;
	if (!base)
		return true;
	if (!dc->release)
		return false;
	rel = str(idx, idx->releases[dc->release]);
	if (release_index(idx, base) > 0)
		return dc->release <= release_index(idx, base);
	return fs_release_cmp(rel, base) <= 0;
}
