/* Unit tests for lib/base/cache.c: where the caches of a repository go. */
#include <limits.h>
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

#include "base/cache.h"
#include "base/hash.h"

static char top[128]; /* a scratch directory, resolved */

static int setup(void **state)
{
	char tmpl[] = "/tmp/fixscan-test-cache.XXXXXX", *abs;

	if (!mkdtemp(tmpl) || !(abs = realpath(tmpl, NULL)))
		return -1;
	snprintf(top, sizeof(top), "%s", abs);
	free(abs);
	return 0;
}

static int teardown(void **state)
{
	char cmd[sizeof(top) + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* A directory TOP/NAME, made; its path in BUF. */
static const char *dir(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", top, name);
	mkdir(buf, 0700);
	return buf;
}

/* What the cache of the repository at ABS (resolved) is called in DIR. */
static char *want(const char *cachedir, const char *prefix, const char *abs, const char *suffix)
{
	char name[PATH_MAX], *p, *out = NULL;

	snprintf(name, sizeof(name), "%s", abs);
	for (p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	assert_true(asprintf(&out, "%s/%s%.80s-%016llx%s", cachedir, prefix, name + 1,
			     (unsigned long long)fs_fnv1a_str(abs), suffix) > 0);
	return out;
}

static void test_xdg(void **state)
{
	char repo[PATH_MAX], git[PATH_MAX], cache[PATH_MAX + 16], *got, *w;
	struct fs_error err = FS_ERROR_INIT;

	dir(repo, sizeof(repo), "repo");
	dir(git, sizeof(git), "repo/.git");
	setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	w = want("/xdg/cache/fixscan", "", repo, ".idx");
	assert_string_equal(got, w);
	g_free(got);
	/* the repository and its .git directory share one file */
	assert_int_equal(fs_cache_path(&got, git, "", ".idx", "repository", &err), 0);
	assert_string_equal(got, w);
	g_free(got);
	/* a trailing slash of the variable changes nothing */
	setenv("XDG_CACHE_HOME", "/xdg/cache//", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	assert_string_equal(got, w);
	g_free(got);
	free(w);
	/* another prefix and suffix: another file beside it */
	assert_int_equal(fs_cache_path(&got, repo, "vulns-", ".cache", "the vulns repository", &err),
			 0);
	w = want("/xdg/cache/fixscan", "vulns-", repo, ".cache");
	assert_string_equal(got, w);
	g_free(got);
	free(w);
	setenv("XDG_CACHE_HOME", "/", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	w = want("/fixscan", "", repo, ".idx");
	assert_string_equal(got, w);
	g_free(got);
	free(w);
	/* the path as given or relative: resolved the same */
	snprintf(cache, sizeof(cache), "%s/repo/../repo/", top);
	assert_int_equal(fs_cache_path(&got, cache, "", ".idx", "repository", &err), 0);
	w = want("/fixscan", "", repo, ".idx");
	assert_string_equal(got, w);
	g_free(got);
	free(w);
}

/* A relative XDG_CACHE_HOME is ignored (the XDG rules): HOME's .cache. */
static void test_home(void **state)
{
	char repo[PATH_MAX], *got, *w;
	struct fs_error err = FS_ERROR_INIT;

	dir(repo, sizeof(repo), "repo");
	setenv("HOME", "/home/someone", 1);
	setenv("XDG_CACHE_HOME", "relative/cache", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	w = want("/home/someone/.cache/fixscan", "", repo, ".idx");
	assert_string_equal(got, w);
	g_free(got);
	setenv("XDG_CACHE_HOME", "", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	assert_string_equal(got, w);
	g_free(got);
	unsetenv("XDG_CACHE_HOME");
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), 0);
	assert_string_equal(got, w);
	g_free(got);
	free(w);
}

static void test_errors(void **state)
{
	char repo[PATH_MAX], missing[PATH_MAX + 16], msg[PATH_MAX + 128], *got = (char *)"x";
	struct fs_error err = FS_ERROR_INIT;

	dir(repo, sizeof(repo), "repo");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), FS_ENOTFOUND);
	assert_null(got);
	assert_string_equal(err.message, "no cache directory: set XDG_CACHE_HOME or HOME");
	setenv("HOME", "", 1);
	assert_int_equal(fs_cache_path(&got, repo, "", ".idx", "repository", &err), FS_ENOTFOUND);
	assert_null(got);
	setenv("HOME", "/home/someone", 1);
	snprintf(missing, sizeof(missing), "%s/missing", top);
	assert_int_equal(fs_cache_path(&got, missing, "vulns-", ".cache", "the vulns repository",
				       &err),
			 FS_ENOTFOUND);
	assert_null(got);
	snprintf(msg, sizeof(msg), "cannot open the vulns repository '%s': No such file or directory",
		 missing);
	assert_string_equal(err.message, msg);
	/* no error structure: the code alone */
	assert_int_equal(fs_cache_path(&got, missing, "", ".idx", "repository", NULL), FS_ENOTFOUND);
}

/* A long path: its readable name is cut at 80 bytes, the hash of the
 * whole path tells two such paths apart. */
static void test_long(void **state)
{
	char a[PATH_MAX], b[PATH_MAX], *ga, *gb, *w;
	struct fs_error err = FS_ERROR_INIT;
	const char *long_name = "a-directory-whose-name-is-long-enough-to-pass-eighty-bytes-on-its-own-x";

	setenv("XDG_CACHE_HOME", "/c", 1);
	snprintf(a, sizeof(a), "%s/%s", top, long_name);
	mkdir(a, 0700);
	snprintf(a, sizeof(a), "%s/%s/one", top, long_name);
	snprintf(b, sizeof(b), "%s/%s/two", top, long_name);
	mkdir(a, 0700);
	mkdir(b, 0700);
	assert_int_equal(fs_cache_path(&ga, a, "", ".idx", "repository", &err), 0);
	assert_int_equal(fs_cache_path(&gb, b, "", ".idx", "repository", &err), 0);
	w = want("/c/fixscan", "", a, ".idx");
	assert_string_equal(ga, w);
	assert_int_equal(strlen(ga), strlen("/c/fixscan/") + 80 + 1 + 16 + strlen(".idx"));
	/* the same readable part, another hash */
	assert_memory_equal(ga, gb, strlen("/c/fixscan/") + 80);
	assert_string_not_equal(ga, gb);
	g_free(ga);
	g_free(gb);
	free(w);
}

/* The directory of caches of no repository: the same rules, a
 * subdirectory of fixscan's, not made. */
static void test_dir(void **state)
{
	char *got = (char *)"x";
	struct fs_error err = FS_ERROR_INIT;

	setenv("XDG_CACHE_HOME", "/xdg/cache/", 1);
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(fs_cache_dir(&got, "lore", &err), 0);
	assert_string_equal(got, "/xdg/cache/fixscan/lore");
	g_free(got);
	assert_int_equal(fs_cache_dir(&got, NULL, &err), 0);
	assert_string_equal(got, "/xdg/cache/fixscan");
	g_free(got);
	setenv("XDG_CACHE_HOME", "relative", 1);
	assert_int_equal(fs_cache_dir(&got, "lore", &err), 0);
	assert_string_equal(got, "/home/someone/.cache/fixscan/lore");
	g_free(got);
	setenv("XDG_CACHE_HOME", "/", 1);
	assert_int_equal(fs_cache_dir(&got, "lore", &err), 0);
	assert_string_equal(got, "/fixscan/lore");
	g_free(got);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_int_equal(fs_cache_dir(&got, "lore", &err), FS_ENOTFOUND);
	assert_null(got);
	assert_string_equal(err.message, "no cache directory: set XDG_CACHE_HOME or HOME");
	assert_false(access("/home/someone/.cache/fixscan/lore", F_OK) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xdg),
		cmocka_unit_test(test_home),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
