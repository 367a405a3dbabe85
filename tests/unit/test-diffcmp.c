/* Unit tests of the diff comparison (diffcmp.c): a backport's diff
 * against its upstream commit's, on hand-built repositories with real
 * trees, and the changelog notes that document a difference. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <glib.h>

#include <git2.h>

#include "fixscan/diffcmp.h"
#include "review/diffcmp-pack.h"

#include "repo-builder.h"

static char kernel[PATH_MAX];   /* the clone with every object */
static char partial[PATH_MAX];  /* the same, cloned without blobs */
static char upstream[41];       /* the upstream commit */
static char renamed[41];        /* its child: b.c renamed to b2.c, a line changed */

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = g_strdup_printf("%s/%s", dir, name);
	char *parent = g_path_get_dirname(path);

	g_mkdir_with_parents(parent, 0755);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(parent);
	g_free(path);
}

/* a.c: 30 lines, "x = 1;" at line 10; b.c: 10 lines. */
static void base_files(GString *a, GString *b)
{
	int i;

	for (i = 1; i <= 30; i++)
		if (i == 10)
			g_string_append(a, "\tx = 1;\n");
		else
			g_string_append_printf(a, "a line %d\n", i);
	for (i = 1; i <= 10; i++)
		g_string_append_printf(b, "b line %d\n", i);
}

#define GIT "git -c user.name=T -c user.email=t@example.org -C '%s' "

static int group_setup(void **state)
{
	GString *a = g_string_new(NULL), *b = g_string_new(NULL);
	char *rest, *head;
	gchar *out = NULL;

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-diffcmp.XXXXXX",
		 g_get_tmp_dir());
	if (!mkdtemp(tmp_root))
		return -1;
	snprintf(kernel, sizeof(kernel), "%s/kernel", tmp_root);
	snprintf(partial, sizeof(partial), "%s/partial", tmp_root);
	run("git init -q '%s'", kernel);
	base_files(a, b);
	write_file(kernel, "drivers/a.c", a->str);
	write_file(kernel, "drivers/b.c", b->str);
	write_file(kernel, "lib/a.c", "int lib_a;\n");  /* another a.c */
	run(GIT "add -A && " GIT "commit -q -m base", kernel, kernel);
	/* upstream: x = 2 at line 10, a check after line 20, b.c line 5 */
	head = strstr(a->str, "\tx = 1;");
	head[5] = '2';
	rest = strstr(a->str, "a line 21\n");
	g_string_insert(a, rest - a->str, "\tif (y)\n\t\treturn -EINVAL;\n");
	rest = strstr(b->str, "b line 5\n");
	g_string_insert(b, rest - b->str, "\tcall(b);\n");
	write_file(kernel, "drivers/a.c", a->str);
	write_file(kernel, "drivers/b.c", b->str);
	run(GIT "commit -q -a -m 'drivers: check y' -m 'Adjust the context handling of x.'",
	    kernel);
	run(GIT "config uploadpack.allowFilter true", kernel);
	run("git clone -q --bare --no-local --filter=blob:none 'file://%s' '%s' 2>/dev/null",
	    kernel, partial);
	head = g_strdup_printf("git -C '%s' rev-parse HEAD", kernel);
	assert_true(g_spawn_command_line_sync(head, &out, NULL, NULL, NULL));
	snprintf(upstream, sizeof(upstream), "%.40s", out);
	g_free(out);
	run(GIT "mv drivers/b.c drivers/b2.c && sed -i 's/^b line 2$/b line two/' '%s/drivers/b2.c' && "
	    GIT "commit -q -a -m 'drivers: rename b'", kernel, kernel, kernel);
	assert_true(g_spawn_command_line_sync(head, &out, NULL, NULL, NULL));
	snprintf(renamed, sizeof(renamed), "%.40s", out);
	g_free(out);
	g_free(head);
	g_string_free(a, TRUE);
	g_string_free(b, TRUE);
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- mail bodies ---------------------------------------------------------- */

#define CHANGELOG \
	"commit 0123456789abcdef upstream.\n\nAdjust the context handling of x.\n\n" \
	"Signed-off-by: S <s@example.org>\n"

/* The a.c part, with other offsets and other context than upstream's. */
#define A_HUNKS \
	"diff --git a/drivers/a.c b/drivers/a.c\n" \
	"index 1111111..2222222 100644\n" \
	"--- a/drivers/a.c\n" \
	"+++ b/drivers/a.c\n" \
	"@@ -40,3 +40,3 @@ static int f(void)\n" \
	" other context\n" \
	"-\tx = 1;\n" \
	"+\tx = 2;\n" \
	" more context\n" \
	"@@ -55,2 +55,4 @@\n" \
	" a line 20\n" \
	"+\tif (y)\n" \
	"+\t\treturn -EINVAL;\n" \
	" not line 21\n"

