/* Unit tests for the fixes index's cache file: written and read back,
 * its stamps, checksums and the binary search over its tables, and what
 * a damaged, crafted, stale or odd file does (refused, rebuilt). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/index.h"
#include "index/format.h"

#include "index-helpers.h"

static void test_cache_round_trip(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *d1, *d2, *path;
	struct stat sb;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.commits, 18);
	assert_int_equal(st.new_commits, 18);
	assert_true(st.rebuilt);
	assert_string_equal(st.note, "");
	path = strdup(fs_index_cache_path(idx));
	/* The default cache lives under $XDG_CACHE_HOME/fixscan/. */
	assert_true(g_str_has_prefix(path, getenv("XDG_CACHE_HOME")));
	assert_non_null(strstr(path, "/fixscan/"));
	d1 = dump(idx);
	fs_index_free(idx);
	assert_int_equal(stat(path, &sb), 0);

	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.commits, 18);
	assert_int_equal(st.new_commits, 0);
	assert_false(st.rebuilt);
	assert_string_equal(st.note, "");
	assert_string_equal(fs_index_cache_path(idx), path);
	d2 = dump(idx);
	assert_same_dump(d1, d2);
	fs_index_free(idx);
	g_free(d2);

	/* --no-update reads the cache even after the refs moved. */
	commit(k.r, "master", k.g, "kernel: one more\n");
	repo_flush(k.r);
	{
		struct fs_index_opts o = FS_INDEX_OPTS_INIT;
		struct fs_error err = FS_ERROR_INIT;
		o.repo_path = k.r->dir;
		o.no_update = true;
		assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
		assert_int_equal(st.new_commits, 0);
		assert_int_equal(fs_index_count(idx), 18);
		fs_index_free(idx);
	}
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 1);
	assert_int_equal(fs_index_count(idx), 19);
	fs_index_free(idx);
	g_free(d1);
	free(path);
	repo_free(k.r);
}
/* Damage the cache file at PATH in one of several ways. */
enum damage { FLIP_BODY, FLIP_LAST, FLIP_HEADER, FLIP_SECTIONS, FLIP_COUNT, TRUNCATE, EMPTY,
	      MAGIC, VERSION, GARBAGE, DAMAGE_COUNT };
static void damage(const char *path, enum damage how)
{
	struct stat sb;
	unsigned char byte;
	off_t at = 0;
	int fd;

	assert_int_equal(stat(path, &sb), 0);
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	switch (how) {
	case FLIP_BODY: at = sb.st_size / 2; break;
	case FLIP_LAST: at = sb.st_size - 1; break;
	case FLIP_HEADER: at = 32; break;   /* the repository path's offset */
	case FLIP_SECTIONS: at = 40 + 16 * 3; break; /* a section's offset */
	case FLIP_COUNT: at = 48; break;    /* the number of commits */
	case TRUNCATE: assert_int_equal(ftruncate(fd, sb.st_size / 2), 0); break;
	case EMPTY: assert_int_equal(ftruncate(fd, 0), 0); break;
	case MAGIC: at = 0; break;
	case VERSION: at = 8; break;
	case GARBAGE: {
		char junk[4096];
		memset(junk, 'x', sizeof(junk));
		assert_int_equal(ftruncate(fd, 0), 0);
		assert_int_equal(pwrite(fd, junk, sizeof(junk), 0), (ssize_t)sizeof(junk));
		break;
	}
	default: break;
	}
	if (how != TRUNCATE && how != EMPTY && how != GARBAGE) {
		assert_int_equal(pread(fd, &byte, 1, at), 1);
		byte ^= how == VERSION ? 0x07 : 0x10;
		assert_int_equal(pwrite(fd, &byte, 1, at), 1);
	}
	close(fd);
}
/* A cache that passed the full check once is stamped ("<cache>.verified")
 * and not read whole on the next open; a byte changed in place afterwards,
 * with the modification time put back, still fails, because the stamp
 * holds the change time too. */
