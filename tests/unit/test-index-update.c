/* Unit tests for updating the fixes index: an update (cache or delta)
 * says what a rebuild says, after new commits, late tags, branches moving
 * forward or forced, and with several processes opening at once. */
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
		g_free(fx);
	}
	fs_index_free(idx);
	want = rebuilt_dump(k.r->dir);
	g_free(want);
	repo_free(k.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_incremental_equals_rebuild, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delta_of_an_identical_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incremental_delta, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delta_damaged_or_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_force_push, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_opens, setup, teardown),
		cmocka_unit_test_setup_teardown(test_branch_forward_to_indexed, setup, teardown),
	};

	return cmocka_run_group_tests_name("index-update", tests, NULL, NULL);
}
