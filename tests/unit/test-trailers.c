/* Unit tests for src/tags.c.
 *
 * The tag cases are one static table; each row becomes its own cmocka
 * test named after the row, so a failure names the form that broke.  The
 * commit messages are invented; the ids are random hex.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/trailers.h"

/* Invented ids. */
#define A1 "a4c123b1612dd272d1371c17149d439536b3216f"
#define A2 "daeeb975729fae923d5a4fd12aabfe228f219e9c"
#define A3 "b0eb53f16947ccf25ec84d8dbc74254770f58904"
#define A4 "dba41ecccc3fc1626e53a13043b026c48bbf33fe"
#define A5 "ff9243a8f506b40928b5b7a767c76fb008f86beb"
#define A6 "b2737f6a6f0fb23c6f5da2cec255404e4fb44003"
#define A7 "4d6608697a8d41bed440e50454f31af3176813e0"
#define A8 "2ea68ef786e4d3cea27d26934b484e73cf575dca"
#define A9 "d6ba2b0aee0ca923732881584d8c4fa2815d2802"
#define A10 "827283e0ad84173581569969e58b081006f7e3df"
#define A10_UPPER "827283E0AD84173581569969E58B081006F7E3DF"
#define S1 "c967a64cb140"
#define S2 "ac2f86702824"
#define S3 "107f80e222f8"
#define S4 "9eee3692f09e"
#define S5 "bca3a0aac360"
#define S6 "de49f145fda9"
#define S7 "b860dcd6c8a1"
#define S8 "43e210471948"

#define MAXN 6

struct ref_exp {
	const char *id; /* NULL ends the list */
	const char *subject;
};

struct rev_exp {
	const char *id; /* NULL ends the list */
	const char *upstream;
};

struct cc_exp {
	bool set; /* false ends the list: a bare Cc has all three NULL */
	const char *versions;
	const char *prerequisite;
	const char *comment;
};

#define CC(v, p, c) { true, v, p, c }

struct tag_case {
	const char *name;
	const char *input;
	const char *upstream[MAXN]; /* NULL ends the list */
	struct ref_exp fixes[MAXN];
	struct rev_exp reverts[MAXN];
	struct ref_exp deps[MAXN];
	struct cc_exp ccs[MAXN];
	bool has_diff;
};

#define DIFFSTAT \
	"---\n" \
	" drivers/net/foo/bar.c | 4 +++-\n" \
	" 1 file changed, 3 insertions(+), 1 deletion(-)\n" \
	"\n" \
	"diff --git a/drivers/net/foo/bar.c b/drivers/net/foo/bar.c\n" \
	"index 1111111..2222222 100644\n" \
	"--- a/drivers/net/foo/bar.c\n" \
	"+++ b/drivers/net/foo/bar.c\n" \
	"@@ -10,7 +10,9 @@ static int bar_probe(struct device *dev)\n"

