/* Unit tests for the fixes index: real git repositories made with
 * git fast-import in a temporary directory, indexed through the public API.
 *
 * Commit dates are fixed and messages deterministic, so the same test
 * always makes the same ids; ids that a message must quote are read back
 * from fast-import's marks file, importing in as many rounds as needed.
 */
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

#include "fixscan/config.h"
#include "fixscan/index.h"
#include "index/format.h"

#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

static void tag_annotated(struct repo *r, const char *name, int mark)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "Linux %s", name + 1);
	g_string_append_printf(r->fi, "tag %s\nfrom :%d\n", name, mark);
	g_string_append_printf(r->fi, "tagger T A Gger <tagger@example.org> %ld +0000\n", r->when);
	r->when += 60;
	g_string_append_printf(r->fi, "data %zu\n%s\n", strlen(msg), msg);
}

/* ---- the standard kernel-like history ----------------------------------- */

struct kernel {
	struct repo *r;
	/* mainline */
	int base, a, x, b, c, rev, d, e, f, ping, pong, self, g;
	/* linux-4.4.y */
	int s1, s2, s3, s4, s5;
};

/* mainline (master):
 *   base, A, X          v4.4-rc1 (annotated) on X
 *   B  Fixes A          v4.4 (light) on B
 *   C  Fixes B
 *   R  reverts C
 *   D
 *   E  Fixes: the stable id of D's backport
 *   F  Fixes: A's id with X's subject (the id is wrong)
 *   PING Fixes: a bogus id with PONG's subject; PONG Fixes PING; SELF fixes
 *        itself by subject             v4.5-rc1 on SELF
 *   G (untagged tip)
 * linux-4.4.y, forked at B:
 *   S1 = C "commit X upstream." (carrying C's Fixes: B line too)
 *   S2 = D "[ Upstream commit X ]"  v4.4.1
 *   S3 = R "(cherry picked from commit X)"
 *   S4 = E "commit X upstream" (no dot)      v4.4.2
 *   S5 stable-only, untagged tip
 */
static void build_kernel(struct kernel *k, const char *name)
{
	struct repo *r = repo_new(name);

	k->r = r;
	k->base = commit(r, "master", 0, "Initial import\n");
	k->a = commit(r, "master", k->base, "mm: add frobnicator\n\nA new allocator helper.\n");
	k->x = commit(r, "master", k->a, "net: tidy up the socket code\n");
	tag_annotated(r, "v4.4-rc1", k->x);
	k->b = commit(r, "master", k->x,
		      "mm: fix frobnicator leak\n\nThe frobnicator forgot to free its buffer.\n\n"
		      "Fixes: %.12s (\"mm: add frobnicator\")\n"
		      "Signed-off-by: A U Thor <author@example.org>\n", id(r, k->a));
	tag_light(r, "v4.4", k->b);
	k->c = commit(r, "master", k->b,
		      "mm: fix the leak fix\n\nThe free came too early.\n\n"
		      "Fixes: %.16s (\"mm: fix frobnicator leak\")\n", id(r, k->b));
	k->rev = commit(r, "master", k->c,
			"Revert \"mm: fix the leak fix\"\n\nThis reverts commit %s.\n\n"
			"It broke the build on arm.\n", id(r, k->c));
	k->d = commit(r, "master", k->rev, "drm: add widget\n\nWidgets for everyone.\n");
	/* The stable branch forks at v4.4. */
	k->s1 = commit(r, "linux-4.4.y", k->b,
		       "mm: fix the leak fix\n\ncommit %s upstream.\n\nThe free came too early.\n\n"
		       "Fixes: %.12s (\"mm: fix frobnicator leak\")\n", id(r, k->c), id(r, k->b));
	k->s2 = commit(r, "linux-4.4.y", k->s1,
		       "drm: add widget\n\n[ Upstream commit %s ]\n\nWidgets for everyone.\n",
		       id(r, k->d));
	tag_annotated(r, "v4.4.1", k->s2);
	k->s3 = commit(r, "linux-4.4.y", k->s2,
		       "Revert \"mm: fix the leak fix\"\n\nThis reverts commit %s.\n\n"
		       "(cherry picked from commit %s)\n", id(r, k->s1), id(r, k->rev));
	k->e = commit(r, "master", k->d,
		      "drm: fix widget refcount\n\nFixes: %.12s (\"drm: add widget\")\n",
		      id(r, k->s2));
	k->s4 = commit(r, "linux-4.4.y", k->s3,
		       "drm: fix widget refcount\n\ncommit %s upstream\n\n"
		       "Fixes: %.12s (\"drm: add widget\")\n", id(r, k->e), id(r, k->s2));
	tag_light(r, "v4.4.2", k->s4);
	k->s5 = commit(r, "linux-4.4.y", k->s4, "usb: stable-only quirk\n\nNo upstream.\n");
	k->f = commit(r, "master", k->e,
		      "mm: harden frobnicator\n\nFixes: %.12s (\"net: tidy up the socket code\")\n",
		      id(r, k->a));
	k->ping = commit(r, "master", k->f,
			 "fs: make ping\n\nFixes: 0123456789ab (\"fs: make pong\")\n");
	k->pong = commit(r, "master", k->ping,
			 "fs: make pong\n\nFixes: %.12s (\"fs: make ping\")\n", id(r, k->ping));
	k->self = commit(r, "master", k->pong,
			 "fs: fix myself\n\nFixes: fedcba987654 (\"fs: fix myself\")\n");
	tag_annotated(r, "v4.5-rc1", k->self);
	k->g = commit(r, "master", k->self, "kernel: untagged work\n");
	repo_flush(r);
}

/* ---- per-test environment ---------------------------------------------- */

static int setup(void **state)
{
	*state = NULL;
	return repo_env_setup("index");
}

static int teardown(void **state)
{
	return repo_env_teardown();
}

/* ---- helpers on the index ---------------------------------------------- */

static struct fs_index *open_idx(const char *repo, const char *cache, bool rebuild,
				 struct fs_index_stats *st)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	int rc;

	o.repo_path = repo;
	o.cache_path = cache;
	o.rebuild = rebuild;
	o.threads = 2;
	rc = fs_index_open(&idx, &o, st, &err);
	if (rc < 0)
		fail_msg("fs_index_open: %s", err.message);
	assert_non_null(idx);
	return idx;
}

/* Open as the commands do: fixscan.mainline and fixscan.stable from the
 * repository's config (over the global one), passed in the options; the
 * library reads no config itself. */
static int open_configured(struct fs_index **idx, struct fs_index_opts *o,
			   struct fs_index_stats *st, struct fs_error *err)
{
	struct fs_config *cfg = NULL;
	char *mainline = NULL, **globs = NULL;
	size_t nglobs = 0;
	int rc;

	if (fs_config_open(&cfg, o->repo_path, NULL) < 0)
		assert_int_equal(fs_config_open(&cfg, NULL, NULL), 0);
	rc = fs_config_index_refs(cfg, &mainline, &globs, &nglobs, err);
	fs_config_free(cfg);
	if (rc < 0)
		return rc;
	o->mainline = mainline;
	o->stable_globs = (const char *const *)globs;
	o->nstable_globs = nglobs;
	rc = fs_index_open(idx, o, st, err);
	o->mainline = NULL;
	o->stable_globs = NULL;
	o->nstable_globs = 0;
	free(mainline);
	fs_config_strv_free(globs);
	return rc;
}

static struct fs_index *open_idx_configured(const char *repo, struct fs_index_stats *st)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;

	o.repo_path = repo;
	o.threads = 2;
	if (open_configured(&idx, &o, st, &err) < 0)
		fail_msg("fs_index_open: %s", err.message);
	assert_non_null(idx);
	return idx;
}

static fs_cid cid_of(const struct fs_index *idx, const char *hex)
{
	struct fs_error err = FS_ERROR_INIT;
	fs_cid c = FS_CID_NONE;

	if (fs_index_resolve(idx, hex, &c, &err) < 0)
		fail_msg("resolve %s: %s", hex, err.message);
	return c;
}

static const char *hex_of(const struct fs_index *idx, fs_cid c)
{
	static char buf[8][41];
	static int n;
	char *h = buf[n++ % 8];

	fs_index_commit_hex(idx, c, h);
	return h;
}

