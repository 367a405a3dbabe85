/* Unit tests for lib/draft/drafts-write.c and the drafts folder's
 * name and tags (lib/draft/drafts.c): writing drafts into a maildir,
 * once, finding the ones written before, and the errors.
 */
#include "drafts-fixture.h"

static void test_dir_and_tags(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	char *d = fs_drafts_dir("/some/where", NULL, NULL, &err);
	char **tags = fs_drafts_tags(NULL);

	assert_string_equal(d, "/some/where");
	g_free(d);
	assert_null(fs_drafts_dir(NULL, NULL, NULL, &err));
	assert_non_null(strstr(err.message, "--drafts-dir"));
	assert_string_equal(tags[0], "draft");
	assert_string_equal(tags[1], "fixscan");
	assert_null(tags[2]);
	g_strfreev(tags);
}

/* The config values, as the caller read them. */
static void test_dir_and_tags_config(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	char *d;
	char **tags;

	d = fs_drafts_dir(NULL, "Mine", "/mail", &err);
	assert_string_equal(d, "/mail/Mine");
	g_free(d);
	d = fs_drafts_dir(NULL, "/abs/Drafts", "/mail", &err);
	assert_string_equal(d, "/abs/Drafts");
	g_free(d);
	d = fs_drafts_dir(NULL, NULL, "/mail", &err);
	assert_string_equal(d, "/mail/Drafts");
	g_free(d);
	d = fs_drafts_dir("/flag", "Mine", "/mail", &err);
	assert_string_equal(d, "/flag");
	g_free(d);

	tags = fs_drafts_tags(" review ;;to-send\r\n; ");
	assert_string_equal(tags[0], "review");
	assert_string_equal(tags[1], "to-send");
	assert_null(tags[2]);
	g_strfreev(tags);
	tags = fs_drafts_tags(" ; ");
	assert_string_equal(tags[0], "draft");
	g_strfreev(tags);
}

