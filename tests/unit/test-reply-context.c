/* Unit tests for the context a reply is read in (lib/review/mentions-context.c):
 * who the replier is to the patch, what kind of mail it answers, what it
 * quotes.  The mails are invented, written to a temporary directory and
 * parsed by the real reader. */
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

#include "fixscan/mail.h"
#include "fixscan/mentions.h"
#include "fixscan/thread.h"

#include "patch-mail.h"

#define REVIEW_PATCH \
	"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n" \
	"Subject: [PATCH 6.1 12/88] usb: gadget: fix a leak\n" \
	"Message-Id: <p12@linuxfoundation.org>\n\n" \
	"6.1-stable review patch.  If anyone has any objections, please let me know.\n\n" \
	"------------------\n\n" \
	"From: Ann Author <ann@example.com>\n\n" \
	"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\n" \
	"Fix the leak.\n\n" \
	"Fixes: 89abcdef0123 (\"usb: gadget: add the thing\")\n" \
	"Signed-off-by: Ann Author <ann@example.com>\n" \
	"Acked-by: Mo Maintainer <MO@kernel.example.org>\n" \
	"Signed-off-by: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n" \
	"---\n drivers/usb/gadget/x.c | 1 +\n"

/* A reply from FROM with BODY to PARENT_ID. */
static struct fs_patch *reply(const char *from, const char *body)
{
	char *t = g_strdup_printf("From: %s\nSubject: Re: something\n"
				  "Message-Id: <r%d@example.org>\nIn-Reply-To: <p12@linuxfoundation.org>\n\n%s",
				  from, nfiles, body);
	struct fs_patch *p = mail(t);

	g_free(t);
	return p;
}

static enum fs_reply_role role_of(const char *from, const struct fs_patch *parent,
				  const char *const *senders)
{
	struct fs_patch *r = reply(from, "Thanks.\n");
	struct fs_reply_context c;

	fs_mentions_reply_context(&c, r, parent, senders);
	fs_patch_free(r);
	return c.role;
}

/* Each role, by the parent's own lines; case and display names do not
 * matter, only the address. */
static void test_roles(void **state)
{
	struct fs_patch *parent = mail(REVIEW_PATCH);
	const char *senders[] = { "stable-bot-less@example.net", NULL };

	assert_int_equal(role_of("Ann Author <ANN@example.com>", parent, NULL), FS_ROLE_AUTHOR);
	assert_int_equal(role_of("mo@kernel.example.org", parent, NULL), FS_ROLE_MAINTAINER);
	assert_int_equal(role_of("Greg KH <gregkh@linuxfoundation.org>", parent, NULL), FS_ROLE_STABLE);
	assert_int_equal(role_of("Sasha Levin <sashal@kernel.org>", parent, NULL), FS_ROLE_STABLE);
	/* a sender of the review mails is a stable maintainer, whoever */
	assert_int_equal(role_of("S <stable-bot-less@example.net>", parent, senders), FS_ROLE_STABLE);
	assert_int_equal(role_of("S <stable-bot-less@example.net>", parent, NULL), FS_ROLE_OTHER);
	assert_int_equal(role_of("Linux Kernel Functional Testing <lkft@linaro.org>", parent, NULL),
			 FS_ROLE_BOT);
	assert_int_equal(role_of("kernel test robot <lkp@intel.com>", parent, NULL), FS_ROLE_BOT);
	assert_int_equal(role_of("Someone Else <else@example.com>", parent, NULL), FS_ROLE_OTHER);
	/* a name that is a signer's, at another address, is not the signer */
	assert_int_equal(role_of("Mo Maintainer <mo@home.example>", parent, NULL), FS_ROLE_OTHER);
	/* no parent: only what the From says by itself */
	assert_int_equal(role_of("Ann Author <ann@example.com>", NULL, NULL), FS_ROLE_OTHER);
	assert_int_equal(role_of("Greg <gregkh@linuxfoundation.org>", NULL, NULL), FS_ROLE_STABLE);
	assert_int_equal(role_of("no address at all", parent, NULL), FS_ROLE_OTHER);
	fs_patch_free(parent);
}

/* A developer's own backport posting: its sender is its author. */
static void test_backport_sender_is_author(void **state)
{
	struct fs_patch *parent = mail("From: Dev <dev@example.com>\n"
				       "Subject: [PATCH 5.10] net: fix it\n"
				       "Message-Id: <b1@example.com>\n\n"
				       "[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n\n"
				       "Signed-off-by: Dev <dev@example.com>\n");

	assert_int_equal(fs_mentions_parent_kind(parent), FS_PARENT_BACKPORT);
	assert_int_equal(role_of("Dev <dev@example.com>", parent, NULL), FS_ROLE_AUTHOR);
	fs_patch_free(parent);
	/* and the cover of a series of backports they posted */
	parent = mail("From: Dev <dev@example.com>\nSubject: [PATCH 5.10 0/2] net: two fixes\n"
		      "Message-Id: <c1@example.com>\n\nTwo fixes for 5.10.\n");
	assert_int_equal(fs_mentions_parent_kind(parent), FS_PARENT_COVER);
	assert_int_equal(role_of("Dev <dev@example.com>", parent, NULL), FS_ROLE_AUTHOR);
	assert_int_equal(role_of("Else <else@example.com>", parent, NULL), FS_ROLE_OTHER);
	fs_patch_free(parent);
}

