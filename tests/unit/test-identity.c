/* Unit tests for lib/mail/identity.c: who the drafts are from, picked from
 * the notmuch config values or git config.  Git config comes from test
 * repositories made with libgit2; the global and system config are
 * pointed at an empty temporary directory.
 */
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
#include <git2.h>

#include "fixscan/config.h"
#include "fixscan/identity.h"

static char tmpdir[256];

/* ---- identity ------------------------------------------------------------ */

static void test_identity_pick(void **state)
{
	struct fs_identity id;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_identity_pick(&id, "Nm Name", "nm@example.org", "Git Name",
					  "git@example.org", &err), 0);
	assert_string_equal(id.name, "Nm Name");
	assert_string_equal(id.email, "nm@example.org");
	assert_string_equal(id.source, "notmuch config");
	fs_identity_clear(&id);

	/* notmuch has only the address: the name comes from git */
	assert_int_equal(fs_identity_pick(&id, NULL, "nm@example.org", "Git Name",
					  "git@example.org", &err), 0);
	assert_string_equal(id.name, "Git Name");
	assert_string_equal(id.email, "nm@example.org");
	fs_identity_clear(&id);

	assert_int_equal(fs_identity_pick(&id, "", "", "Git Name", "git@example.org", &err), 0);
	assert_string_equal(id.name, "Git Name");
	assert_string_equal(id.email, "git@example.org");
	assert_string_equal(id.source, "git config");
	fs_identity_clear(&id);

	/* a name with a header in it stays one line */
	assert_int_equal(fs_identity_pick(&id, "Eve\r\nBcc: x@example.org", "eve@example.org",
					  NULL, NULL, &err), 0);
	assert_string_equal(id.name, "Eve Bcc: x@example.org");
	fs_identity_clear(&id);

	assert_int_equal(fs_identity_pick(&id, "Nm Name", NULL, "Git Name", NULL, &err),
			 FS_ENOTFOUND);
	assert_non_null(strstr(err.message, "user.primary_email"));
	assert_non_null(strstr(err.message, "user.email"));
	assert_null(id.email);

	assert_int_equal(fs_identity_pick(&id, NULL, "not-an-address", NULL, NULL, &err),
			 FS_EPARSE);
	assert_non_null(strstr(err.message, "'not-an-address'"));
}

/* Nothing set anywhere: the error, and nothing to clear. */
static void test_identity_none(void **state)
{
	struct fs_identity id = FS_IDENTITY_INIT;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_identity_pick(&id, NULL, NULL, NULL, NULL, &err), FS_ENOTFOUND);
	assert_null(id.email);
	fs_identity_clear(&id);
	fs_identity_clear(NULL);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	char home[300];

	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-identity.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	/* git config: only the test repositories' own files count */
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	mkdir(home, 0700);
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_PROGRAMDATA, home);
	return 0;
}

static int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	git_libgit2_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_pick),
		cmocka_unit_test(test_identity_none),
	};

	return cmocka_run_group_tests_name("identity", tests, setup, teardown);
}
