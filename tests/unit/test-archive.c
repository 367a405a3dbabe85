/* Unit tests for lib/mail/archive.c: searching a public-inbox over
 * HTTP, against a real public-inbox-httpd on loopback (made by
 * tests/e2e/lore-server.sh from the mails below) and, for the answers no
 * public-inbox gives, tests/e2e/hostile-httpd.py.  Both servers are
 * children of this process that die with it (PR_SET_PDEATHSIG), and are
 * stopped by their PID at the end.  Run from the top of the source tree
 * (make test-unit does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <utime.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/archive.h"
#include "fixscan/mail.h"

#define SERVER_SCRIPT "tests/e2e/lore-server.sh"
#define HOSTILE_SCRIPT "tests/e2e/hostile-httpd.py"

struct servers {
	char *dir;       /* scratch directory, removed at the end */
	char *lore;      /* "http://127.0.0.1:PORT/" of public-inbox */
	char *hostile;   /* "http://127.0.0.1:PORT/" of the hostile one */
	pid_t lore_pid, hostile_pid;
	bool skip;       /* public-inbox is not installed */
};

static struct servers S;

static const char *const mails[][2] = {
	{ "fix1@example.org",
	  "Subject: [PATCH] usb: frob: fix the frob\n\n"
	  "The frob broke.\n\nFixes: 1234567890ab (\"usb: frob: add the frob\")\n"
	  "Signed-off-by: A <a@example.org>\n" },
	{ "report1@example.org",
	  "Subject: frob stops \x1b[31mworking\x07\n\n"
	  "From the start it failed.\n"
	  "#regzbot introduced: 1234567890abcdef1234567890abcdef12345678\n" },
	{ "quoted1@example.org",
	  "Subject: Re: [PATCH] other\n\n> Fixes: 1234567890ab (\"usb: frob: add the frob\")\n\nok\n" },
	{ "other1@example.org", "Subject: [PATCH] net: something else\n\nNothing here.\n" },
};

static void write_file(const char *path, const char *text)
{
	assert_true(g_file_set_contents(path, text, -1, NULL));
}

static char *slurp(const char *path)
{
	gchar *contents;

	if (!g_file_get_contents(path, &contents, NULL, NULL))
		return NULL;
	return contents;
}

