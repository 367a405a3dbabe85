/* Unit tests for lib/index/treesyms*.c and trees.c: the identifier
 * sets of trees (built, cached, carried to a new tip by tree diff, a
 * damaged cache rebuilt, a blobless clone said once), the files of
 * commits, and the mainline commit that brought a name, on a hand-built
 * repository with real trees (git fast-import). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/index.h"
#include "base/cache.h"
#include "base/hash.h"
#include "fixscan/treesyms.h"

#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

#define WIDGET_H1 "struct widget {\n\tint old_member;\n};\nint widget_old(struct widget *w);\n"
#define WIDGET_H2 WIDGET_H1 "int widget_new_helper(struct widget *w);\n"
#define WIDGET_H3 "struct widget {\n\tint old_member;\n\tint new_member;\n};\n" \
		  "int widget_old(struct widget *w);\nint widget_new_helper(struct widget *w);\n"
#define WIDGET_H3B WIDGET_H3 "#define WIDGET_MID 2\n"
#define WIDGET_H4 WIDGET_H3B "#define WIDGET_LATE 1\n"
#define WIDGET_C1 "#include <linux/widget.h>\n/* comment_only_word */\n" \
		  "int widget_old(struct widget *w)\n{\n\treturn w->old_member;\n}\n"
#define WIDGET_C2 WIDGET_C1 "int widget_new_helper(struct widget *w)\n{\n\treturn 1;\n}\n"
#define WIDGET_C3 WIDGET_C2 "int added_by_u;\nint user(struct widget *w)\n{\n" \
		  "\treturn widget_new_helper(w) + w->new_member + added_by_u;\n}\n"
#define WIDGET_C4 WIDGET_C3 "int late(void) { return WIDGET_LATE; }\n"

/* mainline: M0 (root), M1 = v4.4; a side branch from M1: A1 (other.c),
 * A2 (widget_new_helper), A3 (other.c); M2 (Makefile); M3 merges A3 =
 * v4.5-rc1; M4 (new_member) = v4.5; M4B (Makefile), M4C (WIDGET_MID),
 * M4D (Makefile); M5 uses them (an upstream commit) = v4.6-rc1; M6
 * (WIDGET_LATE); M7 uses it.  linux-4.4.y from M1: S1 (stable_word) =
 * v4.4.1, S2 (stable_two). */
static struct {
	struct repo *r;
	int m0, m1, a1, a2, a3, m2, m3, m4, m4b, m4c, m4d, m5, m6, m7, s1, s2;
} K;

static struct fs_index *IDX;
static char CACHE_DIR[PATH_MAX];

