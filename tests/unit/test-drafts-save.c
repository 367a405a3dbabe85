/* Unit tests for fs_drafts_save() (lib/draft/drafts.c), the save
 * policy review and check share, against a real notmuch database: inside
 * and outside the mail root, indexing, the lock, write errors, and the
 * life of a draft after it is written (answered, deleted, renamed).
 */
#include "drafts-fixture.h"

/* Inside the mail root: written, indexed with the tags, unchanged the
 * second time, replaced (the old one gone from disk and database) when the
 * findings change, kept when the reviewer edited it. */
static void test_save_inside(void **state)
{
	char *dir = g_build_filename(mailroot, "Drafts", NULL), *first, *edited, *p;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	char *old_id;
	FILE *f;

	one_draft(&dl, "Inside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_null(st); /* closed to open it writable */
	assert_false(s.outside);
	assert_true(s.complete);
	assert_string_equal(s.root, mailroot);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_prefix(s.v[0].path, "Drafts/cur/"));
	assert_string_equal(s.v[0].label, "003/024 x");
	assert_false(s.v[0].indexed_now);
	assert_null(s.v[0].removed);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag and tag:draft"), 1);
	first = g_strdup(s.v[0].path);
	old_id = g_strdup(dl.v[0].message_id);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* the same again: nothing to do, the store stays open read-only */
	st = open_ro();
	one_draft(&dl, "Inside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_non_null(st);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(s.v[0].path, first);
	assert_false(s.v[0].indexed_now);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* other findings: replaced */
	st = open_ro();
	one_draft(&dl, "Changed findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(s.v[0].other, first);
	assert_non_null(s.v[0].removed);
	assert_string_equal(s.v[0].removed[0], first);
	assert_null(s.v[0].removed[1]);
	p = in_root(first);
	assert_false(g_file_test(p, G_FILE_TEST_EXISTS));
	g_free(p);
	assert_int_equal(count_id(old_id, NULL), 0);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag"), 1);
	assert_int_equal(count_files(dir, "cur"), 1);
	edited = in_root(s.v[0].path);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* edited by the reviewer, then the findings change: kept */
	f = fopen(edited, "a");
	assert_non_null(f);
	fputs("My own words.\n", f);
	fclose(f);
	st = open_ro();
	one_draft(&dl, "Third findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_KEPT_EDITED);
	assert_true(g_str_has_suffix(edited, s.v[0].other));
	assert_null(s.v[0].removed);
	assert_true(g_file_test(edited, G_FILE_TEST_EXISTS));
	assert_int_equal(count_files(dir, "cur"), 2);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(old_id);
	g_free(edited);
	g_free(first);
	g_free(dir);
}

/* A draft on disk that the database does not have (an earlier run could
 * not index it) is indexed, not written again. */
static void test_save_indexed_now(void **state)
{
	char *dir = g_build_filename(mailroot, "Late", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st;

	one_draft(&dl, "Late findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	fs_draft_results_free(res, 1);
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);

	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_true(s.v[0].indexed_now);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag"), 1);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
}

/* Outside the mail root: written, not indexed, the store left alone;
 * outdated drafts are still removed from the disk.  Without a store at
 * all every folder is outside. */
static void test_save_outside(void **state)
{
	char *dir = g_build_filename(tmpdir, "Outside", NULL), *first;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro(), *none = NULL;

	one_draft(&dl, "Outside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_true(s.outside);
	assert_non_null(st);
	assert_string_equal(s.dir, dir);
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_prefix(s.v[0].path, dir)); /* absolute */
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);
	first = g_strdup(s.v[0].path);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	one_draft(&dl, "Other outside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(s.v[0].removed[0], first);
	assert_false(g_file_test(first, G_FILE_TEST_EXISTS));
	assert_non_null(st);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);

	assert_int_equal(save(&s, &dl, dir, &none, &err), 0);
	assert_true(s.outside);
	assert_null(s.root);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(first);
	g_free(dir);
}

/* Fork a child that holds the database open read-write until *RELEASE
 * is closed. */
static pid_t hold_lock(int *release)
{
	int ready[2], rel[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(rel), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		notmuch_database_t *db = NULL;
		char *msg = NULL;

		close(ready[0]);
		close(rel[1]);
		if (notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						      NULL, NULL, &db, &msg) != NOTMUCH_STATUS_SUCCESS)
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		while (read(rel[0], &c, 1) > 0)
			;
		notmuch_database_destroy(db);
		_exit(0);
	}
	close(ready[1]);
	close(rel[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*release = rel[1];
	return pid;
}

/* A locked database: the drafts are written, the error says they are not
 * indexed yet, and the next run indexes them without writing them again. */
static void test_save_locked(void **state)
{
	char *dir = g_build_filename(mailroot, "Locked", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	int release, status = 0;
	pid_t pid;

	keyed_draft(&dl, "patch <a@example.org>", "Locked one.\n");
	keyed_draft(&dl, "patch <b@example.org>", "Locked two.\n");
	pid = hold_lock(&release);
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_ELOCKED);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(g_str_has_prefix(err.message,
				     "2 drafts written but not indexed (run again to index them): "));
	assert_non_null(strstr(err.message, "locked by another process"));
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_non_null(s.v[1].path);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_int_equal(count_files(dir, "tmp"), 0);
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);
	fs_drafts_saved_clear(&s);

	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_true(s.v[0].indexed_now);
	assert_true(s.v[1].indexed_now);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_int_equal(count_id(dl.v[1].message_id, "tag:mytag"), 1);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* one draft: singular */
	keyed_draft(&dl, "patch <c@example.org>", "Locked three.\n");
	pid = hold_lock(&release);
	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_ELOCKED);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(g_str_has_prefix(err.message,
				     "1 draft written but not indexed (run again to index it): "));
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
}

/* A folder that cannot be created: the write error, nothing written. */
static void test_save_write_error(void **state)
{
	char *file = g_build_filename(mailroot, "plainfile", NULL);
	char *dir = g_build_filename(file, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	one_draft(&dl, "Findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the drafts folder"));
	assert_false(s.complete);
	assert_null(s.v[0].path);
	assert_int_equal(s.index_err.code, 0);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
	g_free(file);
}

/* Item A of issue 13: once the reviewer sent the draft (or any reply of
 * theirs to the patch), no draft for that patch is written again, not
 * even when the findings change.  Unsent drafts, other people's replies
 * and, for the summary, replies further down the thread do not count. */
static void test_save_answered(void **state)
{
	const char *key = "patch <patch3@stable.example.org>";
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *other, *mine;

	life_folder = "Life-answered";
	/* someone else's reply, and the reviewer's own unsent draft */
	other = deliver("inbox", "2.x:2,S", "From: Dmitri Orlov <dorlov@example.com>\n"
			"Subject: Re: x\nMessage-Id: <other.1@example.com>\n"
			"In-Reply-To: <patch3@stable.example.org>\n\nAck.\n");
	mine = deliver("Postponed", "3.x:2,D", "From: Rita Reviewer <rita@example.org>\n"
		       "Subject: Re: x\nMessage-Id: <unsent.1@example.org>\n"
		       "In-Reply-To: <patch3@stable.example.org>\n\nNot yet.\n");
	assert_int_equal(save_one(key, "Answer me.\n", false, &s), FS_DRAFT_WROTE);
	assert_int_equal(s.answered, 0);

	send_draft(s.v[0].path, "4.x:2,S");
	assert_int_equal(save_one(key, "Answer me.\n", false, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_null(s.v[0].path);
	assert_int_equal(s.answered, 1);
	assert_int_equal(count_files(s.dir, "cur"), 0);
	/* days later, other findings: still answered */
	assert_int_equal(save_one(key, "Answer me again.\n", false, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(save_one(key, "Answer me again.\n", true, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(count_files(s.dir, "cur"), 0);

	/* The reply names patch 3 as its parent: a summary answering
	 * patch 3 (as if it were a cover) counts as sent.  A reply to
	 * the reply names it only in References: not for a summary. */
	assert_int_equal(save_one("summary <patch3@stable.example.org>", "Sum.\n", false, &s),
			 FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(save_one("summary <other.1@example.com>", "Sum.\n", false, &s),
			 FS_DRAFT_WROTE);
	g_free(deliver("Sent", "5.x:2,S", "From: rita@example.org\nSubject: Re: x\n"
		       "Message-Id: <deeper.1@example.org>\nIn-Reply-To: <later@example.com>\n"
		       "References: <patch3@stable.example.org> <other.1@example.com> <later@example.com>\n"
		       "\nMore.\n"));
	assert_int_equal(save_one("summary <other.1@example.com>", "Sum.\n", false, &s),
			 FS_DRAFT_UNCHANGED);
	fs_drafts_saved_clear(&s);
	g_free(other);
	g_free(mine);
}

/* Item B: a draft the reviewer deleted stays deleted while its findings
 * are the same, whether or not notmuch new has run since, and also after
 * a run that said something else; new findings or --force write it
 * again. */
static void test_save_deleted(void **state)
{
	const char *key = "patch <patch5@stable.example.org>";  /* not answered */
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *path;

	life_folder = "Life-deleted";
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_WROTE);
	path = in_root(s.v[0].path);
	assert_int_equal(unlink(path), 0);
	g_free(path);
	/* before notmuch new: the database still has it, its file is gone */
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(s.deleted, 1);
	assert_null(s.v[0].path);
	assert_int_equal(count_files(s.dir, "cur"), 0);
	assert_int_equal(system("notmuch new --quiet >/dev/null 2>&1"), 0);
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(count_files(s.dir, "cur"), 0);

	assert_int_equal(save_one(key, "Delete me.\n", true, &s), FS_DRAFT_WROTE);
	assert_int_equal(s.deleted, 0);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	path = in_root(s.v[0].path);
	assert_int_equal(unlink(path), 0);
	g_free(path);
	/* other findings: a new draft */
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_WROTE);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	/* back to what was deleted (a plain review after review
	 * --all-open): still deleted, and the other draft is left alone */
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_UNCHANGED);
	/* a draft fixscan replaced itself is no deleted draft: "Third"
	 * replaces "New findings", and "New findings" is written again */
	assert_int_equal(save_one(key, "Third.\n", false, &s), FS_DRAFT_REPLACED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_REPLACED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	fs_drafts_saved_clear(&s);
}

/* Item D: mutt renames a draft it shows (flag S); before notmuch new
 * catches up, the draft is still found, unchanged, without an error. */
static void test_save_renamed(void **state)
{
	const char *key = "patch <patch7@stable.example.org>";  /* not answered */
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *path, *seen;

	life_folder = "Life-renamed";
	assert_int_equal(save_one(key, "Look at me.\n", false, &s), FS_DRAFT_WROTE);
	path = in_root(s.v[0].path);
	seen = g_strconcat(path, "S", NULL);
	assert_int_equal(rename(path, seen), 0);
	assert_int_equal(save_one(key, "Look at me.\n", false, &s), FS_DRAFT_UNCHANGED);
	assert_true(g_str_has_suffix(seen, s.v[0].path));
	assert_int_equal(count_files(s.dir, "cur"), 1);
	fs_drafts_saved_clear(&s);
	g_free(path);
	g_free(seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_save_inside, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_indexed_now, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_outside, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_locked, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_write_error, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_answered, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_deleted, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_renamed, state_setup, state_teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