#define B_HUNK \
	"diff --git a/drivers/b.c b/drivers/b.c\n" \
	"--- a/drivers/b.c\n" \
	"+++ b/drivers/b.c\n" \
	"@@ -7,0 +8 @@\n" \
	"+\tcall(b);\n"

#define SIG "-- \n2.43.0\n\n"

static void compare(const char *body, struct fs_diffcmp_result *res)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_diffcmp *dc = NULL;

	assert_int_equal(fs_diffcmp_open(&dc, kernel, &err), 0);
	assert_int_equal(fs_diffcmp_commit(dc, upstream, body, strlen(body), res, &err), 0);
	assert_null(fs_diffcmp_take_note(dc));
	fs_diffcmp_free(dc);
}

static void assert_same(const char *body)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	compare(body, &res);
	assert_false(fs_diffcmp_differs(&res));
	assert_int_equal(res.nfiles_dropped, 0);
	assert_int_equal(res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 0);
	assert_int_equal(res.nlines, 0);
	assert_false(res.documented);
	fs_diffcmp_result_clear(&res);
}

/* The same change at other offsets, with other context: no difference. */
static void test_same_change(void **state)
{
	assert_same(CHANGELOG "---\n drivers/a.c | 4 +++-\n\n" A_HUNKS B_HUNK SIG);
	/* the files in the other order, CRLF line ends */
	{
		char *crlf = NULL;
		GString *g = g_string_new(CHANGELOG "---\n" B_HUNK A_HUNKS);
		gchar **lines = g_strsplit(g->str, "\n", -1);

		crlf = g_strjoinv("\r\n", lines);
		assert_same(crlf);
		g_free(crlf);
		g_strfreev(lines);
		g_string_free(g, TRUE);
	}
}

/* White space inside a line and blank added lines do not count. */
static void test_white_space(void **state)
{
	assert_same(CHANGELOG "---\n"
		    "diff --git a/drivers/a.c b/drivers/a.c\n--- a/drivers/a.c\n+++ b/drivers/a.c\n"
		    "@@ -10 +10 @@\n-\tx = 1;\n+    x   =   2 ;\n"
		    "@@ -20,0 +21,4 @@\n+\n+\tif (y)\n+\t\treturn   -EINVAL;\n+   \n"
		    B_HUNK SIG);
}

/* A file upstream changes that the backport leaves out. */
static void test_dropped_file(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	compare("Only the a.c part.\n---\n" A_HUNKS SIG, &res);
	assert_true(fs_diffcmp_differs(&res));
	assert_int_equal(res.nfiles_dropped, 1);
	assert_string_equal(res.files_dropped[0], "drivers/b.c");
	assert_int_equal(res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 0);
	assert_int_equal(res.nlines, 0);
	assert_false(res.documented);
	fs_diffcmp_result_clear(&res);
}

/* A file the backport changes that upstream does not. */
static void test_added_file(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	compare(CHANGELOG "---\n" A_HUNKS B_HUNK
		"diff --git a/drivers/c.c b/drivers/c.c\nnew file mode 100644\n"
		"--- /dev/null\n+++ b/drivers/c.c\n@@ -0,0 +1 @@\n+int c;\n" SIG, &res);
	assert_int_equal(res.nfiles_dropped, 0);
	assert_int_equal(res.nfiles_added, 1);
	assert_string_equal(res.files_added[0], "drivers/c.c");
	assert_int_equal(res.lines_differ, 0);
	fs_diffcmp_result_clear(&res);
}

/* Lines on one side only: one the backport adds, one it lacks. */
static void test_lines_differ(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	compare(CHANGELOG "---\n"
		"diff --git a/drivers/a.c b/drivers/a.c\n--- a/drivers/a.c\n+++ b/drivers/a.c\n"
		"@@ -10 +10,2 @@\n-\tx = 1;\n+\tx = 2;\n+\tpr_info(\"\x1b[31mx\");\n"
		"@@ -20,0 +22,1 @@\n+\tif (y)\n"
		B_HUNK SIG, &res);
	assert_int_equal(res.nfiles_dropped, 0);
	assert_int_equal(res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 2);
	assert_int_equal(res.nlines, 2);
	assert_string_equal(res.lines[0], "upstream only: drivers/a.c: +\t\treturn -EINVAL;");
	/* the escape character of the mail is replaced */
	assert_string_equal(res.lines[1], "backport only: drivers/a.c: +\tpr_info(\"?[31mx\");");
	fs_diffcmp_result_clear(&res);
}