static const struct tag_case cases[] = {
	/* ---- upstream ---- */
	{
		.name = "test_tags__upstream_commit_line",
		.input = "commit " A1 " upstream.\n\n"
			 "The widget driver forgot to drop its reference.\n\n"
			 "Signed-off-by: Ann Author <ann@example.org>\n",
		.upstream = { A1 },
	},
	{
		.name = "test_tags__upstream_commit_no_break_space",
		.input = "commit " A1 "\xc2\xa0upstream.\n\nSome text.\n",
		.upstream = { A1 },
	},
	{
		.name = "test_tags__upstream_bare_bracketed_id",
		.input = "[ " A2 " ]\n\nSome text.\n",
		.upstream = { A2 },
	},
	{
		.name = "test_tags__upstream_from_line_of_a_failed_notice",
		.input = "The patch below does not apply to the 9.9-stable tree.\n\n"
			 "------------------ original commit in the mainline tree ------------------\n\n"
			 "From " A3 " Mon Sep 17 00:00:00 2001\nFrom: Ann <ann@example.org>\n\nSome text.\n",
		.upstream = { A3 },
	},
	{
		.name = "test_tags__bracketed_short_id_is_no_upstream",
		.input = "[ 0123456789ab ]\n\nSome text.\n",
	},
	{
		.name = "test_tags__upstream_commit_without_dot",
		.input = "commit " A2 " upstream\n\nSome text.\n",
		.upstream = { A2 },
	},
	{
		.name = "test_tags__upstream_commit_capitalised",
		.input = "Commit " A3 " Upstream.\n\nSome text.\n",
		.upstream = { A3 },
	},
	{
		.name = "test_tags__upstream_bracket_form",
		.input = "[ Upstream commit " A4 " ]\n\n"
			 "Make the frobnicator honour its timeout.\n",
		.upstream = { A4 },
	},
	{
		.name = "test_tags__upstream_bracket_backport_of",
		.input = "[ backport of " A4 " ]\n\n"
			 "Add a helper that checks the register before loading it.\n",
		.upstream = { A4 },
	},
	{
		.name = "test_tags__upstream_bracket_backport_of_commit",
		.input = "[ Backport of commit " A5 " ]\n\ntext\n",
		.upstream = { A5 },
	},
	{
		.name = "test_tags__backport_of_in_prose_is_no_upstream",
		.input = "This is a backport of " A6 " to the older tree.\n\ntext\n",
	},
	{
		.name = "test_tags__upstream_bracket_without_spaces",
		.input = "[Upstream commit " A5 "]\n\ntext\n",
		.upstream = { A5 },
	},
	{
		.name = "test_tags__upstream_plain_line",
		.input = "Upstream commit " A6 "\n\ntext\n",
		.upstream = { A6 },
	},
	{
		.name = "test_tags__upstream_cherry_picked_several",
		.input = "net: foo: do not leak the skb\n\n"
			 "Body text.\n\n"
			 "(cherry picked from commit " A7 ")\n"
			 "(cherry picked from commit " A8 ")\n"
			 "Signed-off-by: Bea Backporter <bea@example.com>\n",
		.upstream = { A7, A8 },
	},
	{
		.name = "test_tags__upstream_short_id_as_written",
		.input = "commit " S1 " upstream.\n",
		.upstream = { S1 },
	},
	{
		.name = "test_tags__upstream_uppercase_id_lowered",
		.input = "commit " A10_UPPER " upstream.\n",
		.upstream = { A10 },
	},
	{
		.name = "test_tags__upstream_duplicate_kept_once",
		.input = "commit " A1 " upstream.\n\n"
			 "text\n\n"
			 "(cherry picked from commit " A2 ")\n"
			 "(cherry picked from commit " A1 ")\n",
		.upstream = { A1, A2 },
	},
	{
		.name = "test_tags__upstream_indented_line",
		.input = "    mm: slab: keep the list sorted\n\n"
			 "    commit " A9 " upstream.\n\n"
			 "    Body.\n",
		.upstream = { A9 },
	},
	{
		.name = "test_tags__upstream_in_stable_review_mail",
		.input = "5.10-stable review patch.  If anyone has any "
			 "objections, please let me know.\n\n"
			 "------------------\n\n"
			 "From: Carl Coder <carl@example.net>\n\n"
			 "commit " A3 " upstream.\n\n"
			 "The gizmo resets twice on resume.\n\n"
			 "Fixes: " S2 " (\"gizmo: add resume support\")\n"
			 "Cc: stable@vger.kernel.org\n"
			 "Signed-off-by: Carl Coder <carl@example.net>\n"
			 "Signed-off-by: Greg Stable <greg@example.org>\n"
			 DIFFSTAT
			 "+\t/* Fixes: " S3 " is not a tag here */\n"
			 " commit " A4 " upstream.\n",
		.upstream = { A3 },
		.fixes = { { S2, "gizmo: add resume support" } },
		.ccs = { CC(NULL, NULL, NULL) },
		.has_diff = true,
	},

	/* ---- Fixes: ---- */
	{
		.name = "test_tags__fixes_with_short_id",
		.input = "Fixes: " S1 " (\"x86/tlb: Flush the right range on "
			 "unmap\")\n",
		.fixes = { { S1, "x86/tlb: Flush the right range on unmap" } },
	},
	{
		.name = "test_tags__fixes_with_commit_word",
		.input = "Fixes: commit " S2 " (\"ext4: reserve space for "
			 "the journal\")\n",
		.fixes = { { S2, "ext4: reserve space for the journal" } },
	},
	{
		.name = "test_tags__fixes_without_subject",
		.input = "Fixes: 5fc324bdb2e11\n",
		.fixes = { { "5fc324bdb2e11", NULL } },
	},
	{
		.name = "test_tags__fixes_unquoted_subject",
		.input = "Fixes: " S3 " usb: hub: wait for the port to settle\n",
		.fixes = { { S3, "usb: hub: wait for the port to settle" } },
	},
	{
		.name = "test_tags__fixes_several_lines",
		.input = "Fixes: " S1 " (\"one\")\n"
			 "Fixes: " S2 " (\"two\")\n"
			 "Reported-by: Rita Reporter <rita@example.org>\n"
			 "Fixes: " S3 " (\"three\")\n",
		.fixes = { { S1, "one" }, { S2, "two" }, { S3, "three" } },
	},
	{
		.name = "test_tags__fixes_wrapped_subject",
		.input = "Fixes: " S4 " (\"drm/panel: make the backlight "
			 "follow\n"
			 "the panel power state\")\n"
			 "Signed-off-by: Dee Dev <dee@example.com>\n",
		.fixes = { { S4, "drm/panel: make the backlight follow the "
				 "panel power state" } },
	},
	{
		.name = "test_tags__fixes_wrapped_subject_three_lines",
		.input = "Fixes: " S5 " (\"very long\n"
			 "   subject that keeps\n"
			 "   on going\")\n",
		.fixes = { { S5, "very long subject that keeps on going" } },
	},
	{
		.name = "test_tags__fixes_nested_quotes",
		.input = "Fixes: " S6 " (\"Revert \"nfs: cache the lease "
			 "time\"\")\n",
		.fixes = { { S6, "Revert \"nfs: cache the lease time\"" } },
	},
	{
		.name = "test_tags__fixes_subject_with_parentheses",
		.input = "Fixes: " S7 " (\"mm: call flush() before free() "
			 "(again)\")\n",
		.fixes = { { S7, "mm: call flush() before free() (again)" } },
	},
	{
		.name = "test_tags__fixes_lowercase_tag",
		.input = "fixes: " S8 " (\"sched: fix the load average\")\n",
		.fixes = { { S8, "sched: fix the load average" } },
	},
	{
		.name = "test_tags__fixes_seven_hex",
		.input = "Fixes: 87db7f1 (\"pinctrl: tidy up\")\n",
		.fixes = { { "87db7f1", "pinctrl: tidy up" } },
	},
	{
		.name = "test_tags__fixes_forty_hex",
		.input = "Fixes: " A5 " (\"crypto: use the right IV\")\n",
		.fixes = { { A5, "crypto: use the right IV" } },
	},
	{
		.name = "test_tags__fixes_duplicate_kept_once",
		.input = "Fixes: " S1 "\n"
			 "Fixes: " S1 " (\"later with subject\")\n"
			 "Fixes: " S2 " (\"other\")\n"
			 "Fixes: " S2 " (\"other again\")\n",
		.fixes = { { S1, "later with subject" }, { S2, "other" } },
	},
	{
		.name = "test_tags__fixes_parenthesised_without_quotes",
		.input = "Fixes: " S3 " (spi: add DMA support)\n",
		.fixes = { { S3, "spi: add DMA support" } },
	},
	{
		.name = "test_tags__fixes_quoted_without_parentheses",
		.input = "Fixes: " S4 " \"iio: adc: new driver\"\n",
		.fixes = { { S4, "iio: adc: new driver" } },
	},
	{
		.name = "test_tags__fixes_unclosed_quote_stops_at_trailer",
		.input = "Fixes: " S5 " (\"bpf: verifier cleanup\n"
			 "Signed-off-by: Dee Dev <dee@example.com>\n",
		.fixes = { { S5, "bpf: verifier cleanup" } },
	},
	{
		.name = "test_tags__fixes_uppercase_id_lowered",
		.input = "Fixes: C967A64CB140 (\"a\")\n",
		.fixes = { { S1, "a" } },
	},

	{
		.name = "test_tags__fixes_subject_then_comment",
		.input = "Fixes: " S6 " (\"hid: quirk the dongle\") # 5.4 only\n",
		.fixes = { { S6, "hid: quirk the dongle" } },
	},

	/* ---- reverts ---- */
	{
		.name = "test_tags__revert_plain",
		.input = "Revert \"hwmon: report the wrong unit\"\n\n"
			 "This reverts commit " A6 ".\n\n"
			 "It broke the fan readings.\n",
		.reverts = { { A6, NULL } },
	},
	{
		.name = "test_tags__revert_which_was_across_lines",
		.input = "Revert: \"gpio: rework the irq setup\"\n\n"
			 "This reverts commit " A7 " which was\n"
			 "commit " A8 " upstream.\n\n"
			 "The original was already in this tree.\n",
		.reverts = { { A7, A8 } },
	},
	{
		.name = "test_tags__revert_which_was_same_line",
		.input = "This reverts commit " A9 ", which was commit " A10
			 " upstream.\n",
		.reverts = { { A9, A10 } },
	},
	{
		.name = "test_tags__revert_backport_of_mainline_revert",
		.input = "commit " A1 " upstream.\n\n"
			 "This reverts commit " A2 ".\n",
		.upstream = { A1 },
		.reverts = { { A2, NULL } },
	},
	{
		.name = "test_tags__revert_two_sentences",
		.input = "This reverts commit " A3 ".\n"
			 "This reverts commit " A4 ".\n"
			 "This reverts commit " A3 ".\n",
		.reverts = { { A3, NULL }, { A4, NULL } },
	},

	{
		.name = "test_tags__revert_wrapped_before_id",
		.input = "This reverts commit\n" A5 ".\n\n"
			 "commit " A6 " upstream.\n",
		.upstream = { A6 },
		.reverts = { { A5, NULL } },
	},

	/* ---- Stable-dep-of: ---- */
	{
		.name = "test_tags__stable_dep_of",
		.input = "Stable-dep-of: " S6 " (\"net: phy: fix the link "
			 "check\")\n",
		.deps = { { S6, "net: phy: fix the link check" } },
	},
	{
		.name = "test_tags__stable_dep_of_without_subject",
		.input = "Stable-dep-of: " S7 "\nSigned-off-by: S <s@x.org>\n",
		.deps = { { S7, NULL } },
	},

	/* ---- Cc: stable ---- */
	{
		.name = "test_tags__cc_stable_plain",
		.input = "Cc: stable@vger.kernel.org\n",
		.ccs = { CC(NULL, NULL, NULL) },
	},
	{
		.name = "test_tags__cc_stable_angle_with_versions",
		.input = "Cc: <stable@vger.kernel.org> # 4.4.x\n",
		.ccs = { CC("4.4.x", NULL, "4.4.x") },
	},
	{
		.name = "test_tags__cc_stable_v_plus",
		.input = "Cc: stable@vger.kernel.org # v4.4+\n",
		.ccs = { CC("v4.4+", NULL, "v4.4+") },
	},
	{
		.name = "test_tags__cc_stable_angle_3_10_plus",
		.input = "Cc: <stable@vger.kernel.org> # 3.10+\n",
		.ccs = { CC("3.10+", NULL, "3.10+") },
	},
	{
		.name = "test_tags__cc_stable_bare_version",
		.input = "Cc: stable@vger.kernel.org	#   4.4   \n",
		.ccs = { CC("4.4", NULL, "4.4") },
	},
	{
		.name = "test_tags__cc_stable_prerequisite",
		.input = "Cc: stable@vger.kernel.org # 4.4.x: " S8
			 ": prerequisite\n",
		.ccs = { CC("4.4.x", S8, "4.4.x: " S8 ": prerequisite") },
	},
	{
		.name = "test_tags__cc_stable_several_prerequisites",
		.input = "Cc: <stable@vger.kernel.org> # 5.4.x: " S1
			 ": block: split helpers\n"
			 "Cc: <stable@vger.kernel.org> # 5.4.x: " S2
			 ": block: use the helpers\n"
			 "Cc: <stable@vger.kernel.org> # 5.4.x\n",
		.ccs = { CC("5.4.x", S1, "5.4.x: " S1 ": block: split helpers"),
			 CC("5.4.x", S2, "5.4.x: " S2 ": block: use the helpers"),
			 CC("5.4.x", NULL, "5.4.x") },
	},
	{
		.name = "test_tags__cc_stable_prerequisite_without_versions",
		.input = "Cc: stable@vger.kernel.org # " S3 ": take this first\n",
		.ccs = { CC(NULL, S3, S3 ": take this first") },
	},
	{
		.name = "test_tags__cc_stable_kernel_org",
		.input = "Cc: stable@kernel.org\n",
		.ccs = { CC(NULL, NULL, NULL) },
	},
	{
		.name = "test_tags__cc_stable_with_display_name",
		.input = "CC: stable <stable@vger.kernel.org> # 5.15\n",
		.ccs = { CC("5.15", NULL, "5.15") },
	},
	{
		.name = "test_tags__cc_stable_comment_without_version",
		.input = "Cc: stable@vger.kernel.org # after it soaks in -next\n",
		.ccs = { CC(NULL, NULL, "after it soaks in -next") },
	},
	{
		.name = "test_tags__cc_stable_duplicate_kept_once",
		.input = "Cc: stable@vger.kernel.org\n"
			 "Cc: <stable@vger.kernel.org>\n",
		.ccs = { CC(NULL, NULL, NULL) },
	},

	/* ---- where the changelog ends ---- */
	{
		.name = "test_tags__ignores_text_after_diffstat_separator",
		.input = "Fixes: " S1 " (\"kept\")\n"
			 DIFFSTAT
			 "+Fixes: " S2 " (\"in the diff\")\n"
			 "+commit " A1 " upstream.\n",
		.fixes = { { S1, "kept" } },
		.has_diff = true,
	},
	{
		.name = "test_tags__dashes_without_diff_are_changelog",
		.input = "First part.\n"
			 "---\n"
			 "Second part, still the changelog.\n\n"
			 "Fixes: " S3 " (\"after the rule\")\n",
		.fixes = { { S3, "after the rule" } },
	},
	{
		.name = "test_tags__stops_at_diff_without_separator",
		.input = "Fixes: " S4 " (\"kept\")\n"
			 "diff --git a/x.c b/x.c\n"
			 "--- a/x.c\n"
			 "+++ b/x.c\n"
			 "+Fixes: " S5 " (\"dropped\")\n",
		.fixes = { { S4, "kept" } },
		.has_diff = true,
	},
	{
		.name = "test_tags__notes_after_separator_ignored",
		.input = "Fixes: " S6 " (\"kept\")\n"
			 "---\n"
			 "v2: also Fixes: is not at line start here\n"
			 "Fixes: " S7 " (\"note, not changelog\")\n\n"
			 " lib/x.c | 2 +-\n"
			 " 1 file changed, 1 insertion(+), 1 deletion(-)\n",
		.fixes = { { S6, "kept" } },
		.has_diff = true,
	},
	{
		.name = "test_tags__crlf_input",
		.input = "commit " A2 " upstream.\r\n\r\n"
			 "Fixes: " S8 " (\"wrapped\r\n  subject\")\r\n"
			 "Cc: stable@vger.kernel.org # 6.1.x\r\n"
			 "---\r\n"
			 " a/b.c | 1 +\r\n",
		.upstream = { A2 },
		.fixes = { { S8, "wrapped subject" } },
		.ccs = { CC("6.1.x", NULL, "6.1.x") },
		.has_diff = true,
	},
	{
		.name = "test_tags__every_form_together",
		.input = "Revert \"rtc: cmos: skip the alarm check\"\n\n"
			 "commit " A5 " upstream.\n\n"
			 "This reverts commit " A6 ".\n\n"
			 "Fixes: " S1 " (\"rtc: cmos: skip the alarm check\")\n"
			 "Stable-dep-of: " S2 " (\"rtc: cmos: new alarm api\")\n"
			 "Cc: stable@vger.kernel.org # v5.10+\n"
			 "Signed-off-by: Ann Author <ann@example.org>\n"
			 DIFFSTAT,
		.upstream = { A5 },
		.fixes = { { S1, "rtc: cmos: skip the alarm check" } },
		.reverts = { { A6, NULL } },
		.deps = { { S2, "rtc: cmos: new alarm api" } },
		.ccs = { CC("v5.10+", NULL, "v5.10+") },
		.has_diff = true,
	},

	/* ---- negative: hex that is not a reference ---- */
	{
		.name = "test_tags__no_tags_in_plain_text",
		.input = "A changelog with no tags at all.\n\n"
			 "Signed-off-by: Ann Author <ann@example.org>\n",
	},
	{
		.name = "test_tags__empty_text",
		.input = "",
	},
	{
		.name = "test_tags__oops_code_line_not_taken",
		.input = "Code: 0d 01 74 16 48 8b 45 a8 4c 89 e7 e8 5c 3a "
			 "ff ff <0f> 0b 31 c0 5b\n"
			 "Call Trace:\n"
			 " commitdeadbeef1 upstream\n",
	},
	{
		.name = "test_tags__register_dump_not_taken",
		.input = "RIP: 0010:widget_reset+0x4c/0x120 [widget]\n"
			 "RSP: 0018:ffffc90000a3bd28 EFLAGS: 00010246\n"
			 "RAX: ffff888104c2a000 RBX: 0000000000000000 "
			 "RCX: ffffffff8125a4b0\n"
			 "CR2: 00000000deadbeef CR3: 000000010a4ec005\n",
	},
	{
		.name = "test_tags__stack_addresses_not_taken",
		.input = "[<ffffffff8123abcd>] widget_reset+0x4c/0x120\n"
			 "[  12.345678] cfg80211: loaded regdb a1b2c3d4e5f6a7b8\n"
			 "(ffffffff8123abcd is the faulting address)\n",
	},
	{
		.name = "test_tags__link_url_not_taken",
		.input = "Link: https://lore.kernel.org/r/20240101123456."
			 "a4c123b1612dd272@example.org\n"
			 "Link: https://git.example.org/commit/?id=" A1 "\n",
	},
	{
		.name = "test_tags__sha_in_prose_not_taken",
		.input = "The lock was dropped too early, see commit " S1 "\n"
			 "for details.  Since\n"
			 "commit " S2 " (\"foo: rework\") the count can underflow.\n"
			 "Upstream commit " S3 " changed the locking, so this\n"
			 "this commit " S4 " reverts nothing.\n",
	},
	{
		.name = "test_tags__fixes_too_short_not_taken",
		.input = "Fixes: 123abc (\"six hex digits is not an id\")\n",
	},
	{
		.name = "test_tags__fixes_too_long_not_taken",
		.input = "Fixes: " A1 "0 (\"forty-one hex digits\")\n"
			 "commit " A2 "1 upstream.\n",
	},
	{
		.name = "test_tags__quoted_reply_not_taken",
		.input = "> commit " A3 " upstream.\n"
			 "> Fixes: " S5 " (\"quoted\")\n"
			 ">> Cc: stable@vger.kernel.org\n"
			 "  > This reverts commit " A4 ".\n"
			 "Looks fine to me.\n",
	},
	{
		.name = "test_tags__firmware_hash_not_taken",
		.input = "The new firmware (sha256 " A5 A6 ")\n"
			 "fixes the hang.  md5sum: 0123456789abcdef0123456789abcdef\n"
			 "firmware: widget-2.bin " A7 "\n",
	},
	{
		.name = "test_tags__other_cc_not_stable",
		.input = "Cc: linux-mm@kvack.org\n"
			 "Cc: Stable Person <stable@example.org>\n"
			 "Cc: stable@vger.kernel.org.example.com\n"
			 "Cc: Joe <joe@kernel.org> # v4.4+\n",
	},
	{
		.name = "test_tags__fixes_without_id_not_taken",
		.input = "Fixes: a race in the widget driver\n"
			 "Fixes: CVE-2099-12345\n"
			 "Fixes: https://bugzilla.example.org/show_bug.cgi?id=1234567\n"
			 "Fixes: deadbeef-ish counters\n",
	},
	{
		.name = "test_tags__git_log_commit_header_not_upstream",
		.input = "commit " A8 "\n"
			 "Author: Ann Author <ann@example.org>\n",
	},
	{
		.name = "test_tags__cherry_in_prose_not_taken",
		.input = "(cherry-picking " S6 " alone is not enough)\n"
			 "(cherry picked from the vendor tree)\n",
	},
	{
		.name = "test_tags__revert_prose_not_taken",
		.input = "This reverts to the old timeout; commit " S7 "\n"
			 "This revert commit " S8 " is mentioned in passing.\n",
	},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static size_t count_strs(const char *const *v)
{
	size_t n = 0;

	while (n < MAXN && v[n])
		n++;
	return n;
}

static size_t count_refs(const struct ref_exp *v)
{
	size_t n = 0;

	while (n < MAXN && v[n].id)
		n++;
	return n;
}

static void check_str(const char *what, const char *want, const char *got)
{
	if (!want && !got)
		return;
	if (!want || !got || strcmp(want, got) != 0) {
		print_error("%s: want '%s', got '%s'\n", what,
			    want ? want : "(null)", got ? got : "(null)");
		fail();
	}
}

static void check_refs(const char *what, const struct ref_exp *want,
		       const struct fs_trailer_ref *got, size_t n)
{
	size_t i;

	assert_int_equal(n, count_refs(want));
	if (n)
		assert_non_null(got);
	for (i = 0; i < n; i++) {
		check_str(what, want[i].id, got[i].id);
		check_str(what, want[i].subject, got[i].subject);
	}
}

static void run_case(void **state)
{
	const struct tag_case *c = *state;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_trailers *t = NULL;
	const char *const *up;
	const struct fs_trailer_ref *refs;
	const struct fs_trailer_revert *rv;
	const struct fs_trailer_cc_stable *cc;
	size_t n, i, want;

	assert_int_equal(fs_trailers_parse(&t, c->input, strlen(c->input), &err), 0);
	assert_non_null(t);

	up = fs_trailers_upstream(t, &n);
	assert_int_equal(n, count_strs(c->upstream));
	for (i = 0; i < n; i++)
		check_str("upstream", c->upstream[i], up[i]);

	refs = fs_trailers_fixes(t, &n);
	check_refs("fixes", c->fixes, refs, n);
	refs = fs_trailers_stable_dep_of(t, &n);
	check_refs("stable-dep-of", c->deps, refs, n);

	rv = fs_trailers_reverts(t, &n);
	for (want = 0; want < MAXN && c->reverts[want].id; want++)
		;
	assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		check_str("revert id", c->reverts[i].id, rv[i].id);
		check_str("revert upstream", c->reverts[i].upstream,
			  rv[i].upstream);
	}

	cc = fs_trailers_cc_stable(t, &n);
	for (want = 0; want < MAXN && c->ccs[want].set; want++)
		;
	assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		check_str("cc versions", c->ccs[i].versions, cc[i].versions);
		check_str("cc prerequisite", c->ccs[i].prerequisite,
			  cc[i].prerequisite);
		check_str("cc comment", c->ccs[i].comment, cc[i].comment);
	}

	assert_int_equal(fs_trailers_has_diff(t), c->has_diff);
	fs_trailers_free(t);
}

