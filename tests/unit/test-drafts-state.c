/* Unit tests for lib/draft/drafts-state.c and its use by the save:
 * a damaged state file refused, pending drafts, drafts adopted by their
 * text, and the Message-Ids of earlier versions.
 */
#include "drafts-fixture.h"

/* A state file that does not read as one is refused, naming the file
 * and the line, and gives no state; no link is followed, no FIFO waited
 * on. */
static void test_state_damaged(void **state)
{
	static const struct {
		const char *text;
		const char *says;
	} bad[] = {
		{ "", "is empty" },
		{ "# header\nfixscan.a@b\t0123", "ends in the middle of a line" },
		{ "# header\nx\0y\n", "holds a NUL byte" },
		{ "# header\n\xff\xfe\n", "is not UTF-8" },
		{ "# header\n\n", "line 2: is empty" },
		{ "# header\na\tb\tc\n", "line 2: not 4 fields" },
		{ "# header\na@b\tnotadigest\t1\tpatch <x>\n", "line 2: no digest" },
		{ "# header\na@b\t" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "\tnoon\tpatch <x>\n", "line 2: no time" },
	};
	char *dir = g_build_filename(tmpdir, "damaged", NULL), *path, *link;
	struct fs_drafts_state *s = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t i;

	g_mkdir_with_parents(dir, 0700);
	path = g_build_filename(dir, "drafts", NULL);
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		size_t len = strlen(bad[i].text);

		if (strstr(bad[i].says, "NUL"))
			len = strlen("# header\nx") + 3;
		assert_true(g_file_set_contents(path, bad[i].text, (gssize)len, NULL));
		assert_int_equal(fs_drafts_state_load(&s, path, &err), FS_EPARSE);
		assert_null(s);
		if (!strstr(err.message, bad[i].says) || !strstr(err.message, path))
			fail_msg("%zu: %s", i, err.message);
	}
	/* a symbolic link, even to a good state file; a FIFO; a directory */
	link = g_build_filename(dir, "link", NULL);
	assert_true(g_file_set_contents(path, "# header\n", -1, NULL));
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(fs_drafts_state_load(&s, link, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a symbolic link"));
	g_unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(fs_drafts_state_load(&s, path, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a FIFO"));
	assert_int_equal(fs_drafts_state_load(&s, dir, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a directory"));
	assert_null(s);
	g_free(link);
	g_free(path);
	g_free(dir);
}

/* A run stopped after noting its drafts as pending: the next one keeps
 * those whose file is in the folder as fixscan's (unchanged, not the
 * reviewer's) and forgets the others.  Without any state, a draft with
 * fixscan's Message-Id and the very text to write is fixscan's too. */
static void test_pending_and_adopted(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-pending", NULL), *text, *f;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_drafts_state *s = NULL;
	const char *k, *dg;

	one_draft(&dl, "Findings.\n");
	text = g_strdup_printf("# fixscan: the drafts it wrote\n"
			       "pending:%s\t%s\t%lld\t%s\n"
			       "pending:fixscan.never.written@example.org\t%s\t%lld\tpatch <other@x>\n",
			       dl.v[0].message_id, dl.v[0].digest, (long long)time(NULL), dl.v[0].key,
			       dl.v[0].digest, (long long)time(NULL));
	f = g_path_get_dirname(state_file);
	g_mkdir_with_parents(f, 0700);
	g_free(f);
	assert_true(g_file_set_contents(state_file, text, -1, NULL));
	g_free(text);
	assert_int_equal(fs_drafts_state_load(&s, state_file, &err), 0);
	assert_false(fs_drafts_state_find(s, dl.v[0].message_id, &k, &dg));
	/* the file the stopped run wrote */
	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	f = g_build_filename(dir, "cur", "1.M1P1Q1R00000001.host:2,D", NULL);
	assert_true(g_file_set_contents(f, dl.v[0].text, -1, NULL));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, s, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, f);
	fs_draft_results_free(res, 1);
	assert_true(fs_drafts_state_find(s, dl.v[0].message_id, &k, &dg));
	assert_int_equal(fs_drafts_state_save(s, &err), 0);
	fs_drafts_state_free(s);
	assert_true(g_file_get_contents(state_file, &text, NULL, NULL));
	assert_null(strstr(text, "pending:"));
	assert_null(strstr(text, "never.written"));
	g_free(text);

	/* no state at all: the same text is fixscan's, unchanged */
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	fs_draft_results_free(res, 1);
	/* ... other text for it is kept as possibly the reviewer's */
	fs_drafts_clear(&dl);
	one_draft(&dl, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(f);
	g_free(dir);
}

/* Drafts of an earlier version, whose Message-Id was "fixscan.", a hash
 * of the key and more, are still known without the state: the same text
 * is unchanged, an unedited one with other text is replaced.  A draft of
 * today's form the state does not know is fixscan's only with the very
 * text; with other text it is kept as the reviewer's. */
static void test_old_message_ids(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-oldids", NULL), *f, *text, *prefix, *id;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *at;

	one_draft(&dl, "Findings of old.\n");
	prefix = fs_draft_id_prefix(dl.v[0].key);
	id = g_strdup_printf("%s20160101000000.0000abcd@example.org", prefix);
	at = strstr(dl.v[0].text, dl.v[0].message_id);
	assert_non_null(at);
	text = g_strdup_printf("%.*s%s%s", (int)(at - dl.v[0].text), dl.v[0].text, id,
			       at + strlen(dl.v[0].message_id));
	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	f = g_build_filename(dir, "cur", "old-id:2,D", NULL);
	assert_true(g_file_set_contents(f, text, -1, NULL));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].message_id, id);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	one_draft(&dl, "Findings of today.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(res[0].other, f);
	fs_draft_results_free(res, 1);
	unlink(f);
	/* today's form, unknown: another text for the mail is not ours */
	fs_drafts_clear(&dl);
	one_draft(&dl, "Findings of tomorrow.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	assert_null(res[0].stale);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(text);
	g_free(id);
	g_free(prefix);
	g_free(f);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_state_damaged, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_pending_and_adopted, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_old_message_ids, state_setup, state_teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
