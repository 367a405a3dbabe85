/* Unit tests for lib/mail/source.c and lib/mail/source-queue.c: the mbox and queue
 * loaders (and the mail reader's mbox quoting and gzip reading they rest
 * on).  Files are written to a temporary directory; all mails and ids
 * are invented. */
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
#include <zlib.h>

#include "fixscan/mail.h"
#include "fixscan/source.h"

#define UP "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"

static char *tmpdir;

static int setup(void **state)
{
	(void)state;
	tmpdir = g_dir_make_tmp("fixscan-test-source-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	cmd = g_strdup_printf("rm -rf '%s'", tmpdir);
	assert_int_equal(system(cmd), 0);
	g_free(cmd);
	g_free(tmpdir);
	return 0;
}

/* TEXT (LEN bytes, -1: a string) into NAME under the temporary directory;
 * with GZ compressed in MEMBERS gzip members. New path (g_free()). */
static char *write_file(const char *name, const char *text, ssize_t len, int members)
{
	char *path = g_build_filename(tmpdir, name, NULL), *dir = g_path_get_dirname(path);
	size_t n = len < 0 ? strlen(text) : (size_t)len, half = n / 2;

	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	g_free(dir);
	if (!members) {
		assert_true(g_file_set_contents(path, text, n, NULL));
		return path;
	}
	/* Each member is a gzip stream of its own, one after the other. */
	unlink(path);
	for (int m = 0; m < members; m++) {
		gzFile gz = gzopen(path, "ab");
		size_t from = members == 1 ? 0 : (m ? half : 0);
		size_t to = members == 1 ? n : (m ? n : half);

		assert_non_null(gz);
		assert_int_equal(gzwrite(gz, text + from, (unsigned)(to - from)), (int)(to - from));
		assert_int_equal(gzclose(gz), Z_OK);
	}
	return path;
}

/* ---- the quilt series file ----------------------------------------------- */

static void test_queue__names(void **state)
{
	static const char series[] =
		"# a comment\n"
		"\n"
		"a.patch\n"
		"  b.patch -p1\n"
		"dir/c.patch\t-p0 # with a comment\n"
		"d..e.patch\n"
		"   # indented comment\n"
		"f.patch\r\n"
		"g.patch";
	char **names = NULL;
	size_t n = 0;
	struct fs_error err = FS_ERROR_INIT;

	(void)state;
	assert_int_equal(fs_source_queue_names(&names, &n, series, strlen(series), "series", &err), 0);
	assert_int_equal(n, 6);
	assert_string_equal(names[0], "a.patch");
	assert_string_equal(names[1], "b.patch");
	assert_string_equal(names[2], "dir/c.patch");
	assert_string_equal(names[3], "d..e.patch");
	assert_string_equal(names[4], "f.patch");
	assert_string_equal(names[5], "g.patch");
	assert_null(names[6]);
	g_strfreev(names);
}

struct bad_series {
	const char *text;
	size_t len;
	const char *message;
};

static void test_queue__bad_names(void **state)
{
	static const struct bad_series cases[] = {
		{ "a.patch\n\001x\n", 0, "'s' line 2: a control character, not a patch name" },
		{ "a.patch\nb\0.patch\n", 18, "'s' line 2: a control character, not a patch name" },
		{ "-p1\n", 0, "'s' line 1: an option where the patch name should be, not a patch name" },
		{ "../x.patch\n", 0, "'s' line 1: '../x.patch' is outside the queue directory" },
		{ "a/../../x.patch\n", 0, "'s' line 1: 'a/../../x.patch' is outside the queue directory" },
		{ "a/..\n", 0, "'s' line 1: 'a/..' is outside the queue directory" },
		{ "/etc/passwd\n", 0, "'s' line 1: '/etc/passwd' is outside the queue directory" },
		{ "a.patch\n# x\na.patch -p1\n", 0, "'s' line 3: 'a.patch' is listed twice" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_error err = FS_ERROR_INIT;
		char **names = (char **)&err; /* set to NULL on error */
		size_t n = 99, len = cases[i].len ? cases[i].len : strlen(cases[i].text);

		assert_int_equal(fs_source_queue_names(&names, &n, cases[i].text, len, "s", &err),
				 FS_EPARSE);
		assert_null(names);
		assert_int_equal(n, 0);
		assert_string_equal(err.message, cases[i].message);
	}
}

static void test_queue__version(void **state)
{
	static const char *const cases[][2] = {
		{ "queue-4.4", "4.4" }, { "queue-4.4/", "4.4" }, { "/src/stable-queue/queue-5.10", "5.10" },
		{ "queue-6.12//", "6.12" }, { "queue-4", NULL }, { "queue-4.4.1", NULL },
		{ "queue-4.", NULL }, { "queue-.4", NULL }, { "releases-4.4", NULL },
		{ "queue-4.4x", NULL }, { "queue-", NULL }, { "", NULL }, { "/", NULL },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *v = fs_source_queue_version(cases[i][0]);
		if (cases[i][1])
			assert_string_equal(v, cases[i][1]);
		else
			assert_null(v);
		g_free(v);
	}
}

/* ---- a queue directory ---------------------------------------------------- */

static const char queue_patch_a[] =
	"From " UP " Mon Sep 17 00:00:00 2001\n"
	"From: Ann Author <ann@example.org>\n"
	"Date: Mon, 18 Feb 2019 13:35:29 +0100\n"
	"Subject: net: fix the first thing\n"
	"\n"
	"From: Ann Author <ann@example.org>\n"
	"\n"
	"commit " UP " upstream.\n"
	"\n"
	"Signed-off-by: Ann Author <ann@example.org>\n"
	"---\n"
	" a.c | 1 +\n";
static const char queue_patch_b[] =
	"From: Bob Backporter <bob@example.org>\n"
	"Subject: [PATCH] mm: no upstream line here\n"
	"\n"
	"Just a changelog.\n";

static void test_queue__load(void **state)
{
	struct fs_source src = FS_SOURCE_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	const struct fs_thread_series *s;
	const struct fs_series *ser;
	char *a = write_file("queue-4.9/a.patch", queue_patch_a, -1, 0);
	char *b = write_file("queue-4.9/sub/b.patch", queue_patch_b, -1, 0);
	char *series = write_file("queue-4.9/series", "# x\nsub/b.patch -p1\n\na.patch\n", -1, 0);
	char *dir = g_path_get_dirname(a);
	size_t n = 0;

	(void)state;
	src.kind = FS_SOURCE_QUEUE;
	src.what = dir;
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(fs_thread_count(threads[0]), 1);
	s = fs_thread_get(threads[0], 0);
	assert_null(s->cover);
	assert_int_equal(s->npatches, 2);
	assert_int_equal(s->total, 2);
	assert_int_equal(s->nmissing, 0);
	assert_string_equal(s->version, "4.9");
	assert_string_equal(s->branch, "linux-4.9.y");
	assert_null(s->base);
	/* series order, not file or subject order */
	assert_string_equal(fs_patch_title(s->patches[0]), "mm: no upstream line here");
	assert_string_equal(fs_patch_title(s->patches[1]), "net: fix the first thing");
	ser = fs_patch_series(s->patches[0]);
	assert_int_equal(ser->index, 1);
	assert_int_equal(ser->total, 2);
	assert_int_equal(fs_thread_patch_number(s->patches[1]), 2);
	assert_string_equal(fs_patch_author(s->patches[1]), "Ann Author <ann@example.org>");
	fs_source_free(threads, n);

	/* --branch's companion: a version given wins over the name */
	src.version = "4.14";
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), 0);
	assert_string_equal(fs_thread_get(threads[0], 0)->version, "4.14");
	fs_source_free(threads, n);

	/* a listed file that is missing */
	src.version = NULL;
	g_free(write_file("queue-4.9/series", "a.patch\nnope.patch\n", -1, 0));
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EIO);
	assert_null(threads);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err.message, "nope.patch': No such file or directory"));

	/* a series listing nothing */
	g_free(write_file("queue-4.9/series", "# nothing\n", -1, 0));
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EPARSE);
	assert_non_null(strstr(err.message, "series' lists no patch"));

	/* no series file, no directory */
	unlink(series);
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EIO);
	assert_non_null(strstr(err.message, "has no quilt series file"));
	src.what = a;
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is not a directory"));
	g_free(a);
	g_free(b);
	g_free(series);
	g_free(dir);
}