/* The posting of one patch addresses the upstream commit's people by
 * name: a replier it addressed is one of the code's people, one it did
 * not address stays a stranger; a cover goes to testers too, and a
 * list's address (a list that rewrites From gives its own) is nobody's. */
static void test_addressed(void **state)
{
	static const char autosel[] =
		"From: Sasha Levin <sashal@kernel.org>\n"
		"To: linux-kernel@vger.kernel.org, stable@vger.kernel.org\n"
		"Cc: Rae Viewer <rae@example.net>, \"Keeper, Tree\" <keeper@example.org>,\n"
		" widget-devel@lists.example.org\n"
		"Subject: [PATCH AUTOSEL 7.1 03/20] widget: fix it\n"
		"Message-Id: <a3@kernel.org>\n\n"
		"[ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n\nFix.\n\n"
		"Signed-off-by: Ann Author <ann@example.com>\n";
	static const char cover[] =
		"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
		"To: stable@vger.kernel.org\nCc: Tess Tester <tess@example.org>\n"
		"Subject: [PATCH 7.1 00/20] 7.1.3-rc1 review\n"
		"Message-Id: <c0@linuxfoundation.org>\n\n"
		"This is the start of the stable review cycle for the 7.1.3 release.\n";
	struct fs_patch *parent = mail(autosel);

	assert_int_equal(fs_mentions_parent_kind(parent), FS_PARENT_AUTOSEL);
	assert_int_equal(role_of("Rae <RAE@example.net>", parent, NULL), FS_ROLE_MAINTAINER);
	assert_int_equal(role_of("Tree Keeper <keeper@example.org>", parent, NULL), FS_ROLE_MAINTAINER);
	assert_int_equal(role_of("Else <else@example.com>", parent, NULL), FS_ROLE_OTHER);
	assert_int_equal(role_of("Rae via widget-devel <widget-devel@lists.example.org>", parent, NULL),
			 FS_ROLE_OTHER);
	/* a signer the posting does not address is one by the trailers */
	assert_int_equal(role_of("Ann Author <ann@example.com>", parent, NULL), FS_ROLE_MAINTAINER);
	fs_patch_free(parent);
	parent = mail(cover);
	assert_int_equal(fs_mentions_parent_kind(parent), FS_PARENT_COVER);
	assert_int_equal(role_of("Tess <tess@example.org>", parent, NULL), FS_ROLE_OTHER);
	fs_patch_free(parent);
}

/* Whether a reply answers someone's reply rather than the posting in
 * hand: by its In-Reply-To. */
static void test_answers_reply(void **state)
{
	struct fs_patch *parent = mail(REVIEW_PATCH);
	struct fs_patch *to_patch = reply("R <r@example.org>", "Thanks.\n");
	struct fs_patch *to_reply = mail("From: R <r@example.org>\nSubject: Re: x\nMessage-Id: <rr@example.org>\n"
					 "In-Reply-To: <someone@example.org>\n\n> Drop it.\n\nWill do.\n");
	struct fs_patch *alone = mail("From: R <r@example.org>\nSubject: Re: x\nMessage-Id: <ra@example.org>\n\nHm.\n");
	struct fs_reply_context c;

	fs_mentions_reply_context(&c, to_patch, parent, NULL);
	assert_false(c.answers_reply);
	fs_mentions_reply_context(&c, to_reply, parent, NULL);
	assert_true(c.answers_reply);
	fs_mentions_reply_context(&c, to_reply, NULL, NULL);
	assert_true(c.answers_reply);
	fs_mentions_reply_context(&c, alone, parent, NULL);
	assert_false(c.answers_reply);
	fs_patch_free(parent);
	fs_patch_free(to_patch);
	fs_patch_free(to_reply);
	fs_patch_free(alone);
}

/* The upstream commit's people: a replier who signs, acks or reviews
 * the upstream change is a maintainer of its code; one who does not
 * stays a stranger, and a role found in the mails stays. */
static void test_upstream_signers(void **state)
{
	static const char msg[] = "widget: fix it\n\nFix.\n\nSigned-off-by: Ann Author <ann@example.com>\n"
				  "Reviewed-by: Rae Viewer <rae@example.net>\nSigned-off-by: Tree Keeper <keeper@example.org>\n";
	struct fs_patch *parent = mail(REVIEW_PATCH);
	struct fs_patch *rae = reply("Rae <RAE@example.net>", "Hm.\n");
	struct fs_patch *keeper = reply("Tree Keeper <keeper@example.org>", "Hm.\n");
	struct fs_patch *else_ = reply("Else <else@example.com>", "Hm.\n");
	struct fs_patch *greg = reply("Greg <gregkh@linuxfoundation.org>", "Hm.\n");
	struct fs_reply_context c;

	fs_mentions_reply_context(&c, rae, parent, NULL);
	assert_int_equal(c.role, FS_ROLE_OTHER);
	fs_mentions_context_signers(&c, rae, msg, strlen(msg));
	assert_int_equal(c.role, FS_ROLE_MAINTAINER);
	fs_mentions_reply_context(&c, keeper, parent, NULL);
	fs_mentions_context_signers(&c, keeper, msg, strlen(msg));
	assert_int_equal(c.role, FS_ROLE_MAINTAINER);
	fs_mentions_reply_context(&c, else_, parent, NULL);
	fs_mentions_context_signers(&c, else_, msg, strlen(msg));
	assert_int_equal(c.role, FS_ROLE_OTHER);
	fs_mentions_reply_context(&c, greg, parent, NULL);
	fs_mentions_context_signers(&c, greg, msg, strlen(msg));
	assert_int_equal(c.role, FS_ROLE_STABLE);
	fs_patch_free(parent);
	fs_patch_free(rae);
	fs_patch_free(keeper);
	fs_patch_free(else_);
	fs_patch_free(greg);
}

