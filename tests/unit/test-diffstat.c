/* Unit tests for the diffstat against the diff (lib/kernel/diffstat.c):
 * a whole mail is never called cut short; a diff that stops before a
 * file its diffstat lists, or that is not there at all, is. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/diffstat.h"

#define CHANGELOG "usb: hub: settle the port\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\n" \
		  "Signed-off-by: A U Thor <a@example.org>\n---\n"
#define STAT2 " drivers/usb/core/hub.c | 7 ++++++-\n include/linux/usb.h    | 2 ++\n" \
	      " 2 files changed, 8 insertions(+), 1 deletion(-)\n\n"
#define DIFF_HUB "diff --git a/drivers/usb/core/hub.c b/drivers/usb/core/hub.c\nindex 1..2 100644\n" \
		 "--- a/drivers/usb/core/hub.c\n+++ b/drivers/usb/core/hub.c\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
#define DIFF_USB "diff --git a/include/linux/usb.h b/include/linux/usb.h\nindex 3..4 100644\n" \
		 "--- a/include/linux/usb.h\n+++ b/include/linux/usb.h\n@@ -9,1 +9,3 @@\n x\n+y\n+z\n"

static void gap_of(const char *text, struct fs_diffstat_gap *g)
{
	fs_diffstat_gap(text, text ? strlen(text) : 0, g);
}

static void assert_gap(const char *text, size_t listed, size_t in_diff, size_t missing,
		       const char *first)
{
	struct fs_diffstat_gap g = FS_DIFFSTAT_GAP_INIT;

	gap_of(text, &g);
	assert_int_equal(g.listed, listed);
	assert_int_equal(g.in_diff, in_diff);
	assert_int_equal(g.missing, missing);
	if (first)
		assert_string_equal(g.first_missing, first);
	else
		assert_null(g.first_missing);
	fs_diffstat_gap_clear(&g);
	assert_null(g.first_missing);
}

/* Whole mails: with or without a diffstat, git's diff or another. */
static void test_whole(void **state)
{
	assert_gap(CHANGELOG STAT2 DIFF_HUB DIFF_USB "-- \n2.40.0\n", 2, 2, 0, NULL);
	/* no diffstat (a hand-made mail): nothing listed, nothing missing */
	assert_gap(CHANGELOG DIFF_HUB, 0, 1, 0, NULL);
	/* a diff not made by git, sides dated after a tab */
	assert_gap(CHANGELOG " drivers/usb/core/hub.c | 1 +\n 1 file changed, 1 insertion(+)\n\n"
		   "--- a/drivers/usb/core/hub.c\t2016-04-01 10:00:00\n"
		   "+++ b/drivers/usb/core/hub.c\t2016-04-02 10:00:00\n@@ -1 +1,2 @@\n a\n+b\n",
		   1, 1, 0, NULL);
	/* a new file and a deleted one: /dev/null is no path */
	assert_gap(CHANGELOG " drivers/a.c | 1 +\n drivers/b.c | 1 -\n 2 files changed\n\n"
		   "diff --git a/drivers/a.c b/drivers/a.c\nnew file mode 100644\n--- /dev/null\n+++ b/drivers/a.c\n"
		   "diff --git a/drivers/b.c b/drivers/b.c\ndeleted file mode 100644\n--- a/drivers/b.c\n+++ /dev/null\n",
		   2, 2, 0, NULL);
}

/* The diffstat's own shapes: shortened paths, renames, binaries. */
static void test_stat_shapes(void **state)
{
	/* shortened: ".../core/hub.c" ends a path of the diff, at a '/' */
	assert_gap(CHANGELOG " .../core/hub.c | 7 ++++++-\n 1 file changed, 6 insertions(+)\n\n" DIFF_HUB,
		   1, 1, 0, NULL);
	/* git shortens at a '/': a tail that starts inside a name, or
	 * another path, is another file; with the diff's own file not
	 * listed, the diffstat is another diff's and nothing is missing */
	assert_gap(CHANGELOG " .../ore/hub.c | 7 ++++++-\n 1 file changed, 6 insertions(+)\n\n" DIFF_HUB,
		   1, 1, 0, NULL);
	assert_gap(CHANGELOG " .../usb/hub.c | 7 ++++++-\n 1 file changed, 6 insertions(+)\n\n" DIFF_HUB,
		   1, 1, 0, NULL);
	assert_gap(CHANGELOG " .../core/hub.c | 7 ++++++-\n .../linux/usb.h | 2 ++\n 2 files changed\n\n" DIFF_HUB,
		   2, 1, 1, ".../linux/usb.h");
	/* a rename, and a binary file */
	assert_gap(CHANGELOG " drivers/{old => new}/x.c | 0\n firmware/fw.bin | Bin 0 -> 12 bytes\n"
		   " 2 files changed\n\n"
		   "diff --git a/drivers/old/x.c b/drivers/new/x.c\nsimilarity index 100%\n"
		   "diff --git a/firmware/fw.bin b/firmware/fw.bin\nGIT binary patch\n",
		   2, 2, 0, NULL);
}