static void assert_release(const struct fs_index *idx, const char *hex, const char *want)
{
	const char *got = fs_index_commit_release(idx, cid_of(idx, hex));

	if (!want) {
		if (got)
			fail_msg("%.12s: release %s, want none", hex, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%.12s: release %s, want %s", hex, got ? got : "(none)", want);
}

/* Everything the index says about every commit, one line per fact, by id:
 * two indexes that print the same dump give the same answers. */
static int by_hex(const void *a, const void *b, void *data)
{
	char x[41], y[41];

	fs_index_commit_hex(data, *(const fs_cid *)a, x);
	fs_index_commit_hex(data, *(const fs_cid *)b, y);
	return strcmp(x, y);
}

static char *dump(const struct fs_index *idx)
{
	GString *s = g_string_new(NULL);
	size_t n = fs_index_count(idx), c, i, m, k;
	fs_cid *order = malloc((n + 1) * sizeof(*order));

	/* By id: commit numbers follow ids only within one layer of the
	 * cache. */
	assert_non_null(order);
	for (k = 0; k < n; k++)
		order[k] = (fs_cid)k;
	qsort_r(order, n, sizeof(*order), by_hex, (void *)idx);
	for (k = 0; k < n; k++) {
		c = order[k];
		struct fs_index_ref refs[32];
		struct fs_index_fix *fx = NULL;
		fs_cid list[32], up;
		const char *rel = fs_index_commit_release(idx, (fs_cid)c);
		int nf;

		g_string_append_printf(s, "%s %s | %s | %s | in-4.4:%d\n", hex_of(idx, (fs_cid)c),
				       fs_index_commit_subject(idx, (fs_cid)c),
				       fs_index_commit_branch(idx, (fs_cid)c), rel ? rel : "-",
				       fs_index_in_branch(idx, (fs_cid)c, "linux-4.4.y", NULL));
		up = fs_index_upstream_of(idx, (fs_cid)c);
		if (up != FS_CID_NONE)
			g_string_append_printf(s, "  upstream %s\n", hex_of(idx, up));
		m = fs_index_backports(idx, (fs_cid)c, list, 32);
		for (i = 0; i < m && i < 32; i++)
			g_string_append_printf(s, "  backport %s\n", hex_of(idx, list[i]));
		m = fs_index_commit_refs(idx, (fs_cid)c, refs, 32);
		for (i = 0; i < m && i < 32; i++) {
			enum fs_evidence ev = 0;
			bool mm = false;
			fs_cid t = fs_index_ref_target(idx, &refs[i], &ev, &mm);
			g_string_append_printf(s, "  ref %s %s (%s) -> %s %s%s\n",
					       fs_ref_kind_name(refs[i].kind), refs[i].hex,
					       refs[i].subject ? refs[i].subject : "",
					       t == FS_CID_NONE ? "none" : hex_of(idx, t),
					       t == FS_CID_NONE ? "" : fs_evidence_name(ev),
					       mm ? " mismatch" : "");
		}
		nf = fs_index_fixes_of(idx, (fs_cid)c, &fx);
		assert_true(nf >= 0);
		for (i = 0; i < (size_t)nf; i++)
			g_string_append_printf(s, "  fixed-by %s of %s depth %u %s %s\n",
					       hex_of(idx, fx[i].fixer), hex_of(idx, fx[i].fixed),
					       fx[i].depth, fx[i].revert ? "revert" : "fix",
					       fs_evidence_name(fx[i].evidence));
		free(fx);
	}
	free(order);
	return g_string_free(s, FALSE);
}

static void assert_same_dump(const char *want, const char *got)
{
	if (strcmp(want, got)) {
		fprintf(stderr, "--- want\n%s--- got\n%s", want, got);
		fail_msg("the two indexes differ");
	}
}

static char *rebuilt_dump(const char *repo)
{
	char cache[PATH_MAX];
	struct fs_index_stats st;
	struct fs_index *idx;
	char *d;

	snprintf(cache, sizeof(cache), "%s/fresh-%d.idx", tmp_root, (int)g_random_int_range(0, 1 << 30));
	idx = open_idx(repo, cache, true, &st);
	assert_true(st.rebuilt);
	d = dump(idx);
	fs_index_free(idx);
	unlink(cache);
	return d;
}

/* ---- tests ---------------------------------------------------------- */

static void test_resolve_prefixes(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_error err = FS_ERROR_INIT;
	fs_cid c, want;
	char hex[41], up[41];
	size_t len, i;
	int m;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_count(idx), 18);
	for (m = 1; m <= k.r->loaded; m++) {
		const char *full = id(k.r, m);
		want = cid_of(idx, full);
		assert_string_equal(hex_of(idx, want), full);
		for (len = 7; len <= 40; len++) {
			memcpy(hex, full, len);
			hex[len] = '\0';
			assert_int_equal(fs_index_resolve(idx, hex, &c, &err), 0);
			assert_int_equal(c, want);
		}
		for (i = 0; i <= 40; i++)
			up[i] = (char)g_ascii_toupper(full[i]);
		assert_int_equal(fs_index_resolve(idx, up, &c, &err), 0);
		assert_int_equal(c, want);
	}
	/* An id no commit has: flip the first digit of a real one. */
	memcpy(hex, id(k.r, k.a), 41);
	hex[0] = hex[0] == 'f' ? '0' : 'f';
	hex[12] = '\0';
	while (fs_index_resolve_all(idx, hex, &c, 1))
		hex[1] = hex[1] == '0' ? '1' : '0';
	assert_int_equal(fs_index_resolve(idx, hex, &c, &err), FS_ENOTFOUND);
	assert_non_null(strstr(err.message, hex));
	assert_null(strchr(err.message, '\n'));
	assert_int_equal(fs_index_resolve(idx, "xyz123456", &c, &err), FS_EUSAGE);
	assert_int_equal(fs_index_resolve(idx, "", &c, &err), FS_EUSAGE);
	memset(hex, 'a', 40);
	hex[40] = '\0';
	{
		char longer[42];
		snprintf(longer, sizeof(longer), "%s0", hex);
		assert_int_equal(fs_index_resolve(idx, longer, &c, &err), FS_EUSAGE);
	}
	fs_index_free(idx);
	repo_free(k.r);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_resolve_ambiguous(void **state)
{
	struct repo *r = repo_new("many");
	struct fs_index *idx;
	struct fs_error err = FS_ERROR_INIT;
	const char *sorted[1000];
	char prefix[5], *s1, *s2;
	int prev = 0, i, n = 600, found = -1;
	fs_cid c, all[8];

	for (i = 0; i < n; i++)
		prev = commit(r, "master", prev, "lib: change number %d\n", i);
	repo_flush(r);
	for (i = 0; i < n; i++)
		sorted[i] = r->ids[i + 1];
	qsort(sorted, n, sizeof(*sorted), str_cmp);
	for (i = 1; i < n && found < 0; i++)
		if (!strncmp(sorted[i - 1], sorted[i], 4) && (i + 1 == n || strncmp(sorted[i], sorted[i + 1], 4)))
			found = i;
	assert_true(found > 0); /* 600 ids almost surely share 4 digits somewhere */
	memcpy(prefix, sorted[found], 4);
	prefix[4] = '\0';
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_count(idx), n);
	assert_int_equal(fs_index_resolve(idx, prefix, &c, &err), FS_EAMBIGUOUS);
	assert_non_null(strstr(err.message, "ambiguous"));
	assert_non_null(strstr(err.message, prefix));
	s1 = g_strndup(sorted[found - 1], 12);
	s2 = g_strndup(sorted[found], 12);
	assert_non_null(strstr(err.message, s1));
	assert_non_null(strstr(err.message, s2));
	assert_null(strchr(err.message, '\n'));
	assert_int_equal(fs_index_resolve_all(idx, prefix, all, 8), 2);
	assert_string_equal(hex_of(idx, all[0]), sorted[found - 1]);
	assert_string_equal(hex_of(idx, all[1]), sorted[found]);
	/* resolve_all reports the total even beyond MAX. */
	assert_int_equal(fs_index_resolve_all(idx, prefix, all, 1), 2);
	/* A longer prefix that tells them apart resolves. */
	for (i = 5; i <= 40; i++) {
		if (strncmp(sorted[found - 1], sorted[found], i))
			break;
	}
	{
		char longer[41];
		memcpy(longer, sorted[found], i);
		longer[i] = '\0';
		assert_int_equal(fs_index_resolve(idx, longer, &c, &err), 0);
		assert_string_equal(hex_of(idx, c), sorted[found]);
	}
	g_free(s1);
	g_free(s2);
	fs_index_free(idx);
	repo_free(r);
}

static void test_transitive_fixes(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	int n;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.a)), &fx);
	assert_int_equal(n, 3);
	/* B fixes A; C fixes B (its stable backport S1, which carries the same
	 * Fixes: line, stands for C); R reverts C. */
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.b));
	assert_string_equal(hex_of(idx, fx[0].fixed), id(k.r, k.a));
	assert_int_equal(fx[0].depth, 1);
	assert_false(fx[0].revert);
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_PREFIX);
	assert_string_equal(hex_of(idx, fx[1].fixer), id(k.r, k.c));
	assert_string_equal(hex_of(idx, fx[1].fixed), id(k.r, k.b));
	assert_int_equal(fx[1].depth, 2);
	assert_false(fx[1].revert);
	assert_string_equal(hex_of(idx, fx[2].fixer), id(k.r, k.rev));
	assert_string_equal(hex_of(idx, fx[2].fixed), id(k.r, k.c));
	assert_int_equal(fx[2].depth, 3);
	assert_true(fx[2].revert);
	assert_int_equal(fx[2].evidence, FS_EVIDENCE_EXACT);
	free(fx);

	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.c)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.rev));
	assert_int_equal(fx[0].depth, 1);
	free(fx);

	/* The stable commit S1 is reverted by S3, which stands for its
	 * mainline commit R. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.s1)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.rev));
	assert_true(fx[0].revert);
	free(fx);

	/* Nothing fixes G. */
	fx = (void *)1;
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.g)), &fx);
	assert_int_equal(n, 0);
	free(fx);

	/* refs_to: B is named by C's Fixes and by S1's. */
	{
		struct fs_index_ref refs[8];
		size_t m = fs_index_refs_to(idx, cid_of(idx, id(k.r, k.b)),
					    FS_REF_BIT(FS_REF_FIXES), refs, 8);
		assert_int_equal(m, 2);
		m = fs_index_refs_to(idx, cid_of(idx, id(k.r, k.b)),
				     FS_REF_BIT(FS_REF_UPSTREAM), refs, 8);
		assert_int_equal(m, 0);
	}
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_fix_cycle(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	int n;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	/* PING names PONG by subject, PONG names PING by id. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.ping)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.pong));
	assert_int_equal(fx[0].depth, 1);
	free(fx);
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.pong)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.ping));
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_SUBJECT);
	free(fx);
	/* SELF names itself: it is not its own fix. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.self)), &fx);
	assert_int_equal(n, 0);
	free(fx);
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_long_cycle(void **state)
{
	/* A ring of five commits, each naming the next by subject, plus a
	 * chord: every commit appears once, depths are breadth first. */
	struct repo *r = repo_new("ring");
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	int m[5], i, n, j, prev;

	prev = commit(r, "master", 0, "Initial import\n");
	for (i = 0; i < 5; i++)
		prev = m[i] = commit(r, "master", prev,
				     "ring: step %d\n\nFixes: 00000000000%d (\"ring: step %d\")\n"
				     "Fixes: 11111111111%d (\"ring: step %d\")\n",
				     i, i, (i + 4) % 5, i, (i + 3) % 5);
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, NULL);
	n = fs_index_fixes_of(idx, cid_of(idx, id(r, m[0])), &fx);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_true(fx[i].depth >= 1 && fx[i].depth <= 2);
		assert_true(fx[i].fixer != cid_of(idx, id(r, m[0])));
		for (j = 0; j < i; j++)
			assert_true(fx[i].fixer != fx[j].fixer);
	}
	free(fx);
	fs_index_free(idx);
	repo_free(r);
}