/* ---- fs_trailers_changelog_len() ---- */

struct len_case {
	const char *input;
	const char *changelog; /* the expected prefix */
	bool has_diff;
};

static const struct len_case len_cases[] = {
	{ "body\n---\n a.c | 2 +-\n", "body\n", true },
	{ "body\n---\nv2: notes\n\n a.c | 2 +-\n", "body\n", true },
	{ "body\n---\n 3 files changed, 9 insertions(+)\n", "body\n", true },
	{ "body\n---\n 1 file changed\n", "body\n", true },
	{ "body\n---\n\ndiff --git a/a b/a\n", "body\n", true },
	{ "body\n---\nIndex: linux/a.c\n====\n", "body\n", true },
	{ "body\n---\n--- a/a.c\n+++ b/a.c\n", "body\n", true },
	{ "body\n---   \t\n a.c | Bin 0 -> 12 bytes\n", "body\n", true },
	{ "body\r\n---\r\n a.c | 2 +-\r\n", "body\r\n", true },
	{ "just a message\n", "just a message\n", false },
	{ "", "", false },
	{ "---\n", "---\n", false },
	{ "a\n---\nstill text\n", "a\n---\nstill text\n", false },
	/* the review preamble's long rule is not the separator */
	{ "review\n------------------\n\nFrom: x\n\nbody\n---\n a | 1 +\n",
	  "review\n------------------\n\nFrom: x\n\nbody\n", true },
	/* a rule inside the changelog, then the real separator */
	{ "one\n---\ntwo\n---\n b.c | 4 ++--\n", "one\n---\ntwo\n", true },
	{ "body\ndiff --git a/a b/a\n", "body\n", true },
	{ "body\n--- a/a.c\n+++ b/a.c\n", "body\n", true },
	/* without a separator a diffstat-looking line is just text */
	{ "table:\n x | 1 +\n", "table:\n x | 1 +\n", false },
	/* "Index: " only counts after a separator */
	{ "Index: term\nmore\n", "Index: term\nmore\n", false },
	{ "---\n a | 1 +", "", true },
};