/* The upstream message for the one patch a test thread has. */
static int one_message(void *data, const struct fs_patch *patch, char **out)
{
	(void)patch;
	*out = g_strdup(data);
	return 0;
}

/* The class of the reply <MID> among the objections of the one series
 * of the thread of TEXTS (N mails), read with STANDING (may be NULL);
 * FS_REPLY_NONE when none cites it. */
static enum fs_reply_class class_with(const char *const *texts, size_t n, const char *mid,
				      const struct fs_reply_standing *standing)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch **v = calloc(n, sizeof(*v));
	struct fs_mentions m = FS_MENTIONS_INIT;
	struct fs_thread *t = NULL;
	enum fs_reply_class cls = FS_REPLY_NONE;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mail(texts[i]);
	assert_int_equal(fs_thread_build(&t, v, n, &err), 0);
	free(v);
	assert_int_equal(fs_thread_count(t), 1);
	assert_int_equal(fs_mentions_objections(&m, fs_thread_get(t, 0), NULL, standing, &err), 0);
	for (i = 0; i < m.nobjections; i++)
		if (!strcmp(m.objections[i].message_id, mid))
			cls = m.objections[i].cls;
	fs_mentions_clear(&m);
	fs_thread_free(t);
	return cls;
}

/* Standing from outside the mails: a configured stable maintainer's
 * condition objects, a signer of the upstream commit's question whether
 * it belongs objects; without them both are questions. */
static void test_standing_given(void **state)
{
	const char *thread[] = {
		"From: Dev <dev@example.com>\nSubject: [PATCH 7.1] widget: fix it\nMessage-Id: <pat@example.com>\n\n"
		"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nFix.\n",
		"From: Lee <lee@lts.example.org>\nSubject: Re: [PATCH 7.1] widget: fix it\nMessage-Id: <lee@x>\n"
		"In-Reply-To: <pat@example.com>\n\nWhat upstream commit is this from?\n",
		"From: Rae <rae@example.net>\nSubject: Re: [PATCH 7.1] widget: fix it\nMessage-Id: <rae@x>\n"
		"In-Reply-To: <pat@example.com>\n\nIs this really needed for 7.1?\n",
	};
	static const char *const lts[] = { "lee@lts.example.org", NULL };
	struct fs_reply_standing none = { NULL, NULL, NULL };
	struct fs_reply_standing given = { lts, one_message,
					   (void *)"widget: fix it\n\nReviewed-by: Rae <rae@example.net>\n" };

	assert_int_equal(class_with(thread, 3, "lee@x", &none), FS_REPLY_OTHER);
	assert_int_equal(class_with(thread, 3, "rae@x", &none), FS_REPLY_OTHER);
	assert_int_equal(class_with(thread, 3, "lee@x", &given), FS_REPLY_OBJECTION);
	assert_int_equal(class_with(thread, 3, "rae@x", &given), FS_REPLY_OBJECTION);
}

/* A stable maintainer is whoever sends a review's mails; a developer's
 * cover of their own backports makes its sender the author: their
 * question about the upstream commit is a question, a stable
 * maintainer's declines the posting until it is answered. */
#define DEV_COVER(body) \
	"From: Dev <dev@example.com>\nSubject: [PATCH 7.1 0/1] widget: two fixes\n" \
	"Message-Id: <cov@example.com>\n\n" body "\n"
#define DEV_PATCH \
	"From: Dev <dev@example.com>\nSubject: [PATCH 7.1 1/1] widget: fix it\n" \
	"Message-Id: <pat@example.com>\nIn-Reply-To: <cov@example.com>\nReferences: <cov@example.com>\n\n" \
	"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nFix.\n"
#define OBJECTION_REPLY \
	"From: Rev <rev@example.org>\nSubject: Re: [PATCH 7.1 1/1] widget: fix it\n" \
	"Message-Id: <obj@example.org>\nIn-Reply-To: <pat@example.com>\n" \
	"References: <cov@example.com> <pat@example.com>\n\nPlease drop this from the 7.1 queue, it is a cleanup.\n"
#define ANSWER(from, words) \
	"From: " from "\nSubject: Re: [PATCH 7.1 1/1] widget: fix it\n" \
	"Message-Id: <ans@example.com>\nIn-Reply-To: <obj@example.org>\n" \
	"References: <cov@example.com> <pat@example.com> <obj@example.org>\n\n" \
	"On Mon, Rev wrote:\n> Please drop this from the 7.1 queue, it is a cleanup.\n\n" words "\n"