static void test_write_idempotent(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT, dl2 = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *first, *edited, *text;
	gsize len;
	FILE *f;

	one_draft(&dl, "The first findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_suffix(res[0].path, ":2,D"));
	assert_non_null(strstr(res[0].path, "/Drafts/cur/"));
	assert_string_equal(res[0].message_id, dl.v[0].message_id);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_int_equal(count_files(dir, "tmp"), 0);
	assert_int_equal(count_files(dir, "new"), 0);
	assert_true(g_file_get_contents(res[0].path, &text, &len, NULL));
	assert_int_equal(len, dl.v[0].len);
	assert_memory_equal(text, dl.v[0].text, len);
	g_free(text);
	first = g_strdup(res[0].path);
	fs_draft_results_free(res, 1);

	/* the same findings again (a new Message-Id and Date): unchanged */
	one_draft(&dl2, "The first findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, first);
	assert_string_equal(res[0].message_id, dl.v[0].message_id);
	assert_null(res[0].stale);
	assert_int_equal(count_files(dir, "cur"), 1);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* other findings: the unedited draft is replaced */
	one_draft(&dl2, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(res[0].other, first);
	assert_non_null(res[0].stale);
	assert_string_equal(res[0].stale[0], first);
	assert_null(res[0].stale[1]);
	assert_int_equal(count_files(dir, "cur"), 2);
	/* without a store only the stale file goes */
	assert_int_equal(fs_drafts_index(res, 1, NULL, NULL, &err), 0);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_false(g_file_test(first, G_FILE_TEST_EXISTS));
	edited = g_strdup(res[0].path);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* the reviewer edits it */
	f = fopen(edited, "a");
	assert_non_null(f);
	fputs("My own words.\n", f);
	fclose(f);
	one_draft(&dl2, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED_EDITED);
	assert_string_equal(res[0].path, edited);
	assert_null(res[0].stale);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* ... and the findings change: the edited one stays, a new one comes */
	one_draft(&dl2, "Third findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	assert_string_equal(res[0].other, edited);
	assert_null(res[0].stale);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_true(g_file_test(edited, G_FILE_TEST_EXISTS));
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	fs_drafts_clear(&dl);
	g_free(edited);
	g_free(first);
	g_free(dir);
}

/* A draft a mail client moved to new/ still counts. */
static void test_write_finds_new(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-new", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *moved;

	one_draft(&dl, "Findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	moved = g_build_filename(dir, "new", "moved", NULL);
	assert_int_equal(rename(res[0].path, moved), 0);
	fs_draft_results_free(res, 1);
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, moved);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(moved);
	g_free(dir);
}

static void test_write_errors(void **state)
{
	char *file = g_build_filename(tmpdir, "a-file", NULL);
	char *dir = g_build_filename(file, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	one_draft(&dl, "Findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the drafts folder"));
	assert_non_null(strstr(err.message, "Not a directory"));
	assert_null(res[0].path);
	fs_draft_results_free(res, 1);
	g_free(dir);

	/* tmp/ that is not a directory: nothing reaches cur/ */
	dir = g_build_filename(tmpdir, "Drafts-badtmp", NULL);
	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	{
		char *tmp = g_build_filename(dir, "tmp", NULL);
		char *cur = g_build_filename(dir, "cur", NULL);
		assert_int_equal(mkdir(cur, 0700), 0);
		assert_true(g_file_set_contents(tmp, "x", 1, NULL));
		assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), FS_EIO);
		assert_int_equal(count_files(dir, "cur"), 0);
		fs_draft_results_free(res, 1);
		g_free(tmp);
		g_free(cur);
	}
	fs_drafts_clear(&dl);
	g_free(dir);
	g_free(file);
}

/* Item C: the draft carries nothing of fixscan's but its Message-Id;
 * a later run still knows it (through the state file), and tells edited
 * from unedited.  A draft of an older version, with the X-Fixscan-Key
 * and X-Fixscan-Digest headers and unknown to the state, is still
 * recognised. */
static void test_write_without_headers(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-old", NULL), *text, *old, *hdr;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_drafts_state *fresh = NULL;
	char *prefix = fs_draft_id_prefix("patch <patch3@stable.example.org>");
	const char *k, *dg;

	one_draft(&dl, "Old findings.\n");
	assert_null(strstr(dl.v[0].text, "X-Fixscan"));
	assert_false(g_str_has_prefix(dl.v[0].message_id, prefix));
	/* as an older version wrote it: with the two headers */
	hdr = g_strdup_printf("X-Fixscan-Key: %s\nX-Fixscan-Digest: %s\n", dl.v[0].key, dl.v[0].digest);
	text = g_strconcat(hdr, dl.v[0].text, NULL);
	assert_int_equal(fs_maildir_create(dir, "x", &err), 0);
	old = g_build_filename(dir, "cur", "old:2,D", NULL);
	assert_true(g_file_set_contents(old, text, -1, NULL));
	assert_false(fs_drafts_state_find(st8, dl.v[0].message_id, &k, &dg));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, old);
	fs_draft_results_free(res, 1);
	/* and now the state knows it, on disk too */
	assert_true(fs_drafts_state_find(st8, dl.v[0].message_id, &k, &dg));
	assert_string_equal(dg, dl.v[0].digest);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	assert_int_equal(fs_drafts_state_load(&fresh, state_file, &err), 0);
	assert_true(fs_drafts_state_find(fresh, dl.v[0].message_id, &k, &dg));
	assert_string_equal(k, "patch <patch3@stable.example.org>");
	fs_drafts_state_free(fresh);
	fs_drafts_clear(&dl);

	/* other findings: the old unedited one is replaced by one without
	 * headers, which a run with the state on disk knows as unchanged */
	one_draft(&dl, "New findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	fs_draft_results_free(res, 1);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	assert_int_equal(fs_drafts_state_load(&fresh, state_file, &err), 0);
	assert_int_equal(fs_drafts_write(&res, &dl, dir, fresh, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	fs_draft_results_free(res, 1);
	fs_drafts_state_free(fresh);

	/* the reviewer's copy of a draft of an earlier version, not flagged
	 * D any more, is still their own mail to fs_identity_is_own_mail(),
	 * From changed or not (today's ids say nothing of fixscan) */
	{
		struct fs_patch *p = NULL;
		char *mid = g_strdup_printf("From: someone@elsewhere.example\nMessage-Id: <%s%s>\n\nx\n",
					    prefix, dl.v[0].message_id);
		char *f = g_build_filename(tmpdir, "sent-copy", NULL);

		assert_true(g_file_set_contents(f, mid, -1, NULL));
		assert_int_equal(fs_patch_parse_file(&p, f, &err), 0);
		assert_true(fs_identity_is_own_mail(f, p, own));
		assert_false(fs_identity_is_own_mail(f, p, NULL));
		fs_patch_free(p);
		g_free(f);
		g_free(mid);
	}
	fs_drafts_clear(&dl);
	g_free(prefix);
	g_free(hdr);
	g_free(text);
	g_free(old);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_and_tags, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_dir_and_tags_config, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_idempotent, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_finds_new, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_errors, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_without_headers, state_setup, state_teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