static void test_backports(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	fs_cid list[4];
	size_t n;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	/* "commit X upstream." */
	n = fs_index_backports(idx, cid_of(idx, id(k.r, k.c)), list, 4);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, list[0]), id(k.r, k.s1));
	assert_string_equal(hex_of(idx, fs_index_upstream_of(idx, list[0])), id(k.r, k.c));
	/* "[ Upstream commit X ]" */
	n = fs_index_backports(idx, cid_of(idx, id(k.r, k.d)), list, 4);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, list[0]), id(k.r, k.s2));
	assert_string_equal(hex_of(idx, fs_index_upstream_of(idx, list[0])), id(k.r, k.d));
	/* "(cherry picked from commit X)" */
	n = fs_index_backports(idx, cid_of(idx, id(k.r, k.rev)), list, 4);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, list[0]), id(k.r, k.s3));
	assert_string_equal(hex_of(idx, fs_index_upstream_of(idx, list[0])), id(k.r, k.rev));
	/* "commit X upstream" without the dot */
	n = fs_index_backports(idx, cid_of(idx, id(k.r, k.e)), list, 4);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, list[0]), id(k.r, k.s4));
	/* No backports of A (it is in the fork), none of G; mainline commits
	 * and stable-only ones have no upstream. */
	assert_int_equal(fs_index_backports(idx, cid_of(idx, id(k.r, k.a)), list, 4), 0);
	assert_int_equal(fs_index_backports(idx, cid_of(idx, id(k.r, k.g)), list, 4), 0);
	assert_int_equal(fs_index_upstream_of(idx, cid_of(idx, id(k.r, k.c))), FS_CID_NONE);
	assert_int_equal(fs_index_upstream_of(idx, cid_of(idx, id(k.r, k.s5))), FS_CID_NONE);
	/* Branches. */
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, k.a))), "mainline");
	assert_true(fs_index_commit_is_mainline(idx, cid_of(idx, id(k.r, k.g))));
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, k.s1))), "linux-4.4.y");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, k.s5))), "linux-4.4.y");
	assert_false(fs_index_commit_is_mainline(idx, cid_of(idx, id(k.r, k.s5))));
	assert_string_equal(fs_index_commit_subject(idx, cid_of(idx, id(k.r, k.s2))),
			    "drm: add widget");
	/* Subject lookup: mainline first. */
	n = fs_index_find_subject(idx, "DRM:  add widget", list, 4);
	assert_int_equal(n, 2);
	assert_string_equal(hex_of(idx, list[0]), id(k.r, k.d));
	assert_string_equal(hex_of(idx, list[1]), id(k.r, k.s2));
	assert_int_equal(fs_index_find_subject(idx, "no such subject", list, 4), 0);
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_fixes_via_stable_id(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	struct fs_index_ref refs[4];
	enum fs_evidence ev;
	bool mm = true;
	fs_cid e;
	int n;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	/* E's Fixes: names S2, D's backport. */
	e = cid_of(idx, id(k.r, k.e));
	assert_int_equal(fs_index_commit_refs(idx, e, refs, 4), 1);
	assert_int_equal(refs[0].kind, FS_REF_FIXES);
	assert_int_equal(strlen(refs[0].hex), 12);
	assert_string_equal(refs[0].subject, "drm: add widget");
	assert_int_equal(refs[0].source, e);
	assert_string_equal(hex_of(idx, fs_index_ref_target(idx, &refs[0], &ev, &mm)),
			    id(k.r, k.s2));
	assert_false(mm);
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.d)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.e));
	assert_string_equal(hex_of(idx, fx[0].fixed), id(k.r, k.d));
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_STABLE);
	assert_false(fx[0].revert);
	free(fx);
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_subject_mismatch(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	struct fs_index_ref refs[4];
	enum fs_evidence ev = 0;
	bool mm = false;
	fs_cid t;
	int n;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_commit_refs(idx, cid_of(idx, id(k.r, k.f)), refs, 4), 1);
	t = fs_index_ref_target(idx, &refs[0], &ev, &mm);
	assert_string_equal(hex_of(idx, t), id(k.r, k.x));
	assert_true(mm);
	assert_int_equal(ev, FS_EVIDENCE_SUBJECT);
	/* So F fixes X, not A. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.x)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.f));
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_SUBJECT);
	free(fx);
	/* An unknown id whose subject matches: subject evidence, mismatch. */
	assert_int_equal(fs_index_commit_refs(idx, cid_of(idx, id(k.r, k.ping)), refs, 4), 1);
	t = fs_index_ref_target(idx, &refs[0], &ev, &mm);
	assert_string_equal(hex_of(idx, t), id(k.r, k.pong));
	assert_int_equal(ev, FS_EVIDENCE_SUBJECT);
	/* A matching id and subject: prefix evidence, no mismatch. */
	assert_int_equal(fs_index_commit_refs(idx, cid_of(idx, id(k.r, k.b)), refs, 4), 1);
	t = fs_index_ref_target(idx, &refs[0], &ev, &mm);
	assert_string_equal(hex_of(idx, t), id(k.r, k.a));
	assert_false(mm);
	assert_int_equal(ev, FS_EVIDENCE_PREFIX);
	/* Neither id nor subject known. */
	{
		struct fs_index_ref bogus = { FS_REF_FIXES, "0000000000000000", "no such thing",
					      0 };
		assert_int_equal(fs_index_ref_target(idx, &bogus, NULL, NULL), FS_CID_NONE);
		bogus.subject = NULL;
		assert_int_equal(fs_index_ref_target(idx, &bogus, NULL, NULL), FS_CID_NONE);
	}
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_releases(void **state)
{
	struct kernel k;
	struct fs_index *idx;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
	assert_release(idx, id(k.r, k.base), "v4.4-rc1");
	assert_release(idx, id(k.r, k.a), "v4.4-rc1");
	assert_release(idx, id(k.r, k.x), "v4.4-rc1");
	assert_release(idx, id(k.r, k.b), "v4.4");
	assert_release(idx, id(k.r, k.c), "v4.5-rc1");
	assert_release(idx, id(k.r, k.rev), "v4.5-rc1");
	assert_release(idx, id(k.r, k.e), "v4.5-rc1");
	assert_release(idx, id(k.r, k.self), "v4.5-rc1");
	assert_release(idx, id(k.r, k.g), NULL);
	assert_release(idx, id(k.r, k.s1), "v4.4.1");
	assert_release(idx, id(k.r, k.s2), "v4.4.1");
	assert_release(idx, id(k.r, k.s3), "v4.4.2");
	assert_release(idx, id(k.r, k.s4), "v4.4.2");
	assert_release(idx, id(k.r, k.s5), NULL);
	assert_true(fs_index_has_branch(idx, "linux-4.4.y"));
	assert_false(fs_index_has_branch(idx, "linux-4.5.y"));
	assert_false(fs_index_has_branch(idx, "mainline"));
	assert_string_equal(fs_index_branch_fork(idx, "linux-4.4.y"), "v4.4");
	assert_null(fs_index_branch_fork(idx, "linux-9.9.y"));
	fs_index_free(idx);
	repo_free(k.r);
}