static void test_standing_in_thread(void **state)
{
	const char *dev[] = {
		DEV_COVER("Two fixes for 7.1."), DEV_PATCH, OBJECTION_REPLY,
		ANSWER("Dev <dev@example.com>", "Which upstream commit is the cleanup from?"),
	};
	const char *review[] = {
		DEV_COVER("This is the start of the stable review cycle for the 7.1.3 release."), DEV_PATCH,
		OBJECTION_REPLY,
		ANSWER("Dev <dev@example.com>", "Which upstream commit is the cleanup from?"),
	};

	assert_int_equal(class_with(dev, 4, "obj@example.org", NULL), FS_REPLY_OBJECTION);
	assert_int_equal(class_with(dev, 4, "ans@example.com", NULL), FS_REPLY_OTHER);
	/* the sender of a review's mails sets a condition */
	assert_int_equal(class_with(review, 4, "ans@example.com", NULL), FS_REPLY_OBJECTION);
}

/* A review patch of Greg's, one reply to it, and a third mail answering
 * that reply (quoting nothing: the thread says what it answers). */
#define GREG_PATCH \
	"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\nSubject: [PATCH 7.1 03/20] widget: fix it\n" \
	"Message-Id: <p3@linuxfoundation.org>\n\n" \
	"7.1-stable review patch.  If anyone has any objections, please let me know.\n\n" \
	"------------------\n\nFrom: Ann Author <ann@example.com>\n\n" \
	"commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nFix.\n\n" \
	"Signed-off-by: Ann Author <ann@example.com>\n" \
	"Signed-off-by: Mo Maintainer <mo@kernel.example.org>\n"
#define FIRST_REPLY(from, words) \
	"From: " from "\nSubject: Re: [PATCH 7.1 03/20] widget: fix it\nMessage-Id: <first@x>\n" \
	"In-Reply-To: <p3@linuxfoundation.org>\nReferences: <p3@linuxfoundation.org>\n\n" words "\n"
#define SECOND_REPLY(from, words) \
	"From: " from "\nSubject: Re: [PATCH 7.1 03/20] widget: fix it\nMessage-Id: <second@x>\n" \
	"In-Reply-To: <first@x>\nReferences: <p3@linuxfoundation.org> <first@x>\n\n" words "\n"

/* The class of <first@x>, a reply in words of its own (FIRST), when
 * FROM answers it with ANSWER. */
static enum fs_reply_class first_after(const char *first, const char *from, const char *answer)
{
	char *a = g_strdup_printf(FIRST_REPLY("Mo Maintainer <mo@kernel.example.org>", "%s"), first);
	char *b = g_strdup_printf(SECOND_REPLY("%s", "%s"), from, answer);
	const char *thread[] = { GREG_PATCH, a, b };
	enum fs_reply_class c = class_with(thread, 3, "first@x", NULL);

	g_free(a);
	g_free(b);
	return c;
}

/* A stable maintainer who drops the patch in answer to a reply read it
 * as an objection, whatever its words: the reply is one.  His other
 * answers, anyone else's drop, an offer or a question to drop, and a
 * reply with a class of its own change nothing. */
static void test_course_drop(void **state)
{
	static const char *const drops[] = {
		"I'll drop it, thanks!", "Now dropped, thanks.", "Sure, dropped.",
		"Good point, I've dropped it from 7.1 and older.",
		"Oops. I'm... not sure how it got in. I'll drop it from everywhere.",
		"I'll hold off on this one for now.", "Dropped it from all queues, thank you!",
		"I dropped it.", "I'm dropping it now.", "Dropping it now, thanks.", "Patch dropped.",
		"This is now dropped, thanks.", "Yes, it's now dropped.", "Both now dropped.",
	};
	static const char *const stays[] = {
		"Now queued up, thanks.", "I can drop it if you want.", "Should I drop it?",
		"These were dropped in mainline long ago.", "If you want, I'll drop it.",
		"Note, it had to be dropped from 6.6 as it broke the build there.",
		"What is the upstream fix then?",
		/* another patch, a part, a tag or a hunk; a time or a threat */
		"Thanks, I've dropped the other one and kept this.",
		"Sorry, I've dropped the ball on this one, now queued up.",
		"Thanks, I've removed the extra hunk.", "Removed the extra hunk, thanks.",
		"Dropped from 5.10 only, 6.1 needs it.", "I'll drop it from 5.4 but keep it here.",
		"I will drop it when the revert lands upstream.",
		"I'll drop it once the fix is in Linus's tree.",
		"I've dropped the Fixes: tag in the changelog.", "Send a fix or I'll drop it.",
	};
	const char *upset = "This backport makes me upset.";
	size_t i;

	for (i = 0; i < sizeof(drops) / sizeof(*drops); i++) {
		assert_int_equal(first_after(upset, "Greg KH <gregkh@linuxfoundation.org>", drops[i]),
				 FS_REPLY_OBJECTION);
		assert_int_equal(first_after(upset, "Sasha Levin <sashal@kernel.org>", drops[i]),
				 FS_REPLY_OBJECTION);
		/* from anyone else "I'll drop it" drops nothing */
		assert_int_equal(first_after(upset, "Rae <rae@example.net>", drops[i]), FS_REPLY_OTHER);
	}
	for (i = 0; i < sizeof(stays) / sizeof(*stays); i++)
		assert_int_equal(first_after(upset, "Greg KH <gregkh@linuxfoundation.org>", stays[i]),
				 FS_REPLY_OTHER);
	/* a report keeps its class; a stable maintainer's own question is
	 * answered by nobody but himself */
	assert_int_equal(first_after("This breaks the build on arm64: error: implicit declaration of foo.",
				     "Greg KH <gregkh@linuxfoundation.org>", "Now dropped, thanks."),
			 FS_REPLY_REPORT);
	{
		const char *thread[] = {
			GREG_PATCH,
			FIRST_REPLY("Sasha Levin <sashal@kernel.org>", "Hm, this one looks odd to me."),
			SECOND_REPLY("Greg KH <gregkh@linuxfoundation.org>", "I'll drop it, thanks!"),
		};
		assert_int_equal(class_with(thread, 3, "first@x", NULL), FS_REPLY_OTHER);
	}
}