static void build(void)
{
	struct repo *r = repo_new("kernel");
	int par[3];

	K.r = r;
	repo_put(r, "include/linux/widget.h", WIDGET_H1);
	repo_put(r, "drivers/widget.c", WIDGET_C1);
	repo_put(r, "Makefile", "makefile_word := 1\n");
	repo_put(r, "Documentation/x.txt", "doc_word\n");
	K.m0 = commit(r, "master", 0, "Initial import\n");
	repo_put(r, "Makefile", "makefile_word := 2\n");
	K.m1 = commit(r, "master", K.m0, "Linux 4.4\n");
	tag_light(r, "v4.4", K.m1);
	repo_put(r, "drivers/other.c", "int other_fn(void) { return 0; }\n");
	K.a1 = commit(r, "side", K.m1, "drivers: add other\n");
	repo_put(r, "include/linux/widget.h", WIDGET_H2);
	repo_put(r, "drivers/widget.c", WIDGET_C2);
	K.a2 = commit(r, "side", K.a1, "widget: add widget_new_helper()\n");
	repo_put(r, "drivers/other.c", "int other_fn(void) { return 1; }\n");
	K.a3 = commit(r, "side", K.a2, "drivers: other returns 1\n");
	repo_put(r, "Makefile", "makefile_word := 3\n");
	K.m2 = commit(r, "master", K.m1, "kbuild: bump\n");
	par[0] = K.m2, par[1] = K.a3, par[2] = 0;
	repo_put(r, "drivers/other.c", "int other_fn(void) { return 1; }\n");
	repo_put(r, "include/linux/widget.h", WIDGET_H2);
	repo_put(r, "drivers/widget.c", WIDGET_C2);
	K.m3 = commit_m(r, "master", par, "Merge branch 'side'\n");
	tag_light(r, "v4.5-rc1", K.m3);
	repo_put(r, "include/linux/widget.h", WIDGET_H3);
	K.m4 = commit(r, "master", K.m3, "widget: add new_member\n");
	tag_light(r, "v4.5", K.m4);
	repo_put(r, "Makefile", "makefile_word := 4\n");
	K.m4b = commit(r, "master", K.m4, "kbuild: bump again\n");
	repo_put(r, "include/linux/widget.h", WIDGET_H3B);
	K.m4c = commit(r, "master", K.m4b, "widget: add WIDGET_MID\n");
	repo_put(r, "Makefile", "makefile_word := 5\n");
	K.m4d = commit(r, "master", K.m4c, "kbuild: bump once more\n");
	repo_put(r, "drivers/widget.c", WIDGET_C3);
	K.m5 = commit(r, "master", K.m4d, "widget: add user()\n");
	tag_light(r, "v4.6-rc1", K.m5);
	repo_put(r, "include/linux/widget.h", WIDGET_H4);
	K.m6 = commit(r, "master", K.m5, "widget: add WIDGET_LATE\n");
	repo_put(r, "drivers/widget.c", WIDGET_C4);
	K.m7 = commit(r, "master", K.m6, "widget: add late()\n");
	repo_put(r, "drivers/widget.c", WIDGET_C1 "int stable_word;\n");
	K.s1 = commit(r, "linux-4.4.y", K.m1, "widget: stable one\n\ncommit %s upstream.\n",
		      id(r, K.m2));
	tag_light(r, "v4.4.1", K.s1);
	repo_flush(r);
}