static void test_in_branch(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	const char *br = "linux-4.4.y";

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, NULL);
#define IN(m, base) fs_index_in_branch(idx, cid_of(idx, id(k.r, (m))), br, (base))
	/* Mainline up to the fork is in, whatever the base. */
	assert_true(IN(k.a, NULL));
	assert_true(IN(k.b, NULL));
	assert_true(IN(k.b, "v4.4.1"));
	assert_false(IN(k.c, NULL));
	assert_false(IN(k.g, NULL));
	/* Stable commits by release. */
	assert_true(IN(k.s1, NULL));
	assert_true(IN(k.s1, "v4.4.1"));
	assert_true(IN(k.s2, "v4.4.1"));
	assert_false(IN(k.s3, "v4.4.1"));
	assert_true(IN(k.s3, "v4.4.2"));
	assert_true(IN(k.s5, NULL));
	assert_false(IN(k.s5, "v4.4.2"));
	/* A base the index does not know sorts by version. */
	assert_true(IN(k.s4, "v4.4.3"));
	assert_false(IN(k.s4, "v4.4.1"));
	/* An unknown branch holds nothing. */
	assert_false(fs_index_in_branch(idx, cid_of(idx, id(k.r, k.a)), "linux-4.9.y", NULL));
	assert_false(fs_index_in_branch(idx, cid_of(idx, id(k.r, k.s1)), "linux-4.9.y", NULL));
#undef IN
	fs_index_free(idx);
	repo_free(k.r);
}

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

/* One update of the kernel history, checked against a rebuild.  DELTA
 * "always": the update is written as a delta beside the cache, which is
 * left as it was; "never": one new cache. */
static void incremental_case(const char *delta)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got;
	int h, s6, s7;

	struct stat before, after;
	char *dpath;
	int prev;

	setenv("FIXSCAN_TEST_DELTA", delta, 1);
	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	dpath = g_strdup_printf("%s.delta", fs_index_cache_path(idx));
	assert_int_equal(stat(fs_index_cache_path(idx), &before), 0);
	fs_index_free(idx);
	/* New mainline commits: a fix of an old commit, a fix of the fix, a
	 * new tag that also claims the old untagged tip. */
	h = commit(k.r, "master", k.g,
		   "kernel: fix untagged work\n\nFixes: %.12s (\"kernel: untagged work\")\n",
		   id(k.r, k.g));
	h = commit(k.r, "master", h,
		   "mm: fix the revert\n\nFixes: %.12s (\"Revert \"mm: fix the leak fix\"\")\n",
		   id(k.r, k.rev));
	tag_annotated(k.r, "v4.5-rc2", h);
	h = commit(k.r, "master", h, "kernel: after rc2\n");
	/* Stable: a backport of the new fix, a tag on the old tip and on it. */
	tag_light(k.r, "v4.4.3", k.s5);
	s6 = commit(k.r, "linux-4.4.y", k.s5, "kernel: fix untagged work\n\n"
		    "commit %s upstream.\n", id(k.r, k.g + 1));
	s7 = commit(k.r, "linux-4.4.y", s6, "usb: another stable-only change\n");
	tag_light(k.r, "v4.4.4", s7);
	/* And a new stable branch forking at v4.5-rc1... of v4.5. */
	tag_light(k.r, "v4.5", k.self);
	commit(k.r, "linux-4.5.y", k.self, "drm: backport to 4.5\n\n"
	       "[ Upstream commit %s ]\n", id(k.r, k.g + 1));
	repo_flush(k.r);

	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_false(st.rebuilt);
	assert_int_equal(st.new_commits, 6);
	assert_int_equal(st.commits, 24);
	assert_string_equal(st.note, "");
	got = dump(idx);
	assert_int_equal(stat(fs_index_cache_path(idx), &after), 0);
	if (!strcmp(delta, "always")) {
		assert_int_equal(access(dpath, F_OK), 0);
		assert_int_equal(before.st_ino, after.st_ino);
		assert_int_equal(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
	} else {
		assert_int_not_equal(access(dpath, F_OK), 0);
	}
	assert_release(idx, id(k.r, k.g), "v4.5-rc2");
	assert_release(idx, id(k.r, k.s5), "v4.4.3");
	assert_release(idx, id(k.r, s6), "v4.4.4");
	assert_release(idx, id(k.r, k.self), "v4.5-rc1");
	assert_release(idx, id(k.r, h), NULL);
	assert_string_equal(fs_index_branch_fork(idx, "linux-4.5.y"), "v4.5");
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);

	/* A second update with nothing new. */
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	fs_index_free(idx);

	/* A second delta on the same cache holds the first one's commits
	 * too; a new tag claims commits of both. */
	prev = h;
	h = commit(k.r, "master", h, "kernel: after the delta\n");
	tag_light(k.r, "v4.6-rc1", h);
	repo_flush(k.r);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 1);
	assert_int_equal(st.commits, 25);
	assert_release(idx, id(k.r, h), "v4.6-rc1");
	assert_release(idx, id(k.r, prev), "v4.6-rc1");
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);

	/* Many commits since the cache: one new cache, and the delta goes. */
	setenv("FIXSCAN_TEST_DELTA", "never", 1);
	h = commit(k.r, "master", h, "kernel: and one more\n");
	repo_flush(k.r);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 1);
	assert_int_not_equal(access(dpath, F_OK), 0);
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	unsetenv("FIXSCAN_TEST_DELTA");
	g_free(dpath);
	repo_free(k.r);
}

static void test_trim(void **state)
{
	/* Pages given back come back with the same contents, with and
	 * without a delta. */
	struct kernel k;
	struct fs_index *idx;
	char *before, *after;
	int l;

	for (l = 0; l < 2; l++) {
		setenv("FIXSCAN_TEST_DELTA", "always", 1);
		build_kernel(&k, l ? "kernel-delta" : "kernel");
		if (l) {
			fs_index_free(open_idx(k.r->dir, NULL, false, NULL));
			commit(k.r, "master", k.g, "kernel: one in the delta\n");
			repo_flush(k.r);
		}
		idx = open_idx(k.r->dir, NULL, false, NULL);
		before = dump(idx);
		fs_index_trim(idx);
		after = dump(idx);
		assert_same_dump(before, after);
		fs_index_trim(idx);
		fs_index_trim(idx);
		g_free(after);
		after = dump(idx);
		assert_same_dump(before, after);
		g_free(before);
		g_free(after);
		fs_index_free(idx);
		repo_free(k.r);
	}
	unsetenv("FIXSCAN_TEST_DELTA");
}

/* A fix reached by two refs: its own Fixes: line (by id) and its stable
 * backport's (a wrong id, the right subject).  The answer must not depend
 * on which ref the index stores first: cache then delta, or one file. */
static void test_fix_named_twice(void **state)
{
	struct repo *r = repo_new("twice");
	struct fs_index *idx;
	struct fs_index_fix *fx = NULL;
	char *want, *got;
	int a, x, f, s;

	a = commit(r, "master", 0, "mm: add thing\n");
	x = commit(r, "master", a, "Linux 4.4\n");
	tag_light(r, "v4.4", x);
	f = commit(r, "master", x, "mm: fix thing\n\nFixes: %.12s (\"mm: add thing\")\n",
		   id(r, a));
	repo_flush(r);
	setenv("FIXSCAN_TEST_DELTA", "always", 1);
	fs_index_free(open_idx(r->dir, NULL, false, NULL));
	s = commit(r, "linux-4.4.y", x, "mm: fix thing\n\ncommit %s upstream.\n\n"
		   "Fixes: 0123456789ab (\"mm: add thing\")\n", id(r, f));
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_fixes_of(idx, cid_of(idx, id(r, a)), &fx), 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(r, f));
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_PREFIX);
	free(fx);
	assert_int_equal(fs_index_backports(idx, cid_of(idx, id(r, f)), NULL, 0), 1);
	(void)s;
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	unsetenv("FIXSCAN_TEST_DELTA");
	repo_free(r);
}

/* Issue 29 at the index: a merge's changelog gives no references; a
 * commit's presence in a branch is net of the branch's reverts (odd and
 * even chains); the same change committed twice is found through the
 * subject table and confirmed by patch-id, also for commits of a delta;
 * a subject is matched with its author. */