/* ---- an mbox ---------------------------------------------------------------- */

/* Two threads: a series of two with its cover, and a reply to it; and two
 * replies to a mail the file does not have, which belong together. */
static const char two_threads[] =
	"From gregkh@example.org Mon Feb 18 13:35:29 2019\n"
	"From: Greg <gregkh@example.org>\n"
	"Subject: [PATCH 4.4 0/2] 4.4.175-stable review\n"
	"Message-Id: <cover@example.org>\n"
	"\n"
	"cover\n"
	"\n"
	"From gregkh@example.org Mon Feb 18 13:35:30 2019\n"
	"From: Greg <gregkh@example.org>\n"
	"Subject: [PATCH 4.4 1/2] one\n"
	"Message-Id: <one@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"\n"
	"commit " UP " upstream.\n"
	"\n"
	">From the start, this was quoted (mboxo and mboxrd).\n"
	">>From here, twice (mboxrd).\n"
	"> From a quote, kept.\n"
	"\n"
	"From x@example.org Mon Feb 18 13:35:31 2019\n"
	"From: Someone <x@example.org>\n"
	"Subject: Re: [PATCH 4.4 1/2] one\n"
	"Message-Id: <re-one@example.org>\n"
	"In-Reply-To: <one@example.org>\n"
	"References: <cover@example.org> <one@example.org>\n"
	"\n"
	"Tested.\n"
	"\n"
	"From gregkh@example.org Mon Feb 18 13:35:32 2019\n"
	"From: Greg <gregkh@example.org>\n"
	"Subject: [PATCH 4.4 2/2] two\n"
	"Message-Id: <two@example.org>\n"
	"References: <cover@example.org>\n"
	"\n"
	"two\n"
	"\n"
	"From y@example.org Mon Feb 18 13:35:33 2019\n"
	"From: Y <y@example.org>\n"
	"Subject: Re: [PATCH 4.9] other\n"
	"Message-Id: <y1@example.org>\n"
	"In-Reply-To: <absent@example.org>\n"
	"\n"
	"y1\n"
	"\n"
	"From y@example.org Mon Feb 18 13:35:34 2019\n"
	"From: Y <y@example.org>\n"
	"Subject: [PATCH 4.9] other, again\n"
	"Message-Id: <y2@example.org>\n"
	"\n"
	"y2\n"
	"\n"
	"From z@example.org Mon Feb 18 13:35:35 2019\n"
	"From: Z <z@example.org>\n"
	"Subject: Re: [PATCH 4.9] other\n"
	"Message-Id: <z1@example.org>\n"
	"References: <absent@example.org>\n"
	"\n"
	"z1\n";