/* The settlement of the record citing <MID> among the objections of the
 * one series of the thread of TEXTS (N mails); -1 when none cites it. */
static int settle_with(const char *const *texts, size_t n, const char *mid)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch **v = calloc(n, sizeof(*v));
	struct fs_mentions m = FS_MENTIONS_INIT;
	struct fs_thread *t = NULL;
	int settle = -1;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mail(texts[i]);
	assert_int_equal(fs_thread_build(&t, v, n, &err), 0);
	free(v);
	assert_int_equal(fs_mentions_objections(&m, fs_thread_get(t, 0), NULL, NULL, &err), 0);
	for (i = 0; i < m.nobjections; i++)
		if (!strcmp(m.objections[i].message_id, mid)) {
			settle = (int)m.objections[i].settle;
			if (settle != FS_SETTLE_NONE)
				assert_string_equal(m.objections[i].settled_by,
						    "Greg KH <gregkh@linuxfoundation.org>");
		}
	fs_mentions_clear(&m);
	fs_thread_free(t);
	return settle;
}

/* What a stable maintainer's answer settles: his own word that the
 * patch is dropped; a request for commits he answers by taking them.
 * Not an objection he answers "Now queued", not someone else's words,
 * not an offer, a refusal, a condition or a question. */
static void test_course_settle(void **state)
{
	static const char *const takes[] = {
		"Now queued, thanks.", "I'll take it too, thanks!", "All three now queued up.",
		"I took that one as well.", "Now applied, thanks.", "Sorry for the delay, all now queued up.",
	};
	static const char *const no_take[] = {
		"I will not take it.", "Why should I take it?", "I'll take it once it is in Linus's tree.",
		"It is not queued, the branch lacks the helper.", "Thanks for the report.",
	};
	const char *needs = FIRST_REPLY("Rae <rae@example.net>",
					"Please also queue 89abcdef0123 (\"widget: fix the fix\") with it.");
	const char *objects = FIRST_REPLY("Rae <rae@example.net>", "Please drop this one, it breaks arm.");
	const char *greg = "Greg KH <gregkh@linuxfoundation.org>";
	size_t i;

	for (i = 0; i < sizeof(takes) / sizeof(*takes); i++) {
		char *b = g_strdup_printf(SECOND_REPLY("%s", "%s"), greg, takes[i]);
		char *c = g_strdup_printf(SECOND_REPLY("%s", "%s"), "Vic <vic@example.org>", takes[i]);
		const char *t1[] = { GREG_PATCH, needs, b }, *t2[] = { GREG_PATCH, objects, b };
		const char *t3[] = { GREG_PATCH, needs, c };

		assert_int_equal(settle_with(t1, 3, "first@x"), FS_SETTLE_TAKEN);
		assert_int_equal(settle_with(t2, 3, "first@x"), FS_SETTLE_NONE);
		assert_int_equal(settle_with(t3, 3, "first@x"), FS_SETTLE_NONE);
		g_free(b);
		g_free(c);
	}
	for (i = 0; i < sizeof(no_take) / sizeof(*no_take); i++) {
		char *b = g_strdup_printf(SECOND_REPLY("%s", "%s"), greg, no_take[i]);
		const char *t1[] = { GREG_PATCH, needs, b };

		assert_int_equal(settle_with(t1, 3, "first@x"), FS_SETTLE_NONE);
		g_free(b);
	}
	{
		/* his drop, to the patch or to a reply; his offer */
		const char *own[] = { GREG_PATCH, FIRST_REPLY("Greg KH <gregkh@linuxfoundation.org>",
							      "Now dropped, thanks.") };
		const char *offer[] = { GREG_PATCH, FIRST_REPLY("Greg KH <gregkh@linuxfoundation.org>",
								"I can drop it if you want.") };
		const char *other[] = { GREG_PATCH, FIRST_REPLY("Vic <vic@example.org>", "Now dropped, thanks.") };
		char *b = g_strdup_printf(SECOND_REPLY("%s", "%s"), greg, "I'll drop it, thanks!");
		const char *answer[] = { GREG_PATCH, objects, b };

		assert_int_equal(settle_with(own, 2, "first@x"), FS_SETTLE_DROPPED);
		assert_int_not_equal(settle_with(offer, 2, "first@x"), FS_SETTLE_DROPPED);
		assert_int_not_equal(settle_with(other, 2, "first@x"), FS_SETTLE_DROPPED);
		assert_int_equal(settle_with(answer, 3, "second@x"), FS_SETTLE_DROPPED);
		assert_int_equal(settle_with(answer, 3, "first@x"), FS_SETTLE_NONE);
		g_free(b);
	}
}