static void test_presence_merges_equivalents(void **state)
{
	struct repo *r = repo_new("principles");
	struct fs_index *idx;
	struct fs_index_presence p;
	struct fs_index_ref refs[8];
	fs_cid c[4];
	int x, m1, side, mg, n, nr, nrr, bp, rv, rrv, q1, q2, mq, diff;
	int parents[3] = { 0, 0, 0 };
	const char *br = "linux-4.4.y";

	x = commit(r, "master", 0, "Linux 4.4\n");
	tag_light(r, "v4.4", x);
	m1 = commit(r, "master", x, "mm: add m\n");
	side = commit(r, "side", m1, "mm: side work\n");
	parents[0] = m1;
	parents[1] = side;
	mg = commit_m(r, "master", parents, "Merge branch 'mm-fixes'\n\nFixes: %.12s (\"mm: add m\")\n"
		      "This reverts commit %s.\ncommit %s upstream.\n", id(r, m1), id(r, m1),
		      id(r, m1));
	n = commit(r, "master", mg, "net: add n\n");
	nr = commit(r, "master", n, "Revert \"net: add n\"\n\nThis reverts commit %s.\n", id(r, n));
	nrr = commit(r, "master", nr, "Revert \"Revert \"net: add n\"\"\n\nThis reverts commit %s.\n",
		     id(r, nr));
	tag_light(r, "v4.5", nrr);
	bp = commit(r, "linux-4.4.y", x, "mm: add m\n\ncommit %s upstream.\n", id(r, m1));
	tag_light(r, "v4.4.1", bp);
	rv = commit(r, "linux-4.4.y", bp, "Revert \"mm: add m\"\n\nThis reverts commit %s which is "
		    "commit %s upstream.\n", id(r, bp), id(r, m1));
	tag_light(r, "v4.4.2", rv);
	rrv = commit(r, "linux-4.4.y", rv, "Revert \"Revert \"mm: add m\"\"\n\nThis reverts commit %s.\n",
		     id(r, rv));
	tag_light(r, "v4.4.3", rrv);
	repo_flush(r);
	setenv("FIXSCAN_TEST_DELTA", "always", 1);
	idx = open_idx(r->dir, NULL, false, NULL);

	/* the merge is no fix, revert or backport of M1 */
	assert_true(fs_index_commit_is_merge(idx, cid_of(idx, id(r, mg))));
	assert_false(fs_index_commit_is_merge(idx, cid_of(idx, id(r, m1))));
	assert_int_equal(fs_index_commit_refs(idx, cid_of(idx, id(r, mg)), refs, 8), 0);
	assert_int_equal(fs_index_refs_to(idx, cid_of(idx, id(r, m1)),
					  FS_REF_BIT(FS_REF_FIXES) | FS_REF_BIT(FS_REF_UPSTREAM),
					  refs, 8), 1); /* the backport's upstream line */
	assert_string_equal(hex_of(idx, refs[0].source), id(r, bp));

	/* in the branch, net of its reverts */
#define AT(base) fs_index_present(idx, cid_of(idx, id(r, m1)), br, (base), &p)
	assert_true(AT("v4.4.1"));
	assert_string_equal(hex_of(idx, p.brought), id(r, bp));
	assert_int_equal(p.reverted_by, FS_CID_NONE);
	assert_false(AT("v4.4.2"));
	assert_string_equal(hex_of(idx, p.brought), id(r, bp));
	assert_string_equal(hex_of(idx, p.reverted_by), id(r, rv));
	assert_true(AT("v4.4.3"));
	assert_true(AT(NULL));
#undef AT
	/* the stable commit stands for its upstream */
	assert_false(fs_index_present(idx, cid_of(idx, id(r, bp)), br, "v4.4.2", NULL));
	/* mainline: reverted and restored */
	assert_true(fs_index_present(idx, cid_of(idx, id(r, n)), NULL, NULL, &p));
	assert_false(fs_index_present(idx, cid_of(idx, id(r, nr)), NULL, NULL, &p));
	assert_string_equal(hex_of(idx, p.reverted_by), id(r, nrr));
	assert_false(fs_index_present(idx, cid_of(idx, id(r, n)), "linux-4.9.y", NULL, NULL));
	/* a subject with its author, the address in any case */
	assert_int_equal(fs_index_find_subject_author(idx, "mm: add m",
						      "A U Thor <AUTHOR@Example.org>", c, 4), 1);
	assert_string_equal(hex_of(idx, c[0]), id(r, m1));
	assert_int_equal(fs_index_find_subject_author(idx, "MM:  add m", "author@example.org",
						      c, 4), 1);
	assert_int_equal(fs_index_find_subject_author(idx, "mm: add m",
						      "O Ther <other@example.org>", c, 4), 0);
	fs_index_free(idx);

	/* two trees commit the same diff, a third commit the same subject
	 * with another: read into a delta */
	r->file = "drivers/q.c";
	r->content = "q\n";
	q1 = commit(r, "qtree", nrr, "hid: add q\n");
	q2 = commit(r, "master", nrr, "hid: add q\n");
	r->file = NULL;
	parents[0] = q2;
	parents[1] = q1;
	mq = commit_m(r, "master", parents, "Merge branch 'qtree'\n");
	diff = commit(r, "master", mq, "hid: add q\n");
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_equivalents(idx, cid_of(idx, id(r, q1)), c, 4), 1);
	assert_string_equal(hex_of(idx, c[0]), id(r, q2));
	assert_int_equal(fs_index_equivalents(idx, cid_of(idx, id(r, q2)), c, 4), 1);
	assert_string_equal(hex_of(idx, c[0]), id(r, q1));
	assert_int_equal(fs_index_equivalents(idx, cid_of(idx, id(r, diff)), c, 4), 0);
	assert_int_equal(fs_index_equivalents(idx, cid_of(idx, id(r, mq)), c, 4), 0);
	fs_index_free(idx);
	/* a newer delta keeps the older delta's authors */
	commit(r, "master", diff, "kernel: later\n");
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_equivalents(idx, cid_of(idx, id(r, q2)), c, 4), 1);
	assert_string_equal(hex_of(idx, c[0]), id(r, q1));
	fs_index_free(idx);
	unsetenv("FIXSCAN_TEST_DELTA");
	repo_free(r);
}

/* The same history rebuilt gives a cache with a new checksum, so a delta
 * of the old cache (left behind by a crash between writing the cache and
 * removing the delta) is not taken for the new one's. */
static void test_delta_of_an_identical_cache(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *dpath, *saved;
	int h;

	setenv("FIXSCAN_TEST_DELTA", "always", 1);
	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	dpath = g_strdup_printf("%s.delta", fs_index_cache_path(idx));
	saved = g_strdup_printf("%s.saved", dpath);
	fs_index_free(idx);
	h = commit(k.r, "master", k.g, "kernel: only in the delta\n");
	repo_flush(k.r);
	fs_index_free(open_idx(k.r->dir, NULL, false, &st));
	assert_int_equal(st.new_commits, 1);
	run("cp '%s' '%s'", dpath, saved);
	/* master back where the cache was made: the same commits again */
	run("git -C '%s' update-ref refs/heads/master %s", k.r->dir, id(k.r, k.g));
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.rebuilt);
	fs_index_free(idx);
	run("cp '%s' '%s'", saved, dpath);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(fs_index_resolve_all(idx, id(k.r, h), NULL, 0), 0);
	fs_index_free(idx);
	unsetenv("FIXSCAN_TEST_DELTA");
	g_free(dpath);
	g_free(saved);
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

static void test_incremental_equals_rebuild(void **state)
{
	incremental_case("never");
}

static void test_incremental_delta(void **state)
{
	incremental_case("always");
}

/* A damaged delta is reported and the cache rebuilt; a delta left over
 * from an earlier cache is ignored. */
static void test_delta_damaged_or_stale(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *dpath, *saved, *want, *got;
	int h, fd;

	setenv("FIXSCAN_TEST_DELTA", "always", 1);
	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	dpath = g_strdup_printf("%s.delta", fs_index_cache_path(idx));
	saved = g_strdup_printf("%s.saved", dpath);
	fs_index_free(idx);
	h = commit(k.r, "master", k.g, "kernel: in the delta\n");
	repo_flush(k.r);
	fs_index_free(open_idx(k.r->dir, NULL, false, &st));
	assert_int_equal(st.new_commits, 1);
	run("cp '%s' '%s'", dpath, saved);

	/* one flipped byte in the delta's body */
	fd = open(dpath, O_RDWR);
	assert_true(fd >= 0);
	{
		struct stat dst;
		unsigned char byte;
		assert_int_equal(fstat(fd, &dst), 0);
		assert_int_equal(pread(fd, &byte, 1, dst.st_size - 12), 1);
		byte ^= 0x20;
		assert_int_equal(pwrite(fd, &byte, 1, dst.st_size - 12), 1);
	}
	close(fd);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.rebuilt);
	assert_non_null(strstr(st.note, "fails its checksum"));
	assert_non_null(strstr(st.note, ".delta"));
	assert_int_not_equal(access(dpath, F_OK), 0);
	assert_release(idx, id(k.r, h), NULL);
	got = dump(idx);
	fs_index_free(idx);

	/* the old delta put back beside the rebuilt cache */
	run("cp '%s' '%s'", saved, dpath);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(st.commits, fs_index_count(idx));
	want = dump(idx);
	assert_same_dump(want, got);
	fs_index_free(idx);
	g_free(want);
	g_free(got);
	unsetenv("FIXSCAN_TEST_DELTA");
	g_free(dpath);
	g_free(saved);
	repo_free(k.r);
}

