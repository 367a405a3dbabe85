/* Unit tests for lib/mail/maildir.c: creating a maildir, writing a message
 * into it the maildir way (never a partial file in cur/ or new/, nothing
 * left in tmp/), and finding messages again by a header.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/maildir.h"

static char tmpdir[256];

#define MSG "From: a@example.org\nSubject: hello\nX-Test: one\n\nbody\n"

static int count_files(const char *dir, const char *sub)
{
	char *p = g_build_filename(dir, sub, NULL);
	GDir *d = g_dir_open(p, 0, NULL);
	int n = 0;

	while (d && g_dir_read_name(d))
		n++;
	if (d)
		g_dir_close(d);
	g_free(p);
	return n;
}

static char *folder(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static void put(const char *dir, const char *sub, const char *name, const char *text)
{
	char *p = g_build_filename(dir, sub, name, NULL);

	assert_true(g_file_set_contents(p, text, -1, NULL));
	g_free(p);
}

static void test_create(void **state)
{
	char *dir = folder("a/b/Box"), *file = folder("plain"), *bad;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0); /* twice is fine */
	assert_true(g_file_test(dir, G_FILE_TEST_IS_DIR));
	assert_int_equal(count_files(dir, "cur") + count_files(dir, "new") +
			 count_files(dir, "tmp"), 0);

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	bad = g_build_filename(file, "Box", NULL);
	assert_int_equal(fs_maildir_create(bad, "the drafts folder", &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the drafts folder"));
	assert_non_null(strstr(err.message, bad));
	assert_non_null(strstr(err.message, "Not a directory"));
	g_free(bad);

	/* cur/ a file: the folder is no maildir, and the error names it */
	bad = folder("curfile");
	assert_int_equal(g_mkdir_with_parents(bad, 0700), 0);
	put(bad, "", "cur", "x");
	assert_int_equal(fs_maildir_create(bad, NULL, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the maildir"));
	assert_non_null(strstr(err.message, bad));
	g_free(bad);
	g_free(file);
	g_free(dir);
}

static void test_write_cur_and_new(void **state)
{
	char *dir = folder("Write"), *p1 = NULL, *p2 = NULL, *text;
	struct fs_maildir_msg m = { .text = MSG, .len = strlen(MSG), .box = FS_MAILDIR_CUR, .flags = "DS" };
	struct fs_error err = FS_ERROR_INIT;
	gsize len;

	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	assert_int_equal(fs_maildir_write(&p1, dir, &m, &err), 0);
	assert_non_null(p1);
	assert_true(g_str_has_prefix(p1, dir));
	assert_non_null(strstr(p1, "/cur/"));
	assert_true(g_str_has_suffix(p1, ":2,DS"));
	assert_true(g_file_get_contents(p1, &text, &len, NULL));
	assert_int_equal(len, strlen(MSG));
	assert_memory_equal(text, MSG, len);
	g_free(text);

	m.box = FS_MAILDIR_NEW;
	m.label = "my-label";
	assert_int_equal(fs_maildir_write(&p2, dir, &m, &err), 0);
	assert_non_null(strstr(p2, "/new/"));
	assert_null(strstr(p2, ":2,"));
	assert_non_null(strstr(p2, ".my-label."));
	/* nothing stays behind in tmp/ */
	assert_int_equal(count_files(dir, "tmp"), 0);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_int_equal(count_files(dir, "new"), 1);
	g_free(p1);
	g_free(p2);
	g_free(dir);
}

static void test_unique_names(void **state)
{
	char *a = fs_maildir_unique_name(NULL), *b = fs_maildir_unique_name(NULL);
	char *c = fs_maildir_unique_name("lbl");

	assert_string_not_equal(a, b);
	assert_null(strchr(a, '/'));
	assert_null(strchr(a, ':'));
	assert_non_null(strstr(c, ".lbl."));
	g_free(a);
	g_free(b);
	g_free(c);
}

/* A folder that cannot take the message: FS_EIO naming the path, and no
 * file anywhere in the maildir. */
static void test_write_errors(void **state)
{
	char *dir = folder("BadTmp"), *path = (char *)"x";
	char *tmp = g_build_filename(dir, "tmp", NULL), *cur = g_build_filename(dir, "cur", NULL);
	struct fs_maildir_msg m = { MSG, strlen(MSG), FS_MAILDIR_CUR, "D", NULL, "the draft" };
	struct fs_error err = FS_ERROR_INIT;

	/* tmp/ is a file */
	assert_int_equal(g_mkdir_with_parents(cur, 0700), 0);
	assert_true(g_file_set_contents(tmp, "x", 1, NULL));
	assert_int_equal(fs_maildir_write(&path, dir, &m, &err), FS_EIO);
	assert_null(path);
	assert_non_null(strstr(err.message, "cannot write the draft in"));
	assert_non_null(strstr(err.message, tmp));
	assert_int_equal(count_files(dir, "cur"), 0);
	g_free(tmp);
	g_free(cur);
	g_free(dir);

	/* cur/ is missing: the file written to tmp/ must not stay there */
	dir = folder("NoCur");
	tmp = g_build_filename(dir, "tmp", NULL);
	cur = g_build_filename(dir, "cur", NULL);
	assert_int_equal(g_mkdir_with_parents(tmp, 0700), 0);
	assert_int_equal(fs_maildir_write(&path, dir, &m, &err), FS_EIO);
	assert_null(path);
	assert_non_null(strstr(err.message, "cannot move the draft into"));
	assert_non_null(strstr(err.message, cur));
	assert_int_equal(count_files(dir, "tmp"), 0);
	g_free(tmp);
	g_free(cur);
	g_free(dir);
}

static void test_header(void **state)
{
	const char *h = "Subject: one\nX-Fixscan-Key: patch\n <id@x>\nx-test:  two  \n";
	char *v;

	v = fs_maildir_header(h, "x-fixscan-key");
	assert_string_equal(v, "patch <id@x>");
	g_free(v);
	v = fs_maildir_header(h, "X-Test");
	assert_string_equal(v, "two");
	g_free(v);
	assert_null(fs_maildir_header(h, "X-Fixscan"));
	assert_null(fs_maildir_header(h, "Missing"));
	assert_null(fs_maildir_header(NULL, "Subject"));
}

static void test_scan(void **state)
{
	char *dir = folder("Scan");
	struct fs_maildir_files f = FS_MAILDIR_FILES_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char *v;

	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	put(dir, "cur", "1.a:2,S", "From: x\r\nX-Mine: yes\r\n\r\nX-Mine: in the body\r\n");
	put(dir, "new", "2.tagged.b", "From: y\nX-Mine: also\n\nbody\n");
	put(dir, "new", "3.c", "From: z\n\nX-Mine: only in the body\n");
	put(dir, "new", ".hidden", "X-Mine: hidden\n\n");
	put(dir, "tmp", "4.d", "X-Mine: not yet delivered\n\n");

	fs_maildir_scan(&f, dir, "X-Mine", NULL);
	assert_int_equal(f.n, 2);
	assert_true(g_str_has_suffix(f.v[0].path, "/cur/1.a:2,S"));
	assert_true(g_str_has_suffix(f.v[1].path, "/new/2.tagged.b"));
	/* CRs dropped, the block ends before the body */
	assert_null(strchr(f.v[0].headers, '\r'));
	assert_null(strstr(f.v[0].headers, "body"));
	v = fs_maildir_header(f.v[0].headers, "X-Mine");
	assert_string_equal(v, "yes");
	g_free(v);
	fs_maildir_files_clear(&f);
	assert_int_equal(f.n, 0);

	/* NAME_PART: only files whose name has it are read */
	fs_maildir_scan(&f, dir, "X-Mine", ".tagged.");
	assert_int_equal(f.n, 1);
	assert_true(g_str_has_suffix(f.v[0].path, "/new/2.tagged.b"));
	fs_maildir_files_clear(&f);

	/* a folder that is not there has nothing */
	fs_maildir_scan(&f, "/nonexistent/fixscan", "X-Mine", NULL);
	assert_int_equal(f.n, 0);
	g_free(dir);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* One writer at a time: a second lock (another descriptor, as another
 * process would hold) waits and gives FS_ELOCKED; once the first is
 * released, or its holder is gone, the lock is free again. */
static void test_lock(void **state)
{
	char *dir = folder("Locked");
	struct fs_error err = FS_ERROR_INIT;
	int a, b;
	pid_t pid;
	int status;

	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	a = fs_maildir_lock(dir, 0, "the drafts folder", &err);
	assert_true(a >= 0);
	b = fs_maildir_lock(dir, 0.1, "the drafts folder", &err);
	assert_int_equal(b, FS_ELOCKED);
	assert_non_null(strstr(err.message, "another fixscan is writing into the drafts folder"));
	fs_maildir_unlock(a);
	b = fs_maildir_lock(dir, 0, NULL, &err);
	assert_true(b >= 0);
	fs_maildir_unlock(b);
	/* A holder killed with SIGKILL leaves no stale lock. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (fs_maildir_lock(dir, 0, NULL, NULL) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	while ((b = fs_maildir_lock(dir, 0, NULL, &err)) >= 0) {
		fs_maildir_unlock(b);  /* the child has not locked yet */
		g_usleep(1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	b = fs_maildir_lock(dir, 1, NULL, &err);
	assert_true(b >= 0);
	fs_maildir_unlock(b);
	g_free(dir);
	dir = folder("no-such");
	assert_int_equal(fs_maildir_lock(dir, 0, NULL, &err), FS_EIO);
	g_free(dir);
}

/* What a killed writer left in tmp/ goes; nothing else does. */
static void test_sweep_tmp(void **state)
{
	char *dir = folder("Swept"), *ours = fs_maildir_unique_name(NULL), *mine, *live, *dead;
	char host[256];
	struct fs_error err = FS_ERROR_INIT;
	const char *at;

	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	at = strrchr(ours, '.');
	g_strlcpy(host, at + 1, sizeof(host));
	/* pid 1 runs; a pid above the kernel's limit never does */
	live = g_strdup_printf("1700000000.M1P1Q1R0000abcd.%s", host);
	dead = g_strdup_printf("1700000000.M1P2147483000Q1R0000abcd.%s", host);
	mine = g_strdup_printf("1700000000.M1P2147483000Q2R0000abce.%s", host);
	put(dir, "tmp", dead, "Message-Id: <fixscan.0123456789ab.x@example.org>\n\nbody\n");
	put(dir, "tmp", mine, "Message-Id: <someone-else@example.org>\n\nbody\n");
	put(dir, "tmp", live, "Message-Id: <fixscan.0123456789ab.y@example.org>\n\nbody\n");
	put(dir, "tmp", "1700000000.12345_1.otherhost", "Message-Id: <fixscan.z@example.org>\n\n");
	put(dir, "tmp", "1700000001.M1P2147483000Q3R0000abcf.elsewhere",
	    "Message-Id: <fixscan.w@example.org>\n\n");
	assert_int_equal(fs_maildir_sweep_tmp(dir, "fixscan"), 1);
	assert_int_equal(count_files(dir, "tmp"), 4);
	g_free(dir);
	g_free(ours);
	g_free(mine);
	g_free(live);
	g_free(dead);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-maildir.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create),
		cmocka_unit_test(test_write_cur_and_new),
		cmocka_unit_test(test_unique_names),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_sweep_tmp),
	};

	return cmocka_run_group_tests_name("maildir", tests, setup, teardown);
}