/* A line the same on both sides but added twice on one: a multiset. */
static void test_repeated_line(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	compare(CHANGELOG "---\n" A_HUNKS
		"diff --git a/drivers/b.c b/drivers/b.c\n--- a/drivers/b.c\n+++ b/drivers/b.c\n"
		"@@ -7,0 +8,2 @@\n+\tcall(b);\n+\tcall(b);\n" SIG, &res);
	assert_int_equal(res.lines_differ, 1);
	assert_int_equal(res.nlines, 1);
	assert_string_equal(res.lines[0], "backport only: drivers/b.c: +\tcall(b);");
	fs_diffcmp_result_clear(&res);
}

/* A backporter's note documents the difference; the upstream message's
 * own words ("Adjust the context ...") and "[ Upstream commit X ]" do
 * not. */
static void test_documented(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	static const char *const notes[] = {
		"[ sasha: dropped the b.c hunk, b.c does not exist here ]\n",
		"[Greg: context fixups]\n",
		"Backported to 4.4: b.c has no call site.\n",
		"The b.c part was adjusted away for 4.4.\n",
		"Resolved a conflict in drivers/b.c.\n",
	};
	const char *msg = "drivers: check y\n\nAdjust the context handling of x.\n";
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(notes); i++) {
		char *body = g_strdup_printf(CHANGELOG "%s---\n" A_HUNKS SIG, notes[i]);

		assert_true(fs_diffcmp_documented(body, strlen(body), msg));
		compare(body, &res);
		assert_true(res.documented);
		assert_int_equal(res.nfiles_dropped, 1);
		fs_diffcmp_result_clear(&res);
		g_free(body);
	}
	{
		const char *plain = "[ Upstream commit 0123456789abcdef ]\n\n"
				    "Adjust the context handling of x.\n---\n" A_HUNKS;
		/* words after the --- line are no changelog */
		const char *late = CHANGELOG "---\nbackported by hand\n" A_HUNKS;

		assert_false(fs_diffcmp_documented(plain, strlen(plain), msg));
		assert_false(fs_diffcmp_documented(late, strlen(late), msg));
		/* without the upstream message its words count */
		assert_true(fs_diffcmp_documented(plain, strlen(plain), NULL));
	}
}

/* Prose with "--- " in the changelog is no file. */
static void test_prose(void **state)
{
	assert_same("commit 0123 upstream.\n\n--- this is not a diff\n+++ nor this\n\n---\n"
		    A_HUNKS B_HUNK SIG);
}

/* A rename the mail shows as one (git's "rename from"), with a changed
 * line: the lines that moved along are no difference, the changed one
 * is the same change; the same mail without the changed line lacks it. */
static void test_rename(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_diffcmp *dc = NULL;
	const char *same = "commit x upstream.\n---\n"
		"diff --git a/drivers/b.c b/drivers/b2.c\nsimilarity index 90%\n"
		"rename from drivers/b.c\nrename to drivers/b2.c\n"
		"--- a/drivers/b.c\n+++ b/drivers/b2.c\n@@ -1,3 +1,3 @@\n b line 1\n-b line 2\n+b line two\n b line 3\n";
	const char *pure = "commit x upstream.\n---\n"
		"diff --git a/drivers/b.c b/drivers/b2.c\nsimilarity index 100%\n"
		"rename from drivers/b.c\nrename to drivers/b2.c\n";

	assert_int_equal(fs_diffcmp_open(&dc, kernel, &err), 0);
	assert_int_equal(fs_diffcmp_commit(dc, renamed, same, strlen(same), &res, &err), 0);
	assert_false(fs_diffcmp_differs(&res));
	fs_diffcmp_result_clear(&res);
	assert_int_equal(fs_diffcmp_commit(dc, renamed, pure, strlen(pure), &res, &err), 0);
	assert_int_equal(res.nfiles_dropped, 0);
	assert_int_equal(res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 2);
	assert_string_equal(res.lines[0], "upstream only: drivers/b2.c: +b line two");
	assert_string_equal(res.lines[1], "upstream only: drivers/b2.c: -b line 2");
	fs_diffcmp_result_clear(&res);
	fs_diffcmp_free(dc);
}

/* ---- shapes of real backports, as texts ------------------------------------ */