static void test_verified_stamp(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got, *path, *stamp;
	struct stat before;
	struct timespec times[2];

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	want = dump(idx);
	path = strdup(fs_index_cache_path(idx));
	fs_index_free(idx);
	assert_true(asprintf(&stamp, "%s.verified", path) > 0);
	/* The open after the build verifies the file and stamps it. */
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_string_equal(st.note, "");
	fs_index_free(idx);
	assert_int_equal(access(stamp, R_OK), 0);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_string_equal(st.note, "");
	assert_int_equal(st.new_commits, 0);
	fs_index_free(idx);

	assert_int_equal(stat(path, &before), 0);
	damage(path, FLIP_BODY);
	times[0] = before.st_atim;
	times[1] = before.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
	idx = open_idx(k.r->dir, NULL, false, &st);
	if (!strstr(st.note, "checksum"))
		fail_msg("a changed stamped cache was not checked again: note '%s'", st.note);
	assert_true(st.rebuilt);
	got = dump(idx);
	assert_same_dump(want, got);
	g_free(got);
	fs_index_free(idx);
	g_free(want);
	free(stamp);
	free(path);
	repo_free(k.r);
}
static ino_t inode_of(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		fail_msg("stat %s: %s", path, strerror(errno));
	return st.st_ino;
}
static char *slurp_file(const char *path)
{
	gchar *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		fail_msg("cannot read %s", path);
	return text;
}
/* "<cache>.refs": a command that finds the refs as they were at the last
 * build or check reads no object and rewrites nothing; anything that
 * changes what the index reads, or another cache file, is not hidden by
 * it. */
static void test_refs_stamp(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *path, *refs, *delta, *stale;
	size_t count;
	ino_t stamp_ino, cache_ino;
	int h;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	path = strdup(fs_index_cache_path(idx));
	count = fs_index_count(idx);
	fs_index_free(idx);
	assert_true(asprintf(&refs, "%s.refs", path) > 0);
	assert_true(asprintf(&delta, "%s.delta", path) > 0);
	/* the build stamps the cache it wrote */
	stamp_ino = inode_of(refs);
	cache_ino = inode_of(path);

	/* Nothing moved: the stamp answers, nothing is written. */
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	assert_false(st.rebuilt);
	fs_index_free(idx);
	assert_true(inode_of(refs) == stamp_ino);
	assert_true(inode_of(path) == cache_ino);
	assert_int_equal(access(delta, F_OK), -1);

	/* Packing the refs moves no ref: still fresh, from the stamp. */
	run("git -C '%s' pack-refs --all", k.r->dir);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	fs_index_free(idx);
	assert_true(inode_of(refs) == stamp_ino);
	assert_int_equal(access(delta, F_OK), -1);

	/* A tag made again (a new tag object, the same commit): the stamp
	 * no longer fits; nothing is rebuilt, the stamp is new. */
	run("git -C '%s' -c user.name=T -c user.email=t@example.org tag -f -a -m 'Linux 4.4.1 again' v4.4.1 v4.4.1^{commit} >/dev/null",
	    k.r->dir);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_false(st.rebuilt);
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(fs_index_count(idx), count);
	assert_string_equal(fs_index_commit_release(idx, cid_of(idx, id(k.r, k.s2))), "v4.4.1");
	fs_index_free(idx);
	assert_true(inode_of(refs) != stamp_ino);
	stamp_ino = inode_of(refs);
	idx = open_idx(k.r->dir, NULL, false, &st);
	fs_index_free(idx);
	assert_true(inode_of(refs) == stamp_ino);
	stale = slurp_file(refs);

	/* A new commit is seen, whatever the stamp says. */
	h = commit(k.r, "master", k.g, "kernel: one more\n");
	repo_flush(k.r);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 1);
	assert_int_equal(fs_index_count(idx), count + 1);
	fs_index_free(idx);

	/* The refs put back as they were, and the old stamp with them: it
	 * names the old refs but another cache file, so it is not trusted
	 * (trusted, the commit the refs lost would stay). */
	run("git -C '%s' update-ref refs/heads/master %s", k.r->dir, id(k.r, k.g));
	assert_true(g_file_set_contents(refs, stale, -1, NULL));
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(fs_index_count(idx), count);
	assert_int_equal(fs_index_resolve_all(idx, id(k.r, h), NULL, 0), 0);
	fs_index_free(idx);

	g_free(stale);
	free(delta);
	free(refs);
	free(path);
	repo_free(k.r);
}
static uint64_t u64_at(size_t i, const void *data)
{
	return ((const uint64_t *)data)[i];
}
static uint64_t interp_key;
static int u64_before(size_t i, const void *data)
{
	return ((const uint64_t *)data)[i] < interp_key;
}
static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}
/* The lookups' search agrees with a scan on even, clustered, repeated
 * and degenerate keys, for keys present, absent and beyond both ends. */