static void test_tags__changelog_len(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(len_cases) / sizeof(len_cases[0]); i++) {
		const struct len_case *c = &len_cases[i];
		bool has_diff = !c->has_diff;
		size_t got = fs_trailers_changelog_len(c->input, strlen(c->input),
						   &has_diff);

		if (got != strlen(c->changelog) || has_diff != c->has_diff) {
			print_error("case %zu: want %zu/%d, got %zu/%d\n", i,
				    strlen(c->changelog), c->has_diff, got,
				    has_diff);
			fail();
		}
	}
}

static void test_tags__changelog_len_null_has_diff(void **state)
{
	const char *s = "x\n---\n a | 1 +\n";

	assert_int_equal(fs_trailers_changelog_len(s, strlen(s), NULL), 2);
}

/* ---- fs_trailers_revert_title() ---- */

static const struct {
	const char *subject;
	const char *title;
} revert_cases[] = {
	{ "Revert \"usb: fix the thing\"", "usb: fix the thing" },
	{ "Revert: \"powerpc: check the state\"", "powerpc: check the state" },
	{ "Revert \"Revert \"net: foo\"\"", "Revert \"net: foo\"" },
	{ "  Revert \"spaced\"  ", "spaced" },
	{ "revert \"lower case\"", "lower case" },
	{ "Revert \"[media] vb2: check the planes\"", "[media] vb2: check the planes" },
	{ "Revert usb: no quotes", NULL },
	{ "Reverted \"x\"", NULL },
	{ "Revert \"\"", NULL },
	{ "Revert \"unterminated", NULL },
	{ "drm: Revert \"not at the start\"", NULL },
	{ "Revert", NULL },
	{ "", NULL },
};