/* Upstream's diff of the shapes below: two hunks in kernel/f.c, one in
 * kernel/g.c. */
#define U_TEXT \
	"diff --git a/kernel/f.c b/kernel/f.c\nindex 1234567..89abcde 100644\n" \
	"--- a/kernel/f.c\n+++ b/kernel/f.c\n" \
	"@@ -100,7 +100,8 @@ static int f_open(struct inode *inode)\n" \
	" \tint err;\n \n \tmutex_lock(&f_lock);\n" \
	"-\terr = f_check(inode);\n+\terr = f_check(inode, true);\n+\tif (err)\n+\t\tgoto out;\n" \
	" \tf_count++;\n-\tf_count2++;\n out:\n" \
	"@@ -200,3 +201,3 @@ static void f_close(void)\n" \
	" \tf_count--;\n-\tkfree(f_buf);\n+\tkvfree(f_buf);\n \tmutex_unlock(&f_lock);\n" \
	"diff --git a/kernel/g.c b/kernel/g.c\nindex 1111111..2222222 100644\n" \
	"--- a/kernel/g.c\n+++ b/kernel/g.c\n@@ -5,2 +5,3 @@\n int g;\n+int g2;\n int g3;\n"

static void texts(const char *backport, struct fs_diffcmp_result *res)
{
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_diffcmp_texts(U_TEXT, strlen(U_TEXT), backport, strlen(backport),
					  res, &err), 0);
	assert_false(res->documented);
}

static void assert_texts_same(const char *backport)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	texts(backport, &res);
	assert_int_equal(res.nfiles_dropped, 0);
	assert_int_equal(res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 0);
	assert_int_equal(res.nlines, 0);
	fs_diffcmp_result_clear(&res);
}

#define G_PART \
	"diff --git a/kernel/g.c b/kernel/g.c\n--- a/kernel/g.c\n+++ b/kernel/g.c\n" \
	"@@ -3,2 +3,3 @@\n int g;\n+int g2;\n int g3;\n"

/* Context drift: the older branch has other lines around the change and
 * other offsets (and a fuzzy hunk header): the same change. */
static void test_shape_context_drift(void **state)
{
	assert_texts_same("commit abc upstream.\n---\n"
		"diff --git a/kernel/f.c b/kernel/f.c\nindex aaaaaaa..bbbbbbb 100644\n"
		"--- a/kernel/f.c\n+++ b/kernel/f.c\n"
		"@@ -80,6 +80,8 @@ int f_open(struct inode *inode)\n"
		" \tint err = 0;\n \tspin_lock(&f_lock);\n"
		"-\terr = f_check(inode);\n+\terr = f_check(inode, true);\n+\tif (err)\n+\t\tgoto out;\n"
		" \tf_count++;\n-\tf_count2++;\n out:\n"
		"@@ -150,3 +152,3 @@\n \tf_count -= 1;\n-\tkfree(f_buf);\n+\tkvfree(f_buf);\n"
		" \tspin_unlock(&f_lock);\n" G_PART SIG);
}

/* One upstream hunk split in two by the older branch's lines between
 * (and the hunks in another order): the same change. */
static void test_shape_hunk_split(void **state)
{
	assert_texts_same("commit abc upstream.\n---\n"
		"diff --git a/kernel/f.c b/kernel/f.c\n--- a/kernel/f.c\n+++ b/kernel/f.c\n"
		"@@ -150,3 +150,3 @@\n \tf_count--;\n-\tkfree(f_buf);\n+\tkvfree(f_buf);\n \tx();\n"
		"@@ -100,3 +100,5 @@\n \tmutex_lock(&f_lock);\n"
		"-\terr = f_check(inode);\n+\terr = f_check(inode, true);\n+\tif (err)\n+\t\tgoto out;\n"
		" \told_line();\n"
		"@@ -110,3 +112,2 @@\n \tolder_line();\n \tf_count++;\n-\tf_count2++;\n"
		G_PART SIG);
}

/* The backport's mail with A_HUNKS's file at PATH instead, and B_HUNK. */
static char *a_at(const char *path)
{
	gchar **parts = g_strsplit(CHANGELOG "---\n" A_HUNKS B_HUNK SIG, "drivers/a.c", -1);
	char *body = g_strjoinv(path, parts);

	g_strfreev(parts);
	return body;
}

/* The file has another path in the older branch (moved in mainline
 * since, so upstream names the new one, and mainline's tree no longer
 * has the old): the same lines under the old path are the same change,
 * not a dropped file and an added one.  The same lines in a file that
 * mainline has (another copy of the code), in a file of another name, or
 * compared as texts alone (no tree to look in) are both. */