static void test_late_tags(void **state)
{
	/* Tags added after the commits they contain were indexed under a later
	 * tag: the answers must still be those of a full build. */
	struct repo *r = repo_new("late");
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got;
	int a, b, c, s1;

	a = commit(r, "master", 0, "Initial import\n");
	b = commit(r, "master", a, "mm: one\n");
	c = commit(r, "master", b, "mm: two\n");
	s1 = commit(r, "linux-4.4.y", b, "mm: stable one\n\ncommit %s upstream.\n", id(r, c));
	tag_light(r, "v4.4.1", s1);
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, &st);
	fs_index_free(idx);

	/* v4.4, the fork, tagged late: it sorts before v4.4.1 (another line)
	 * and is the first mainline tag. */
	tag_light(r, "v4.4", b);
	tag_light(r, "v4.5-rc1", c);
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, &st);
	assert_release(idx, id(r, a), "v4.4");
	assert_release(idx, id(r, b), "v4.4");
	assert_release(idx, id(r, c), "v4.5-rc1");
	assert_release(idx, id(r, s1), "v4.4.1");
	assert_string_equal(fs_index_branch_fork(idx, "linux-4.4.y"), "v4.4");
	assert_true(fs_index_in_branch(idx, cid_of(idx, id(r, b)), "linux-4.4.y", NULL));
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);

	/* An -rc tag before an indexed release of the same line. */
	tag_light(r, "v4.4-rc1", a);
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, &st);
	assert_release(idx, id(r, a), "v4.4-rc1");
	assert_release(idx, id(r, b), "v4.4");
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	repo_free(r);
}

/* A branch moved forward to a commit the index already has (no new
 * commit: the walk's graph cannot tell, git does), and one moved forward
 * over new commits and then rewound in one update: the first is an
 * update, the second a rebuild, and both answer as a rebuild does. */
static void test_branch_forward_to_indexed(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char *want, *got;
	int side, n1;

	build_kernel(&k, "kernel");
	/* a branch of the stable glob ahead of mainline's tip */
	side = commit(k.r, "linux-4.6.y", k.g, "kernel: ahead of mainline\n");
	repo_flush(k.r);
	fs_index_free(open_idx(k.r->dir, NULL, false, &st));
	run("git -C '%s' update-ref refs/heads/master %s", k.r->dir, id(k.r, side));
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_false(st.rebuilt);
	assert_string_equal(st.note, "");
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(fs_index_count(idx), 19);
	/* (an update keeps the branch a commit was indexed with: a rebuild
	 * would now call it mainline's, which a kernel's mainline never
	 * does to a stable commit) */
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, side))), "linux-4.6.y");
	fs_index_free(idx);

	/* new commits on a branch that no longer holds its old tip */
	n1 = commit(k.r, "linux-4.6.y", k.g, "kernel: a rewrite\n");
	commit(k.r, "linux-4.6.y", n1, "kernel: on the rewrite\n");
	repo_flush(k.r);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.rebuilt);
	assert_non_null(strstr(st.note, "linux-4.6.y"));
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	repo_free(k.r);
}

static void test_force_push(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	struct fs_error err = FS_ERROR_INIT;
	char *want, *got, *g_hex, *s5_hex;
	fs_cid c;
	int s5b;

	build_kernel(&k, "kernel");
	idx = open_idx(k.r->dir, NULL, false, &st);
	fs_index_free(idx);
	g_hex = strdup(id(k.r, k.g));
	s5_hex = strdup(id(k.r, k.s5));

	/* Rewind mainline by one commit. */
	run("git -C '%s' update-ref refs/heads/master %s", k.r->dir, id(k.r, k.self));
	idx = open_idx(k.r->dir, NULL, false, &st);
	if (!strstr(st.note, "rewound") && !strstr(st.note, "force-pushed"))
		fail_msg("note '%s'", st.note);
	assert_non_null(strstr(st.note, "refs/heads/master"));
	assert_int_equal(fs_index_count(idx), 17);
	assert_int_equal(fs_index_resolve(idx, g_hex, &c, &err), FS_ENOTFOUND);
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);

	/* Rewrite the stable tip: S5 replaced by another commit. */
	s5b = commit(k.r, "linux-4.4.y", k.s4, "usb: stable-only quirk, take two\n");
	repo_flush(k.r);
	idx = open_idx(k.r->dir, NULL, false, &st);
	if (!strstr(st.note, "rewound") && !strstr(st.note, "force-pushed"))
		fail_msg("note '%s'", st.note);
	assert_non_null(strstr(st.note, "linux-4.4.y"));
	assert_int_equal(fs_index_count(idx), 17);
	assert_int_equal(fs_index_resolve(idx, s5_hex, &c, &err), FS_ENOTFOUND);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, s5b))), "linux-4.4.y");
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);

	/* A tag moved and a stable branch deleted. */
	run("git -C '%s' tag -f v4.4.2 %s >/dev/null", k.r->dir, id(k.r, k.s3));
	run("git -C '%s' tag -d v4.4.1 >/dev/null", k.r->dir);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.note[0] != '\0');
	assert_release(idx, id(k.r, k.s1), "v4.4.2");
	assert_release(idx, id(k.r, k.s4), NULL);
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	run("git -C '%s' branch -q -D linux-4.4.y", k.r->dir);
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_true(st.note[0] != '\0');
	assert_int_equal(fs_index_resolve(idx, id(k.r, s5b), &c, &err), FS_ENOTFOUND);
	/* The tags still hold the released stable commits. */
	assert_release(idx, id(k.r, k.s3), "v4.4.2");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(k.r, k.s3))), "linux-4.4.y");
	got = dump(idx);
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	g_free(want);
	g_free(got);
	free(g_hex);
	free(s5_hex);
	repo_free(k.r);
}

static void test_concurrent_opens(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	pid_t pid[3];
	int i, status;
	char *want;

	build_kernel(&k, "kernel");
	/* Enough commits that the builds overlap. */
	{
		int prev = k.g;
		for (i = 0; i < 2000; i++)
			prev = commit(k.r, "master", prev, "lib: bulk change %d\n\nFixes: %.12s (\"mm: add frobnicator\")\n",
				      i, id(k.r, k.a));
		repo_flush(k.r);
	}
	for (i = 0; i < 3; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0) {
			struct fs_index_opts o = FS_INDEX_OPTS_INIT;
			struct fs_error err = FS_ERROR_INIT;
			struct fs_index *ci = NULL;
			int rc;
			o.repo_path = k.r->dir;
			o.threads = 2;
			rc = fs_index_open(&ci, &o, NULL, &err);
			if (rc == 0 && fs_index_count(ci) == 2018) {
				fs_index_free(ci);
				_exit(0);
			}
			fprintf(stderr, "child: %d %s\n", rc, err.message);
			_exit(1);
		}
	}
	for (i = 0; i < 3; i++) {
		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	idx = open_idx(k.r->dir, NULL, false, &st);
	assert_string_equal(st.note, "");
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(fs_index_count(idx), 2018);
	{
		struct fs_index_fix *fx = NULL;
		int n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.a)), &fx);
		assert_int_equal(n, 2003);
		free(fx);
	}
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	g_free(want);
	repo_free(k.r);
}

static void test_not_a_repo(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = (void *)1;
	char dir[PATH_MAX];
	int rc;

	snprintf(dir, sizeof(dir), "%s/plain", tmp_root);
	mkdir(dir, 0700);
	o.repo_path = dir;
	rc = fs_index_open(&idx, &o, NULL, &err);
	assert_int_equal(rc, FS_ENOTFOUND);
	assert_null(idx);
	assert_non_null(strstr(err.message, dir));
	assert_non_null(strstr(err.message, "not a git repository"));
	assert_null(strchr(err.message, '\n'));

	snprintf(dir, sizeof(dir), "%s/missing/nowhere", tmp_root);
	fs_error_clear(&err);
	rc = fs_index_open(&idx, &o, NULL, &err);
	assert_int_equal(rc, FS_ENOTFOUND);
	assert_non_null(strstr(err.message, dir));
	assert_null(strchr(err.message, '\n'));

	/* A given cache path does not hide the missing repository. */
	{
		char cache[PATH_MAX];
		snprintf(cache, sizeof(cache), "%s/c.idx", tmp_root);
		o.cache_path = cache;
		fs_error_clear(&err);
		assert_int_equal(fs_index_open(&idx, &o, NULL, &err), FS_ENOTFOUND);
		assert_non_null(strstr(err.message, dir));
		o.rebuild = true;
		fs_error_clear(&err);
		assert_int_equal(fs_index_open(&idx, &o, NULL, &err), FS_ENOTFOUND);
		assert_non_null(strstr(err.message, dir));
	}
	o.repo_path = NULL;
	assert_true(fs_index_open(&idx, &o, NULL, &err) < 0);
}