static void test_tags__revert_title(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(revert_cases) / sizeof(revert_cases[0]); i++) {
		char *got = fs_trailers_revert_title(revert_cases[i].subject);

		check_str(revert_cases[i].subject, revert_cases[i].title, got);
		g_free(got);
	}
	assert_null(fs_trailers_revert_title(NULL));
}

/* ---- fs_trailers_normalize_subject() ---- */

static const struct {
	const char *in;
	const char *out;
} norm_cases[] = {
	{ "  Foo:   Bar\tBaz  ", "foo: bar baz" },
	{ "x86/MM: Add Barriers", "x86/mm: add barriers" },
	{ "net: truncated subj...", "net: truncated subj" },
	{ "net: truncated subj ...", "net: truncated subj" },
	{ "mm: cut short\"", "mm: cut short" },
	{ "Revert \"mm: balanced\"", "revert \"mm: balanced\"" },
	{ "Revert \"mm: cut\"...", "revert \"mm: cut\"" },
	{ "wrapped\n  over lines", "wrapped over lines" },
	{ "", "" },
	{ "   ", "" },
	{ "caf\xc3\xa9 UTF-8", "caf\xc3\xa9 utf-8" },
};

static void test_tags__normalize_subject(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(norm_cases) / sizeof(norm_cases[0]); i++) {
		char *got = fs_trailers_normalize_subject(norm_cases[i].in);

		check_str(norm_cases[i].in, norm_cases[i].out, got);
		g_free(got);
	}
}