static void test_shape_moved_in_branch(void **state)
{
	static const char *const both[] = { "lib/a.c", "drivers/old/a2.c" };
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char *body = a_at("drivers/old/a.c"), *up;
	size_t i;

	assert_same(body);
	g_free(body);
	for (i = 0; i < G_N_ELEMENTS(both); i++) {
		body = a_at(both[i]);
		compare(body, &res);
		assert_int_equal(res.nfiles_dropped, 1);
		assert_string_equal(res.files_dropped[0], "drivers/a.c");
		assert_int_equal(res.nfiles_added, 1);
		assert_string_equal(res.files_added[0], both[i]);
		assert_int_equal(res.lines_differ, 0);
		fs_diffcmp_result_clear(&res);
		g_free(body);
	}
	up = a_at("drivers/a.c");
	body = a_at("drivers/old/a.c");
	assert_int_equal(fs_diffcmp_texts(up, strlen(up), body, strlen(body), &res, &err), 0);
	assert_int_equal(res.nfiles_dropped, 1);
	assert_int_equal(res.nfiles_added, 1);
	fs_diffcmp_result_clear(&res);
	g_free(body);
	g_free(up);
}

/* A white-space-only change: the same one written with other white
 * space is no difference; left out, its two lines are upstream's only
 * (they are still +/- lines of upstream's diff). */
static void test_shape_white_space_only(void **state)
{
	static const char *const u =
		"diff --git a/kernel/w.c b/kernel/w.c\n--- a/kernel/w.c\n+++ b/kernel/w.c\n"
		"@@ -1,2 +1,2 @@\n-        w = 1;\n+\tw = 1;\n-\tw2 = 2;\n+\tw2 = 3;\n";
	static const char *const same =
		"diff --git a/kernel/w.c b/kernel/w.c\n--- a/kernel/w.c\n+++ b/kernel/w.c\n"
		"@@ -1,2 +1,2 @@\n-    w = 1;\n+  w = 1;\n-\tw2 = 2;\n+\tw2 = 3;\n";
	static const char *const left_out =
		"diff --git a/kernel/w.c b/kernel/w.c\n--- a/kernel/w.c\n+++ b/kernel/w.c\n"
		"@@ -2 +2 @@\n-\tw2 = 2;\n+\tw2 = 3;\n";
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_diffcmp_texts(u, strlen(u), same, strlen(same), &res, &err), 0);
	assert_false(fs_diffcmp_differs(&res));
	fs_diffcmp_result_clear(&res);
	assert_int_equal(fs_diffcmp_texts(u, strlen(u), left_out, strlen(left_out), &res, &err), 0);
	assert_int_equal(res.nfiles_dropped + res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 2);
	assert_int_equal(res.nlines, 2);
	assert_string_equal(res.lines[0], "upstream only: kernel/w.c: -        w = 1;");
	assert_string_equal(res.lines[1], "upstream only: kernel/w.c: +\tw = 1;");
	fs_diffcmp_result_clear(&res);
}

/* A dropped hunk: its lines are upstream's only; the changelog's notes
 * in the forms backporters write them document it, the upstream
 * message's own lines and usual trailers do not. */
static void test_shape_dropped_hunk(void **state)
{
	static const char *const hunks = "---\n"
		"diff --git a/kernel/f.c b/kernel/f.c\n--- a/kernel/f.c\n+++ b/kernel/f.c\n"
		"@@ -100,5 +100,7 @@\n"
		"-\terr = f_check(inode);\n+\terr = f_check(inode, true);\n+\tif (err)\n+\t\tgoto out;\n"
		" \tf_count++;\n-\tf_count2++;\n" G_PART SIG;
	static const char *const notes[] = {
		"[ Drop the kvfree() hunk: f_buf is never vmalloc'ed in 5.10 ]\n",
		"[bwh: Backported to 4.9: adjust context]\n",
		"Conflicts:\n\tkernel/f.c\n",
		"(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\n"
		"[Harshit: resolved conflicts because f_buf is static in 6.1.y]\n",
		/* trailers quoting subjects and links with the words */
		"[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n"
		"Stable-dep-of: 89abcdef0123 (\"f: adjust the context of f_buf\")\n"
		"Fixes: 0123456789ab (\"f: rebase f_count on f_lock\")\n"
		"Link: https://example.org/backport-conflict\n"
		"Reviewed-by: Context Differ <cd@example.org>\n",
	};
	const char *msg = "f: check harder\n\nCheck harder.\n\nSigned-off-by: A <a@example.org>\n";
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(notes); i++) {
		char *body = g_strdup_printf("commit 0123456789ab upstream.\n\nCheck harder.\n\n"
					     "Signed-off-by: A <a@example.org>\n%s%s", notes[i], hunks);
		bool want = i < 4;

		texts(body, &res);
		assert_int_equal(res.nfiles_dropped + res.nfiles_added, 0);
		assert_int_equal(res.lines_differ, 2);
		assert_string_equal(res.lines[0], "upstream only: kernel/f.c: -\tkfree(f_buf);");
		assert_string_equal(res.lines[1], "upstream only: kernel/f.c: +\tkvfree(f_buf);");
		fs_diffcmp_result_clear(&res);
		if (fs_diffcmp_documented(body, strlen(body), msg) != want)
			fail_msg("note %zu: documented should be %d", i, want);
		g_free(body);
	}
}