static void check_two_threads(const char *path)
{
	struct fs_source src = FS_SOURCE_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	const struct fs_thread_series *s;
	const char *body;
	size_t n = 0, len;

	src.kind = FS_SOURCE_MBOX;
	src.what = path;
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), 0);
	/* the series; the two replies to <absent>; the lone 4.9 patch */
	assert_int_equal(n, 3);
	assert_int_equal(fs_thread_count(threads[0]), 1);
	s = fs_thread_get(threads[0], 0);
	assert_non_null(s->cover);
	assert_int_equal(s->npatches, 2);
	assert_int_equal(s->nreplies, 1);
	assert_string_equal(s->branch, "linux-4.4.y");
	body = fs_patch_body(s->patches[0], &len);
	assert_non_null(strstr(body, "\nFrom the start, this was quoted (mboxo and mboxrd).\n"
				     ">From here, twice (mboxrd).\n"
				     "> From a quote, kept.\n"));
	assert_int_equal(len, strlen(body));
	/* the replies to a mail not in the file: one thread, one series of
	 * its replies, read without their patch */
	assert_int_equal(fs_thread_count(threads[1]), 1);
	assert_int_equal(fs_thread_get(threads[1], 0)->npatches, 0);
	assert_int_equal(fs_thread_get(threads[1], 0)->nreplies, 2);
	assert_null(fs_thread_get(threads[1], 0)->cover);
	assert_int_equal(fs_thread_count(threads[2]), 1);
	assert_int_equal(fs_thread_get(threads[2], 0)->npatches, 1);
	fs_source_free(threads, n);
}

static void test_mbox__threads(void **state)
{
	char *path = write_file("two.mbox", two_threads, -1, 0);

	(void)state;
	check_two_threads(path);
	g_free(path);
}

static void test_mbox__gzip(void **state)
{
	char *one = write_file("two.mbox.gz", two_threads, -1, 1);
	char *two = write_file("members.gz", two_threads, -1, 2);

	(void)state;
	check_two_threads(one);
	/* cat a.gz b.gz: every member is read */
	check_two_threads(two);
	g_free(one);
	g_free(two);
}