static void test_no_mainline(void **state)
{
	struct repo *r = repo_new("nomain");
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	struct fs_index_stats st;

	commit(r, "devel", 0, "Initial import\n");
	repo_flush(r);
	o.repo_path = r->dir;
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), FS_ENOTFOUND);
	assert_null(idx);
	assert_non_null(strstr(err.message, "fixscan.mainline"));
	assert_null(strchr(err.message, '\n'));

	/* An empty repository has no mainline either. */
	{
		struct repo *e = repo_new("empty");
		o.repo_path = e->dir;
		fs_error_clear(&err);
		assert_int_equal(fs_index_open(&idx, &o, &st, &err), FS_ENOTFOUND);
		assert_non_null(strstr(err.message, "fixscan.mainline"));
		repo_free(e);
	}
	/* A configured mainline that does not exist is named. */
	run("git -C '%s' config fixscan.mainline refs/heads/nosuch", r->dir);
	o.repo_path = r->dir;
	fs_error_clear(&err);
	assert_int_equal(open_configured(&idx, &o, &st, &err), FS_ENOTFOUND);
	assert_non_null(strstr(err.message, "fixscan.mainline"));
	assert_non_null(strstr(err.message, "nosuch"));
	/* The right one works. */
	run("git -C '%s' config fixscan.mainline devel", r->dir);
	fs_error_clear(&err);
	assert_int_equal(open_configured(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 1);
	fs_index_free(idx);
	repo_free(r);
}

static void test_config_keys(void **state)
{
	struct repo *r = repo_new("config");
	struct fs_index *idx;
	struct fs_index_stats st;
	int a, b, m1, s1, s2, o1;

	a = commit(r, "torvalds", 0, "Initial import\n");
	b = commit(r, "torvalds", a, "mm: one\n");
	tag_light(r, "v4.4", b);
	m1 = commit(r, "master", b, "junk: not mainline\n");
	s1 = commit(r, "stable/linux-4.4.y", b, "mm: stable one\n\ncommit %s upstream.\n",
		    id(r, b));
	s2 = commit(r, "queue/linux-4.5.y", b, "mm: queued\n");
	o1 = commit(r, "linux-4.4.y", b, "other: default-glob branch\n");
	repo_flush(r);
	run("git -C '%s' config fixscan.mainline torvalds", r->dir);
	run("git -C '%s' config --add fixscan.stable 'refs/heads/stable/*'", r->dir);
	run("git -C '%s' config --add fixscan.stable 'refs/heads/queue/*'", r->dir);
	idx = open_idx_configured(r->dir, &st);
	/* master and refs/heads/linux-4.4.y are not indexed: config wins. */
	assert_int_equal(fs_index_count(idx), 4);
	assert_true(fs_index_resolve_all(idx, id(r, m1), NULL, 0) == 0);
	assert_true(fs_index_resolve_all(idx, id(r, o1), NULL, 0) == 0);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, b))), "mainline");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s1))), "linux-4.4.y");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s2))), "linux-4.5.y");
	assert_string_equal(fs_index_branch_fork(idx, "linux-4.4.y"), "v4.4");
	fs_index_free(idx);

	/* Changing the config changes what is indexed. */
	run("git -C '%s' config --unset-all fixscan.stable", r->dir);
	idx = open_idx_configured(r->dir, &st);
	assert_int_equal(fs_index_count(idx), 3);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, o1))), "linux-4.4.y");
	fs_index_free(idx);
	repo_free(r);
}

/* The mainline ref given in the options, with no config at all: it wins
 * over the default master, a short name is expanded, a missing one is
 * named, and changing it changes what the cache holds. */
static void test_opts_mainline(void **state)
{
	struct repo *r = repo_new("optmain");
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	struct fs_index_stats st;
	int a, b, m1;

	a = commit(r, "torvalds", 0, "Initial import\n");
	b = commit(r, "torvalds", a, "mm: one\n");
	m1 = commit(r, "master", a, "junk: not mainline\n");
	repo_flush(r);
	/* A config the library must not read: only the options count. */
	run("git -C '%s' config fixscan.mainline refs/heads/nosuch", r->dir);
	o.repo_path = r->dir;
	o.threads = 2;
	o.mainline = "torvalds";
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 2);
	assert_true(fs_index_resolve_all(idx, id(r, m1), NULL, 0) == 0);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, b))), "mainline");
	fs_index_free(idx);

	/* Back to the default (master): the cached tips no longer match. */
	o.mainline = NULL;
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 2);
	assert_true(fs_index_resolve_all(idx, id(r, b), NULL, 0) == 0);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, m1))), "mainline");
	fs_index_free(idx);

	/* A full name works as well; a missing one is an error naming it. */
	o.mainline = "refs/heads/torvalds";
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_true(fs_index_resolve_all(idx, id(r, m1), NULL, 0) == 0);
	fs_index_free(idx);
	o.mainline = "nosuch";
	fs_error_clear(&err);
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), FS_ENOTFOUND);
	assert_null(idx);
	assert_non_null(strstr(err.message, "'nosuch'"));
	repo_free(r);
}

/* Stable globs given in the options replace the default ones. */
static void test_opts_stable_globs(void **state)
{
	static const char *const globs[] = { "refs/heads/stable/*", "refs/heads/queue/*" };
	struct repo *r = repo_new("optstable");
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	struct fs_index_stats st;
	int a, b, s1, s2, o1;

	a = commit(r, "master", 0, "Initial import\n");
	b = commit(r, "master", a, "mm: one\n");
	tag_light(r, "v4.4", b);
	s1 = commit(r, "stable/linux-4.4.y", b, "mm: stable one\n\ncommit %s upstream.\n",
		    id(r, b));
	s2 = commit(r, "queue/linux-4.5.y", b, "mm: queued\n");
	o1 = commit(r, "linux-4.4.y", b, "other: default-glob branch\n");
	repo_flush(r);
	run("git -C '%s' config fixscan.stable refs/heads/nosuch/*", r->dir);
	o.repo_path = r->dir;
	o.threads = 2;
	o.stable_globs = globs;
	o.nstable_globs = 2;
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 4);
	assert_true(fs_index_resolve_all(idx, id(r, o1), NULL, 0) == 0);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s1))), "linux-4.4.y");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s2))), "linux-4.5.y");
	assert_true(fs_index_has_branch(idx, "linux-4.5.y"));
	fs_index_free(idx);

	/* One glob only: the other branch's commits go. */
	o.nstable_globs = 1;
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 3);
	assert_true(fs_index_resolve_all(idx, id(r, s2), NULL, 0) == 0);
	assert_false(fs_index_has_branch(idx, "linux-4.5.y"));
	fs_index_free(idx);

	/* None: the defaults, which find refs/heads/linux-4.4.y. */
	o.stable_globs = NULL;
	o.nstable_globs = 0;
	assert_int_equal(fs_index_open(&idx, &o, &st, &err), 0);
	assert_int_equal(fs_index_count(idx), 3);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, o1))), "linux-4.4.y");
	assert_true(fs_index_resolve_all(idx, id(r, s1), NULL, 0) == 0);
	fs_index_free(idx);
	repo_free(r);
}

static void test_two_six_tags(void **state)
{
	/* Before 3.0 the mainline released v2.6.N and its stable branch
	 * linux-2.6.N.y released v2.6.N.M. */
	struct repo *r = repo_new("twosix");
	struct fs_index *idx;
	int a, b, c, s1, s2, s3, m;

	a = commit(r, "master", 0, "Linux 2.6.31\n");
	tag_light(r, "v2.6.31", a);
	b = commit(r, "master", a, "Linux 2.6.32-rc1\n");
	tag_light(r, "v2.6.32-rc1", b);
	c = commit(r, "master", b, "Linux 2.6.32\n");
	tag_light(r, "v2.6.32", c);
	m = commit(r, "master", c, "mm: a change after 2.6.32\n");
	s1 = commit(r, "linux-2.6.32.y", c, "Linux 2.6.32.1\n");
	tag_light(r, "v2.6.32.1", s1);
	s2 = commit(r, "linux-2.6.32.y", s1, "Linux 2.6.32.9\n");
	tag_light(r, "v2.6.32.9", s2);
	s3 = commit(r, "linux-2.6.32.y", s2, "Linux 2.6.32.10\n");
	tag_light(r, "v2.6.32.10", s3);
	repo_flush(r);
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_release(idx, id(r, a), "v2.6.31");
	assert_release(idx, id(r, b), "v2.6.32-rc1");
	assert_release(idx, id(r, c), "v2.6.32");
	assert_release(idx, id(r, m), NULL);
	assert_true(fs_index_commit_is_mainline(idx, cid_of(idx, id(r, c))));
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s1))), "linux-2.6.32.y");
	assert_release(idx, id(r, s1), "v2.6.32.1");
	assert_release(idx, id(r, s2), "v2.6.32.9");
	assert_release(idx, id(r, s3), "v2.6.32.10");
	assert_string_equal(fs_index_branch_fork(idx, "linux-2.6.32.y"), "v2.6.32");
	assert_true(fs_index_in_branch(idx, cid_of(idx, id(r, s2)), "linux-2.6.32.y", "v2.6.32.9"));
	assert_false(fs_index_in_branch(idx, cid_of(idx, id(r, s3)), "linux-2.6.32.y", "v2.6.32.9"));
	assert_false(fs_index_in_branch(idx, cid_of(idx, id(r, m)), "linux-2.6.32.y", NULL));
	fs_index_free(idx);
	repo_free(r);
}