/* A hunk the backport has and upstream not (a fixup for the older
 * branch), undocumented: its lines are the backport's only. */
static void test_shape_extra_hunk(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;

	texts("commit abc upstream.\n---\n"
		"diff --git a/kernel/f.c b/kernel/f.c\n--- a/kernel/f.c\n+++ b/kernel/f.c\n"
		"@@ -100,5 +100,7 @@\n"
		"-\terr = f_check(inode);\n+\terr = f_check(inode, true);\n+\tif (err)\n+\t\tgoto out;\n"
		" \tf_count++;\n-\tf_count2++;\n"
		"@@ -200,1 +202,1 @@\n-\tkfree(f_buf);\n+\tkvfree(f_buf);\n"
		"@@ -300,0 +302,1 @@\n+#include <linux/mm.h>\n" G_PART SIG, &res);
	assert_int_equal(res.nfiles_dropped + res.nfiles_added, 0);
	assert_int_equal(res.lines_differ, 1);
	assert_string_equal(res.lines[0], "backport only: kernel/f.c: +#include <linux/mm.h>");
	fs_diffcmp_result_clear(&res);
}

/* ---- the pack reader ------------------------------------------------------ */

/* Every object of REPO (a bare one, packed) read by the pack reader is
 * the object libgit2 reads; returns how many were read. */
static size_t same_objects(const char *repo)
{
	char *cmd = g_strdup_printf("git -C '%s' cat-file --batch-all-objects "
				    "--batch-check='%%(objectname) %%(objecttype)'", repo);
	char *objects = g_strdup_printf("%s/objects", repo), *list = NULL;
	struct fs_dcpack *d = fs_dcpack_open(objects);
	git_repository *r = NULL;
	git_odb *odb = NULL;
	gchar **lines;
	size_t i, n = 0;

	assert_non_null(d);
	assert_true(g_spawn_command_line_sync(cmd, &list, NULL, NULL, NULL));
	assert_int_equal(git_repository_open(&r, repo), 0);
	assert_int_equal(git_repository_odb(&odb, r), 0);
	lines = g_strsplit(list, "\n", -1);
	for (i = 0; lines[i] && *lines[i]; i++) {
		static const char *const types[] = { "", "commit", "tree", "blob" };
		git_odb_object *o = NULL;
		unsigned char *data = NULL;
		size_t len, t;
		git_oid oid;

		assert_int_equal(git_oid_fromstrn(&oid, lines[i], 40), 0);
		for (t = 1; t < 4 && strcmp(lines[i] + 41, types[t]); t++)
			;
		assert_true(t < 4);
		assert_int_equal(fs_dcpack_read(d, oid.id, (int)t, &data, &len), 0);
		assert_int_equal(git_odb_read(&o, odb, &oid), 0);
		assert_int_equal(len, git_odb_object_size(o));
		assert_memory_equal(data, git_odb_object_data(o), len);
		assert_int_equal(data[len], '\0');
		g_free(data);
		/* asked for another type: not read */
		assert_int_equal(fs_dcpack_read(d, oid.id, t == 3 ? 1 : 3, &data, &len), -1);
		assert_null(data);
		git_odb_object_free(o);
		n++;
	}
	g_strfreev(lines);
	git_odb_free(odb);
	git_repository_free(r);
	fs_dcpack_free(d);
	g_free(list);
	g_free(objects);
	g_free(cmd);
	return n;
}

