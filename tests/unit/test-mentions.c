/* Unit tests for lib/review/mentions.c: which replies object to a patch, and
 * which mails are the user's own (never evidence).  The table holds the
 * forms real stable review replies take; a false objection costs the
 * reviewer credibility on a public list, so the harmless forms matter as
 * much as the objections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/identity.h"
#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "review/mentions-private.h"

static const struct objection_case {
	const char *body;
	const char *line; /* the objecting sentence, NULL when none */
} objection_cases[] = {
	/* test and build reports */
	{ "No regressions found on arm64, x86_64.\n\nTested-by: Linux Kernel Functional Testing <lkft@linaro.org>\n", NULL },
	{ "Works for me as well.\n", NULL },
	{ "NACK.\n\nThis is not the right fix for stable.\n", "NACK." },
	{ "This should be dropped, it is not needed on 4.4.\n", "This should be dropped, it is not needed on 4.4." },
	{ "This shouldn't be backported: 4.4 never had the bug.\n", "This shouldn't be backported: 4.4 never had the bug." },
	{ "Why should this not be applied to 5.10 as well?\n", NULL },
	{ "Compiled and booted on my x86_64 and i386 test systems.  No errors or\nregressions.\n\nTested-by: Shuah <s@example.org>\n", NULL },
	{ "Built and booted on our x86_64, arm64 and arm boards, no problems\nseen.\n\nTested-by: R <r@example.org>\n", NULL },
	{ "Build results:\n\ttotal: 159 pass: 159 fail: 0\nQemu test results:\n\ttotal: 382 pass: 382 fail: 0\n\nTested-by: Guenter <g@example.org>\n", NULL },
	{ "No build failures, no boot failures.\n", NULL },
	{ "0 regressions, 2 fixes compared to the last run.\n", NULL },
	{ "Boot tested on rk3399, no regression noticed.\n", NULL },
	{ "I didn't see any breakage on my boards.\n", NULL },
	{ "Nothing broke here.\n", NULL },
	{ "All tests passed without build errors.\n", NULL },
	{ "Apart from the known broken arm64 allmodconfig, all good.\n", NULL },
	{ "The LTP regression suite passes.\n", NULL },
	{ "Tested-by: Jon <jon@example.org> # boot failure fixed\n", NULL },
	{ "Acked-by: Maintainer <m@example.org>\n", NULL },
	{ "Reviewed-by: A <a@example.org>\n", NULL },
	{ "Thanks, this fixes the boot failure on my laptop.\n", NULL },
	{ "This fixes a regression introduced in 4.4.10.\n", NULL },
	{ "Works for me too.\n", NULL },
	{ "Thanks!\n\ngreg k-h\n", NULL },
	/* questions */
	{ "Is this needed for 5.4 as well?\n", NULL },
	{ "Is this needed for 5.4\nas well?\n", NULL },
	{ "Does this break the build on arm?\n", NULL },
	{ "Was this reverted upstream?\n", NULL },
	{ "We need this for 5.4 as well.\n", NULL },
	{ "Should we queue it for 4.9 too?\n", NULL },
	/* quoted objections and attributions */
	{ "On Mon, Greg wrote:\n> Please drop this, it breaks the build.\n\nNo, it is fine here.\n", NULL },
	{ "> NAK\n> this breaks boot\n\nAgreed with the fix.\n", NULL },
	{ "Greg KH wrote:\n> nak\n", NULL },
	/* signatures */
	{ "Thanks.\n-- \nThis email breaks no rules; please drop me a line.\n", NULL },
	{ "Looks good.\n\n--\nPlease drop by our booth.\n", NULL },
	/* words that only look like phrases */
	{ "snake oil\n", NULL },
	{ "Please keep the Cc list as it is.\n", NULL },
	{ "", NULL },
	/* objections */
	{ "Please drop this, it breaks arm.\n", "Please drop this, it breaks arm." },
	{ "NAK.\n", "NAK." },
	{ "Nacked-by: B <b@example.org>\n", "Nacked-by: B <b@example.org>" },
	{ "This breaks the build on arm.\n", "This breaks the build on arm." },
	{ "This breaks suspend on my ThinkPad.\n", "This breaks suspend on my ThinkPad." },
	{ "This causes a regression on arm64: the board hangs at boot.\n",
	  "This causes a regression on arm64: the board hangs at boot." },
	{ "This one needs commit d4e5f6a7b8c9 (\"MIPS: VDSO: fix the n32 link\") as\nwell, otherwise the build fails.\n",
	  "This one needs commit d4e5f6a7b8c9 (\"MIPS: VDSO: fix the n32 link\") as well, otherwise the build fails." },
	{ "It also needs 0123456789ab to work.\n", "It also needs 0123456789ab to work." },
	{ "This needs 0123456789ab as well.\n", "This needs 0123456789ab as well." },
	{ "With this patch the kernel fails to boot on my rpi4.\n",
	  "With this patch the kernel fails to boot on my rpi4." },
	{ "4.4.11-rc1 no longer builds for mips.\n", "4.4.11-rc1 no longer builds for mips." },
	{ "Could you please drop this one?\n", "Could you please drop this one?" },
	{ "Hi,\n\nthis was reverted upstream by commit 1234567890ab.\n",
	  "this was reverted upstream by commit 1234567890ab." },
	{ "Please don't apply this one to 4.4.\n", "Please don't apply this one to 4.4." },
	{ "> commit 2222 upstream.\n\nThe build is broken without the follow-up fix.\n",
	  "The build is broken without the follow-up fix." },
	{ "On Mon, Greg wrote: please drop\n", "On Mon, Greg wrote: please drop" },
	{ "Tested fine on x86. But it breaks the build on arm.\n", "But it breaks the build on arm." },
	{ "I bisected the hang to this patch, it is a regression caused by the\nmissing lock.\n",
	  "I bisected the hang to this patch, it is a regression caused by the missing lock." },
	/* a long sentence is quoted whole, not cut after 200 bytes */
	{ "This needs commit 80e046b0715b (\"netfilter: x_tables: fix the compat counters\noffset check\") as well, otherwise the check can still be bypassed\nby a crafted rule set loaded from a 32-bit process on a 64-bit kernel.\nThanks.\n",
	  "This needs commit 80e046b0715b (\"netfilter: x_tables: fix the compat counters offset check\") as well, otherwise the check can still be bypassed by a crafted rule set loaded from a 32-bit process on a 64-bit kernel." },
};

/* A "sentence" with no end in sight is cut at a word, and says so. */
static void test_objection_runaway(void **state)
{
	GString *body = g_string_new("Please drop this");
	char *line;
	int i;

	for (i = 0; i < 200; i++)
		g_string_append(body, " because of reasons");
	g_string_append(body, ".\n");
	line = fs_mentions_objection_line(body->str, body->len);
	assert_non_null(line);
	assert_true(strlen(line) <= 1000 + 6);
	assert_true(g_str_has_prefix(line, "Please drop this because"));
	assert_true(g_str_has_suffix(line, "reasons [...]") || g_str_has_suffix(line, "because [...]") ||
		    g_str_has_suffix(line, "of [...]"));
	g_free(line);
	g_string_free(body, TRUE);
}

static void test_objection_table(void **state)
{
	size_t i, bad = 0;

	assert_true(sizeof(objection_cases) / sizeof(*objection_cases) >= 40);
	for (i = 0; i < sizeof(objection_cases) / sizeof(*objection_cases); i++) {
		const struct objection_case *c = &objection_cases[i];
		char *got = fs_mentions_objection_line(c->body, strlen(c->body));
		if (c->line && (!got || strcmp(got, c->line))) {
			print_error("case %zu: want '%s', got '%s'\n", i, c->line, got ? got : "(none)");
			bad++;
		} else if (!c->line && got) {
			print_error("case %zu: false objection '%s'\n", i, got);
			bad++;
		}
		g_free(got);
	}
	assert_int_equal(bad, 0);
}

