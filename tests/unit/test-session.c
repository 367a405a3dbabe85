/* Unit tests for lib/session.c and lib/review-set.c: what a session opens
 * and hands out from a real repository's git config, the drafts' options
 * it reads, and the callbacks of fs_session_review() for the series it
 * leaves out before judging.  The reviews themselves (index, store) are
 * the e2e tests' (t0500-t0720), on the real binary. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/mail.h"
#include "fixscan/session.h"
#include "fixscan/thread.h"

static char tmpdir[256];
static char repo[320];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int group_setup(void **state)
{
	char cmd[2048], path[512];

	strcpy(tmpdir, "/tmp/fixscan-test-session.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(repo, sizeof(repo), "%s/repo", tmpdir);
	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	setenv("XDG_STATE_HOME", tmpdir, 1);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("GIT_CONFIG_SYSTEM");
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	snprintf(path, sizeof(path), "%s/signature", tmpdir);
	write_file(path, "-- \nRita\n");
	snprintf(path, sizeof(path), "%s/ignore", tmpdir);
	write_file(path, "# nothing silenced\n");
	snprintf(cmd, sizeof(cmd),
		 "git init -q '%s' && "
		 "git -C '%s' config fixscan.4.4.branch linux-4.4.y-repo && "
		 "git -C '%s' config fixscan.signature '%s/signature' && "
		 "git -C '%s' config fixscan.ignore '%s/ignore'",
		 repo, repo, repo, tmpdir, repo, tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* The session reads the repository's config into the review options:
 * the branch names, the ignore file; the flags of its options stay. */
static void test_open(void **state)
{
	struct fs_session_opts o = FS_SESSION_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_session *s = NULL;
	struct fs_review_opts *ro;

	o.repo = repo;
	o.review.branch = "linux-4.4.y";
	o.review.no_reports = true;
	assert_int_equal(fs_session_open(&s, &o, &err), 0);
	assert_string_equal(fs_session_repo(s), repo);
	assert_non_null(fs_session_config(s));
	assert_non_null(fs_session_ignore(s));
	assert_null(fs_session_store(s));
	assert_null(fs_session_index(s));
	ro = fs_session_review_opts(s);
	assert_string_equal(ro->branch, "linux-4.4.y");
	assert_true(ro->no_reports);
	assert_ptr_equal(ro->ignore, fs_session_ignore(s));
	assert_int_equal(ro->nbranch_names, 1);
	assert_string_equal(ro->branch_names[0].version, "4.4");
	assert_string_equal(ro->branch_names[0].branch, "linux-4.4.y-repo");
	/* no store: no store config, and no note */
	assert_null(fs_session_store_config(s, "fixscan.draftTags", "fixscan.draft_tags", NULL));
	fs_session_free(s);
}

/* fixscan.stableMaintainer: every value reaches the review options, in
 * order; unset, none; a value that is no address fails the opening with
 * the key and the value named. */
static void test_stable_maintainers(void **state)
{
	struct fs_session_opts o = FS_SESSION_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_session *s = NULL;
	const struct fs_review_opts *ro;
	char cmd[1024];

	o.repo = repo;
	assert_int_equal(fs_session_open(&s, &o, &err), 0);
	assert_null(fs_session_review_opts(s)->stable_maintainers);
	fs_session_free(s);
	snprintf(cmd, sizeof(cmd), "git -C '%s' config --add fixscan.stableMaintainer lts@example.org && "
		 "git -C '%s' config --add fixscan.stablemaintainer cip@example.net", repo, repo);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(fs_session_open(&s, &o, &err), 0);
	ro = fs_session_review_opts(s);
	assert_non_null(ro->stable_maintainers);
	assert_string_equal(ro->stable_maintainers[0], "lts@example.org");
	assert_string_equal(ro->stable_maintainers[1], "cip@example.net");
	assert_null(ro->stable_maintainers[2]);
	fs_session_free(s);
	snprintf(cmd, sizeof(cmd), "git -C '%s' config --add fixscan.stableMaintainer 'Lee <lee@example.org>'", repo);
	assert_int_equal(system(cmd), 0);
	s = NULL;
	assert_true(fs_session_open(&s, &o, &err) < 0);
	assert_null(s);
	assert_non_null(strstr(err.message, "fixscan.stableMaintainer"));
	assert_non_null(strstr(err.message, "Lee <lee@example.org>"));
	snprintf(cmd, sizeof(cmd), "git -C '%s' config --unset-all fixscan.stableMaintainer", repo);
	assert_int_equal(system(cmd), 0);
}

/* A broken ignore file fails the opening with the file named. */
static void test_open_bad_ignore(void **state)
{
	struct fs_session_opts o = FS_SESSION_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_session *s = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/bad-ignore", tmpdir);
	write_file(path, "0123456789ab\n");
	o.repo = repo;
	o.ignore = path;
	assert_true(fs_session_open(&s, &o, &err) < 0);
	assert_null(s);
	assert_non_null(strstr(err.message, "bad-ignore"));
}

/* The drafts' options: the signature file of fixscan.signature, the
 * mode and the time; the state file under $XDG_STATE_HOME. */