static void test_branch_on_two_remotes(void **state)
{
	/* A stale origin and a fresh stable remote carry linux-4.4.y: the
	 * commits only the fresh one has are on the branch too. */
	struct repo *r = repo_new("remotes");
	struct fs_index *idx;
	int a, s1, s2;

	a = commit(r, "master", 0, "Linux 4.4\n");
	tag_light(r, "v4.4", a);
	s1 = commit(r, "linux-4.4.y", a, "usb: a backport\n");
	s2 = commit(r, "linux-4.4.y", s1, "net: a later backport\n");
	repo_flush(r);
	run("git -C '%s' update-ref refs/remotes/aaa/linux-4.4.y %s", r->dir, id(r, s1));
	run("git -C '%s' update-ref refs/remotes/zzz/linux-4.4.y %s", r->dir, id(r, s2));
	run("git -C '%s' branch -q -D linux-4.4.y", r->dir);
	idx = open_idx(r->dir, NULL, false, NULL);
	assert_int_equal(fs_index_count(idx), 3);
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s1))), "linux-4.4.y");
	assert_string_equal(fs_index_commit_branch(idx, cid_of(idx, id(r, s2))), "linux-4.4.y");
	assert_true(fs_index_in_branch(idx, cid_of(idx, id(r, s2)), "linux-4.4.y", NULL));
	fs_index_free(idx);
	repo_free(r);
}

static void test_odd_objects(void **state)
{
	/* Tags of trees and blobs, nested tags, a tag named like a release
	 * that is not one, an octopus merge with many parents, a commit
	 * with an empty message. */
	struct repo *r = repo_new("odd");
	struct fs_index *idx;
	struct fs_index_stats st;
	int base, side[20], oct, i, empty;

	base = commit(r, "master", 0, "Initial import\n");
	for (i = 0; i < 20; i++)
		side[i] = commit(r, "side", 0, "side: root %d\n", i);
	{
		int parents[22];
		parents[0] = base;
		for (i = 0; i < 20; i++)
			parents[i + 1] = side[i];
		parents[21] = 0;
		oct = commit_m(r, "master", parents, "Merge twenty roots\n");
	}
	empty = commit(r, "master", oct, "%s", "");
	tag_light(r, "v4.4", empty);
	repo_flush(r);
	run("git -C '%s' branch -q -D side", r->dir);
	run("git -C '%s' tag v4.8 %s^{tree}", r->dir, id(r, base));
	run("blob=$(echo hello | git -C '%s' hash-object -w --stdin) && git -C '%s' tag v4.9 $blob",
	    r->dir, r->dir);
	run("git -C '%s' -c user.name=T -c user.email=t@example.org tag -a -m tree v4.10 %s^{tree}",
	    r->dir, id(r, base));
	run("git -C '%s' -c user.name=T -c user.email=t@example.org tag -a -m inner inner %s",
	    r->dir, id(r, oct));
	run("git -C '%s' -c user.name=T -c user.email=t@example.org tag -a -m outer v4.4-rc1 inner",
	    r->dir);
	run("git -C '%s' tag vmlinux %s", r->dir, id(r, base));
	idx = open_idx(r->dir, NULL, false, &st);
	assert_int_equal(fs_index_count(idx), 23);
	for (i = 0; i < 20; i++)
		assert_release(idx, id(r, side[i]), "v4.4-rc1");
	assert_release(idx, id(r, oct), "v4.4-rc1");
	assert_release(idx, id(r, empty), "v4.4");
	assert_string_equal(fs_index_commit_subject(idx, cid_of(idx, id(r, empty))), "");
	fs_index_free(idx);
	idx = open_idx(r->dir, NULL, false, &st);
	assert_int_equal(st.new_commits, 0);
	fs_index_free(idx);
	repo_free(r);
}

static void test_shallow(void **state)
{
	struct kernel k;
	struct fs_index *idx;
	struct fs_index_stats st;
	char clone[PATH_MAX];
	size_t full;

	build_kernel(&k, "kernel");
	snprintf(clone, sizeof(clone), "%s/shallow", tmp_root);
	run("git clone -q --depth 3 --no-single-branch file://'%s' '%s' 2>/dev/null", k.r->dir, clone);
	idx = open_idx(clone, NULL, false, &st);
	assert_non_null(strstr(st.note, "shallow"));
	assert_true(fs_index_count(idx) >= 3);
	assert_true(fs_index_count(idx) < 20);
	assert_string_equal(fs_index_commit_subject(idx, cid_of(idx, id(k.r, k.g))),
			    "kernel: untagged work");
	fs_index_free(idx);
	/* Made complete, with no ref moved: the whole history is indexed
	 * (a stamp of the same refs must not keep the shallow index). */
	run("git -C '%s' fetch -q --unshallow 2>/dev/null", clone);
	idx = open_idx(k.r->dir, NULL, false, &st);
	full = fs_index_count(idx);
	fs_index_free(idx);
	idx = open_idx(clone, NULL, false, &st);
	assert_true(st.rebuilt);
	assert_int_equal(fs_index_count(idx), full);
	assert_string_equal(fs_index_commit_subject(idx, cid_of(idx, id(k.r, k.base))),
			    "Initial import");
	fs_index_free(idx);
	repo_free(k.r);
}

/* A full build reads the pack files itself (pack.c) and leaves to
 * libgit2 only what they do not give plainly: it must index exactly what
 * reading every commit through libgit2 does, with a loose commit, an
 * unreachable one, commits in two packs and commits stored as deltas. */
static void test_packed_read(void **state)
{
	struct kernel k;
	char *want, *got;

	build_kernel(&k, "kernel");
	run("cd '%s' && c=$(git -c user.name=T -c user.email=t@example.org commit-tree "
	    "-p master -m 'mm: loose one' -m 'Fixes: %.12s (\"mm: add frobnicator\")' "
	    "master^{tree}) && git update-ref refs/heads/master $c && "
	    "git -c user.name=T -c user.email=t@example.org commit-tree -p master "
	    "-m 'unreachable: Fixes: %.12s' master^{tree} >/dev/null",
	    k.r->dir, id(k.r, k.a), id(k.r, k.b));
	setenv("FIXSCAN_TEST_LIBGIT2_READ", "1", 1);
	want = rebuilt_dump(k.r->dir);
	unsetenv("FIXSCAN_TEST_LIBGIT2_READ");
	got = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	free(got);
	/* a second pack, then one pack where commits are deltas of others */
	run("git -C '%s' repack -q -d && git -C '%s' repack -q -a -d -f --window=50 --depth=5",
	    k.r->dir, k.r->dir);
	got = rebuilt_dump(k.r->dir);
	assert_same_dump(want, got);
	free(got);
	free(want);
	repo_free(k.r);
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

static void test_names(void **state)
{
	assert_string_equal(fs_ref_kind_name(FS_REF_UPSTREAM), "upstream");
	assert_string_equal(fs_ref_kind_name(FS_REF_FIXES), "fixes");
	assert_string_equal(fs_ref_kind_name(FS_REF_REVERTS), "reverts");
	assert_string_equal(fs_evidence_name(FS_EVIDENCE_EXACT), "exact");
	assert_string_equal(fs_evidence_name(FS_EVIDENCE_STABLE), "stable");
	fs_index_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_checksum_pieces),
		cmocka_unit_test_setup_teardown(test_two_six_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_branch_on_two_remotes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_prefixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve_ambiguous, setup, teardown),
		cmocka_unit_test_setup_teardown(test_transitive_fixes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_cycle, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backports, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixes_via_stable_id, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subject_mismatch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_releases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_in_branch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_presence_merges_equivalents, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verified_stamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crafted_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_crafted_delta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_temps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incremental_equals_rebuild, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_named_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delta_of_an_identical_cache, setup, teardown),
		cmocka_unit_test(test_body_checksum_halves),
		cmocka_unit_test_setup_teardown(test_incremental_delta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delta_damaged_or_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_force_push, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_opens, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_repo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_opts_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_opts_stable_globs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_odd_objects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shallow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packed_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refs_stamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_branch_forward_to_indexed, setup, teardown),
		cmocka_unit_test(test_interp_lower_bound),
	};

	return cmocka_run_group_tests_name("index", tests, NULL, NULL);
}