/* Each class of reply, in several shapes, and what is none of them. */
static void test_classify(void **state)
{
	static const struct {
		const char *body;
		enum fs_reply_class cls;
		const char *line; /* NULL: not compared */
	} cases[] = {
		{ "On Mon, Sam wrote:\n> a patch\n\nI would not want this in the older trees, it is a cleanup with no bug behind it.\n",
		  FS_REPLY_OBJECTION, NULL },
		{ "This is not stable material, sorry.\n", FS_REPLY_OBJECTION, NULL },
		{ "Please do not queue this for the older branches.\n", FS_REPLY_OBJECTION, NULL },
		{ "No need to backport this one.\n", FS_REPLY_OBJECTION, NULL },
		{ "It does not fix a bug and prepares nothing.\n", FS_REPLY_OBJECTION, NULL },
		{ "Looks fine to me, and I agree it is better to drop it all from the old trees.\n",
		  FS_REPLY_OTHER, NULL },
		{ "The arm64 build is broken with this applied:\n\nfoo.c:12:3: error: 'BAR' undeclared\n",
		  FS_REPLY_REPORT, "The arm64 build is broken with this applied:" },
		{ "I bisected a boot hang on my board to this change.\n", FS_REPLY_REPORT, NULL },
		{ "#regzbot introduced: 0123456789abcdef\n", FS_REPLY_REPORT, NULL },
		{ "No build failures and no regressions seen here.\n\nTested-by: T <t@example.org>\n",
		  FS_REPLY_NONE, NULL },
		{ "No build failures and no regressions seen here.\n", FS_REPLY_OTHER,
		  "No build failures and no regressions seen here." },
		{ "If you take this, please pick up 0a1b2c3d4e5f (\"widget: fix the fix\") too.\n",
		  FS_REPLY_NEEDS_ALSO, NULL },
		{ "This must not go in without the follow-up fix at https://example.org/r/1 applied on top.\n",
		  FS_REPLY_NEEDS_ALSO, NULL },
		{ "Surely this is also needed in 9.9 too?\n", FS_REPLY_OTHER, NULL },
		{ "It conflicts on this branch, this one builds instead:\n\n"
		  "From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		  "From: A <a@example.org>\nSubject: [PATCH] widget: crash fix\n\nThis breaks nothing.\n"
		  "diff --git a/x b/x\n", FS_REPLY_REPLACEMENT, NULL },
		{ "On Tue, B wrote:\n> NAK, this breaks the build\n\nThanks!\n", FS_REPLY_NONE, NULL },
		{ "Queued up now, thanks for the backport.\n", FS_REPLY_OTHER, NULL },
		{ "Acked-by: M <m@example.org>\n", FS_REPLY_NONE, NULL },
		/* an answer under a quoted build failure, naming the commit it lacks */
		{ "On Tue, T wrote:\n> The arm build fails:\n> foo.c:12: error: 'x' undeclared\n\n"
		  "Ah, my fault, I forgot the backport of commit 0a1b2c3d4e5f, can you just cherry-pick "
		  "that one as well?\n", FS_REPLY_NEEDS_ALSO,
		  "Ah, my fault, I forgot the backport of commit 0a1b2c3d4e5f, can you just cherry-pick "
		  "that one as well?" },
		/* test farms' reports on a cover */
		{ "Regressions on arm, arm64 and mips: builds failed with gcc-13 and clang.\n\n"
		  "  - arm: allmodconfig\n  - mips: defconfig\n", FS_REPLY_REPORT,
		  "Regressions on arm, arm64 and mips: builds failed with gcc-13 and clang." },
		{ "The regression reported on -rc1 is still noticed on -rc2:\n\n"
		  "WARNING: CPU: 1 PID: 7 at drivers/widget/core.c:88 widget_probe+0x1c/0x40\n",
		  FS_REPLY_REPORT, NULL },
		/* tags and ids in quoted or pasted text are not the reply's own */
		{ "On Mon, M wrote:\n> Fixes: 0a1b2c3d4e5f (\"widget: break it\")\n> Cc: stable@example.org\n\n"
		  "Thanks, queued.\n", FS_REPLY_NONE, NULL },
		{ "Looks right to me.\n\n    commit 0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091\n"
		  "    Author: A <a@example.org>\n\n        widget: revert the broken fix\n\n"
		  "        Fixes: 1122334455aa (\"widget: crash\")\n", FS_REPLY_OTHER, "Looks right to me." },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		enum fs_reply_class cls;
		char *line = fs_mentions_classify(cases[i].body, strlen(cases[i].body), &cls);
		if (cls != cases[i].cls)
			fail_msg("case %zu: class %d, want %d ('%s')", i, cls, cases[i].cls,
				 line ? line : "");
		if (cases[i].line)
			assert_string_equal(line, cases[i].line);
		assert_true((line == NULL) == (cls == FS_REPLY_NONE));
		g_free(line);
	}
}

/* Whether BODY, read in context C (NULL: none), has the class WANT;
 * when not, says so for case I.  The sentence that gave the class into
 * *LINE (g_free()) when LINE is not NULL. */
static bool class_is(size_t i, const char *body, const struct fs_reply_context *c,
		     enum fs_reply_class want, char **line)
{
	enum fs_reply_class cls;
	char *found = fs_mentions_classify_in(body, strlen(body), c, &cls);
	bool ok = cls == want;

	if (!ok)
		print_error("case %zu: class %d, want %d ('%s')\n", i, cls, want, found ? found : "");
	if (line)
		*line = found;
	else
		g_free(found);
	return ok;
}

/* One class of failure per group, written for this test: each shape
 * of a principle the reader learnt on real replies it had not seen,
 * and the near misses that must stay what they are. */