static void test_mbox__bad(void **state)
{
	static const struct {
		const char *name, *text;
		ssize_t len;
		int gz, code;
		const char *pre, *post; /* the message, around the path */
	} cases[] = {
		{ "empty.mbox", "", 0, 0, FS_EPARSE, "not a mail message: '", "' is empty" },
		{ "junk.gz", "\037\213\010junk and more junk", -1, 0, FS_EPARSE,
		  "'", "': corrupt gzip data: " },
		{ "nopatch.mbox", "From x Mon Feb 18 13:35:29 2019\nFrom: a@example.org\n"
		  "Subject: hello\nMessage-Id: <h@example.org>\n\nno patch\n", -1, 0, FS_ENOTFOUND,
		  "'", "' holds no patch of a stable series" },
		{ "nopatch.gz", "From x Mon Feb 18 13:35:29 2019\nFrom: a@example.org\n"
		  "Subject: hello\n\nno patch\n", -1, 1, FS_ENOTFOUND,
		  "'", "' holds no patch of a stable series" },
		{ "emptygz.gz", "", 0, 1, FS_EPARSE, "not a mail message: '", "' is empty" },
	};

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_source src = FS_SOURCE_INIT;
		struct fs_error err = FS_ERROR_INIT;
		struct fs_thread **threads = NULL;
		char *path = write_file(cases[i].name, cases[i].text, cases[i].len, cases[i].gz);
		char *want = g_strconcat(cases[i].pre, path, cases[i].post, NULL);
		size_t n = 0;

		src.kind = FS_SOURCE_MBOX;
		src.what = path;
		assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), cases[i].code);
		assert_null(threads);
		assert_int_equal(n, 0);
		assert_memory_equal(err.message, want, strlen(want));
		g_free(want);
		g_free(path);
	}
}

static void test_mbox__truncated_gzip(void **state)
{
	char *path = write_file("trunc.gz", two_threads, -1, 1), *text = NULL, *want;
	struct fs_source src = FS_SOURCE_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	gsize len = 0;
	size_t n = 0;

	(void)state;
	assert_true(g_file_get_contents(path, &text, &len, NULL));
	assert_true(g_file_set_contents(path, text, len - 10, NULL));
	src.kind = FS_SOURCE_MBOX;
	src.what = path;
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EPARSE);
	want = g_strdup_printf("'%s': truncated gzip data", path);
	assert_string_equal(err.message, want);
	g_free(want);
	g_free(text);
	g_free(path);
}

/* ---- fetching a thread (FS_SOURCE_FETCH) ---------------------------- */

static void test_fetch__ids(void **state)
{
	static const char *const good[] = {
		"20160424014451.100031676@stable.example.org",
		"CAHk-=wgXy_z+Q/1%2@mail.gmail.com",
		"a@b",
	};
	static const struct {
		const char *id, *why;
	} bad[] = {
		{ "-o@x", "starts with '-'" },
		{ ".a@x", "starts with '-' or '.'" },
		{ "", "empty" },
		{ "a b@x", "white space" },
		{ "a\tb@x", "white space" },
		{ "a\033[2Jb@x", "control character" },
		{ "a\xc3\xa9@x", "not ASCII" },
		{ "a;b@x", "shell or quote" },
		{ "a$(id)@x", "shell or quote" },
		{ "a`id`@x", "shell or quote" },
		{ "a'b@x", "shell or quote" },
		{ "a\"b@x", "shell or quote" },
		{ "a\\b@x", "shell or quote" },
		{ "a|b@x", "shell or quote" },
		{ "a*@x", "shell or quote" },
		{ "<a@x>", "shell or quote" },
		{ "noat", "no '@'" },
		{ "@x", "no '@'" },
		{ "a@", "no '@'" },
	};
	char longid[300];
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(good); i++)
		assert_int_equal(fs_source_fetch_check_id(good[i], NULL), 0);
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		struct fs_error err = FS_ERROR_INIT;

		assert_int_equal(fs_source_fetch_check_id(bad[i].id, &err), FS_EUSAGE);
		assert_non_null(strstr(err.message, "is no plain Message-Id"));
		assert_non_null(strstr(err.message, bad[i].why));
		/* shown safely: no control character reaches a terminal */
		assert_null(strchr(err.message, '\033'));
	}
	memset(longid, 'a', sizeof(longid) - 3);
	strcpy(longid + sizeof(longid) - 3, "@x");
	assert_int_equal(fs_source_fetch_check_id(longid, NULL), FS_EUSAGE);
}

/* A stub TOOL in a directory put first on PATH, running SCRIPT (sh). */
static char *stub_tool(const char *tool, const char *script)
{
	char *dir = g_build_filename(tmpdir, "bin", NULL);
	char *path = g_build_filename(dir, tool, NULL);
	char *text = g_strdup_printf("#!/bin/sh\n%s\n", script);

	g_mkdir_with_parents(dir, 0755);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	assert_int_equal(chmod(path, 0755), 0);
	g_free(text);
	g_free(path);
	return dir;
}