/* A file of 300 lines changed in 40 commits (and an empty file),
 * packed with deltas by offset and by id (repack.useDeltaBaseOffset=
 * false): every object the reader gives is libgit2's; an id in no pack
 * is left to libgit2. */
static void test_pack_reader(void **state)
{
	char *src = g_strdup_printf("%s/history", tmp_root);
	char *ofs = g_strdup_printf("%s/ofs.git", tmp_root);
	char *ref = g_strdup_printf("%s/ref.git", tmp_root);
	char *objects = g_strdup_printf("%s/objects", ofs);
	GString *text = g_string_new(NULL);
	struct fs_dcpack *d;
	unsigned char none[20], *data = (unsigned char *)"x";
	size_t len;
	int i, k;

	run("git init -q '%s'", src);
	for (i = 0; i < 40; i++) {
		g_string_truncate(text, 0);
		for (k = 0; k < 300; k++)
			g_string_append_printf(text, "line %d of the file, revision %d\n", k,
					       k == i * 7 ? i : 0);
		write_file(src, "big.c", text->str);
		write_file(src, "empty.h", "");
		run(GIT "add -A && " GIT "commit -q -m 'revision %d'", src, src, i);
	}
	run("git clone -q --bare '%s' '%s' && git -C '%s' repack -q -a -d -f --depth=50",
	    src, ofs, ofs);
	run("git clone -q --bare '%s' '%s' && "
	    "git -C '%s' -c repack.useDeltaBaseOffset=false repack -q -a -d -f --depth=50",
	    src, ref, ref);
	assert_true(pack_deltas(ofs) > 30);
	assert_true(pack_deltas(ref) > 30);
	/* 40 commits, trees and revisions of big.c, one empty blob */
	assert_int_equal(same_objects(ofs), 121);
	assert_int_equal(same_objects(ref), 121);
	/* one more commit fetched as a pack of its own: two packs */
	write_file(src, "big.c", "the last revision\n");
	run(GIT "commit -q -a -m last && git -C '%s' -c fetch.unpackLimit=1 fetch -q '%s' "
	    "HEAD:refs/heads/last && test $(ls '%s'/objects/pack/*.idx | wc -l) = 2",
	    src, ofs, src, ofs);
	assert_int_equal(same_objects(ofs), 124);
	d = fs_dcpack_open(objects);
	memset(none, 0x5a, sizeof(none));
	assert_int_equal(fs_dcpack_read(d, none, FS_DCPACK_BLOB, &data, &len), -1);
	assert_null(data);
	fs_dcpack_free(d);
	/* a directory without packs: none */
	assert_null(fs_dcpack_open(tmp_root));
	g_string_free(text, TRUE);
	g_free(objects);
	g_free(ref);
	g_free(ofs);
	g_free(src);
}

/* The commit id printed by shell command CMD (40 hex) into RAW. */
static void id_of(const char *cmd, unsigned char *raw)
{
	char *out = NULL;
	git_oid oid;

	assert_true(g_spawn_command_line_sync(cmd, &out, NULL, NULL, NULL));
	assert_int_equal(git_oid_fromstrn(&oid, out, 40), 0);
	memcpy(raw, oid.id, 20);
	g_free(out);
}

/* The commit-graph gives each commit's tree and its first parent's (a
 * root commit: none); a commit written after the graph is not in it; a
 * damaged graph is none; and comparing through it gives what comparing
 * through the commits does. */