static void test_interp_lower_bound(void **state)
{
	enum { N = 5000 };
	uint64_t *v = malloc(N * sizeof(*v)), x = 88172645463325252ull;
	size_t sizes[] = { 0, 1, 2, 17, 100, N }, s, i, j, n;
	int shape;

	assert_non_null(v);
	for (shape = 0; shape < 4; shape++) {
		for (s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			n = sizes[s];
			for (i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				v[i] = shape == 0 ? x :		    /* even */
				       shape == 1 ? x >> 40 :	    /* all near 0 */
				       shape == 2 ? (x & 7) << 60 : /* few values, repeated */
				       0x5555555555555555ull;	    /* one value */
			}
			qsort(v, n, sizeof(*v), u64_cmp);
			for (i = 0; i < n + 40; i++) {
				size_t want = 0, got;
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				interp_key = i < n ? v[i] : i < n + 20 ? x : (i & 1) ? 0 : UINT64_MAX;
				if (i < n && (i & 1))
					interp_key++;
				for (j = 0; j < n && v[j] < interp_key; j++)
					want++;
				got = fsi_interp_lower_bound(n, interp_key, u64_at, u64_before, v);
				if (got != want)
					fail_msg("shape %d n %zu key %llx: %zu, not %zu", shape, n,
						 (unsigned long long)interp_key, got, want);
			}
		}
	}
	free(v);
}
static void test_corrupt_cache(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got, *path;
	int how;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	want = dump(idx);
	path = strdup(fs_index_cache_path(idx));
	fs_index_free(idx);
	for (how = 0; how < DAMAGE_COUNT; how++) {
		damage(path, how);
		idx = open_idx(k.r->dir, NULL, false, &st);
		if (!strstr(st.note, "cache"))
			fail_msg("damage %d: note '%s' does not mention the cache", how, st.note);
		assert_null(strchr(st.note, '\n'));
		assert_true(st.rebuilt);
		assert_int_equal(st.new_commits, 18);
		got = dump(idx);
		assert_same_dump(want, got);
		g_free(got);
		fs_index_free(idx);
		/* And the rebuilt file is good again. */
		idx = open_idx(k.r->dir, NULL, false, &st);
		assert_string_equal(st.note, "");
		assert_int_equal(st.new_commits, 0);
		fs_index_free(idx);
	}
	/* A directory where the cache should be is an error, not a crash. */
	{
		struct fs_index_opts o = FS_INDEX_OPTS_INIT;
		struct fs_error err = FS_ERROR_INIT;
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s/adir.idx", tmp_root);
		mkdir(dir, 0700);
		o.repo_path = k.r->dir;
		o.cache_path = dir;
		idx = NULL;
		if (fs_index_open(&idx, &o, &st, &err) == 0) {
			got = dump(idx);
			assert_same_dump(want, got);
			g_free(got);
			fs_index_free(idx);
		} else {
			assert_true(err.message[0] != '\0');
			assert_null(idx);
		}
	}
	free(path);
	g_free(want);
	repo_free(k.r);
}
/* Crafted caches: one field of one table set out of its bounds (or a
 * sorted table unsorted), the checksum then recomputed with the format's
 * own functions, as anyone can.  Each must be rebuilt, not believed. */
enum craft { KEYLEN, REF_SOURCE, REF_KIND, REF_SUBJECT, REF_FIRST, PARENT_FIRST, PARENT,
	     RELEASE, BRANCH, SUBJECT, REFKEY, REFSUBJ, SUBJ_VALUE, COMMIT_ORDER,
	     HASH_ORDER, CRAFT_COUNT };