/* ---- API corners ---- */

static void test_tags__free_null(void **state)
{
	fs_trailers_free(NULL);
}

static void test_tags__length_not_nul_terminated(void **state)
{
	/* LEN stops before the second tag: it must not be seen, nor may the
	 * parser read past LEN (ASan checks the latter with the heap copy). */
	static const char msg[] = "Fixes: " S1 " (\"a\")\nFixes: " S2 "\n";
	size_t len = strlen("Fixes: " S1 " (\"a\")\nFixes: 43e2");
	char *buf = malloc(len);
	struct fs_trailers *t;
	const struct fs_trailer_ref *f;
	size_t n;

	assert_non_null(buf);
	memcpy(buf, msg, len);
	assert_int_equal(fs_trailers_parse(&t, buf, len, NULL), 0);
	f = fs_trailers_fixes(t, &n);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].id, S1);
	fs_trailers_free(t);
	free(buf);
}

/* A huge line that starts like a tag but never closes its quote must be
 * handled quickly and without error. */
static void test_tags__long_unclosed_line(void **state)
{
	static const char head[] = "Fixes: " S1 " (\"";
	size_t len = 200000, i;
	char *buf = malloc(len);
	struct fs_trailers *t;
	const struct fs_trailer_ref *f;
	size_t n;

	assert_non_null(buf);
	memcpy(buf, head, sizeof(head) - 1);
	for (i = sizeof(head) - 1; i < len; i++)
		buf[i] = (i % 80) ? "ab (\"c) "[i % 8] : '\n';
	assert_int_equal(fs_trailers_parse(&t, buf, len, NULL), 0);
	f = fs_trailers_fixes(t, &n);
	assert_int_equal(n, 1);
	assert_string_equal(f[0].id, S1);
	fs_trailers_free(t);
	free(buf);
}

