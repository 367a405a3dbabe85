/* Unit tests for the lookups of the fixes index (lib/index/query*.c):
 * resolving ids, fixes and their chains, backports, releases, branches,
 * presence net of reverts.  Real git repositories made with git
 * fast-import, indexed through the public API (index-helpers.h). */
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

#include "index-helpers.h"

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
	g_free(fx);

	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.c)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.rev));
	assert_int_equal(fx[0].depth, 1);
	g_free(fx);

	/* The stable commit S1 is reverted by S3, which stands for its
	 * mainline commit R. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.s1)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.rev));
	assert_true(fx[0].revert);
	g_free(fx);

	/* Nothing fixes G. */
	fx = (void *)1;
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.g)), &fx);
	assert_int_equal(n, 0);
	g_free(fx);

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
	g_free(fx);
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.pong)), &fx);
	assert_int_equal(n, 1);
	assert_string_equal(hex_of(idx, fx[0].fixer), id(k.r, k.ping));
	assert_int_equal(fx[0].evidence, FS_EVIDENCE_SUBJECT);
	g_free(fx);
	/* SELF names itself: it is not its own fix. */
	n = fs_index_fixes_of(idx, cid_of(idx, id(k.r, k.self)), &fx);
	assert_int_equal(n, 0);
	g_free(fx);
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
	g_free(fx);
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
	g_free(fx);
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
	g_free(fx);
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
	g_free(fx);
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
		cmocka_unit_test_setup_teardown(test_fix_named_twice, setup, teardown),
	};

	return cmocka_run_group_tests_name("index-query", tests, NULL, NULL);
}