#define SECP(h, buf, s) ((void *)((buf) + (h)->sec[s].offset))
static void craft_field(struct fs_disk_header *h, char *buf, enum craft how)
{
	struct fs_disk_commit *c = SECP(h, buf, SEC_COMMITS);
	struct fs_disk_ref *r = SECP(h, buf, SEC_REFS);
	struct fs_disk_hash *subj = SECP(h, buf, SEC_SUBJECTS);
	uint64_t nc = h->sec[SEC_COMMITS].count, nr = h->sec[SEC_REFS].count, i;

	assert_true(nc >= 2 && nr > 0);
	for (i = 0; i < nr; i++) {
		switch (how) {
		case KEYLEN: r[i].keylen = 41 + (uint8_t)i; break; /* the stack overflow */
		case REF_SOURCE: r[i].source = 0x7fff0000u; break;
		case REF_KIND: r[i].kind = 77; break;
		case REF_SUBJECT: r[i].subject = 0x7fff0000u; break;
		default: break;
		}
	}
	for (i = 0; i < nc; i++) {
		switch (how) {
		case REF_FIRST: c[i].ref_first = 0x7fff0000u + c[i].ref_first; break;
		case PARENT_FIRST: c[i].parent_first += 0x10000000u; break;
		case RELEASE: c[i].release = 0xfff0; break;
		case BRANCH: c[i].branch = 0xf0; break;
		case SUBJECT: c[i].subject = 0x7fff0000u; break;
		default: break;
		}
	}
	switch (how) {
	case PARENT:
		assert_true(h->sec[SEC_PARENTS].count > 0);
		((uint32_t *)SECP(h, buf, SEC_PARENTS))[0] = 0x7fff0000u;
		break;
	case REFKEY: ((uint32_t *)SECP(h, buf, SEC_REFKEYS))[nr - 1] = 0x7fff0000u; break;
	case REFSUBJ:
		assert_true(h->sec[SEC_REFSUBJ].count > 0);
		((struct fs_disk_hash *)SECP(h, buf, SEC_REFSUBJ))[0].value = 0x7fff0000u;
		break;
	case SUBJ_VALUE: subj[h->sec[SEC_SUBJECTS].count - 1].value = 0x7fff0000u; break;
	case COMMIT_ORDER: {
		struct fs_disk_commit t = c[0];
		c[0] = c[nc - 1];
		c[nc - 1] = t;
		break;
	}
	case HASH_ORDER: {
		struct fs_disk_hash t = subj[0];
		assert_true(h->sec[SEC_SUBJECTS].count > 1);
		subj[0] = subj[h->sec[SEC_SUBJECTS].count - 1];
		subj[h->sec[SEC_SUBJECTS].count - 1] = t;
		break;
	}
	default: break;
	}
}
/* Rewrite the cache file at PATH with the craft HOW (CRAFT_COUNT: none)
 * and, unless 0, the byte-order mark BOM; then give it a valid checksum
 * again, computed as the writer does. */