static void test_tags__empty_getters(void **state)
{
	struct fs_trailers *t;
	size_t n = 99;

	assert_int_equal(fs_trailers_parse(&t, NULL, 0, NULL), 0);
	fs_trailers_upstream(t, &n);
	assert_int_equal(n, 0);
	fs_trailers_fixes(t, &n);
	assert_int_equal(n, 0);
	fs_trailers_reverts(t, &n);
	assert_int_equal(n, 0);
	fs_trailers_stable_dep_of(t, &n);
	assert_int_equal(n, 0);
	fs_trailers_cc_stable(t, &n);
	assert_int_equal(n, 0);
	assert_false(fs_trailers_has_diff(t));
	fs_trailers_free(t);
}

#define N_THREADS 4
#define N_ROUNDS 500

/* Several threads parse at once; each checks every result. */
static void *parse_many(void *arg)
{
	const struct tag_case *c = arg;
	intptr_t bad = 0;
	int i;

	for (i = 0; i < N_ROUNDS; i++) {
		struct fs_trailers *t;
		const struct fs_trailer_ref *f;
		const char *const *u;
		size_t nf, nu;

		if (fs_trailers_parse(&t, c->input, strlen(c->input), NULL)) {
			bad++;
			continue;
		}
		f = fs_trailers_fixes(t, &nf);
		u = fs_trailers_upstream(t, &nu);
		if (nf != 1 || strcmp(f[0].id, c->fixes[0].id) ||
		    nu != 1 || strcmp(u[0], c->upstream[0]))
			bad++;
		fs_trailers_free(t);
	}
	return (void *)bad;
}