/* A reply that quotes nothing answers the whole mail it replies to when
 * the thread holds it: the code's people agreeing with an objection
 * object, a stranger's agreement adds no say, an agreement with a "but"
 * is none. */
static void test_answered_in_thread(void **state)
{
	const char *first = FIRST_REPLY("Pavel <pavel@example.cz>",
					"This seems to be preparation for something stable does not need. Please drop.");
	const char *author = SECOND_REPLY("Ann Author <ann@example.com>", "As the author of the patch, I agree.");
	const char *stranger = SECOND_REPLY("Rae <rae@example.net>", "As the author of the patch, I agree.");
	const char *but = SECOND_REPLY("Ann Author <ann@example.com>",
				       "I agree it is a preparation, but it fixes a crash on its own.");
	const char *yes = SECOND_REPLY("Mo Maintainer <mo@kernel.example.org>", "Yes, I agree.");
	const char *not[] = {
		SECOND_REPLY("Ann Author <ann@example.com>", "I can't say I agree."),
		SECOND_REPLY("Ann Author <ann@example.com>", "I don't think I agree."),
		SECOND_REPLY("Ann Author <ann@example.com>", "Doubt I agree."),
		SECOND_REPLY("Ann Author <ann@example.com>", "Do we agree?"),
	};
	size_t i;
	const char *with_author[] = { GREG_PATCH, first, author };
	const char *with_stranger[] = { GREG_PATCH, first, stranger };
	const char *with_but[] = { GREG_PATCH, first, but };
	const char *with_yes[] = { GREG_PATCH, first, yes };
	const char *alone[] = { GREG_PATCH, author };

	assert_int_equal(class_with(with_author, 3, "first@x", NULL), FS_REPLY_OBJECTION);
	assert_int_equal(class_with(with_author, 3, "second@x", NULL), FS_REPLY_OBJECTION);
	assert_int_equal(class_with(with_yes, 3, "second@x", NULL), FS_REPLY_OBJECTION);
	assert_int_equal(class_with(with_stranger, 3, "second@x", NULL), FS_REPLY_OTHER);
	assert_int_equal(class_with(with_but, 3, "second@x", NULL), FS_REPLY_OTHER);
	for (i = 0; i < sizeof(not) / sizeof(*not); i++) {
		const char *thread[] = { GREG_PATCH, first, not[i] };
		assert_int_equal(class_with(thread, 3, "second@x", NULL), FS_REPLY_OTHER);
	}
	/* the mail it answers is not in the thread: nothing to agree with */
	assert_int_equal(class_with(alone, 2, "second@x", NULL), FS_REPLY_OTHER);
}

/* A mail of round RC ("rc1", "rc2") of release 7.1.3: its cover (NN 0)
 * or patch NN of TOTAL titled TITLE. */
static char *round_mail(const char *rc, int nn, int total, const char *title)
{
	if (!nn)
		return g_strdup_printf("From: Greg KH <gregkh@linuxfoundation.org>\n"
				       "Subject: [PATCH 7.1 00/%02d] 7.1.3-%s review\n"
				       "Message-Id: <%s-cover@lf.example>\n\n"
				       "This is the start of the stable review cycle for the 7.1.3 release.\n",
				       total, rc, rc);
	return g_strdup_printf("From: Greg KH <gregkh@linuxfoundation.org>\n"
			       "Subject: [PATCH 7.1 %02d/%02d] %s\nMessage-Id: <%s-%d@lf.example>\n"
			       "In-Reply-To: <%s-cover@lf.example>\nReferences: <%s-cover@lf.example>\n\n"
			       "7.1-stable review patch.  If anyone has any objections, please let me know.\n\n"
			       "------------------\n\nFrom: Ann Author <ann@example.com>\n\n"
			       "commit 0123456789abcdef0123456789abcdef0123456%d upstream.\n\nFix.\n",
			       nn, total, title, rc, nn, rc, rc, nn);
}

/* A reply MID from Rae to mail TO of round RC with BODY. */
static char *round_reply(const char *rc, const char *to, const char *mid, const char *body)
{
	return g_strdup_printf("From: Rae <rae@example.net>\nSubject: Re: something\n"
			       "Message-Id: <%s>\nIn-Reply-To: <%s-%s@lf.example>\n"
			       "References: <%s-cover@lf.example> <%s-%s@lf.example>\n\n%s\n",
			       mid, rc, to, rc, rc, to, body);
}

/* A mail MID from FROM answering the mail TO (a full Message-Id) of
 * round RC with BODY. */
static char *answer_in(const char *rc, const char *to, const char *mid, const char *from, const char *body)
{
	return g_strdup_printf("From: %s\nSubject: Re: something\nMessage-Id: <%s>\nIn-Reply-To: <%s>\n"
			       "References: <%s-cover@lf.example> <%s>\n\n%s\n", from, mid, to, rc, to, body);
}

