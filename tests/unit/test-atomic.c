/* Unit tests for lib/base/atomic.c: a file replaced whole or not at all,
 * through a real failure at each point of the replacement (the test
 * runs itself again under tests/fault/fault.c, the fault library, and
 * arms one fault per case), and the writers' lock.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/atomic.h"

static char tmpdir[256];
static int (*arm)(const char *spec);

/* Arm the fault OP:N:ERRNO on paths holding PART. */
static void fault(const char *op, const char *n, const char *err_name, const char *part)
{
	char *spec = g_strdup_printf("%s:%s:%s:%s", op, n, err_name, part);

	assert_int_equal(arm(spec), 0);
	g_free(spec);
}

static char *in_tmp(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in DIR, sorted, joined by spaces. */
static char *names(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	char *ret;

	while (d && (n = g_dir_read_name(d)))
		g_ptr_array_add(v, g_strdup(n));
	if (d)
		g_dir_close(d);
	g_ptr_array_sort(v, by_name);
	g_ptr_array_add(v, NULL);
	ret = g_strjoinv(" ", (char **)v->pdata);
	g_ptr_array_free(v, TRUE);
	return ret;
}

static void assert_file(const char *path, const char *want)
{
	char *got = NULL;

	assert_true(g_file_get_contents(path, &got, NULL, NULL));
	assert_string_equal(got, want);
	g_free(got);
}

static void test_replace(void **state)
{
	char *dir = in_tmp("r"), *path = g_build_filename(dir, "state", NULL), *ls;
	struct fs_error err = FS_ERROR_INIT;
	struct stat st;

	assert_int_equal(fs_atomic_replace(path, "one\n", 4, "the state file", FS_ATOMIC_MKDIR,
					   &err), 0);
	assert_file(path, "one\n");
	assert_int_equal(fs_atomic_replace(path, "two\n", 4, "the state file", 0, &err), 0);
	assert_file(path, "two\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	ls = names(dir);
	assert_string_equal(ls, "state");
	g_free(ls);
	g_free(path);
	g_free(dir);
}

/* The failure of each point before the rename: PATH keeps its old
 * content, no temporary is left, the error names PATH and the reason. */
static void test_each_failure_keeps_the_old_file(void **state)
{
	static const char *const ops[] = { "open", "write", "fsync", "close", "rename" };
	static const char *const errs[] = { "ENOSPC", "EDQUOT", "EIO" };
	char *dir = in_tmp("f"), *path = g_build_filename(dir, "cache", NULL);
	size_t i, k;

	assert_int_equal(fs_atomic_replace(path, "old\n", 4, NULL, FS_ATOMIC_MKDIR, NULL), 0);
	for (i = 0; i < G_N_ELEMENTS(ops); i++) {
		for (k = 0; k < G_N_ELEMENTS(errs); k++) {
			struct fs_error err = FS_ERROR_INIT;
			char *ls, *want = g_strdup_printf("'%s'", path);

			fault(ops[i], "1", errs[k], path);
			assert_int_equal(fs_atomic_replace(path, "new\n", 4, "the cache", 0, &err),
					 FS_EIO);
			arm(NULL);
			assert_non_null(strstr(err.message, want));
			assert_non_null(strstr(err.message, "the cache"));
			assert_non_null(strstr(err.message, strerror(!strcmp(errs[k], "EIO") ? EIO :
							     !strcmp(errs[k], "EDQUOT") ? EDQUOT : ENOSPC)));
			assert_file(path, "old\n");
			ls = names(dir);
			assert_string_equal(ls, "cache");
			g_free(ls);
			g_free(want);
		}
	}
	/* and the next try, with room again, is whole */
	assert_int_equal(fs_atomic_replace(path, "new\n", 4, NULL, 0, NULL), 0);
	assert_file(path, "new\n");
	g_free(path);
	g_free(dir);
}

/* A write that fails half way (the second of two) leaves nothing. */
static void test_failure_half_way(void **state)
{
	char *dir = in_tmp("h"), *path = g_build_filename(dir, "idx", NULL), *ls, *want;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_atomic *a;

	assert_int_equal(fs_atomic_replace(path, "old\n", 4, NULL, FS_ATOMIC_MKDIR, NULL), 0);
	fault("write", "2", "ENOSPC", dir);
	assert_int_equal(fs_atomic_begin(&a, path, "the index", 0, &err), 0);
	assert_int_equal(fs_atomic_write(a, "first ", 6, &err), 0);
	assert_int_equal(fs_atomic_write(a, "second\n", 7, &err), FS_EIO);
	fs_atomic_abort(a);
	arm(NULL);
	want = g_strdup_printf("cannot write the index '%s': %s", path, strerror(ENOSPC));
	assert_string_equal(err.message, want);
	g_free(want);
	assert_file(path, "old\n");
	ls = names(dir);
	assert_string_equal(ls, "idx");
	g_free(ls);
	/* a header written last, at its place */
	assert_int_equal(fs_atomic_begin(&a, path, NULL, 0, &err), 0);
	assert_int_equal(fs_atomic_write(a, "xxxx body\n", 10, &err), 0);
	assert_int_equal(fs_atomic_pwrite(a, "HEAD", 4, 0, &err), 0);
	assert_int_equal(fs_atomic_commit(a, &err), 0);
	assert_file(path, "HEAD body\n");
	g_free(path);
	g_free(dir);
}

/* The directory's fsync comes after the rename: the error says so and
 * the file is the new one, whole. */
static void test_directory_sync_fails(void **state)
{
	char *dir = in_tmp("d"), *path = g_build_filename(dir, "note", NULL), *ls;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_atomic_replace(path, "old\n", 4, NULL, FS_ATOMIC_MKDIR, NULL), 0);
	/* the first fsync is the file's, the second the folder's */
	fault("fsync", "2", "EIO", dir);
	assert_int_equal(fs_atomic_replace(path, "new\n", 4, "the note", 0, &err), FS_EIO);
	arm(NULL);
	assert_non_null(strstr(err.message, "cannot sync the folder"));
	assert_file(path, "new\n");
	/* without the file's fsync the first is the folder's */
	fault("fsync", "1", "EIO", dir);
	assert_int_equal(fs_atomic_replace(path, "newer\n", 6, "the note", FS_ATOMIC_NO_FSYNC,
					   &err), FS_EIO);
	arm(NULL);
	assert_non_null(strstr(err.message, "cannot sync the folder"));
	assert_file(path, "newer\n");
	ls = names(dir);
	assert_string_equal(ls, "note");
	g_free(ls);
	g_free(path);
	g_free(dir);
}

static void test_mkdir(void **state)
{
	char *dir = in_tmp("m/a/b"), *path = g_build_filename(dir, "f", NULL);
	char *plain = in_tmp("plainfile"), *under = g_build_filename(plain, "x", "f", NULL);
	struct fs_error err = FS_ERROR_INIT;

	fault("mkdir", "1", "EROFS", "/m/a");
	assert_int_equal(fs_atomic_replace(path, "x", 1, "the file", FS_ATOMIC_MKDIR, &err),
			 FS_EIO);
	arm(NULL);
	assert_non_null(strstr(err.message, strerror(EROFS)));
	assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	assert_int_equal(fs_atomic_replace(path, "x", 1, "the file", FS_ATOMIC_MKDIR, &err), 0);
	assert_file(path, "x");
	/* without the flag a missing folder is an error naming it */
	g_free(path);
	path = in_tmp("nowhere/f");
	assert_int_equal(fs_atomic_replace(path, "x", 1, "the file", 0, &err), FS_EIO);
	assert_non_null(strstr(err.message, "nowhere/f"));
	/* a file where a folder should be */
	assert_true(g_file_set_contents(plain, "x", 1, NULL));
	assert_int_equal(fs_atomic_replace(under, "x", 1, NULL, FS_ATOMIC_MKDIR, &err), FS_EIO);
	assert_non_null(strstr(err.message, strerror(ENOTDIR)));
	g_free(under);
	g_free(plain);
	g_free(path);
	g_free(dir);
}

static void test_is_temp_of(void **state)
{
	assert_true(fs_atomic_is_temp_of("drafts.tmp.AbC123", "drafts"));
	assert_false(fs_atomic_is_temp_of("drafts.tmp.AbC12", "drafts"));
	assert_false(fs_atomic_is_temp_of("drafts.tmp.AbC1234", "drafts"));
	assert_false(fs_atomic_is_temp_of("drafts", "drafts"));
	assert_false(fs_atomic_is_temp_of("other.tmp.AbC123", "drafts"));
}

static void test_lock(void **state)
{
	char *dir = in_tmp("lockdir"), *file = in_tmp("lockfile");
	struct fs_error err = FS_ERROR_INIT;
	int fd, status;
	pid_t pid;

	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	fd = fs_lock_take(file, FS_LOCK_CREATE, 1, "the index", &err);
	assert_true(fd >= 0);
	pid = fork();
	if (pid == 0) {
		struct fs_error e = FS_ERROR_INIT;
		int rc = fs_lock_take(file, FS_LOCK_CREATE, 0.2, "the index", &e);
		int ok = rc == FS_ELOCKED && strstr(e.message, "another fixscan is writing into "
						     "the index") && strstr(e.message, file);
		int dfd = fs_lock_take(dir, 0, 0.2, "the folder", &e);

		_exit(ok && dfd >= 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fs_lock_release(fd);
	/* released: a child takes it at once */
	pid = fork();
	if (pid == 0)
		_exit(fs_lock_take(file, FS_LOCK_CREATE, 0, NULL, NULL) >= 0 ? 0 : 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* a folder that is not there */
	g_free(dir);
	dir = in_tmp("nolockdir");
	assert_int_equal(fs_lock_take(dir, 0, 0, "the drafts folder", &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot lock the drafts folder"));
	g_free(file);
	g_free(dir);
}

static void test_write_all(void **state)
{
	char *path = in_tmp("wa");
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	fault("write", "1", "EDQUOT", path);
	assert_int_equal(fs_write_all(fd, "abc", 3), -1);
	assert_int_equal(errno, EDQUOT);
	arm(NULL);
	assert_int_equal(fs_write_all(fd, "abc", 3), 0);
	close(fd);
	assert_file(path, "abc");
	assert_int_equal(fs_fsync_dir(tmpdir), 0);
	assert_int_equal(fs_fsync_dir("/nonexistent-dir-of-fixscan"), -1);
	g_free(path);
}

static int rm_rf(const char *dir)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", dir);
	int rc = system(cmd);

	g_free(cmd);
	return rc;
}

/* Run again with the fault library preloaded (beside this binary). */
static void preload_fault_library(char **argv)
{
	char self[4096], *lib, *asan, *dir;
	ssize_t n;

	arm = (int (*)(const char *))dlsym(RTLD_DEFAULT, "fixscan_fault_arm");
	if (arm || getenv("FIXSCAN_FAULT_REEXEC"))
		return;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return;
	self[n] = '\0';
	dir = g_path_get_dirname(self);
	lib = g_build_filename(dir, "libfault.so", NULL);
	g_free(dir);
	if (!g_file_test(lib, G_FILE_TEST_EXISTS))
		return;
	/* ASan wants to come first; the fault library passes calls on to it */
	asan = g_strdup_printf("%s%sverify_asan_link_order=0",
			       getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
			       getenv("ASAN_OPTIONS") ? ":" : "");
	setenv("ASAN_OPTIONS", asan, 1);
	setenv("LD_PRELOAD", lib, 1);
	setenv("FIXSCAN_FAULT_REEXEC", "1", 1);
	execv(self, argv);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_each_failure_keeps_the_old_file),
		cmocka_unit_test(test_failure_half_way),
		cmocka_unit_test(test_directory_sync_fails),
		cmocka_unit_test(test_mkdir),
		cmocka_unit_test(test_is_temp_of),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_write_all),
	};
	int rc;

	(void)argc;
	preload_fault_library(argv);
	if (!arm) {
		fprintf(stderr, "test-atomic: the fault library libfault.so is not beside the "
			"test (make units builds it)\n");
		return 1;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-atomic-XXXXXX", g_get_tmp_dir());
	if (!mkdtemp(tmpdir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rm_rf(tmpdir);
	return rc;
}