/* Mails cut short: before the diff, and inside it. */
static void test_cut(void **state)
{
	assert_gap(CHANGELOG STAT2, 2, 0, 2, "drivers/usb/core/hub.c");
	assert_gap(CHANGELOG STAT2 DIFF_HUB, 2, 1, 1, "include/linux/usb.h");
	/* the second file's header cut off in its middle line */
	assert_gap(CHANGELOG STAT2 DIFF_HUB "diff --git a/include/li", 2, 2, 1, "include/linux/usb.h");
	/* a diffstat of another diff (made up, or edited by hand): the diff
	 * has a file it does not list, so nothing is missing */
	assert_gap(CHANGELOG " kernel/file.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n" DIFF_HUB,
		   1, 1, 0, NULL);
	assert_gap(CHANGELOG STAT2 "diff --git a/lib/other.c b/lib/other.c\n--- a/lib/other.c\n+++ b/lib/other.c\n"
		   "@@ -1 +1 @@\n-a\n+b\n" DIFF_HUB, 2, 2, 0, NULL);
}

static void assert_cut(const char *text, const char *inside)
{
	struct fs_diffstat_gap g = FS_DIFFSTAT_GAP_INIT;

	gap_of(text, &g);
	if (inside)
		assert_string_equal(g.cut_inside, inside);
	else
		assert_null(g.cut_inside);
	fs_diffstat_gap_clear(&g);
}

/* A hunk that ends before the lines its header counts: the mail was cut
 * in its middle (or mangled); whole hunks of every shape are not. */
static void test_hunks(void **state)
{
	assert_cut(CHANGELOG STAT2 DIFF_HUB DIFF_USB, NULL);
	/* cut after a hunk's first line, at the end of the mail */
	assert_cut(CHANGELOG STAT2 DIFF_HUB "diff --git a/include/linux/usb.h b/include/linux/usb.h\n"
		   "--- a/include/linux/usb.h\n+++ b/include/linux/usb.h\n@@ -9,2 +9,4 @@\n x\n+y\n",
		   "include/linux/usb.h");
	/* a hunk short by a line, then the next file's header */
	assert_cut(CHANGELOG "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n"
		   DIFF_HUB, "a.c");
	/* counts left out mean 1; "\ No newline"; a context line whose
	 * space a mailer dropped; a signature after the last hunk */
	assert_cut(CHANGELOG "diff --git a/a.c b/a.c\n--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-x\n+y\n"
		   "\\ No newline at end of file\n@@ -5,3 +5,3 @@\n p\n\n-q\n+r\n s\n-- \n2.40.0\n", NULL);
	/* a deleted file's hunk, a new file's */
	assert_cut(CHANGELOG "diff --git a/old.c b/old.c\ndeleted file mode 100644\n--- a/old.c\n+++ /dev/null\n"
		   "@@ -1,2 +0,0 @@\n-a\n-b\n"
		   "diff --git a/new.c b/new.c\nnew file mode 100644\n--- /dev/null\n+++ b/new.c\n@@ -0,0 +1 @@\n+n\n",
		   NULL);
	/* an "@@" in the changelog is no hunk */
	assert_cut("x: y\n\n@@ -1,9 +1,9 @@ was in the log\n---\n" DIFF_HUB, NULL);
}

/* What only looks like a diffstat is none: lines of the changelog with a
 * '|' and no summary after them, a table in a commit message. */
static void test_not_a_diffstat(void **state)
{
	assert_gap("x: y\n\n reg | 0x10 | on\n mode | 1 | off\n\nSigned-off-by: A <a@example.org>\n---\n" DIFF_HUB,
		   0, 1, 0, NULL);
	assert_gap("x: y\n\n drivers/a.c | 3 +++\nrest of the sentence.\n 1 file changed\n", 0, 0, 0, NULL);
	/* a quoted diffstat inside the diff is not the mail's */
	assert_gap(CHANGELOG DIFF_HUB " drivers/z.c | 1 +\n 1 file changed\n", 0, 1, 0, NULL);
	assert_gap(NULL, 0, 0, 0, NULL);
	assert_gap("", 0, 0, 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_stat_shapes),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_hunks),
		cmocka_unit_test(test_not_a_diffstat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