static void test_classify_forms(void **state)
{
	static const struct {
		const char *body;
		enum fs_reply_class cls;
	} cases[] = {
		/* a question that challenges the patch's place in stable */
		{ "Why was this one selected for the old branches at all?\n", FS_REPLY_OBJECTION },
		{ "Hmm... why would 7.1.y need this?\n", FS_REPLY_OBJECTION },
		{ "What is the upstream id of this change?\n", FS_REPLY_OBJECTION },
		{ "No git id?\n", FS_REPLY_OBJECTION },
		{ "So are you sure this is right for the 7.1 tree?\n", FS_REPLY_OBJECTION },
		{ "Doesn't this reintroduce the hang that 0a1b2c3d4e5f cured?\n", FS_REPLY_OBJECTION },
		{ "Why should this not go to 7.2 as well?\n", FS_REPLY_OTHER },
		/* where a test ran is no commit asked for; a commit on top is */
		{ "4.4.6 boots fine and reverting this patch on top of 4.4.7-rc1 fixes it.\n", FS_REPLY_REPORT },
		{ "Reverting it on top of the tree makes the oops go away.\n", FS_REPLY_REPORT },
		{ "This needs 0a1b2c3d4e5f (\"widget: hold the lock\") on top, else it oopses.\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "To apply it on top of v7.1.3 you have to pick 0a1b2c3d4e5f as well.\n", FS_REPLY_NEEDS_ALSO },
		/* "why only X" asks for more branches, not fewer */
		{ "Why only 7.1.y?\n", FS_REPLY_OTHER },
		{ "Why do we care about 7.1.y only, when the other trees have the bug too?\n", FS_REPLY_OTHER },
		{ "Why is this in 7.1 at all?\n", FS_REPLY_OBJECTION },
		{ "Does this change the widget timing on your board?\n", FS_REPLY_OTHER },
		/* the poster or the maintainer takes the posting back */
		{ "Please disregard, I sent the wrong branch.\n", FS_REPLY_OBJECTION },
		{ "Wrong version posted, sorry, I will resend.\n", FS_REPLY_OBJECTION },
		{ "I've dropped this from the queue now.\n", FS_REPLY_OBJECTION },
		{ "Please add your sign-off and resend the whole set.\n", FS_REPLY_OBJECTION },
		{ "Please resend both and we will be happy to queue them.\n", FS_REPLY_OTHER },
		{ "I'll drop the comment in the next version of my own series.\n", FS_REPLY_OTHER },
		/* a drop announced without naming "it" */
		{ "Now dropped, thanks.\n", FS_REPLY_OBJECTION },
		{ "Thanks, dropped the offending widget patch and pushed out a new -rc.\n", FS_REPLY_OBJECTION },
		{ "I've dropped both of the widget patches from all queues.\n", FS_REPLY_OBJECTION },
		{ "New -rc2 releases are out with those dropped.\n", FS_REPLY_OBJECTION },
		{ "Dropped in 7.2 upstream, the helper is gone there.\n", FS_REPLY_OTHER },
		{ "The old helper was dropped a while ago, so this applies.\n", FS_REPLY_OTHER },
		/* a duplicate of what the branch or its queue has */
		{ "This whole series is already in 7.1.4, nothing to do.\n", FS_REPLY_OBJECTION },
		{ "The helper it uses is already in 7.1 so it applies fine.\n", FS_REPLY_OTHER },
		/* not a fix, in words other than "not a fix" */
		{ "This is pure whitespace churn, it should not be picking such things.\n", FS_REPLY_OBJECTION },
		{ "It just cleans things up and does not change any behaviour.\n", FS_REPLY_OBJECTION },
		{ "I would not backport this to the older kernels.\n", FS_REPLY_OBJECTION },
		{ "I would propose that we *not* take this kind of hardening.\n", FS_REPLY_OBJECTION },
		{ "It can be dropped from every queue it was picked for.\n", FS_REPLY_OBJECTION },
		{ "Better to drop the extra blank line here, otherwise fine.\n", FS_REPLY_OTHER },
		/* doubt and concession take an objection back */
		{ "There is little point in this for stable, but no harm either.\n", FS_REPLY_OTHER },
		{ "I am still not sure whether it is worth the backport.\n", FS_REPLY_OTHER },
		{ "I'm not sure how far back we should backport this one.\n", FS_REPLY_OTHER },
		{ "It is not a fix as such, but as long as it is not wrong I don't object.\n", FS_REPLY_OTHER },
		{ "I wouldn't hold back on sending the first three to stable.\n", FS_REPLY_OTHER },
		{ "I would hold off on the first three for now.\n", FS_REPLY_OBJECTION },
		/* a deferral asked for in other words */
		{ "A problem with it was reported, so it makes sense to defer the backport a while.\n",
		  FS_REPLY_OBJECTION },
		{ "It makes sense to take the backport now.\n", FS_REPLY_OTHER },
		{ "Give it some more time, the fix is still being discussed.\n", FS_REPLY_OBJECTION },
		{ "Can we please wait for a real user of the widget mode before adding it?\n", FS_REPLY_OBJECTION },
		{ "We waited for the widget mode for years.\n", FS_REPLY_OTHER },
		/* an approval the clause denies approves nothing */
		{ "I also don't think it makes sense, it is not really a bug fix.\n", FS_REPLY_OBJECTION },
		{ "It makes sense, it is a real bug fix.\n", FS_REPLY_OTHER },
		/* "qualify for stable" is "suitable for stable" */
		{ "Selftest changes do not qualify for stable.\n", FS_REPLY_OBJECTION },
		{ "These widget fixes qualify for stable.\n", FS_REPLY_OTHER },
		{ "The widget part has been postponed to the next set.\n", FS_REPLY_OBJECTION },
		/* "unless X, drop it": X is the exception to a drop */
		{ "Unless someone really wants it, I suggest dropping it.\n", FS_REPLY_OBJECTION },
		{ "If someone really wants it, I suggest dropping the other one.\n", FS_REPLY_OTHER },
		/* the poster takes the whole posting back */
		{ "Forget the whole thing, I will send another set.\n", FS_REPLY_OBJECTION },
		{ "Forget it, the trace below is from another issue.\n", FS_REPLY_OTHER },
		/* not needed in newer trees, or another commit not taken */
		{ "Most likely it is no longer needed in recent kernels, the driver was reworked.\n", FS_REPLY_OTHER },
		{ "It is no longer needed in 7.1, the driver was reworked.\n", FS_REPLY_OBJECTION },
		{ "But for 7.1.y and 7.0.y we do not need to backport 0a1b2c3d4e5f.\n", FS_REPLY_OTHER },
		{ "We don't need to backport this for 7.1.y, 0a1b2c3d4e5f came later.\n", FS_REPLY_OBJECTION },
		{ "If the inputs are positive the casts are not needed.\n", FS_REPLY_OTHER },
		/* a backport that departs from upstream without saying so */
		{ "This is quite different from the original commit, please document it.\n", FS_REPLY_OBJECTION },
		{ "Please use the per-device lock instead.\n", FS_REPLY_OBJECTION },
		{ "I don't agree with turning the knob off in a stable series.\n", FS_REPLY_OBJECTION },
		{ "The patch does not work without the new compiler flag.\n", FS_REPLY_OBJECTION },
		/* a word that ends in "nt" is no negation; "dont" is one */
		{ "It is an important enablement fix that should be backported.\n", FS_REPLY_OTHER },
		{ "The current widget code should be backported as a whole.\n", FS_REPLY_OTHER },
		{ "I dont think this should be backported.\n", FS_REPLY_OBJECTION },
		/* typographic apostrophes and emphasis are read as plain text */
		{ "Please don\xe2\x80\x99t queue this one.\n", FS_REPLY_OBJECTION },
		{ "Really don\xe2\x80\x99t want this to stay a build regression upstream, ping.\n", FS_REPLY_OTHER },
		/* commits asked for by id, or as the reason they are missing */
		{ "Any reason you do not want 0a1b2c3d4e5f (\"gadget: fix the fix\") applied too?\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "Could we apply the patch 0a1b2c3d4e5f6a7b first and then rebase this one?\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "Kernels that take this will also need this other gadget fix:\n\n"
		  "commit 0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091\n", FS_REPLY_NEEDS_ALSO },
		{ "It is broken as is, the fix is pending in the usb tree:\n\n0a1b2c3d4e5f gadget: fix it\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "This is a pointless thing to backport unless it's required for some other patch.\n",
		  FS_REPLY_OBJECTION },
		{ "This should also carry a Fixes tag.\n", FS_REPLY_OTHER },
		{ "Moving the call requires some explanation, see 0a1b2c3d4e5f for how it was done.\n",
		  FS_REPLY_OTHER },
		/* a choice offered is no plain drop request */
		{ "It is incomplete without 0a1b2c3d4e5f, so either take that one as well or drop this.\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "Please drop this, and sorry for the noise.\n", FS_REPLY_OBJECTION },
		/* a refusal outweighs the commits it names as its reason */
		{ "It needs 0a1b2c3d4e5f (\"widget: add the mode\") to be of use, so I would not backport it.\n",
		  FS_REPLY_OBJECTION },
		{ "This fix is needed for 0a1b2c3d4e5f, which came in 7.2.\n\nIt must not be applied to 7.1.\n",
		  FS_REPLY_OBJECTION },
		{ "It regresses the single-object case, see 0a1b2c3d4e5f.\n\nI'd suggest we hold off on merging it.\n",
		  FS_REPLY_OBJECTION },
		{ "It must not go in without 0a1b2c3d4e5f (\"widget: add the mode\").\n", FS_REPLY_NEEDS_ALSO },
		/* a pasted commit whose subject wraps is still not the reply's */
		{ "For reference, the same area was touched later by this one:\n\n"
		  "commit 0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091\nAuthor: A <a@example.org>\n\n"
		  "    gadget: keep the widget from\nlocking up\n\n    The old code caused a crash on resume.\n",
		  FS_REPLY_OTHER },
		{ "Kernels that backported this fix will also need this one:\n\n"
		  "commit 0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8091\n", FS_REPLY_NEEDS_ALSO },
		/* trouble that is a motive, an address, a wish: no report */
		{ "We carry the same change since the old code was causing lockups for us.\n", FS_REPLY_OTHER },
		{ "Notes are at https://example.org/seeing-more-failures.html for anyone curious.\n",
		  FS_REPLY_OTHER },
		{ "I am curious if anyone saw the widget test failure as well.\n", FS_REPLY_OTHER },
		{ "The hang is still occurring on 7.1.5-rc1 with the fix applied.\n", FS_REPLY_REPORT },
		/* trouble seen without the patch is why it is wanted */
		{ "Without this patch I see lockups on the widget bus as well.\n", FS_REPLY_OTHER },
		{ "Without the change the arm build fails with lots of errors.\n", FS_REPLY_OTHER },
		{ "With this patch I see lockups on the widget bus.\n", FS_REPLY_REPORT },
		/* trouble on a condition, to be tested for, or unlikely */
		{ "If we see a regression with the series, we run the tests on the base again.\n", FS_REPLY_OTHER },
		{ "I will run the suite to see if it breaks the widget server.\n", FS_REPLY_OTHER },
		{ "The change is small and very unlikely to cause regressions on real boards.\n", FS_REPLY_OTHER },
		{ "When I boot 7.1.4 with it, I see a crash in the widget driver.\n", FS_REPLY_REPORT },
		/* trouble beside a request for this very patch is its motive */
		{ "We see the same hang on 7.1 boards. Could you please include this patch in 7.1 as well?\n",
		  FS_REPLY_OTHER },
		{ "We see the same hang on 7.1 boards.\n", FS_REPLY_REPORT },
		{ "I bisected a hang on 7.1 boards to this. Please include this patch in 7.2 anyway.\n",
		  FS_REPLY_REPORT },
		/* a dependency given as a reason asks for nothing */
		{ "Because that patch depends on 0a1b2c3d4e5f (\"widget: add the mode\"), it was not backported.\n",
		  FS_REPLY_OTHER },
		{ "Since it depends on 0a1b2c3d4e5f (\"widget: add the mode\"), please take that too.\n",
		  FS_REPLY_NEEDS_ALSO },
		/* a review that finds a potential issue hedges it */
		{ "The review found 1 potential issue: a missing check in probe causes a panic on old boards.\n",
		  FS_REPLY_OTHER },
		{ "A missing check in probe causes a panic on old boards.\n", FS_REPLY_REPORT },
		/* the drop announced in the sentence's middle, or from the queues */
		{ "Thanks for the note, now dropped from every queue.\n", FS_REPLY_OBJECTION },
		{ "Thanks, I will go delete it from all stable queues.\n", FS_REPLY_OBJECTION },
		{ "Yup, it needs to get dropped from everywhere.\n", FS_REPLY_OBJECTION },
		{ "I have just dropped them all until the fix lands.\n", FS_REPLY_OBJECTION },
		{ "I'll go drop it and take this version instead, thanks.\n", FS_REPLY_OTHER },
		{ "The widget driver was removed from the tree in 7.0.\n", FS_REPLY_OTHER },
		/* a place in stable denied in words of its own */
		{ "This one isn't for stable, the older trees can open-code it.\n", FS_REPLY_OBJECTION },
		{ "This patch is not meant to be applied to 7.1 at all.\n", FS_REPLY_OBJECTION },
		{ "It should only go into 7.2, not anything earlier.\n", FS_REPLY_OBJECTION },
		{ "This patch will not help on those trees and can be dropped.\n", FS_REPLY_OBJECTION },
		{ "Without the gadget rework this commit makes no sense.\n", FS_REPLY_OBJECTION },
		{ "This commit is a cleanup, nothing more.\n", FS_REPLY_OBJECTION },
		{ "The bug it fixes is purely theoretical.\n", FS_REPLY_OBJECTION },
		{ "It is only preparation for the new widget mode.\n", FS_REPLY_OBJECTION },
		{ "I don't think there is much value in taking it alone.\n", FS_REPLY_OBJECTION },
		{ "I agree with the proposal to not backport these to the old trees.\n", FS_REPLY_OBJECTION },
		{ "Please do not add it back to the queue.\n", FS_REPLY_OBJECTION },
		{ "I would rather defer this patch until the rework settles.\n", FS_REPLY_OBJECTION },
		{ "I would prefer the full series instead of this backported patch.\n", FS_REPLY_OBJECTION },
		{ "Agreed, this patch does not belong in stable.\n", FS_REPLY_OBJECTION },
		{ "We should not need it in the old trees, nobody sets the flag.\n", FS_REPLY_OBJECTION },
		{ "Maybe fine from 7.1 on, but I'd avoid applying it to the older ones.\n", FS_REPLY_OBJECTION },
		{ "It might be as well to just not backport either of them.\n", FS_REPLY_OBJECTION },
		{ "The message is absent there, so there is no impact on any user.\n", FS_REPLY_OBJECTION },
		{ "Sorry, the patch is not right, the put happens later anyway.\n", FS_REPLY_OBJECTION },
		{ "This was preparation work for a fix that applies to 7.1 as well.\n", FS_REPLY_OTHER },
		{ "This is not queued for 7.1. Mistake?\n", FS_REPLY_OTHER },
		/* an offer to drop it, a concession: no objection */
		{ "I can drop it if you'd prefer.\n", FS_REPLY_OTHER },
		{ "I can drop it from everywhere, thanks!\n", FS_REPLY_OBJECTION },
		{ "Or, we could just drop it for the old trees if it makes no sense there?\n", FS_REPLY_OTHER },
		{ "This is not a bug fix, but I don't mind it going to the old trees.\n", FS_REPLY_OTHER },
		{ "This cleanup of the probe path fixes the leak we saw.\n", FS_REPLY_OTHER },
		{ "The check can be dropped in a later cleanup, but the fix is right.\n", FS_REPLY_OTHER },
		/* another commit named to go with it */
		{ "This should be picked together with 0a1b2c3d4e5f (\"gadget: keep S5\").\n",
		  FS_REPLY_NEEDS_ALSO },
		/* a commit named as missing or wanted, beside the words that want it */
		{ "Checking the widget backports, it would be nice to also backport this one:\n"
		  "https://example.org/r/20 \n", FS_REPLY_NEEDS_ALSO },
		{ "Please make sure you're grabbing the 0a1b2c3d4e5f companion commit.\n", FS_REPLY_NEEDS_ALSO },
		{ "I solved this warning a while ago, it just never got backported to 7.1:\n"
		  "https://example.org/linus/0a1b2c3d4e5f6a7b\n", FS_REPLY_NEEDS_ALSO },
		{ "Already fixed upstream:\n0a1b2c3d4e5f (\"widget: quiet the warning\")\n", FS_REPLY_NEEDS_ALSO },
		{ "D'oh, we already fixed this in 0a1b2c3d4e5f (\"widget: depend on MMU\").\n", FS_REPLY_NEEDS_ALSO },
		{ "I don't see 0a1b2c3d4e5f commit in the 7.1 branch. Is that intentional?\n", FS_REPLY_NEEDS_ALSO },
		{ "We have a fix queued for this: https://example.org/r/31\n", FS_REPLY_NEEDS_ALSO },
		{ "Wait, did you miss commit 0a1b2c3d4e5f (\"widget: fix the size\")?\n", FS_REPLY_NEEDS_ALSO },
		{ "I just pushed this to the widget tree: 0a1b2c3d4e5f (\"widget: add the parenthesis\") "
		  "You definitely want to pull that in too.\n", FS_REPLY_NEEDS_ALSO },
		{ "The build breaks with it. I sent a patch for these: https://example.org/r/77\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "Please backport the docs and sample patches above as well, 0a1b2c3d4e5f and 1b2c3d4e5f6a.\n",
		  FS_REPLY_NEEDS_ALSO },
		{ "Yes, please pick up both this and the fixup 0a1b2c3d4e5f, or none.\n", FS_REPLY_NEEDS_ALSO },
		/* a commit named by its place rather than its id, asked for */
		{ "This requires the previous patch in the widget queue, did you pick it up?\n", FS_REPLY_NEEDS_ALSO },
		{ "Please backport the two widget patches above to 7.1 too.\n", FS_REPLY_NEEDS_ALSO },
		{ "Yes, please take both this and the fixup, or neither.\n", FS_REPLY_NEEDS_ALSO },
		{ "The patches above were all tested together on 7.1.\n", FS_REPLY_OTHER },
		{ "It does not need the previous patch, it stands alone.\n", FS_REPLY_OTHER },
		/* the commit named as the reason it is not needed */
		{ "This doesn't need to be backported unless you also backport 0a1b2c3d4e5f.\n",
		  FS_REPLY_OBJECTION },
		{ "This is not needed in 7.1, as 0a1b2c3d4e5f is not being backported there.\n",
		  FS_REPLY_OBJECTION },
		{ "It would be nice to have this in 7.1 too.\n", FS_REPLY_OTHER },
		/* this same patch asked for elsewhere, in the passive */
		{ "This fix should really be applied to 7.2 as well.\n", FS_REPLY_OTHER },
		{ "The fix 0a1b2c3d4e5f should be applied to 7.2 as well.\n", FS_REPLY_NEEDS_ALSO },
		/* the Fixes tag is no commit to take */
		{ "Sorry, I forgot to add the 'Fixes' tag in the first version, and the cc too.\n", FS_REPLY_OTHER },
		{ "I never got to test 0a1b2c3d4e5f on arm, sorry.\n", FS_REPLY_OTHER },
		{ "It was not fixed upstream by 0a1b2c3d4e5f, that one is unrelated.\n", FS_REPLY_OTHER },
		/* trouble stated in words of its own */
		{ "This commit on the 7.1 branch seems to have broken a number of boards.\n", FS_REPLY_REPORT },
		{ "This patch makes kernel 7.1.{3,4} hang at boot on my board.\n", FS_REPLY_REPORT },
		{ "I see now that this fix doesn't build for 7.1, the helper came in 7.2.\n", FS_REPLY_REPORT },
		{ "Kernel 7.1.9 and later do not build anymore with the widget enabled.\n", FS_REPLY_REPORT },
		{ "It is causing mips builds to fail.\n", FS_REPLY_REPORT },
		{ "Reverting this commit solves the problem on my laptop.\n", FS_REPLY_REPORT },
		{ "I can confirm this issue is in 7.2-rc2 as well.\n", FS_REPLY_REPORT },
		{ "This fix makes the hang go away on my board.\n", FS_REPLY_OTHER },
		{ "It does not break the build here, it does not fail to boot either.\n", FS_REPLY_OTHER },
		/* a corrected version posted in its place */
		{ "Sorry, I had not noticed that. I have sent a v2 of patch 2 which fixes it.\n",
		  FS_REPLY_REPLACEMENT },
		{ "Sure, re-sent. Thanks,\n", FS_REPLY_REPLACEMENT },
		{ "Here's the 7.1-stable series.\n", FS_REPLY_REPLACEMENT },
		{ "I forgot a hunk, so fixed in a v2 at: https://example.org/r/9\n", FS_REPLY_REPLACEMENT },
		{ "I have attached a backport that works for 7.1 and earlier.\n", FS_REPLY_REPLACEMENT },
		{ "Please send a v2 with the sign-off.\n", FS_REPLY_OTHER },
		/* the poster asks to take it out of the queue */
		{ "I just sent the new set, could you please remove this patch from your queue?\n",
		  FS_REPLY_OBJECTION },
		/* attributions in other languages are not the reply's words */
		{ "Am 01.02.26 um 10:00 schrieb Sam Q:\n> NAK from me\n\nThanks!\n", FS_REPLY_NONE },
		/* attributions in the "X writes:" form are not the reply's words */
		{ "Sam Q <sam@example.org> writes:\n> NAK from me\n\nI think I see the cause.\n", FS_REPLY_OTHER },
	};
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		bad += !class_is(i, cases[i].body, NULL, cases[i].cls, NULL);
	assert_int_equal(bad, 0);
}

/* Words that say nothing but thanks or "fine" ask nothing; short words
 * of any other kind are shown (a "Same here." may say a lot). */
static void test_small_talk(void **state)
{
	static const struct {
		const char *body;
		enum fs_reply_class cls;
	} cases[] = {
		{ "Thanks!\n", FS_REPLY_NONE },
		{ "Hi Sam,\n\nLooks good, thanks.\n", FS_REPLY_NONE },
		{ "Thank you very much.\n", FS_REPLY_NONE },
		{ "Cheers, Sam\n", FS_REPLY_NONE },
		{ "Same here.\n", FS_REPLY_OTHER },
		{ "Will do, thanks!\n", FS_REPLY_OTHER },
		{ "Hmm. ;)\n", FS_REPLY_OTHER },
		{ "\"This might be useful later\"?\n", FS_REPLY_OTHER },
		{ "Thanks Sam, I will look at the widget timing next week.\n", FS_REPLY_OTHER },
	};
	size_t i;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		enum fs_reply_class cls;
		char *line = fs_mentions_classify(cases[i].body, strlen(cases[i].body), &cls);
		if (cls != cases[i].cls)
			fail_msg("case %zu: class %d, want %d", i, cls, cases[i].cls);
		g_free(line);
	}
}

/* A reply read with what it answers: an agreement with the quoted
 * words of someone's reply takes their class, "no" to a question
 * whether the patch is needed and "yes" to an offer to drop it object;
 * the same words under the posting itself (its changelog, its diff),
 * without a quote, or disagreeing, say nothing more. */
static void test_answers(void **state)
{
	static const char drop_q[] = "On Mon, P wrote:\n> Please drop this from the 7.1 queue, it is a cleanup.\n\n";
	static const char need_q[] = "On Mon, G wrote:\n> Is this really needed for 7.1?\n\n";
	static const char break_q[] = "On Mon, T wrote:\n> Does this break anything on arm?\n\n";
	static const char offer_q[] = "On Mon, S wrote:\n> Or shall I drop it for the older trees?\n\n";
	static const char more_q[] = "On Mon, D wrote:\n> Please also backport 0a1b2c3d4e5f (\"widget: fix the fix\").\n\n";
	static const char report_q[] = "On Mon, T wrote:\n> This breaks the build on arm.\n\n";
	static const char patch_q[] = "On Mon, S wrote:\n> [ Upstream commit 0a1b2c3d4e5f ]\n>\n"
				      "> Please drop the stale comment.\n> Signed-off-by: A <a@example.org>\n\n";
	static const struct {
		const char *quote, *words;
		enum fs_reply_role role;
		bool answers_reply;
		enum fs_reply_class cls;
	} cases[] = {
		/* the stable maintainer agrees to drop it: dropped */
		{ drop_q, "Will do, thanks!\n", FS_ROLE_STABLE, true, FS_REPLY_OBJECTION },
		{ drop_q, "Ack.\n", FS_ROLE_STABLE, true, FS_REPLY_OBJECTION },
		{ drop_q, "Sure, I'll take care of that this week.\n", FS_ROLE_STABLE, true, FS_REPLY_OBJECTION },
		/* a maintainer or the author agrees with it */
		{ drop_q, "Agreed, it has no place in the old trees.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_OBJECTION },
		{ drop_q, "Yes.\n", FS_ROLE_AUTHOR, true, FS_REPLY_OBJECTION },
		/* a stranger's "yes" adds no say; an offer drops nothing yet */
		{ drop_q, "Yep.\n", FS_ROLE_OTHER, true, FS_REPLY_OTHER },
		{ drop_q, "Agreed, it has no place in the old trees.\n", FS_ROLE_OTHER, true, FS_REPLY_OTHER },
		{ drop_q, "Agreed, this is not stable material.\n", FS_ROLE_OTHER, true, FS_REPLY_OBJECTION },
		{ drop_q, "Right, I only took it for the warning it quiets.\n\nI can drop it if you'd prefer.\n",
		  FS_ROLE_STABLE, true, FS_REPLY_OTHER },
		{ drop_q, "Right, I only took it for the warning it quiets, dropping it now.\n",
		  FS_ROLE_STABLE, true, FS_REPLY_OBJECTION },
		/* the poster complies at length: no drop, a new version */
		{ drop_q, "OK, here is the version for 7.2 with the cleanup left out: https://example.org/r/2\n",
		  FS_ROLE_AUTHOR, true, FS_REPLY_REPLACEMENT },
		{ drop_q, "OK, I looked at the widget timing again and it is the same in 7.1.\n",
		  FS_ROLE_AUTHOR, true, FS_REPLY_OTHER },
		/* disagreeing, or not answering a reply */
		{ drop_q, "No, it is needed there.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_OTHER },
		{ drop_q, "No, the 7.1 tree has the bug too.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_OTHER },
		{ drop_q, "Will do, thanks!\n", FS_ROLE_STABLE, false, FS_REPLY_OTHER },
		{ "", "Will do, thanks!\n", FS_ROLE_STABLE, true, FS_REPLY_OTHER },
		{ patch_q, "Will do, thanks!\n", FS_ROLE_STABLE, true, FS_REPLY_OTHER },
		/* answers to questions */
		{ need_q, "I think not.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_OBJECTION },
		{ need_q, "Thanks. No.\n", FS_ROLE_OTHER, true, FS_REPLY_OBJECTION },
		{ need_q, "Yes, the 7.1 tree has the bug.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_OTHER },
		{ break_q, "No.\n", FS_ROLE_AUTHOR, true, FS_REPLY_OTHER },
		{ offer_q, "Yes I would.\n", FS_ROLE_AUTHOR, true, FS_REPLY_OBJECTION },
		{ offer_q, "No, keep it.\n", FS_ROLE_AUTHOR, true, FS_REPLY_OTHER },
		/* an agreement with more commits or a report: the author's */
		{ more_q, "Makes sense. Will do.\n", FS_ROLE_AUTHOR, true, FS_REPLY_NEEDS_ALSO },
		{ more_q, "Done, thanks!\n", FS_ROLE_STABLE, true, FS_REPLY_OTHER },
		{ report_q, "Indeed, sorry.\n", FS_ROLE_MAINTAINER, true, FS_REPLY_REPORT },
		{ report_q, "Thanks!\n", FS_ROLE_MAINTAINER, true, FS_REPLY_NONE },
	};
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_reply_context c = { .role = cases[i].role, .parent = FS_PARENT_AUTOSEL,
					      .answers_reply = cases[i].answers_reply };
		char *body = g_strconcat(cases[i].quote, cases[i].words, NULL);
		char *line = NULL;

		bad += !class_is(i, body, &c, cases[i].cls, &line);
		/* the finding quotes the reply's own words, not the quote's */
		if (cases[i].cls == FS_REPLY_OBJECTION && line && strstr(cases[i].quote, line) && *line)
			fail_msg("case %zu: quotes '%s' of the quoted mail", i, line);
		g_free(line);
		g_free(body);
	}
	assert_int_equal(bad, 0);
}

/* Words that weigh by who says them: a stable maintainer's condition
 * on taking the posting (its upstream id, that it applies, a fixed
 * resend, the upstream commit instead, waiting, newer branches first)
 * declines it; a question whether it belongs declines it from its
 * author, a maintainer of its code or a stable maintainer, and stays a
 * question from anyone else.  Requests about another branch, and
 * questions that widen, decline nothing. */
static void test_standing(void **state)
{
	static const struct {
		const char *body;
		enum fs_reply_role role;
		enum fs_reply_class cls;
	} cases[] = {
		/* a stable maintainer's conditions */
		{ "What upstream commit is this from?\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "No upstream id for this one?\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Sorry, the patch below is not that git commit.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "None of these SHA1s match what the release has.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "This doesn't apply to the 7.1.y tree, what did you make it against?\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "I took the first two; could you fix up the last one and resend it?\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "You forgot to sign off on these.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Why can't we take the real upstream change?\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Please stick to what is upstream, it is easier for everyone.\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "Please send it again once it has landed in a release candidate.\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "I need some acks from the widget maintainers before taking it.\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "Anyone upgrading from 7.1 to 7.2 would hit a regression, right?\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "I really don't see the bug that this is fixing.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		/* the code's people pointing to what they said of another
		 * posting of the series: the refusal repeated */
		{ "Same here.\n", FS_ROLE_AUTHOR, FS_REPLY_OBJECTION },
		{ "Same for the 7.1 one.\n", FS_ROLE_MAINTAINER, FS_REPLY_OBJECTION },
		{ "Same comment as on the 7.2 posting.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Same here.\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Same here, it boots fine on my board.\n", FS_ROLE_MAINTAINER, FS_REPLY_OTHER },
		{ "Same here.\n\nAcked-by: M <m@example.org>\n", FS_ROLE_MAINTAINER, FS_REPLY_NONE },
		/* a word in scare quotes is the replier's own */
		{ "Also, I really don't see the \"bug\" that this is fixing here.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		/* "there's" points nowhere: the condition is on this posting */
		{ "Then there's nothing I can do about it until that happens.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Please rebase the series and send a new one, there will be one less patch in it.\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "It is not yet in mainline there, so nothing I can do for 7.2.\n", FS_ROLE_STABLE, FS_REPLY_OTHER },
		{ "They also need to go to 7.2 as anyone upgrading would have a regression, I'll queue them there.\n",
		  FS_ROLE_STABLE, FS_REPLY_OTHER },
		/* the same words from someone else, or about another branch */
		{ "What upstream commit is this from?\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Please send it again once it has landed in a release candidate.\n", FS_ROLE_MAINTAINER,
		  FS_REPLY_OTHER },
		{ "Can you resubmit it if it really is needed there?\n", FS_ROLE_STABLE, FS_REPLY_OTHER },
		{ "I took the first six; if you could fix up the last two and resend them, that would be great.\n",
		  FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "If you think it is needed, please send a backport.\n", FS_ROLE_STABLE, FS_REPLY_OTHER },
		{ "If someone wants it in the older trees, feel free to send a backport.\n", FS_ROLE_STABLE,
		  FS_REPLY_OTHER },
		{ "Now queued up, thanks.\n", FS_ROLE_STABLE, FS_REPLY_OTHER },
		/* questions whether it belongs, by who asks */
		{ "Is this really needed for 7.1?\n", FS_ROLE_AUTHOR, FS_REPLY_OBJECTION },
		{ "Is it a real bug fix at all?\n", FS_ROLE_MAINTAINER, FS_REPLY_OBJECTION },
		{ "What does this fix on the old trees?\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Should this be dropped from the queue?\n", FS_ROLE_MAINTAINER, FS_REPLY_OBJECTION },
		{ "Is it a real bug fix at all?\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Is this needed for 7.1 as well?\n", FS_ROLE_AUTHOR, FS_REPLY_OTHER },
		{ "Is this the right widget register?\n", FS_ROLE_MAINTAINER, FS_REPLY_OTHER },
		{ "Why was this one selected for the old branches at all?\n", FS_ROLE_AUTHOR, FS_REPLY_OBJECTION },
		{ "Why was this one selected for the old branches at all?\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Why was this one selected for the old branches at all?\n", FS_ROLE_BOT, FS_REPLY_OTHER },
		/* a class of its own is kept, but trouble a stable maintainer
		 * names with a condition is why the posting is not taken */
		{ "This breaks the build on arm, what upstream commit is it from?\n", FS_ROLE_MAINTAINER,
		  FS_REPLY_REPORT },
		{ "This breaks the build on arm, what upstream commit is it from?\n", FS_ROLE_STABLE,
		  FS_REPLY_OBJECTION },
		{ "This breaks the build on arm.\n", FS_ROLE_STABLE, FS_REPLY_REPORT },
		{ "Why can't we take the whole series instead?\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "Why can't we take the whole series instead?\n", FS_ROLE_MAINTAINER, FS_REPLY_NEEDS_ALSO },
		{ "Note, these had to all be dropped as they broke the build.\n", FS_ROLE_OTHER,
		  FS_REPLY_OBJECTION },
		/* what the patch needs is not in the branch: declined by the
		 * code's people, information from anyone else, a request when
		 * it asks for that commit */
		{ "The bug only exists after the above commit, which is not in v7.1.\n", FS_ROLE_MAINTAINER,
		  FS_REPLY_OBJECTION },
		{ "Right, but commit 0a1b2c3d4e5f isn't present in 7.1.y.\n", FS_ROLE_AUTHOR, FS_REPLY_OBJECTION },
		{ "That commit only landed in 7.2, not 7.1.\n", FS_ROLE_STABLE, FS_REPLY_OBJECTION },
		{ "The bug only exists after the above commit, which is not in v7.1.\n", FS_ROLE_OTHER,
		  FS_REPLY_OTHER },
		{ "Commit 0a1b2c3d4e5f is not in 7.1 yet, please take it as well.\n", FS_ROLE_MAINTAINER,
		  FS_REPLY_NEEDS_ALSO },
		{ "This patch is not in 7.1 yet.\n", FS_ROLE_MAINTAINER, FS_REPLY_OTHER },
		/* whether other commits are taken: a stranger asks for news,
		 * the code's people ask for them */
		{ "Will you also queue the follow-up fix for 7.1?\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Did you queue those two fixes for 7.1 as well?\n", FS_ROLE_OTHER, FS_REPLY_OTHER },
		{ "Will you also queue the follow-up fix for 7.1?\n", FS_ROLE_MAINTAINER, FS_REPLY_NEEDS_ALSO },
		{ "Did you queue those two fixes for 7.1 as well?\n", FS_ROLE_AUTHOR, FS_REPLY_NEEDS_ALSO },
		{ "Wait, did you miss commit 0a1b2c3d4e5f (\"widget: fix the size\")?\n", FS_ROLE_OTHER,
		  FS_REPLY_NEEDS_ALSO },
		/* a stable maintainer taking the commit he names himself */
		{ "Right, I'll also grab 0a1b2c3d4e5f (\"widget: fix the fix\") for 7.1 and 7.2.\n", FS_ROLE_STABLE,
		  FS_REPLY_OTHER },
		{ "Right, please also grab 0a1b2c3d4e5f (\"widget: fix the fix\") for 7.1 and 7.2.\n", FS_ROLE_STABLE,
		  FS_REPLY_NEEDS_ALSO },
		{ "Right, I'll also grab 0a1b2c3d4e5f (\"widget: fix the fix\") for 7.1 and 7.2.\n", FS_ROLE_MAINTAINER,
		  FS_REPLY_NEEDS_ALSO },
	};
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct fs_reply_context c = { .role = cases[i].role, .parent = FS_PARENT_BACKPORT };

		bad += !class_is(i, cases[i].body, &c, cases[i].cls, NULL);
	}
	assert_int_equal(bad, 0);
}

/* Drafts (by maildir flag or fixscan's header), fixscan's digest and
 * mail from the user's addresses are the user's own; nothing else is. */
static void test_own_mail(void **state)
{
	static const char *const own[] = { "rita@example.org", "rita@work.example", NULL };

	assert_true(fs_identity_is_own_mail("/m/Drafts/cur/123.host:2,DS", NULL, NULL));
	assert_true(fs_identity_is_own_mail("/m/Drafts/cur/123.host:2,D", NULL, own));
	assert_false(fs_identity_is_own_mail("/m/inbox/cur/123.host:2,S", NULL, own));
	assert_false(fs_identity_is_own_mail("/m/D:2/cur/123.host", NULL, own));
	assert_false(fs_identity_is_own_mail(NULL, NULL, own));
}

/* The features a learned model reads: the own words only (not the
 * quoted report, not the attribution), ids and numbers as classes of
 * words, the rules' findings and class, each feature once. */
static void test_features(void **state)
{
	static const char body[] =
		"On Mon, Sam wrote:\n> NAK, the build breaks\n\n"
		"Please drop this, it needs 0a1b2c3d4e5f first.\nIt needs 42 more.\n";
	GPtrArray *f = g_ptr_array_new_with_free_func(g_free);
	GHashTable *set = g_hash_table_new(g_str_hash, g_str_equal);
	static const char *const want[] = {
		"u:please", "b:^_please", "b:drop_this", "u:#id", "b:needs_#id", "u:#n",
		"b:needs_#n", "r:objects", "c:objection", "s:n3",
	};
	static const char *const not_want[] = {
		"u:nak", "u:sam", "u:wrote", "u:build", "u:0a1b2c3d4e5f", "u:42", "r:nak", "s:carries",
	};
	size_t i;

	(void)state;
	fs_mentions_features(body, strlen(body), NULL, f);
	for (i = 0; i < f->len; i++) {
		assert_false(g_hash_table_contains(set, f->pdata[i]));
		assert_false(g_str_has_prefix(f->pdata[i], "x:"));
		g_hash_table_add(set, f->pdata[i]);
	}
	for (i = 0; i < G_N_ELEMENTS(want); i++)
		if (!g_hash_table_contains(set, want[i]))
			fail_msg("missing feature %s", want[i]);
	for (i = 0; i < G_N_ELEMENTS(not_want); i++)
		if (g_hash_table_contains(set, not_want[i]))
			fail_msg("feature %s is not the reply's own", not_want[i]);
	g_hash_table_destroy(set);
	g_ptr_array_free(f, TRUE);
}

/* With a context, who says it and to what: the role and the parent
 * alone and with the rules' class and findings, and what is quoted;
 * nothing of a context not given. */
static void test_context_features(void **state)
{
	static const char body[] = "> Fixes: 0123456789ab (\"x\")\n\nIs this needed for 5.4?\n";
	struct fs_reply_context c = {
		.role = FS_ROLE_AUTHOR, .parent = FS_PARENT_AUTOSEL, .quotes_fixes = true,
	};
	GPtrArray *f = g_ptr_array_new_with_free_func(g_free);
	GHashTable *set = g_hash_table_new(g_str_hash, g_str_equal);
	static const char *const want[] = {
		"x:role:author", "x:parent:autosel", "x:role:author&r:question", "x:q:fixes",
	};
	static const char *const not_want[] = {
		"x:role:other", "x:q:hunk", "x:q:upstream", "x:role:author&r:objects",
	};
	size_t i;
	bool with_class = false;

	(void)state;
	fs_mentions_features(body, strlen(body), &c, f);
	for (i = 0; i < f->len; i++) {
		g_hash_table_add(set, f->pdata[i]);
		with_class |= g_str_has_prefix(f->pdata[i], "x:role:author&c:");
	}
	for (i = 0; i < G_N_ELEMENTS(want); i++)
		if (!g_hash_table_contains(set, want[i]))
			fail_msg("missing feature %s", want[i]);
	for (i = 0; i < G_N_ELEMENTS(not_want); i++)
		if (g_hash_table_contains(set, not_want[i]))
			fail_msg("feature %s not in the context", not_want[i]);
	assert_true(with_class);
	g_hash_table_destroy(set);
	g_ptr_array_free(f, TRUE);
}

/* The model: a class's score is its bias plus the weights of the
 * features present (features it does not know weigh nothing), the
 * probabilities are the softmax of the scores, and a margin moves the
 * decision alone. */
static void test_model_class(void **state)
{
	static const double bias[FS_MODEL_CLASSES] = { -1, -2, -2, -3, 0 };
	static const double none[FS_MODEL_CLASSES] = { 0 };
	static const double shy[FS_MODEL_CLASSES] = { -3.5, 0, 0, 0, 0 };
	static const struct fs_reply_weight w[] = {	/* in strcmp() order */
		{ "u:breaks", { 0, 2.5, 0, 0, 0 } },
		{ "u:drop", { 3, 0, 0, 0, -1 } },
		{ "x:role:author", { 1, 0, 0, 0, 0 } },
	};
	struct fs_reply_model m = { .about = "test", .bias = bias, .margin = none, .v = w, .n = 3 };
	GPtrArray *f = g_ptr_array_new();
	double p[FS_MODEL_CLASSES], sum = 0;
	int c;

	(void)state;
	/* nothing known: the bias alone, harmless */
	g_ptr_array_add(f, "u:thanks");
	assert_int_equal(fs_mentions_model_class(&m, f, p), 4);
	for (c = 0; c < FS_MODEL_CLASSES; c++)
		sum += p[c];
	assert_true(sum > 0.999999 && sum < 1.000001);
	assert_true(p[4] > p[0]);
	/* "drop": objection, by 3 - 1 against harmless's 0 - 1 */
	g_ptr_array_add(f, "u:drop");
	assert_int_equal(fs_mentions_model_class(&m, f, p), 0);
	assert_true(p[0] > 0.5);
	/* "breaks" alone: report */
	g_ptr_array_remove_index(f, 1);
	g_ptr_array_add(f, "u:breaks");
	assert_int_equal(fs_mentions_model_class(&m, f, p), 1);
	/* a margin against objections turns a weak drop into harmless, the
	 * probabilities untouched; the author's word tips it back */
	g_ptr_array_remove_index(f, 1);
	g_ptr_array_add(f, "u:drop");
	m.margin = shy;
	assert_int_equal(fs_mentions_model_class(&m, f, p), 4);
	assert_true(p[0] > 0.5);
	g_ptr_array_add(f, "x:role:author");
	assert_int_equal(fs_mentions_model_class(&m, f, p), 0);
	g_ptr_array_free(f, TRUE);
	/* without trained weights there is no built-in model */
	if (fs_mentions_model())
		assert_true(fs_mentions_model()->n > 0);
}

/* An attribution wrapped over two or three lines ("On <date>, <name>" then
 * "<address> wrote:") is no part of the reply's own words; a sentence
 * that merely opens with "On" is. */
static void test_wrapped_attribution(void **state)
{
	static const struct {
		const char *body, *own;
	} cases[] = {
		{ "On Tue, 5 Mar 2024 at 10:00, Alice Example\n<alice@example.org> wrote:\n> quoted\n\nThis breaks my board.\n",
		  "This breaks my board." },
		{ "On Tue, 5 Mar 2024 at 10:00:01 +0100,\nAlice Example\n<alice@example.org> wrote:\n> quoted\n\nFine by me.\n",
		  "Fine by me." },
		{ "On arm64 this hangs at boot.\n", "On arm64 this hangs at boot." },
		{ "On arm64 it hangs.\nOn Tue, Bob\n<b@example.org> wrote:\n> x\n", "On arm64 it hangs." },
		{ "On one board\nit hangs,\non two more\nit does not: what wrote: this\n",
		  "On one board it hangs, on two more it does not: what wrote: this" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *own = fs_mentions_own_words(cases[i].body, strlen(cases[i].body), NULL);
		char *t = g_strstrip(g_strdup(own));

		if (strcmp(t, cases[i].own))
			fail_msg("case %zu: own words \"%s\", want \"%s\"", i, t, cases[i].own);
		g_free(t);
		g_free(own);
	}
}

/* The commits a request names are those of the sentences that ask (and
 * a list that follows them), not every id of the reply: a culprit, a
 * revert or a branch's own commit mentioned elsewhere is asked for by
 * nobody. */
static void test_asked_words(void **state)
{
	static const struct {
		const char *body, *has, *hasnt;
	} cases[] = {
		{ "I bisected the hang to 0123456789ab in my tree.\n\nPlease also take fedcba987654 to fix it.\n",
		  "fedcba987654", "0123456789ab" },
		{ "We need to cherry-pick the following commits:\n\n1111111111aa\n2222222222bb\n\nThe 6.1 revert 3333333333cc is unrelated.\n",
		  "2222222222bb", "3333333333cc" },
		{ "This is fine as it is.\n", NULL, "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *w = fs_mentions_asked_words(cases[i].body, strlen(cases[i].body));

		if (cases[i].has && !strstr(w, cases[i].has))
			fail_msg("case %zu: \"%s\" lacks %s", i, w, cases[i].has);
		if (cases[i].has && !strstr(w, "1111111111aa") && i == 1)
			fail_msg("case %zu: \"%s\" lacks the list's first id", i, w);
		if (*cases[i].hasnt && strstr(w, cases[i].hasnt))
			fail_msg("case %zu: \"%s\" has %s", i, w, cases[i].hasnt);
		if (!cases[i].has && *w)
			fail_msg("case %zu: \"%s\" asks nothing", i, w);
		g_free(w);
	}
}

/* A signed reply (PGP/MIME) whose text is quoted-printable: read in its
 * decoded words, the signature part left out, the quote not its own. */
static void test_signed_reply(void **state)
{
	static const char mail[] =
		"From: R <r@example.org>\n"
		"To: stable@example.org\n"
		"Subject: Re: [PATCH 7.1 1/2] widget: fix the timer\n"
		"Message-ID: <signed@example.org>\n"
		"In-Reply-To: <patch@example.org>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/signed; micalg=pgp-sha256;\n"
		" protocol=\"application/pgp-signature\"; boundary=\"sig\"\n"
		"\n"
		"--sig\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"On Mon, S wrote:\n"
		"> Looks fine to me.\n"
		"\n"
		"Please don=E2=80=99t queue this one for the older branches, the timer =\n"
		"there is different.\n"
		"--sig\n"
		"Content-Type: application/pgp-signature; name=\"signature.asc\"\n"
		"\n"
		"-----BEGIN PGP SIGNATURE-----\n"
		"iQIzBAEBCAAdFiEEnotarealsignatureatall\n"
		"-----END PGP SIGNATURE-----\n"
		"--sig--\n";
	char path[] = "/tmp/fixscan-signed-XXXXXX";
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p = NULL;
	enum fs_reply_class cls;
	const char *body;
	size_t len;
	char *line;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, mail, strlen(mail)), (ssize_t)strlen(mail));
	close(fd);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	unlink(path);
	body = fs_patch_body(p, &len);
	assert_null(strstr(body, "PGP SIGNATURE"));
	line = fs_mentions_classify(body, len, &cls);
	assert_int_equal(cls, FS_REPLY_OBJECTION);
	assert_string_equal(line, "Please don\xe2\x80\x99t queue this one for the older branches, "
			    "the timer there is different.");
	g_free(line);
	fs_patch_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objection_table),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_classify_forms),
		cmocka_unit_test(test_small_talk),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_standing),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_context_features),
		cmocka_unit_test(test_model_class),
		cmocka_unit_test(test_signed_reply),
		cmocka_unit_test(test_wrapped_attribution),
		cmocka_unit_test(test_asked_words),
		cmocka_unit_test(test_objection_runaway),
		cmocka_unit_test(test_own_mail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