static void test_tags__parse_from_several_threads(void **state)
{
	pthread_t th[N_THREADS];
	const struct tag_case *c = NULL;
	size_t i;

	for (i = 0; i < N_CASES; i++)
		if (strcmp(cases[i].name,
			   "test_tags__upstream_in_stable_review_mail") == 0)
			c = &cases[i];
	assert_non_null(c);
	for (i = 0; i < N_THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, parse_many,
						(void *)c), 0);
	for (i = 0; i < N_THREADS; i++) {
		void *bad;

		assert_int_equal(pthread_join(th[i], &bad), 0);
		assert_int_equal((intptr_t)bad, 0);
	}
}

static const struct CMUnitTest fixed_tests[] = {
	cmocka_unit_test(test_tags__changelog_len),
	cmocka_unit_test(test_tags__changelog_len_null_has_diff),
	cmocka_unit_test(test_tags__revert_title),
	cmocka_unit_test(test_tags__normalize_subject),
	cmocka_unit_test(test_tags__free_null),
	cmocka_unit_test(test_tags__length_not_nul_terminated),
	cmocka_unit_test(test_tags__long_unclosed_line),
	cmocka_unit_test(test_tags__empty_getters),
	cmocka_unit_test(test_tags__parse_from_several_threads),
};

#define N_FIXED (sizeof(fixed_tests) / sizeof(fixed_tests[0]))

int main(void)
{
	struct CMUnitTest tests[N_CASES + N_FIXED];
	size_t i;

	/* One cmocka test per table row, named after the row. */
	for (i = 0; i < N_CASES; i++) {
		tests[i] = (struct CMUnitTest){
			.name = cases[i].name,
			.test_func = run_case,
			.initial_state = (void *)&cases[i],
		};
	}
	for (i = 0; i < N_FIXED; i++)
		tests[N_CASES + i] = fixed_tests[i];
	return _cmocka_run_group_tests("tags", tests, N_CASES + N_FIXED,
				       NULL, NULL);
}