static void test_drafts(void **state)
{
	struct fs_session_opts o = FS_SESSION_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_session *s = NULL;
	struct fs_drafts_saved saved = FS_DRAFTS_SAVED_INIT;
	const struct fs_draft_opts *d;
	char *path, *want, *line;

	o.repo = repo;
	assert_int_equal(fs_session_open(&s, &o, &err), 0);
	assert_int_equal(fs_session_prepare_drafts(s, FS_DRAFTS_SUMMARY, true, 1234, &err), 0);
	d = fs_session_draft_opts(s);
	assert_int_equal(d->mode, FS_DRAFTS_SUMMARY);
	assert_true(d->every_finding);
	assert_int_equal(d->now, 1234);
	assert_string_equal(d->signature, "-- \nRita\n");
	assert_null(d->template_text);
	assert_non_null(d->answered);
	fs_session_free(s);

	path = fs_session_state_path("drafts");
	want = g_strdup_printf("%s/fixscan/drafts", tmpdir);
	assert_string_equal(path, want);
	g_free(want);
	g_free(path);

	assert_null(fs_session_skipped_text(&saved));
	saved.answered = 2;
	saved.deleted = 1;
	line = fs_session_skipped_text(&saved);
	assert_string_equal(line, "draft: skipped 2 you answered already, 1 you deleted (--force writes it again)");
	g_free(line);
}

/* What the callbacks of fs_session_review() saw. */
struct seen {
	int failed, reviewed, wanted, reviews;
	char message[FS_ERROR_MESSAGE_MAX];
};

static bool want_none(void *data, const struct fs_thread_series *s)
{
	((struct seen *)data)->wanted++;
	return false;
}

static void on_failed(void *data, const struct fs_thread_series *s, const struct fs_error *err)
{
	struct seen *x = data;

	x->failed++;
	snprintf(x->message, sizeof(x->message), "%s", err->message);
}

static int on_review(void *data, const struct fs_thread_series *s, struct fs_review *r,
		     struct fs_error *err)
{
	((struct seen *)data)->reviews++;
	fs_review_free(r);
	return 0;
}

/* A thread of one message, parsed from TEXT. */
static struct fs_thread *thread_of(const char *name, const char *text)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p = NULL;
	struct fs_thread *t = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	write_file(path, text);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	assert_int_equal(fs_thread_build(&t, &p, 1, &err), 0);
	return t;
}

/* A cover letter without patches is a failure only when the set asks
 * (review: "the cover letter has no patches"); a series the caller does
 * not want is never judged.  Neither needs the index. */
static void test_review_left_out(void **state)
{
	struct fs_session_opts o = FS_SESSION_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_session *s = NULL;
	struct fs_thread *t[2];
	struct fs_review_set set = {
		.threads = t, .nthreads = 1, .mode = FS_SET_EACH, .lone_covers = true,
	};
	struct seen x;
	struct fs_review_set_cbs cb = { .data = &x, .failed = on_failed, .review = on_review };

	o.repo = repo;
	assert_int_equal(fs_session_open(&s, &o, &err), 0);
	t[0] = thread_of("cover",
			 "From: Greg <greg@example.org>\nTo: stable@example.org\n"
			 "Subject: [PATCH 4.4 00/02] 4.4.11-stable review\n"
			 "Date: Tue, 14 Nov 2023 22:00:00 +0000\nMessage-Id: <c.1@example.org>\n\n"
			 "This is the start of the stable review cycle.\n");
	t[1] = thread_of("patch",
			 "From: Greg <greg@example.org>\nTo: stable@example.org\n"
			 "Subject: [PATCH 4.4 01/02] net: fix one\n"
			 "Date: Tue, 14 Nov 2023 22:00:01 +0000\nMessage-Id: <p.2@example.org>\n\n"
			 "commit 1111111111111111111111111111111111111111 upstream.\n");
	memset(&x, 0, sizeof(x));
	assert_int_equal(fs_session_review(s, &set, &cb, &err), 0);
	assert_int_equal(x.failed, 1);
	assert_string_equal(x.message,
			    "'[PATCH 4.4 00/02] 4.4.11-stable review': the cover letter has no patches in the store");
	assert_int_equal(x.reviews, 0);

	/* --all-open and the digest say nothing of a lone cover */
	memset(&x, 0, sizeof(x));
	set.lone_covers = false;
	set.mode = FS_SET_CROSS;
	assert_int_equal(fs_session_review(s, &set, &cb, &err), 0);
	assert_int_equal(x.failed, 0);
	assert_int_equal(x.reviews, 0);

	/* the patch the caller does not want is asked about, not judged */
	memset(&x, 0, sizeof(x));
	set.threads = t + 1;
	set.mode = FS_SET_EACH;
	cb.want = want_none;
	assert_int_equal(fs_session_review(s, &set, &cb, &err), 0);
	assert_int_equal(x.wanted, 1);
	assert_int_equal(x.failed, 0);
	assert_int_equal(x.reviews, 0);

	fs_thread_free(t[0]);
	fs_thread_free(t[1]);
	fs_session_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_open_bad_ignore),
		cmocka_unit_test(test_stable_maintainers),
		cmocka_unit_test(test_drafts),
		cmocka_unit_test(test_review_left_out),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