static void craft(const char *path, enum craft how, uint32_t bom)
{
	struct fs_disk_header *h;
	struct fsi_body_ck ck;
	gchar *buf;
	gsize len;

	assert_true(g_file_get_contents(path, &buf, &len, NULL));
	assert_true(len > sizeof(*h));
	h = (struct fs_disk_header *)buf;
	if (how < CRAFT_COUNT)
		craft_field(h, buf, how);
	if (bom)
		h->bom = bom;
	fsi_body_ck_init(&ck, len - sizeof(*h));
	fsi_body_ck_update(&ck, buf + sizeof(*h), len - sizeof(*h));
	h->checksum = fsi_file_checksum(h, fsi_body_ck_final(&ck));
	assert_true(g_file_set_contents(path, buf, (gssize)len, NULL));
	g_free(buf);
}
static void test_crafted_cache(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got, *path, *saved;
	int how;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	want = dump(idx);
	path = strdup(fs_index_cache_path(idx));
	fs_index_free(idx);
	saved = g_strdup_printf("%s.saved", path);
	run("cp '%s' '%s'", path, saved);
	/* The recomputed checksum alone changes nothing. */
	craft(path, CRAFT_COUNT, 0);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_false(st.rebuilt);
	fs_index_free(idx);
	for (how = 0; how < CRAFT_COUNT; how++) {
		run("cp '%s' '%s'", saved, path);
		craft(path, how, 0);
		idx = open_idx(k.r->dir, NULL, false, &st);
		if (!st.rebuilt || !strstr(st.note, "is inconsistent; rebuilding"))
			fail_msg("craft %d: not rebuilt (note '%s')", how, st.note);
		got = dump(idx);
		assert_same_dump(want, got);
		g_free(got);
		fs_index_free(idx);
	}
	/* A cache of the other byte order says so. */
	run("cp '%s' '%s'", saved, path);
	craft(path, CRAFT_COUNT, 0x04030201u);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.rebuilt);
	assert_non_null(strstr(st.note, "other byte order"));
	fs_index_free(idx);
	unlink(saved);
	g_free(saved);
	free(path);
	g_free(want);
	repo_free(k.r);
}
/* The same in a delta: its refs name commits of the cache too. */
static void test_crafted_delta(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *dpath, *want, *got;
	int how, h, h2;

	setenv("FIXSCAN_TEST_DELTA", "always", 1);
	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	dpath = g_strdup_printf("%s.delta", fs_index_cache_path(idx));
	fs_index_free(idx);
	h = commit(k.r, "master", k.g, "kernel: in the delta\n\nFixes: %.12s (\"drm: add widget\")\n"
		   "Fixes: %.12s (\"mm: fix frobnicator leak\")\n", id(k.r, k.d), id(k.r, k.b));
	h2 = commit(k.r, "master", h, "kernel: more in the delta\n\nFixes: %.12s (\"x\")\n",
		    id(k.r, h));
	repo_flush(k.r);
	want = rebuilt_dump(k.r->dir);
	for (how = 0; how < CRAFT_COUNT; how++) {
		if (how == HASH_ORDER || how == REFSUBJ)
			continue; /* too few entries in a two-commit delta */
		/* a cache without the two commits, then a delta with them */
		run("cd '%s' && git update-ref refs/heads/master %s", k.r->dir, id(k.r, k.g));
		fs_index_free(open_idx(k.r->dir, NULL, true, &st));
		run("cd '%s' && git update-ref refs/heads/master %s", k.r->dir, id(k.r, h2));
		fs_index_free(open_idx(k.r->dir, NULL, false, &st));
		assert_false(st.rebuilt);
		assert_int_equal(access(dpath, F_OK), 0);
		craft(dpath, how, 0);
		idx = open_idx(k.r->dir, NULL, false, &st);
		if (!st.rebuilt || !strstr(st.note, ".delta' is inconsistent"))
			fail_msg("craft %d: not rebuilt (note '%s')", how, st.note);
		got = dump(idx);
		assert_same_dump(want, got);
		g_free(got);
		fs_index_free(idx);
	}
	unsetenv("FIXSCAN_TEST_DELTA");
	g_free(want);
	g_free(dpath);
	repo_free(k.r);
}
/* A writer killed before its rename leaves its temporary: the next open
 * removes it, on the fast path (the lock free) as on an update. */
static void test_stale_temps(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *t1, *t2, *t3, *other;
	const char *path;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	path = fs_index_cache_path(idx);
	t1 = g_strdup_printf("%s.tmp.AbC123", path);
	t2 = g_strdup_printf("%s.delta.tmp.zz9Z_x", path);
	t3 = g_strdup_printf("%s.refs.tmp.q1w2e3", path);
	other = g_strdup_printf("%s.tmp.notours", path);
	fs_index_free(idx);
	run("echo torn > '%s'; echo torn > '%s'; echo torn > '%s'; echo keep > '%s'", t1, t2, t3,
	    other);
	fs_index_free(open_idx(k.r->dir, NULL, false, &st));
	assert_false(st.rebuilt);
	assert_int_not_equal(access(t1, F_OK), 0);
	assert_int_not_equal(access(t2, F_OK), 0);
	assert_int_not_equal(access(t3, F_OK), 0);
	assert_int_equal(access(other, F_OK), 0);
	/* and under the lock, on an update */
	run("echo torn > '%s'", t1);
	commit(k.r, "master", k.g, "kernel: one more\n");
	repo_flush(k.r);
	fs_index_free(open_idx(k.r->dir, NULL, false, &st));
	assert_int_equal(st.new_commits, 1);
	assert_int_not_equal(access(t1, F_OK), 0);
	g_free(t1);
	g_free(t2);
	g_free(t3);
	g_free(other);
	repo_free(k.r);
}
/* A FIFO at the cache path (or its delta's) must not block the open: it
 * is no cache, and is replaced by one. */