/* Start ARGV[0] with ARGV as a child that dies with this process. */
static pid_t spawn(char *const argv[])
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		dup2(null, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Wait until FILE holds TEXT (then its rest is returned, new), at most
 * 30 s, or NULL when PID died first. */
static char *wait_for(const char *file, const char *text, pid_t pid)
{
	int i;

	for (i = 0; i < 600; i++) {
		char *all = slurp(file), *at = all ? strstr(all, text) : NULL, *rest;
		if (at && strchr(at + strlen(text), '\n')) {
			rest = g_strndup(at + strlen(text), strcspn(at + strlen(text), "\n"));
			g_free(all);
			return rest;
		}
		g_free(all);
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return NULL;
		g_usleep(50000);
	}
	return NULL;
}

static void stop(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
}

static int group_setup(void **state)
{
	char *inbox_cmd, *lore_dir, *hostile_dir, *port, *log;
	GString *files = g_string_new("");
	size_t i;

	if (system("command -v public-inbox-httpd >/dev/null 2>&1") != 0) {
		S.skip = true;
		return 0;
	}
	if (access(SERVER_SCRIPT, R_OK) < 0) {
		fprintf(stderr, "test-archive: run from the top of the source tree\n");
		return -1;
	}
	S.dir = g_dir_make_tmp("fixscan-lore-XXXXXX", NULL);
	lore_dir = g_build_filename(S.dir, "lore", NULL);
	hostile_dir = g_build_filename(S.dir, "hostile", NULL);
	g_mkdir_with_parents(hostile_dir, 0700);
	for (i = 0; i < G_N_ELEMENTS(mails); i++) {
		char *path = g_strdup_printf("%s/mail%zu", S.dir, i);
		char *text = g_strdup_printf("From: Poster <poster@example.org>\n"
					     "Date: Mon, 12 Feb 2024 10:00:0%zu +0000\n"
					     "Message-Id: <%s>\n%s", i, mails[i][0], mails[i][1]);
		write_file(path, text);
		g_string_append_printf(files, " '%s'", path);
		g_free(text);
		g_free(path);
	}
	inbox_cmd = g_strdup_printf("sh " SERVER_SCRIPT " inbox '%s' linux-usb%s", lore_dir,
				    files->str);
	if (system(inbox_cmd) != 0)
		return -1;
	S.lore_pid = spawn((char *[]){ "sh", SERVER_SCRIPT, "run", lore_dir, NULL });
	log = g_build_filename(lore_dir, "httpd.log", NULL);
	port = wait_for(log, "# bound http://127.0.0.1:", S.lore_pid);
	if (!port)
		return -1;
	S.lore = g_strdup_printf("http://127.0.0.1:%s/", port);
	g_free(port);
	g_free(log);
	S.hostile_pid = spawn((char *[]){ "python3", HOSTILE_SCRIPT, hostile_dir, NULL });
	log = g_build_filename(hostile_dir, "port", NULL);
	for (i = 0; i < 600 && access(log, R_OK) < 0; i++)
		g_usleep(50000);
	port = slurp(log);
	if (!port)
		return -1;
	S.hostile = g_strdup_printf("http://127.0.0.1:%s/", g_strchomp(port));
	g_free(port);
	g_free(log);
	g_free(inbox_cmd);
	g_free(lore_dir);
	g_free(hostile_dir);
	g_string_free(files, TRUE);
	return 0;
}

static int group_teardown(void **state)
{
	stop(S.lore_pid);
	stop(S.hostile_pid);
	if (S.dir) {
		char *cmd = g_strdup_printf("rm -rf '%s'", S.dir);
		if (system(cmd) != 0)
			fprintf(stderr, "test-archive: cannot remove %s\n", S.dir);
		g_free(cmd);
	}
	g_free(S.dir);
	g_free(S.lore);
	g_free(S.hostile);
	return 0;
}

/* A client on a cache directory of its own, NAME under the scratch one. */
static struct fs_archive *client(const char *name, struct fs_archive_opts *o)
{
	struct fs_archive_opts def = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *dir = g_build_filename(S.dir, "cache", name, NULL);

	if (!o)
		o = &def;
	o->cache_dir = dir;
	assert_int_equal(fs_archive_open(&c, o, &err), 0);
	o->cache_dir = NULL;
	g_free(dir);
	return c;
}

/* g_ptr_array_sort()'s order of strings: it passes pointers to them. */
static gint by_string(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

/* The files of the cache directory NAME, as "name name ..." sorted, with
 * answers as "A" and temporary files as "T". */
static char *cache_files(const char *name)
{
	char *dir = g_build_filename(S.dir, "cache", name, NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	const char *e;
	char *out;

	while (d && (e = g_dir_read_name(d)))
		g_ptr_array_add(v, g_strdup(g_str_has_suffix(e, ".mbox") ? "A" : "T"));
	if (d)
		g_dir_close(d);
	g_ptr_array_sort(v, by_string);
	g_ptr_array_add(v, NULL);
	out = g_strjoinv(" ", (char **)v->pdata);
	g_ptr_array_free(v, TRUE);
	g_free(dir);
	return out;
}

/* The Message-Ids of the mbox PATH, in order, space-separated. */
static char *ids_of(const char *path)
{
	struct fs_mail_reader *r = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p;
	GString *ids = g_string_new("");

	assert_int_equal(fs_mail_reader_open(&r, path, &err), 0);
	while (fs_mail_reader_next(r, &p, &err) == 1) {
		g_string_append_printf(ids, "%s%s", ids->len ? " " : "", fs_patch_message_id(p));
		fs_patch_free(p);
	}
	fs_mail_reader_free(r);
	return g_string_free(ids, FALSE);
}

/* ---- without a server --------------------------------------------------- */

static void test_encode(void **state)
{
	static const char *const cases[][2] = {
		{ "nq:1234567890ab* OR s:\"a b\"", "nq:1234567890ab*+OR+s:%22a+b%22" },
		{ "(a OR b) NOT c", "(a+OR+b)+NOT+c" },
		{ "a+b&x=y#z", "a%2Bb%26x%3Dy%23z" },
		{ "caf\xc3\xa9\n", "caf%C3%A9%0A" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		char *got = fs_archive_encode(cases[i][0]);
		assert_string_equal(got, cases[i][1]);
		g_free(got);
	}
}

static void test_base_valid(void **state)
{
	static const struct {
		const char *base;
		bool ok;
	} cases[] = {
		{ "https://lore.kernel.org/all/", true },
		{ "http://127.0.0.1:8080/linux-usb/", true },
		{ "https://lore.kernel.org/all", false },
		{ "https:///all/", false },
		{ "ftp://lore.kernel.org/all/", false },
		{ "lore.kernel.org/all/", false },
		{ "https://lore.kernel.org/all/?q=x/", false },
		{ "https://lore.kernel.org/a ll/", false },
		{ "https://lore.kernel.org/a\x1b[2J/", false },
		{ "https://lore.kernel.org/#/", false },
		{ "none", false },
		{ "", false },
		{ NULL, false },
	};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++)
		if (fs_archive_base_valid(cases[i].base) != cases[i].ok)
			fail_msg("'%s': want %s", cases[i].base ? cases[i].base : "(null)",
				 cases[i].ok ? "valid" : "invalid");
}

static void test_queries_packed(void **state)
{
	char *terms[500], **q, *enc;
	size_t i, n = 0, k, next = 0;

	for (i = 0; i < G_N_ELEMENTS(terms); i++)
		terms[i] = g_strdup_printf("nq:%012zx*", i * 7919);
	q = fs_archive_queries((const char *const *)terms, G_N_ELEMENTS(terms),
			    "NOT nq:\"stable review patch\"", &n);
	/* 500 terms of 16 bytes (20 with " OR "): two queries, not one per
	 * term. */
	assert_int_equal(n, 2);
	for (k = 0; k < n; k++) {
		char **words, **w;
		enc = fs_archive_encode(q[k]);
		assert_true(strlen(enc) <= FS_ARCHIVE_QUERY_MAX);
		/* A full query has no room for one more term. */
		if (k + 1 < n)
			assert_true(strlen(enc) + strlen("+OR+nq:000000000000*") > FS_ARCHIVE_QUERY_MAX);
		g_free(enc);
		assert_true(q[k][0] == '(');
		assert_true(g_str_has_suffix(q[k], ") NOT nq:\"stable review patch\""));
		/* Every term once, in order. */
		words = g_strsplit_set(q[k] + 1, " )", -1);
		for (w = words; *w; w++)
			if (g_str_has_prefix(*w, "nq:") && strchr(*w, '*'))
				assert_string_equal(*w, terms[next++]);
		g_strfreev(words);
	}
	assert_int_equal(next, G_N_ELEMENTS(terms));
	assert_null(q[n]);
	g_strfreev(q);
	for (i = 0; i < G_N_ELEMENTS(terms); i++)
		g_free(terms[i]);
}

static void test_queries_edges(void **state)
{
	char *big = g_strnfill(FS_ARCHIVE_QUERY_MAX + 10, 'a');
	const char *terms[] = { "x", big, "y" };
	char **q;
	size_t n = 9;

	q = fs_archive_queries(terms, 0, "t", &n);
	assert_int_equal(n, 0);
	assert_null(q[0]);
	g_strfreev(q);
	q = fs_archive_queries(terms, 1, NULL, &n);
	assert_int_equal(n, 1);
	assert_string_equal(q[0], "(x)");
	g_strfreev(q);
	/* A term too long for any query has one of its own. */
	q = fs_archive_queries(terms, 3, "", &n);
	assert_int_equal(n, 3);
	assert_string_equal(q[0], "(x)");
	assert_int_equal(strlen(q[1]), FS_ARCHIVE_QUERY_MAX + 12);
	assert_string_equal(q[2], "(y)");
	g_strfreev(q);
	g_free(big);
}

/* ---- against public-inbox ----------------------------------------------- */

#define SKIP_WITHOUT_SERVER()                                                                 \
	do {                                                                                  \
		if (S.skip) {                                                                 \
			print_message("skipped: public-inbox is not installed "               \
				      "(scripts/deps.sh --test installs it)\n");              \
			skip();                                                               \
		}                                                                             \
	} while (0)

static void test_search_hits(void **state)
{
	struct fs_archive *c;
	struct fs_error err = FS_ERROR_INIT;
	char *base, *mbox = NULL, *ids, *text, *files;
	bool cached = true;

	SKIP_WITHOUT_SERVER();
	c = client("hits", NULL);
	base = g_strconcat(S.lore, "all/", NULL);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_false(cached);
	assert_int_equal(fs_archive_requests(c), 1);
	assert_non_null(mbox);
	/* Both mails naming it in their own words, newest first; not the
	 * one quoting it, not the other. */
	ids = ids_of(mbox);
	assert_string_equal(ids, "report1@example.org fix1@example.org");
	g_free(ids);
	/* Kept as mboxrd, uncompressed, as the reader reads it. */
	text = slurp(mbox);
	assert_true(g_str_has_prefix(text, "From mboxrd@z "));
	assert_non_null(strstr(text, "\n>From the start it failed.\n"));
	g_free(text);
	g_free(mbox);
	mbox = NULL;
	/* The exact 12-digit word: the Fixes: tag, not the 40-digit id. */
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab", &mbox, &cached, &err), 0);
	ids = ids_of(mbox);
	assert_string_equal(ids, "fix1@example.org");
	g_free(ids);
	g_free(mbox);
	files = cache_files("hits");
	assert_string_equal(files, "A A");
	g_free(files);
	assert_int_equal(fs_archive_requests(c), 2);
	assert_null(fs_archive_failure(c, NULL));
	fs_archive_free(c);
	g_free(base);
}

static void test_search_none_cached(void **state)
{
	struct fs_archive *c;
	struct fs_error err = FS_ERROR_INIT;
	char *base, *mbox = (char *)"x", *files;
	bool cached = true;

	SKIP_WITHOUT_SERVER();
	c = client("none", NULL);
	base = g_strconcat(S.lore, "all/", NULL);
	assert_int_equal(fs_archive_search(c, base, "nq:ffffffffffff", &mbox, &cached, &err), 0);
	assert_null(mbox);
	assert_false(cached);
	assert_int_equal(fs_archive_requests(c), 1);
	/* A query the server cannot parse is a 404 as well. */
	assert_int_equal(fs_archive_search(c, base, "nq:(", &mbox, &cached, &err), 0);
	assert_null(mbox);
	assert_int_equal(fs_archive_requests(c), 2);
	/* Asked again: from the cache, no request. */
	assert_int_equal(fs_archive_search(c, base, "nq:ffffffffffff", &mbox, &cached, &err), 0);
	assert_null(mbox);
	assert_true(cached);
	assert_int_equal(fs_archive_requests(c), 2);
	/* Two answers kept, empty: nothing found is worth keeping. */
	files = cache_files("none");
	assert_string_equal(files, "A A");
	g_free(files);
	fs_archive_free(c);
	g_free(base);
}

static void test_cache_ttl(void **state)
{
	struct fs_archive_opts o = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c;
	struct fs_error err = FS_ERROR_INIT;
	char *base, *mbox = NULL, *files;
	bool cached = false;

	SKIP_WITHOUT_SERVER();
	base = g_strconcat(S.lore, "all/", NULL);
	c = client("ttl", NULL);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_false(cached);
	g_free(mbox);
	fs_archive_free(c);
	/* A later run inside the hour: the same answer, nothing sent. */
	o.now = time(NULL) + 3500;
	c = client("ttl", &o);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_true(cached);
	assert_int_equal(fs_archive_requests(c), 0);
	assert_non_null(mbox);
	g_free(mbox);
	/* The same query on another base is another answer. */
	g_free(base);
	base = g_strconcat(S.lore, "linux-usb/", NULL);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_false(cached);
	assert_int_equal(fs_archive_requests(c), 1);
	g_free(mbox);
	fs_archive_free(c);
	/* Past the TTL: the old answers are gone, the search asks again. */
	o.now = time(NULL) + 7200;
	c = client("ttl", &o);
	files = cache_files("ttl");
	assert_string_equal(files, "");
	g_free(files);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_false(cached);
	assert_int_equal(fs_archive_requests(c), 1);
	g_free(mbox);
	fs_archive_free(c);
	/* A TTL of 0: every search asks. */
	o.now = 0;
	o.ttl = 0;
	c = client("ttl", &o);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, &cached, &err), 0);
	assert_false(cached);
	assert_int_equal(fs_archive_requests(c), 1);
	g_free(mbox);
	fs_archive_free(c);
	g_free(base);
}

/* Write FILE of directory DIR (made) with its mtime AGE seconds ago. */
static void old_file(const char *dir, const char *file, int age)
{
	char *path = g_build_filename(dir, file, NULL);
	struct utimbuf t;

	g_mkdir_with_parents(dir, 0700);
	assert_true(g_file_set_contents(path, "From x\n", -1, NULL));
	t.actime = t.modtime = time(NULL) - age;
	assert_int_equal(utime(path, &t), 0);
	g_free(path);
}

/* Whether DIR has FILE. */
static bool there(const char *dir, const char *file)
{
	char *path = g_build_filename(dir, file, NULL);
	bool yes = g_file_test(path, G_FILE_TEST_EXISTS);

	g_free(path);
	return yes;
}

/* Opening a client prunes its cache: answers past the TTL and the
 * temporaries a client that died left (after an hour); nothing else. */
static void test_prune(void **state)
{
	struct fs_archive_opts o = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c;
	char *dir = g_build_filename(S.dir, "cache", "prune", NULL), *files;

	old_file(dir, "0123456789abcdef.mbox", 7200);                 /* stale answer */
	old_file(dir, "1123456789abcdef.mbox", 60);                   /* fresh answer */
	old_file(dir, "2123456789abcdef.mbox.tmp.Ab12Cd", 7200);      /* dead writer's */
	old_file(dir, "3123456789abcdef.mbox.tmp.Ab12Cd", 60);        /* being written */
	old_file(dir, "4123456789abcdef.mbox.tmp.toolong", 7200);     /* not ours */
	old_file(dir, "notes.txt", 7200);                             /* not ours */
	old_file(dir, "0123456789abcdef0123456789abcdef.mbox", 7200); /* not ours */
	c = client("prune", &o);
	fs_archive_free(c);
	files = cache_files("prune");
	/* "A" an answer, "T" anything else */
	assert_string_equal(files, "A A T T T");
	g_free(files);
	assert_false(there(dir, "0123456789abcdef.mbox"));
	assert_true(there(dir, "1123456789abcdef.mbox"));
	assert_false(there(dir, "2123456789abcdef.mbox.tmp.Ab12Cd"));
	assert_true(there(dir, "3123456789abcdef.mbox.tmp.Ab12Cd"));
	assert_true(there(dir, "0123456789abcdef0123456789abcdef.mbox"));
	g_free(dir);
}

/* The default cache directory: fixscan's (base/cache.h), "lore" in it,
 * made when missing. */
static void test_default_dir(void **state)
{
	struct fs_archive *c = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *xdg = g_build_filename(S.dir, "xdg", NULL), *want;
	char *old_xdg = g_strdup(getenv("XDG_CACHE_HOME")), *old_home = g_strdup(getenv("HOME"));

	setenv("XDG_CACHE_HOME", xdg, 1);
	assert_int_equal(fs_archive_open(&c, NULL, &err), 0);
	fs_archive_free(c);
	want = g_build_filename(xdg, "fixscan", "lore", NULL);
	assert_true(g_file_test(want, G_FILE_TEST_IS_DIR));
	g_free(want);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_int_equal(fs_archive_open(&c, NULL, &err), FS_ENOTFOUND);
	assert_null(c);
	assert_string_equal(err.message, "no cache directory: set XDG_CACHE_HOME or HOME");
	if (old_xdg)
		setenv("XDG_CACHE_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	g_free(old_xdg);
	g_free(old_home);
	g_free(xdg);
}

/* A loopback port nothing listens on: bound, named, closed. */
static int closed_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

static void test_down(void **state)
{
	struct fs_archive *c;
	struct fs_error err = FS_ERROR_INIT;
	char *base = g_strdup_printf("http://127.0.0.1:%d/all/", closed_port()), *mbox = NULL;
	char *files;

	SKIP_WITHOUT_SERVER();
	c = client("down", NULL);
	assert_int_equal(fs_archive_search(c, base, "nq:1234567890ab*", &mbox, NULL, &err), FS_EIO);
	assert_null(mbox);
	assert_non_null(strstr(err.message, base));
	assert_int_equal(fs_archive_requests(c), 1);
	/* Down for the rest of the run: no second try. */
	fs_error_clear(&err);
	assert_int_equal(fs_archive_search(c, base, "nq:ffffffffffff", &mbox, NULL, &err), FS_EIO);
	assert_non_null(strstr(err.message, base));
	assert_int_equal(fs_archive_requests(c), 1);
	/* The first failure is what the run says, once. */
	{
		size_t nfailed = 0;
		const char *first = fs_archive_failure(c, &nfailed);
		assert_int_equal(nfailed, 2);
		assert_non_null(first);
		assert_non_null(strstr(first, "cannot search"));
	}
	files = cache_files("down");
	assert_string_equal(files, "");
	g_free(files);
	fs_archive_free(c);
	g_free(base);
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return true;
	return false;
}

static void test_hostile(void **state)
{
	static const struct {
		const char *base;
		int code;
		const char *says;
	} cases[] = {
		{ "broken-gzip/", FS_EPARSE, "broken gzip data" },
		{ "truncated/", FS_EPARSE, "truncated gzip stream" },
		{ "not-mbox/", FS_EPARSE, "no mbox" },
		{ "bomb/", FS_EPARSE, "more than 1 MiB" },
		{ "huge/", FS_EPARSE, "more than 1 MiB" },
		{ "error/", FS_EIO, "answered HTTP 500: Internal ?[31mServer? Error" },
		{ "loop/", FS_EIO, "redirects" },
		{ "slow/", FS_EIO, "timed out" },
	};
	struct fs_archive_opts o = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c;
	size_t i;

	SKIP_WITHOUT_SERVER();
	o.max_size = 1 << 20;
	o.timeout_ms = 700;
	c = client("hostile", &o);
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_error err = FS_ERROR_INIT;
		char *base = g_strconcat(S.hostile, cases[i].base, NULL), *mbox = NULL, *files;
		gint64 t0 = g_get_monotonic_time();
		int rc = fs_archive_search(c, base, "nq:1234567890ab*", &mbox, NULL, &err);

		if (rc != cases[i].code || !strstr(err.message, cases[i].says))
			fail_msg("%s: got %d '%s', want %d '%s'", cases[i].base, rc, err.message,
				 cases[i].code, cases[i].says);
		assert_null(mbox);
		assert_false(has_control(err.message));
		/* Bounded in time: the timeout, not the server's 30 s. */
		assert_true(g_get_monotonic_time() - t0 < 5 * G_USEC_PER_SEC);
		/* Nothing of it kept, no temporary file left. */
		files = cache_files("hostile");
		assert_string_equal(files, "");
		g_free(files);
		g_free(base);
	}
	fs_archive_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode),
		cmocka_unit_test(test_base_valid),
		cmocka_unit_test(test_queries_packed),
		cmocka_unit_test(test_queries_edges),
		cmocka_unit_test(test_search_hits),
		cmocka_unit_test(test_search_none_cached),
		cmocka_unit_test(test_cache_ttl),
		cmocka_unit_test(test_prune),
		cmocka_unit_test(test_default_dir),
		cmocka_unit_test(test_down),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