static int group_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;

	if (repo_env_setup("treesyms") < 0)
		return -1;
	build();
	o.repo_path = K.r->dir;
	o.threads = 2;
	if (fs_index_open(&IDX, &o, NULL, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	snprintf(CACHE_DIR, sizeof(CACHE_DIR), "%s/cache/fixscan", tmp_root);
	return 0;
}

static int group_teardown(void **state)
{
	fs_index_free(IDX);
	repo_free(K.r);
	return repo_env_teardown();
}

static struct fs_treesyms *open_ts(const char *repo)
{
	struct fs_treesyms *t = NULL;
	struct fs_error err = FS_ERROR_INIT;

	if (fs_treesyms_open(&t, repo, &err) < 0)
		fail_msg("fs_treesyms_open: %s", err.message);
	return t;
}

static const struct fs_idset *set_of(struct fs_treesyms *t, int mark, const char *line,
				     unsigned flags)
{
	const struct fs_idset *s = NULL;
	struct fs_error err = FS_ERROR_INIT;

	if (fs_treesyms_set(t, id(K.r, mark), line, flags, &s, &err) < 0)
		fail_msg("fs_treesyms_set: %s", err.message);
	return s;
}

/* "a b c": the paths where S defines NAME. */
static char *defined(const struct fs_idset *s, const char *name)
{
	const char *paths[8];
	size_t n = fs_idset_defined_in(s, name, paths, 8), i;
	GString *g = g_string_new(NULL);

	for (i = 0; i < n && i < 8; i++)
		g_string_append_printf(g, "%s%s", i ? " " : "", paths[i]);
	return g_string_free(g, FALSE);
}

#define EXPECT_DEFINED(s, name, want)                                          \
	do {                                                                   \
		char *got_ = defined(s, name);                                 \
		assert_string_equal(got_, want);                               \
		g_free(got_);                                                  \
	} while (0)

static void test_sets(void **state)
{
	struct fs_treesyms *t = open_ts(K.r->dir);
	const struct fs_idset *s = set_of(t, K.s1, "linux-4.4.y", 0), *m;

	/* built from every C blob: two files */
	assert_false(fs_treesyms_last(t)->cached);
	assert_false(fs_treesyms_last(t)->incremental);
	assert_int_equal(fs_treesyms_last(t)->blobs_read, 2);
	assert_int_equal(fs_idset_files(s), 2);
	/* names anywhere in C files, comments included; not other files' */
	assert_true(fs_idset_has(s, "widget_old"));
	assert_true(fs_idset_has(s, "old_member"));
	assert_true(fs_idset_has(s, "comment_only_word"));
	assert_true(fs_idset_has(s, "stable_word"));
	assert_true(fs_idset_has(s, "include"));
	assert_false(fs_idset_has(s, "widget_new_helper"));
	assert_false(fs_idset_has(s, "new_member"));
	assert_false(fs_idset_has(s, "makefile_word"));
	assert_false(fs_idset_has(s, "doc_word"));
	assert_false(fs_idset_has(s, "other_fn"));
	/* struct widget include linux h comment_only_word int old_member
	 * widget_old w return stable_word */
	assert_int_equal(fs_idset_names(s), 12);

	/* mainline's tip with its definitions */
	m = set_of(t, K.m7, "mainline", FS_IDSET_DEFS);
	assert_int_equal(fs_idset_files(m), 3);
	EXPECT_DEFINED(m, "widget_new_helper", "drivers/widget.c include/linux/widget.h");
	EXPECT_DEFINED(m, "new_member", "include/linux/widget.h");
	EXPECT_DEFINED(m, "WIDGET_LATE", "include/linux/widget.h");
	EXPECT_DEFINED(m, "WIDGET_MID", "include/linux/widget.h");
	EXPECT_DEFINED(m, "other_fn", "drivers/other.c");
	EXPECT_DEFINED(m, "widget", "include/linux/widget.h");
	EXPECT_DEFINED(m, "w", "");          /* a parameter */
	EXPECT_DEFINED(m, "comment_only_word", "");
	EXPECT_DEFINED(m, "stable_word", "");
	fs_treesyms_free(t);

	/* a second handle finds both in the cache and reads no blob */
	t = open_ts(K.r->dir);
	s = set_of(t, K.s1, "linux-4.4.y", 0);
	assert_true(fs_treesyms_last(t)->cached);
	assert_int_equal(fs_treesyms_last(t)->blobs_read, 0);
	assert_true(fs_idset_has(s, "stable_word"));
	m = set_of(t, K.m7, "mainline", FS_IDSET_DEFS);
	assert_true(fs_treesyms_last(t)->cached);
	EXPECT_DEFINED(m, "new_member", "include/linux/widget.h");
	/* a set with definitions serves one without */
	s = set_of(t, K.m7, "mainline", 0);
	assert_true(fs_treesyms_last(t)->cached);
	fs_treesyms_free(t);
}

static void test_new_tip(void **state)
{
	struct fs_treesyms *t = open_ts(K.r->dir);
	const struct fs_idset *s;

	set_of(t, K.s1, "linux-4.4.y", 0);
	/* the branch moves: only the blob that changed is read, old and new */
	repo_put(K.r, "drivers/widget.c", WIDGET_C1 "int stable_two;\n");
	K.s2 = commit(K.r, "linux-4.4.y", K.s1, "widget: stable two\n");
	s = set_of(t, K.s2, "linux-4.4.y", 0);
	assert_true(fs_treesyms_last(t)->incremental);
	assert_int_equal(fs_treesyms_last(t)->blobs_read, 2);
	assert_int_equal(fs_idset_files(s), 2);
	assert_true(fs_idset_has(s, "stable_two"));
	assert_false(fs_idset_has(s, "stable_word"));
	assert_true(fs_idset_has(s, "old_member"));
	assert_int_equal(fs_idset_names(s), 12);

	/* mainline's set at another commit from its tip's, definitions carried */
	s = set_of(t, K.m5, "mainline", FS_IDSET_DEFS);
	assert_true(fs_treesyms_last(t)->incremental);
	assert_int_equal(fs_treesyms_last(t)->blobs_read, 4);
	assert_int_equal(fs_idset_files(s), 3);
	EXPECT_DEFINED(s, "WIDGET_LATE", "");
	EXPECT_DEFINED(s, "WIDGET_MID", "include/linux/widget.h");
	EXPECT_DEFINED(s, "late", "");
	EXPECT_DEFINED(s, "user", "drivers/widget.c");
	EXPECT_DEFINED(s, "new_member", "include/linux/widget.h");
	EXPECT_DEFINED(s, "other_fn", "drivers/other.c");
	assert_false(fs_idset_has(s, "WIDGET_LATE"));
	fs_treesyms_free(t);
}

static void test_damaged_cache(void **state)
{
	struct fs_treesyms *t = open_ts(K.r->dir);
	const struct fs_idset *s;

	set_of(t, K.s1, "linux-4.4.y", 0);
	fs_treesyms_free(t);
	/* the set checked once is stamped: the next reads skip the check,
	 * until the file changes */
	run("test -f \"$(ls '%s'/idset-*-0.ids | head -n 1).verified\"", CACHE_DIR);
	/* four bytes of the file's body changed */
	run("for f in '%s'/idset-*-0.ids; do printf '\\377\\377\\377\\377' | "
	    "dd of=\"$f\" bs=1 seek=300 conv=notrunc 2>/dev/null; done", CACHE_DIR);
	t = open_ts(K.r->dir);
	s = set_of(t, K.s1, "linux-4.4.y", 0);
	assert_false(fs_treesyms_last(t)->cached);
	assert_true(fs_idset_has(s, "stable_word"));
	assert_int_equal(fs_idset_names(s), 12);
	fs_treesyms_free(t);
	/* and the rebuilt file is good */
	t = open_ts(K.r->dir);
	set_of(t, K.s1, "linux-4.4.y", 0);
	assert_true(fs_treesyms_last(t)->cached);
	fs_treesyms_free(t);
}

/* The set files are the repository's, named through the cache-path
 * helper: "<its prefix>-<tree>-<flags>.ids"; another repository's file
 * there is none of its (neither a base nor pruned). */
static void test_cache_names(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_treesyms *t = open_ts(K.r->dir);
	char *prefix = NULL, *path, *tree = NULL, *other;
	int i;

	set_of(t, K.s1, "linux-4.4.y", 0);
	fs_treesyms_free(t);
	assert_int_equal(fs_cache_path(&prefix, K.r->dir, "idset-", "", "repository", &err), 0);
	assert_non_null(strstr(prefix, "/cache/fixscan/idset-"));
	run("git -C '%s' rev-parse '%s^{tree}' >'%s/tree.txt'", K.r->dir, id(K.r, K.s1), tmp_root);
	path = g_strdup_printf("%s/tree.txt", tmp_root);
	assert_true(g_file_get_contents(path, &tree, NULL, NULL));
	g_free(path);
	g_strchomp(tree);
	path = g_strdup_printf("%s-%s-0.ids", prefix, tree);
	assert_int_equal(access(path, R_OK), 0);
	/* nine sets of another repository, newer than this one's: this
	 * one's is still found, and theirs are left alone */
	for (i = 0; i < 9; i++) {
		other = g_strdup_printf("%s/cache/fixscan/idset-other-0123456789abcdef-"
					"%040d-0.ids", tmp_root, i);
		run("cp '%s' '%s'", path, other);
		g_free(other);
	}
	/* a set not kept yet: written, then the oldest beyond eight pruned */
	t = open_ts(K.r->dir);
	set_of(t, K.m1, "mainline", 0);
	assert_false(fs_treesyms_last(t)->cached);
	fs_treesyms_free(t);
	assert_int_equal(access(path, R_OK), 0);
	for (i = 0; i < 9; i++) {
		other = g_strdup_printf("%s/cache/fixscan/idset-other-0123456789abcdef-"
					"%040d-0.ids", tmp_root, i);
		assert_int_equal(access(other, R_OK), 0);
		g_free(other);
	}
	run("rm -f '%s'/cache/fixscan/idset-other-*", tmp_root);
	g_free(path);
	g_free(tree);
	g_free(prefix);
}

static void test_files(void **state)
{
	struct fs_treesyms *t = open_ts(K.r->dir);
	struct fs_error err = FS_ERROR_INIT;
	char **paths;
	size_t n;

	assert_int_equal(fs_treesyms_has_path(t, id(K.r, K.s1), "drivers/widget.c", &err), 1);
	assert_int_equal(fs_treesyms_has_path(t, id(K.r, K.s1), "drivers", &err), 1);
	assert_int_equal(fs_treesyms_has_path(t, id(K.r, K.s1), "drivers/other.c", &err), 0);
	assert_int_equal(fs_treesyms_has_path(t, id(K.r, K.s1), "drivers/widget.c/x", &err), 0);
	assert_int_equal(fs_treesyms_has_path(t, id(K.r, K.m3), "drivers/other.c", &err), 1);
	assert_int_equal(fs_treesyms_changed_paths(t, id(K.r, K.a2), &paths, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(paths[0], "drivers/widget.c");
	assert_string_equal(paths[1], "include/linux/widget.h");
	assert_null(paths[2]);
	g_strfreev(paths);
	/* the files a commit adds are not among them (a root commit's) */
	assert_int_equal(fs_treesyms_changed_paths(t, id(K.r, K.m0), &paths, &n, &err), 0);
	assert_int_equal(n, 0);
	assert_null(paths[0]);
	g_strfreev(paths);
	assert_int_equal(fs_treesyms_changed_paths(t, id(K.r, K.a1), &paths, &n, &err), 0);
	assert_int_equal(n, 0);
	g_strfreev(paths);
	assert_int_equal(fs_treesyms_changed_paths(t, id(K.r, K.a3), &paths, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(paths[0], "drivers/other.c");
	g_strfreev(paths);
	fs_treesyms_free(t);
}

/* "a b": the files commit MARK changes, as T gives them. */
static char *changed(struct fs_treesyms *t, int mark)
{
	struct fs_error err = FS_ERROR_INIT;
	char **paths = NULL, *joined;
	size_t n = 0;

	if (fs_treesyms_changed_paths(t, id(K.r, mark), &paths, &n, &err) < 0)
		fail_msg("fs_treesyms_changed_paths: %s", err.message);
	assert_int_equal(n, g_strv_length(paths));
	joined = g_strjoinv(" ", paths);
	g_strfreev(paths);
	return joined;
}

#define EXPECT_CHANGED(t, mark, want)                                          \
	do {                                                                   \
		char *got_ = changed(t, mark);                                 \
		assert_string_equal(got_, want);                               \
		g_free(got_);                                                  \
	} while (0)

static void put_le32(GByteArray *b, uint32_t v)
{
	unsigned char x[4] = { v & 255, v >> 8 & 255, v >> 16 & 255, v >> 24 & 255 };

	g_byte_array_append(b, x, 4);
}

/* The repository's file of changed paths, saying that commit MARK
 * changes the NPATHS PATHS, written as treesyms-paths.c documents it. */
static void write_paths_file(const char *file, int mark, const char *const *paths, uint32_t npaths)
{
	GByteArray *b = g_byte_array_new();
	const char *hex = id(K.r, mark);
	unsigned char oid[20];
	uint64_t sum;
	uint32_t i;

	g_byte_array_append(b, (const guint8 *)"fixscan-paths 1\n", 16);
	for (i = 0; i < 20; i++)
		oid[i] = (unsigned char)(g_ascii_xdigit_value(hex[2 * i]) << 4 |
					 g_ascii_xdigit_value(hex[2 * i + 1]));
	g_byte_array_append(b, oid, 20);
	put_le32(b, npaths);
	for (i = 0; i < npaths; i++)
		g_byte_array_append(b, (const guint8 *)paths[i], strlen(paths[i]) + 1);
	sum = fs_fnv1a(FS_FNV1A_BASIS, b->data, b->len);
	put_le32(b, (uint32_t)sum);
	put_le32(b, (uint32_t)(sum >> 32));
	assert_true(g_file_set_contents(file, (const char *)b->data, b->len, NULL));
	g_byte_array_unref(b);
}

/* The hand-written file of test_files_kept() damaged by shell command
 * DAMAGE (FILE standing for the file): the real answer, and the file
 * written again holds it. */
static void damaged_paths_file(const char *file, const char *damage)
{
	static const char *const fake[] = { "fake/one.c", "fake/two.h" };
	struct fs_treesyms *t;

	gchar **parts = g_strsplit(damage, "FILE", -1);
	gchar *cmd = g_strjoinv(file, parts);

	write_paths_file(file, K.a2, fake, 2);
	run("%s", cmd);
	g_free(cmd);
	g_strfreev(parts);
	t = open_ts(K.r->dir);
	EXPECT_CHANGED(t, K.a2, "drivers/widget.c include/linux/widget.h");
	fs_treesyms_free(t);
	t = open_ts(K.r->dir);
	EXPECT_CHANGED(t, K.a2, "drivers/widget.c include/linux/widget.h");
	fs_treesyms_free(t);
}

/* The files a commit changes are kept for the next run in one file
 * beside the sets; what that file says is the answer, and a file that
 * does not read back whole is not believed. */
static void test_files_kept(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	static const char *const fake[] = { "fake/one.c", "fake/two.h" };
	char *prefix = NULL, *file;
	struct fs_treesyms *t;

	assert_int_equal(fs_cache_path(&prefix, K.r->dir, "idset-", "", "repository", &err), 0);
	file = g_strconcat(prefix, "-paths", NULL);
	unlink(file);
	t = open_ts(K.r->dir);
	EXPECT_CHANGED(t, K.a2, "drivers/widget.c include/linux/widget.h");
	EXPECT_CHANGED(t, K.m0, "");
	fs_treesyms_free(t);
	assert_int_equal(access(file, R_OK), 0);
	/* read back: the same answers, the root commit's none included */
	t = open_ts(K.r->dir);
	EXPECT_CHANGED(t, K.a2, "drivers/widget.c include/linux/widget.h");
	EXPECT_CHANGED(t, K.m0, "");
	EXPECT_CHANGED(t, K.a3, "drivers/other.c");
	fs_treesyms_free(t);
	/* the file's answer is the one given (no diff made) */
	write_paths_file(file, K.a2, fake, 2);
	t = open_ts(K.r->dir);
	EXPECT_CHANGED(t, K.a2, "fake/one.c fake/two.h");
	EXPECT_CHANGED(t, K.a3, "drivers/other.c");
	fs_treesyms_free(t);
	/* one byte of it changed, cut short, a count beyond the bytes: none
	 * of it believed, and the file made again from the diffs */
	damaged_paths_file(file, "printf x | dd of='FILE' bs=1 seek=40 conv=notrunc 2>/dev/null");
	damaged_paths_file(file, "truncate -s 30 'FILE'");
	damaged_paths_file(file, "printf '\\377' | dd of='FILE' bs=1 seek=39 conv=notrunc 2>/dev/null");
	g_free(file);
	g_free(prefix);
}

static void test_branch_commit(void **state)
{
	char hex[41];

	assert_int_equal(fs_treesyms_branch_commit(IDX, "linux-4.4.y", "v4.4.1", hex), 0);
	assert_string_equal(hex, id(K.r, K.s1));
	assert_int_equal(fs_treesyms_branch_commit(IDX, "linux-4.4.y", NULL, hex), 0);
	assert_string_equal(hex, id(K.r, K.s1)); /* as indexed */
	assert_int_equal(fs_treesyms_branch_commit(IDX, NULL, NULL, hex), 0);
	assert_string_equal(hex, id(K.r, K.m7));
	assert_int_equal(fs_treesyms_branch_commit(IDX, "linux-4.4.y", "v9.9", hex), FS_ENOTFOUND);
	assert_int_equal(fs_treesyms_branch_commit(IDX, "linux-9.9.y", NULL, hex), FS_ENOTFOUND);
}

/* The commit that brought NAME into PATHS before UPSTREAM: its mark, 0
 * for none. */
static int introduced(struct fs_treesyms *t, const char *name, const char *paths, int upstream)
{
	struct fs_error err = FS_ERROR_INIT;
	char **v = g_strsplit(paths, " ", 0);
	fs_cid up, got;
	char hex[41];
	int rc, m;

	assert_int_equal(fs_index_resolve(IDX, id(K.r, upstream), &up, NULL), 0);
	rc = fs_treesyms_introduced(t, IDX, name, (const char *const *)v, g_strv_length(v), up,
				    "v4.4", &got, &err);
	g_strfreev(v);
	if (rc < 0)
		fail_msg("fs_treesyms_introduced: %s", err.message);
	if (rc == 1)
		return 0;
	fs_index_commit_hex(IDX, got, hex);
	for (m = 1; m < K.r->next_mark; m++)
		if (!strcmp(id(K.r, m), hex))
			return m;
	fail_msg("introduced: %s is no commit of the test", hex);
	return -1;
}

static void test_introduced(void **state)
{
	struct fs_treesyms *t = open_ts(K.r->dir);

	/* a helper brought by a merge: the side branch's commit */
	assert_int_equal(introduced(t, "widget_new_helper",
				    "drivers/widget.c include/linux/widget.h", K.m5), K.a2);
	/* a struct member, in the last tag's own window */
	assert_int_equal(introduced(t, "new_member", "include/linux/widget.h", K.m5), K.m4);
	/* a macro in the middle of a window's first-parent chain */
	assert_int_equal(introduced(t, "WIDGET_MID", "include/linux/widget.h", K.m5), K.m4c);
	/* a macro after the last tag (an upstream commit not released yet) */
	assert_int_equal(introduced(t, "WIDGET_LATE", "include/linux/widget.h", K.m7), K.m6);
	/* what the upstream commit brings itself, and what the fork had */
	assert_int_equal(introduced(t, "added_by_u", "drivers/widget.c", K.m5), 0);
	assert_int_equal(introduced(t, "widget_old", "drivers/widget.c", K.m5), 0);
	/* files that never had it */
	assert_int_equal(introduced(t, "widget_new_helper", "drivers/other.c", K.m5), 0);
	assert_int_equal(introduced(t, "widget_new_helper", "no/such/file.c", K.m5), 0);
	fs_treesyms_free(t);
}

/* The checks of a clone without blobs: in a child process, which ends
 * with _exit(): libgit2 1.5 leaks pcre2 match data when it opens a
 * partial clone (its extensions.* config), and the leak check at exit
 * would blame this test (as test-diffcmp.c does).  Returns the failed
 * step, or 0. */
static int blobless_child(const char *partial)
{
	struct fs_treesyms *t = NULL;
	const struct fs_idset *s = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *note;
	char **paths;
	size_t n;

	if (fs_treesyms_open(&t, partial, &err) < 0)
		return 1;
	/* (the sets are the trees': the full clone's would answer; this one
	 * has not been built) */
	if (fs_treesyms_set(t, id(K.r, K.s1), "x", FS_IDSET_DEFS, &s, &err) != FS_ENOTFOUND)
		return 2;
	note = fs_treesyms_take_note(t);
	if (!note || !strstr(note, "--filter=blob:none") || fs_treesyms_take_note(t))
		return 3;
	if (fs_treesyms_set(t, id(K.r, K.s1), "x", FS_IDSET_DEFS, &s, &err) != FS_ENOTFOUND ||
	    fs_treesyms_take_note(t))
		return 4;
	/* trees are there: files still answer */
	if (fs_treesyms_has_path(t, id(K.r, K.s1), "drivers/widget.c", &err) != 1)
		return 5;
	if (fs_treesyms_changed_paths(t, id(K.r, K.a2), &paths, &n, &err) != 0 || n != 2)
		return 6;
	g_strfreev(paths);
	fs_treesyms_free(t);
	return 0;
}

static void test_blobless(void **state)
{
	char *partial = g_strdup_printf("%s/partial.git", tmp_root);
	int status = 0;
	pid_t pid;

	run("git -C '%s' config uploadpack.allowFilter true", K.r->dir);
	run("git clone -q --bare --no-local --filter=blob:none 'file://%s' '%s' 2>/dev/null",
	    K.r->dir, partial);
	run("git -C '%s' fetch -q origin '+refs/heads/*:refs/heads/*' 2>/dev/null", partial);
	id(K.r, K.s1); /* the marks read before the child */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(blobless_child(partial));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	g_free(partial);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_new_tip),
		cmocka_unit_test(test_damaged_cache),
		cmocka_unit_test(test_cache_names),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_files_kept),
		cmocka_unit_test(test_branch_commit),
		cmocka_unit_test(test_introduced),
		cmocka_unit_test(test_blobless),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