static void test_commit_graph(void **state)
{
	char *repo = g_strdup_printf("%s/graphed.git", tmp_root);
	char *objects = g_strdup_printf("%s/objects", repo);
	char *cmd, *body;
	unsigned char tree[20], ptree[20], want[20], zero[20] = { 0 }, oid[20];
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_diffcmp *dc = NULL;
	struct fs_dcgraph *g;
	FILE *f;

	run("git clone -q --bare --no-local '%s' '%s' && "
	    "git -C '%s' commit-graph write --reachable 2>/dev/null", kernel, repo, repo);
	g = fs_dcgraph_open(objects);
	assert_non_null(g);
	git_oid_fromstrn((git_oid *)oid, upstream, 40);
	assert_int_equal(fs_dcgraph_trees(g, oid, tree, ptree), 0);
	cmd = g_strdup_printf("git -C '%s' rev-parse %s^{tree}", repo, upstream);
	id_of(cmd, want);
	assert_memory_equal(tree, want, 20);
	g_free(cmd);
	cmd = g_strdup_printf("git -C '%s' rev-parse %s~1^{tree}", repo, upstream);
	id_of(cmd, want);
	assert_memory_equal(ptree, want, 20);
	g_free(cmd);
	cmd = g_strdup_printf("git -C '%s' rev-parse %s~1", repo, upstream);
	id_of(cmd, oid);
	assert_int_equal(fs_dcgraph_trees(g, oid, tree, ptree), 0);
	assert_memory_equal(ptree, zero, 20);
	g_free(cmd);
	memset(oid, 0x5a, sizeof(oid));
	assert_int_equal(fs_dcgraph_trees(g, oid, tree, ptree), -1);
	fs_dcgraph_free(g);
	/* through the graph: the same change is no difference, a dropped
	 * file is one */
	assert_int_equal(fs_diffcmp_open(&dc, repo, &err), 0);
	body = CHANGELOG "---\n" A_HUNKS B_HUNK SIG;
	assert_int_equal(fs_diffcmp_commit(dc, upstream, body, strlen(body), &res, &err), 0);
	assert_false(fs_diffcmp_differs(&res));
	body = CHANGELOG "---\n" A_HUNKS SIG;
	assert_int_equal(fs_diffcmp_commit(dc, upstream, body, strlen(body), &res, &err), 0);
	assert_int_equal(res.nfiles_dropped, 1);
	assert_string_equal(res.files_dropped[0], "drivers/b.c");
	fs_diffcmp_result_clear(&res);
	fs_diffcmp_free(dc);
	/* a graph cut short is none */
	cmd = g_strdup_printf("%s/info/commit-graph", objects);
	run("chmod u+w '%s' && head -c 100 '%s' > '%s.cut' && mv '%s.cut' '%s'",
	    cmd, cmd, cmd, cmd, cmd);
	assert_null(fs_dcgraph_open(objects));
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs("CGPH\001\001\003\000garbage", f);
	fclose(f);
	assert_null(fs_dcgraph_open(objects));
	g_free(cmd);
	g_free(objects);
	g_free(repo);
}

/* A clone without blobs says once that it cannot compare: in a child
 * process, which ends with _exit(): libgit2 1.5 leaks pcre2 match data
 * when it opens a partial clone (its extensions.* config), and the leak
 * check at exit would blame this test.  Returns the failed step, or 0. */
static int no_blobs_child(void)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_diffcmp *dc = NULL;
	const char *body = CHANGELOG "---\n" A_HUNKS;
	const char *note;

	if (fs_diffcmp_open(&dc, partial, &err) != 0)
		return 1;
	if (fs_diffcmp_take_note(dc))
		return 2;
	if (fs_diffcmp_commit(dc, upstream, body, strlen(body), &res, &err) != FS_ENOTFOUND ||
	    fs_diffcmp_differs(&res))
		return 3;
	if (fs_diffcmp_commit(dc, upstream, body, strlen(body), &res, &err) != FS_ENOTFOUND)
		return 4;
	note = fs_diffcmp_take_note(dc);
	if (!note || !strstr(note, "cannot compare backports"))
		return 5;
	if (fs_diffcmp_take_note(dc))
		return 6;
	return 0;
}

static void test_no_blobs(void **state)
{
	struct fs_diffcmp_result res = FS_DIFFCMP_RESULT_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_diffcmp *dc = NULL;
	const char *body = CHANGELOG "---\n" A_HUNKS;
	int status = -1;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(no_blobs_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* an unknown commit in a full clone: the same, once */
	assert_int_equal(fs_diffcmp_open(&dc, kernel, &err), 0);
	assert_int_equal(fs_diffcmp_commit(dc, "0123456789012345678901234567890123456789", body,
					   strlen(body), &res, &err), FS_ENOTFOUND);
	assert_non_null(fs_diffcmp_take_note(dc));
	assert_null(fs_diffcmp_take_note(dc));
	fs_diffcmp_free(dc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_change),
		cmocka_unit_test(test_white_space),
		cmocka_unit_test(test_dropped_file),
		cmocka_unit_test(test_added_file),
		cmocka_unit_test(test_lines_differ),
		cmocka_unit_test(test_repeated_line),
		cmocka_unit_test(test_documented),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_shape_context_drift),
		cmocka_unit_test(test_shape_hunk_split),
		cmocka_unit_test(test_shape_moved_in_branch),
		cmocka_unit_test(test_shape_white_space_only),
		cmocka_unit_test(test_shape_dropped_hunk),
		cmocka_unit_test(test_shape_extra_hunk),
		cmocka_unit_test(test_pack_reader),
		cmocka_unit_test(test_commit_graph),
		cmocka_unit_test(test_no_blobs),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