static struct fs_thread *thread_of(char **texts, size_t n)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch **v = calloc(n, sizeof(*v));
	struct fs_thread *t = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		v[i] = mail(texts[i]);
		g_free(texts[i]);
	}
	assert_int_equal(fs_thread_build(&t, v, n, &err), 0);
	free(v);
	assert_int_equal(fs_thread_count(t), 1);
	return t;
}

/* What the earlier round's replies asked of a patch the new round
 * carries (by title, renumbered) is a reply to it there; a reply to a
 * patch the new round dropped, to the cover (even naming a patch), one
 * of nothing to ask, one the new round holds already, one to one of two
 * patches of one title, one the stable maintainer answered and his own
 * are not added; a report of the same mail gives way to the reply. */
static void test_earlier_thread(void **state)
{
	char *rc1[] = {
		round_mail("rc1", 0, 5, NULL), round_mail("rc1", 1, 5, "widget: fix a"),
		round_mail("rc1", 2, 5, "widget: fix b"), round_mail("rc1", 3, 5, "widget: fix c"),
		round_mail("rc1", 4, 5, "widget: fix d"), round_mail("rc1", 5, 5, "widget: fix d"),
		round_reply("rc1", "5", "dup@x", "Please drop this one, it is the same commit as 04/05."),
		round_reply("rc1", "cover", "named@x", "Please drop \"widget: fix b\", it breaks the build."),
		/* settled on -rc1: answered by the stable maintainer, his own */
		round_reply("rc1", "2", "taken@x", "Please also queue 0123456789ab (\"widget: more\") with it."),
		answer_in("rc1", "taken@x", "greg1@x", "Greg KH <gregkh@linuxfoundation.org>", "Now queued, thanks."),
		answer_in("rc1", "rc1-3@lf.example", "greg2@x", "Greg KH <gregkh@linuxfoundation.org>",
			  "What is the upstream commit of this one?"),
		/* nothing to ask: a stranger's question */
		round_reply("rc1", "3", "why@x", "Why is this needed?"),
		/* his word that "fix b" is dropped, twice; the new round keeps it */
		answer_in("rc1", "rc1-2@lf.example", "gone1@x", "Greg KH <gregkh@linuxfoundation.org>",
			  "I'll drop it, thanks!"),
		answer_in("rc1", "rc1-2@lf.example", "gone2@x", "Greg KH <gregkh@linuxfoundation.org>",
			  "Now dropped."),
		round_reply("rc1", "2", "needs@x", "Please also queue 89abcdef0123 (\"widget: fix the fix\") with this one."),
		round_reply("rc1", "3", "drop@x", "Please drop this one, it breaks the build on arm."),
		round_reply("rc1", "1", "dropped@x", "Please drop this, it is not a fix."),
		round_reply("rc1", "3", "thanks@x", "Thanks, works for me."),
		round_reply("rc1", "cover", "cover@x", "Please drop the arm patch from this release."),
		round_reply("rc1", "3", "held@x", "NAK, this breaks the boot on x86."),
	};
	char *rc2[] = {
		round_mail("rc2", 0, 3, NULL), round_mail("rc2", 1, 3, "widget: fix b"),
		round_mail("rc2", 2, 3, "widget: fix c"), round_mail("rc2", 3, 3, "widget: fix d"),
	};
	struct fs_thread *t1 = thread_of(rc1, 20), *t2 = thread_of(rc2, 4);
	const struct fs_thread_series *s1 = fs_thread_get(t1, 0), *s2 = fs_thread_get(t2, 0);
	struct fs_mentions m = FS_MENTIONS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_objection held = { .series_index = 2, .message_id = "held@x", .from = "Rae",
				     .line = "NAK", .cls = FS_REPLY_OBJECTION };
	struct fs_report_mail report = { .message_id = "drop@x", .from = "Rae" };
	size_t i;

	/* the store search found one of them as a report, and "held@x" */
	m.reports = calloc(1, sizeof(*m.reports));
	m.reports[0] = report;
	m.nreports = 1;
	assert_int_equal(fs_mentions_add_posted(&m, &held, 1, &err), 0);
	assert_int_equal(fs_mentions_earlier_thread(&m, s2, s1, NULL, NULL, &err), 0);
	assert_int_equal(m.nobjections, 4);
	assert_string_equal(m.objections[0].message_id, "held@x");
	/* found before as this round's; the earlier thread says whose */
	assert_string_equal(m.objections[0].round, s1->release);
	for (i = 1; i < m.nobjections; i++) {
		const struct fs_objection *o = &m.objections[i];

		assert_string_equal(o->round, s1->release);
		if (!strcmp(o->message_id, "needs@x")) {
			assert_int_equal(o->cls, FS_REPLY_NEEDS_ALSO);
			assert_int_equal(o->series_index, 1);
			assert_int_equal(o->nnamed, 1);
			assert_string_equal(o->named[0], "89abcdef0123");
		} else if (o->unkept) {
			/* once, an objection no longer settled */
			assert_string_equal(o->message_id, "gone1@x");
			assert_int_equal(o->cls, FS_REPLY_OBJECTION);
			assert_int_equal(o->settle, FS_SETTLE_NONE);
			assert_int_equal(o->series_index, 1);
		} else {
			assert_string_equal(o->message_id, "drop@x");
			assert_int_equal(o->cls, FS_REPLY_OBJECTION);
			assert_int_equal(o->series_index, 2);
			assert_string_equal(o->line, "Please drop this one, it breaks the build on arm.");
		}
	}
	assert_int_equal(m.nreports, 0);
	/* the same round, or none, adds nothing */
	assert_int_equal(fs_mentions_earlier_thread(&m, s2, s2, NULL, NULL, &err), 0);
	assert_int_equal(fs_mentions_earlier_thread(&m, s2, NULL, NULL, NULL, &err), 0);
	assert_int_equal(m.nobjections, 4);
	fs_mentions_clear(&m);
	fs_thread_free(t1);
	fs_thread_free(t2);
}

