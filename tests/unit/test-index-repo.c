/* Unit tests for the repositories the fixes index reads: no repository,
 * no mainline, the refs config names (fixscan.mainline, fixscan.stable)
 * or the options give, 2.6-era tags, odd objects, shallow clones and the
 * pack read of a full build. */
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

#include "index-helpers.h"

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
	g_free(mainline);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_six_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_branch_on_two_remotes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_repo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_config_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_opts_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_opts_stable_globs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_odd_objects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shallow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packed_read, setup, teardown),
	};

	return cmocka_run_group_tests_name("index-repo", tests, NULL, NULL);
}