static void test_fifo_cache(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *path, *dpath, *want, *got;
	int i;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	path = strdup(fs_index_cache_path(idx));
	dpath = g_strdup_printf("%s.delta", path);
	want = dump(idx);
	fs_index_free(idx);
	alarm(60); /* a hang fails the test instead of blocking the suite */
	for (i = 0; i < 2; i++) {
		const char *at = i ? dpath : path;
		unlink(at);
		assert_int_equal(mkfifo(at, 0600), 0);
		idx = open_idx(k.r->dir, NULL, false, &st);
		assert_true(st.rebuilt);
		assert_non_null(strstr(st.note, "not a regular file"));
		got = dump(idx);
		assert_same_dump(want, got);
		g_free(got);
		fs_index_free(idx);
		assert_int_not_equal(access(dpath, F_OK), 0);
	}
	alarm(0);
	g_free(want);
	g_free(dpath);
	free(path);
	repo_free(k.r);
}

/* The body checksum streamed in the writer's 64 KB pieces equals the two
 * halves summed apart and folded, as the loader does. */
static void test_body_checksum_halves(void **state)
{
	enum { LEN = (1 << 20) + 8 * 13 };
	unsigned char *buf = malloc(LEN);
	struct fsi_body_ck ck;
	uint64_t split, streamed, folded;
	size_t i, off;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < LEN; i++)
		buf[i] = (unsigned char)(i * 7 + (i >> 9));
	fsi_body_ck_init(&ck, LEN);
	for (off = 0; off < LEN; off += 65536)
		fsi_body_ck_update(&ck, buf + off, LEN - off < 65536 ? LEN - off : 65536);
	streamed = fsi_body_ck_final(&ck);
	split = fsi_body_split(LEN);
	assert_int_equal(split % 32, 0);
	folded = fsi_body_fold(fsi_checksum(buf, split),
				  fsi_checksum(buf + split, LEN - split));
	assert_int_equal(streamed, folded);
	buf[LEN - 1] ^= 1;
	assert_int_not_equal(fsi_body_fold(fsi_checksum(buf, split),
					      fsi_checksum(buf + split, LEN - split)),
			     streamed);
	free(buf);
}

/* The cache checksum is streamed by the writer in 64 KB pieces and by the
 * loader in 1 MB pieces: any split must give the same sum, and a changed,
 * moved or missing word must change it. */
static void test_checksum_pieces(void **state)
{
	enum { LEN = 8 * 1001 + 5 };
	static const size_t cuts[] = { 8, 24, 40, 32, 8, 800, 64 };
	unsigned char *buf = malloc(LEN), tmp[8];
	struct fsi_ck ck;
	uint64_t whole;
	size_t i, off = 0;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < LEN; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	whole = fsi_checksum(buf, LEN);
	fsi_ck_init(&ck, LEN);
	for (i = 0; off < LEN; i = (i + 1) % (sizeof(cuts) / sizeof(*cuts))) {
		size_t n = LEN - off < cuts[i] ? LEN - off : cuts[i];
		fsi_ck_update(&ck, buf + off, n);
		off += n;
	}
	assert_int_equal(fsi_ck_final(&ck), whole);

	buf[4000] ^= 1;
	assert_int_not_equal(fsi_checksum(buf, LEN), whole);
	buf[4000] ^= 1;
	/* words 0 and 4 share a lane, words 0 and 1 do not */
	memcpy(tmp, buf, 8), memcpy(buf, buf + 32, 8), memcpy(buf + 32, tmp, 8);
	assert_int_not_equal(fsi_checksum(buf, LEN), whole);
	memcpy(tmp, buf, 8), memcpy(buf, buf + 32, 8), memcpy(buf + 32, tmp, 8);
	memcpy(tmp, buf, 8), memcpy(buf, buf + 8, 8), memcpy(buf + 8, tmp, 8);
	assert_int_not_equal(fsi_checksum(buf, LEN), whole);
	memcpy(tmp, buf, 8), memcpy(buf, buf + 8, 8), memcpy(buf + 8, tmp, 8);
	assert_int_equal(fsi_checksum(buf, LEN), whole);
	assert_int_not_equal(fsi_checksum(buf, LEN - 8), whole);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_pieces),
		cmocka_unit_test_setup_teardown(test_cache_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verified_stamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crafted_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crafted_delta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_temps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_cache, setup, teardown),
		cmocka_unit_test(test_body_checksum_halves),
		cmocka_unit_test_setup_teardown(test_refs_stamp, setup, teardown),
		cmocka_unit_test(test_interp_lower_bound),
	};

	return cmocka_run_group_tests_name("index-cache", tests, NULL, NULL);
}