static int load_fetch(const char *id, const char *tool, struct fs_thread ***threads,
		      size_t *n, struct fs_error *err)
{
	struct fs_source src = FS_SOURCE_INIT;

	src.kind = FS_SOURCE_FETCH;
	src.what = id;
	src.tool = tool;
	return fs_source_load(threads, n, &src, NULL, err);
}

static void test_fetch__stub(void **state)
{
	char *mbox = write_file("fetched.mbox", two_threads, -1, 0);
	char *script = g_strdup_printf("printf '%%s\\n' \"$@\" >'%s/argv'; cat '%s'", tmpdir, mbox);
	char *dir = stub_tool("b4", script), *oldpath = g_strdup(g_getenv("PATH"));
	char *argv_file = g_build_filename(tmpdir, "argv", NULL), *got = NULL;
	char *newpath = g_strconcat(dir, ":", oldpath, NULL);
	struct fs_thread **threads = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t n = 0;

	(void)state;
	g_setenv("PATH", newpath, TRUE);
	assert_string_equal(fs_source_fetch_tool(), "b4");
	assert_int_equal(load_fetch("s1@example.org", NULL, &threads, &n, &err), 0);
	assert_int_equal(n, 3);
	fs_source_free(threads, n);
	/* the id is one argument, after -- */
	assert_true(g_file_get_contents(argv_file, &got, NULL, NULL));
	assert_string_equal(got, "mbox\n-o\n-\n--\ns1@example.org\n");
	g_free(got);
	/* a bad id: nothing runs */
	assert_int_equal(unlink(argv_file), 0);
	assert_int_equal(load_fetch("-o@x", NULL, &threads, &n, &err), FS_EUSAGE);
	assert_false(g_file_test(argv_file, G_FILE_TEST_EXISTS));
	/* a program that fails: its status and last line */
	g_free(stub_tool("lei", "echo first >&2; echo 'lei: no such \033]0;x' >&2; exit 4"));
	assert_int_equal(load_fetch("s1@example.org", "lei", &threads, &n, &err), FS_EIO);
	assert_string_equal(err.message,
			    "lei q <s1@example.org> failed (exit status 4): lei: no such ^[]0;x");
	/* a program that hangs is stopped */
	{
		struct fs_source src = FS_SOURCE_INIT;
		gint64 t0 = g_get_monotonic_time();

		g_free(stub_tool("lei", "exec sleep 600"));
		src.kind = FS_SOURCE_FETCH;
		src.what = "s1@example.org";
		src.tool = "lei";
		src.timeout = 1;
		assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), FS_EIO);
		assert_string_equal(err.message,
				    "lei q <s1@example.org> did not finish within 1s: stopped");
		assert_true(g_get_monotonic_time() - t0 < 10 * G_USEC_PER_SEC);
	}
	/* nothing printed */
	g_free(stub_tool("lei", "exit 0"));
	assert_int_equal(load_fetch("s1@example.org", "lei", &threads, &n, &err), FS_ENOTFOUND);
	assert_string_equal(err.message, "lei q <s1@example.org> gave no mail");
	/* not mail at all: the reader's error, naming the thread */
	g_free(stub_tool("lei", "echo hello"));
	assert_true(load_fetch("s1@example.org", "lei", &threads, &n, &err) < 0);
	assert_non_null(strstr(err.message, "the thread of <s1@example.org> from lei"));
	/* no such program */
	assert_int_equal(load_fetch("s1@example.org", "nosuch", &threads, &n, &err), FS_EUSAGE);
	g_setenv("PATH", "/nonexistent", TRUE);
	assert_null(fs_source_fetch_tool());
	assert_int_equal(load_fetch("s1@example.org", NULL, &threads, &n, &err), FS_ENOTFOUND);
	assert_non_null(strstr(err.message, "neither b4 nor lei is on PATH"));
	g_setenv("PATH", oldpath, TRUE);
	g_free(newpath);
	g_free(argv_file);
	g_free(oldpath);
	g_free(dir);
	g_free(script);
	g_free(mbox);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue__names),
		cmocka_unit_test(test_queue__bad_names),
		cmocka_unit_test(test_queue__version),
		cmocka_unit_test(test_queue__load),
		cmocka_unit_test(test_mbox__threads),
		cmocka_unit_test(test_mbox__gzip),
		cmocka_unit_test(test_mbox__bad),
		cmocka_unit_test(test_mbox__truncated_gzip),
		cmocka_unit_test(test_fetch__ids),
		cmocka_unit_test(test_fetch__stub),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