static enum fs_reply_parent kind_of(const char *subject, const char *body)
{
	char *t = g_strdup_printf("From: x <x@example.org>\nSubject: %s\nMessage-Id: <k%d@x>\n\n%s",
				  subject, nfiles, body);
	struct fs_patch *p = mail(t);
	enum fs_reply_parent k = fs_mentions_parent_kind(p);

	fs_patch_free(p);
	g_free(t);
	return k;
}

static void test_parent_kinds(void **state)
{
	assert_int_equal(kind_of("[PATCH AUTOSEL 6.6 03/12] x: y", "Hi\n"), FS_PARENT_AUTOSEL);
	assert_int_equal(kind_of("[PATCH 6.1 000/088] 6.1.50-rc1 review", "This is the start\n"),
			 FS_PARENT_COVER);
	assert_int_equal(kind_of("[PATCH 6.1 12/88] x: y",
				 "6.1-stable review patch.  If anyone has any objections\n"),
			 FS_PARENT_REVIEW);
	assert_int_equal(kind_of("[PATCH 5.15] x: y", "Backport.\n"), FS_PARENT_BACKPORT);
	assert_int_equal(kind_of("[PATCH 5.15.y 1/2] x: y", "Backport.\n"), FS_PARENT_BACKPORT);
	assert_int_equal(kind_of("FAILED: patch \"[PATCH] x: y\" failed to apply to 5.4-stable tree",
				 "The patch below does not apply\n"),
			 FS_PARENT_FAILED);
	assert_int_equal(kind_of("[PATCH v2 3/5] x: y", "mainline\n"), FS_PARENT_OTHER);
	assert_int_equal(kind_of("x: y", "no prefix\n"), FS_PARENT_OTHER);
	assert_int_equal(fs_mentions_parent_kind(NULL), FS_PARENT_NONE);
	assert_string_equal(fs_mentions_parent_name(FS_PARENT_REVIEW), "review-patch");
	assert_string_equal(fs_mentions_role_name(FS_ROLE_STABLE), "stable");
	assert_string_equal(fs_mentions_role_name(FS_ROLE_COUNT), "other");
}

static struct fs_reply_context quotes_of(const char *body)
{
	struct fs_patch *r = reply("x <x@example.org>", body);
	struct fs_reply_context c;

	fs_mentions_reply_context(&c, r, NULL, NULL);
	fs_patch_free(r);
	return c;
}

/* What is quoted: a diff line or hunk header, the Fixes: line, the
 * upstream line; a quoted "---" separator, own lines and quoted prose
 * are none of them. */
static void test_quotes(void **state)
{
	struct fs_reply_context c;

	c = quotes_of("> @@ -1,3 +1,4 @@\n> +\tkfree(x);\n\nThis leaks.\n");
	assert_true(c.quotes_hunk);
	assert_false(c.quotes_fixes);
	c = quotes_of(">> -\told();\nHm.\n");
	assert_true(c.quotes_hunk);
	c = quotes_of("> Fixes: 89abcdef0123 (\"usb: gadget: add the thing\")\n\nNot in 5.4.\n");
	assert_true(c.quotes_fixes);
	assert_false(c.quotes_hunk);
	c = quotes_of("> commit 0123456789abcdef0123456789abcdef01234567 upstream.\n\nWhy?\n");
	assert_true(c.quotes_upstream);
	c = quotes_of("> [ Upstream commit 0123456789abcdef0123456789abcdef01234567 ]\n\nok\n");
	assert_true(c.quotes_upstream);
	c = quotes_of("> ---\n> Some prose, quoted.\n+ not quoted at all\nFixes: nothing\n");
	assert_false(c.quotes_hunk);
	assert_false(c.quotes_fixes);
	assert_false(c.quotes_upstream);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-reply-context.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	return nftw(tmpdir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_backport_sender_is_author),
		cmocka_unit_test(test_addressed),
		cmocka_unit_test(test_answers_reply),
		cmocka_unit_test(test_standing_in_thread),
		cmocka_unit_test(test_upstream_signers),
		cmocka_unit_test(test_standing_given),
		cmocka_unit_test(test_course_drop),
		cmocka_unit_test(test_course_settle),
		cmocka_unit_test(test_answered_in_thread),
		cmocka_unit_test(test_earlier_thread),
		cmocka_unit_test(test_parent_kinds),
		cmocka_unit_test(test_quotes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
