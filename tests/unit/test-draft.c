/* Unit tests for the bodies of the drafts (lib/draft/draft.c,
 * draft-para.c, draft-items.c, draft-summary.c, draft-text.c): the words
 * written for each finding kind, the summary, wrapping, quoting.
 * Composition is tested in test-draft-compose.c; identity, writing and
 * saving in test-identity.c, test-maildir.c and test-drafts.c.
 *
 * Reviews are built by hand: the patches are parsed from invented mails
 * written to a temporary directory, the findings filled in directly.
 */
#include "draft-mail.h"

static void test_body_quotes(void **state)
{
	struct fixture *x = fixture();
	char *b;

	add(x, finding(FS_FIND_NO_UPSTREAM, NULL, NULL, NULL));
	b = patch_body(x);
	/* the upstream line, a line of the mail; never the subject as the
	 * author's words */
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n"
				       "> commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
				       "\n"));
	assert_null(strstr(b, "> netfilter"));
	/* not the whole mail */
	assert_null(strstr(b, "Signed-off-by"));
	assert_null(strstr(b, "Check the offset"));
	/* one newline at the end */
	assert_true(g_str_has_suffix(b, ".\n"));
	assert_false(g_str_has_suffix(b, "\n\n"));
	g_free(b);
	fixture_free(x);
}

static void test_body_fix_missing(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc",
				      "netfilter: x_tables: fix the check", "v4.7-rc3");
	char *b;

	add(x, f);
	b = patch_body(x);
	assert_has(b, "This commit has a known follow-up fix upstream that is not in this\nseries:\n\n"
		      "  80e046b0715b (\"netfilter: x_tables: fix the check\") in v4.7-rc3\n\n"
		      "Please queue it as well.");
	g_free(b);

	/* a fix of a queued fix: the chain says which */
	f = finding(FS_FIND_FIX_QUEUED, chain3[1], "sched: first fix", "v4.6-rc1");
	f.series_index = 21;
	add(x, f);
	f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched: second fix", "v4.7-rc1");
	f.chain = chain3;
	f.nchain = 3;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "known follow-up fixes upstream that are not in this series:");
	assert_has(b, "  c5fef009a731 (\"sched: second fix\") in v4.7-rc1\n"
		      "    which fixes 8028d6694e09, queued here as 21/24\n");
	assert_has(b, "Please queue them as well.");
	assert_has(b, "Its follow-up fix 8028d6694e09 (\"sched: first fix\") is queued as\n21/24");
	g_free(b);
	fixture_free(x);
}

static void test_body_each_kind(void **state)
{
	/* Each case's words come from its kind, cause and fields: the notes
	 * are the findings module's prose and the drafts never read them. */
	static const struct {
		enum fs_finding_kind kind;
		enum fs_finding_cause cause, unresolved;
		const char *commit, *note;
		enum fs_finding_evidence evidence;
		const char *want;
	} cases[] = {
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, 0, "08fed77bca31dddddddddddddddddddddddddddd", NULL, FS_FEV_REVERT,
		  "This commit was reverted upstream:\n\n  08fed77bca31 (\"subj\") in v4.6-rc2\n\nPlease drop it" },
		{ FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, 0, "2a6edf04f148eeeeeeeeeeeeeeeeeeeeeeeeeeee", NULL, FS_FEV_EXACT,
		  "already in linux-4.4.y: it went into mainline in v4.6-rc2, before the\nbranch was forked" },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_TARGET, 0, "c0697f5044f7ffffffffffffffffffffffffffff", NULL, FS_FEV_EXACT,
		  "is neither in linux-4.4.y as of v4.4.6 nor in this series, so this fix\nmay not be needed here." },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_REVERT_TARGET, 0, "c0697f5044f7ffffffffffffffffffffffffffff", NULL, FS_FEV_EXACT,
		  "The commit this one reverts,\n\n  c0697f5044f7 (\"subj\") in v4.6-rc2\n\nis neither in linux-4.4.y as of v4.4.6 nor in this series, so this\nrevert may not be needed here." },
		{ FS_FIND_NO_UPSTREAM, 0, 0, NULL, NULL, FS_FEV_EXACT,
		  "The changelog does not say which upstream commit this is." },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_FOUND, FS_CAUSE_NOT_FOUND, "cdf4294f5a34", "x", FS_FEV_PREFIX,
		  "I cannot find the upstream commit the changelog names, cdf4294f5a34,\nin mainline." },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_AMBIGUOUS, FS_CAUSE_AMBIGUOUS, "abc1234", "x", FS_FEV_PREFIX,
		  "abc1234, is ambiguous" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, 0, "6e7333a713b1aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "x", FS_FEV_PREFIX,
		  "The changelog names a prerequisite that is neither in this series nor\nin the branch:\n\n  6e7333a713b1 (\"subj\")\n\nPlease queue it too" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, FS_CAUSE_NOT_FOUND, "6e7333a713b1", "x", FS_FEV_PREFIX,
		  "but I cannot find that commit. Could you check the id?" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_STABLE_DEP_OF, 0, "6e7333a713b1aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "x",
		  FS_FEV_EXACT, "prerequisite (Stable-dep-of) of" },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_SUBJECT_MISMATCH, 0, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb", "x",
		  FS_FEV_SUBJECT, "does not match itself: the subject it\nquotes is that of\n\n  12c09ccaa0f5 (\"subj\")" },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_STABLE_ID, 0, "ee2a5e1b690ecccccccccccccccccccccccccccc",
		  "Fixes: 3a993044c725 names the linux-4.4.y commit 3a993044c725 in v4.4.2, not a mainline id",
		  FS_FEV_STABLE, "names a stable commit, not a mainline" },
		{ FS_FIND_FIX_PRESENT, FS_CAUSE_FIX, 0, "60e7c3ca5b7bdddddddddddddddddddddddddddd", NULL, FS_FEV_EXACT,
		  "Its known follow-up fix 60e7c3ca5b7b (\"subj\") is already in\nlinux-4.4.y" },
		{ FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_DUPLICATE, 0, "60e7c3ca5b7bdddddddddddddddddddddddddddd", NULL, FS_FEV_EXACT,
		  "This is the same upstream commit as 03/24 of this series:\n\n  60e7c3ca5b7b (\"subj\")\n\nso one of the two looks like a duplicate. Please drop this one." },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(cases[i].kind, cases[i].commit, "subj", "v4.6-rc2");
		char *b;

		f.cause = cases[i].cause;
		f.unresolved = cases[i].unresolved;
		f.note = (char *)cases[i].note;
		f.evidence = cases[i].evidence;
		f.series_index = 3;
		add(x, f);
		b = patch_body(x);
		assert_has(b, cases[i].want);
		assert_quotes_mail(b, x->patch);
		/* no machine words in what people read */
		assert_null(strstr(b, fs_finding_kind_name(cases[i].kind)));
		assert_null(strstr(b, "(null)"));
		/* the note is not what the draft says */
		if (cases[i].note && !strcmp(cases[i].note, "x"))
			assert_null(strstr(b, "\nx"));
		g_free(b);
		fixture_free(x);
	}
}

/* Two patches of one upstream commit where this one's diff is not
 * upstream's: the draft asks which one is meant, never "drop this one". */
static void test_body_duplicate_differs(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_DUPLICATE_IN_SERIES, "60e7c3ca5b7bdddddddddddddddddddddddddddd",
				      "subj", "v4.6-rc2");
	char *b;

	f.series_index = 2;
	add(x, f);
	add(x, finding(FS_FIND_BACKPORT_DIFFERS, "60e7c3ca5b7bdddddddddddddddddddddddddddd", "subj", "v4.6-rc2"));
	b = patch_body(x);
	assert_has(b, "but the two are not the same diff: this one differs from the upstream commit, 02/24 does not. Which of the two is meant?");
	assert_null(strstr(b, "Please drop this one"));
	g_free(b);
	fixture_free(x);
}

/* A fix-pending names the pending tree as the list knows it, never the
 * clone's ref, and marks its id as one of that tree. */
static void test_body_pending_names(void **state)
{
	static const struct {
		const char *ref, *in, *id;
	} cases[] = {
		{ "refs/remotes/next/master", "is in linux-next,", "(\"fix\") (linux-next id)" },
		{ "refs/remotes/linux-next/pending-fixes", "is in linux-next,", "(linux-next id)" },
		{ "refs/heads/next-20160420", "is in linux-next,", "(linux-next id)" },
		{ "refs/remotes/net/main", "is in net's main,", "(\"fix\") (id in net's main)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(FS_FIND_FIX_PENDING, "f000f6827628aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "fix", NULL);
		char *b, *sum;

		f.ref = (char *)cases[i].ref;
		add(x, f);
		b = patch_body(x);
		sum = fs_draft_summary_body(&x->review, true);
		assert_has(b, cases[i].in);
		assert_has(b, cases[i].id);
		assert_has(sum, cases[i].id);
		assert_null(strstr(b, "refs/"));
		assert_null(strstr(b, "next/master"));
		assert_null(strstr(sum, "next/master"));
		g_free(sum);
		g_free(b);
		fixture_free(x);
	}
}

/* The parts of an upstream posting not queued: one part is "another
 * patch", and the commit is "this patch's" (after a quote, "its" would
 * read as the quoted person's). */
static void test_body_series_partial_number(void **state)
{
	struct fs_finding_part parts[2] = {
		{ "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", (char *)"part two", (char *)"v4.6", 2, 3 },
		{ "2e909a04863ebbbbbbbbbbbbbbbbbbbbbbbbbbbb", (char *)"part three", (char *)"v4.6", 3, 3 },
	};
	size_t n;

	for (n = 1; n <= 2; n++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(FS_FIND_SERIES_PARTIAL, "404cd27d8378cccccccccccccccccccccccccccc", "subj", NULL);
		char *b;

		f.posting.parts = parts;
		f.posting.nparts = n;
		f.posting.part = 1;
		add(x, f);
		b = patch_body(x);
		assert_has(b, "This patch's upstream commit 404cd27d8378 (\"subj\") was posted with");
		if (n == 1) {
			assert_has(b, "with another patch that is in mainline too");
			assert_has(b, "If it was left out on purpose, fine; otherwise is it needed here as well?");
		} else {
			assert_has(b, "with other patches that are in mainline too");
			assert_has(b, "If they were left out on purpose, fine; otherwise are they needed here as well?");
		}
		g_free(b);
		fixture_free(x);
	}
}

/* A part of the posting that a reply in the thread asks for already is
 * asked for with it, not questioned after the quote; the parts nobody
 * asked for stay a question; a reply asking for another commit, or an
 * ignored one, changes nothing. */
static void test_body_series_partial_asked(void **state)
{
	struct fs_finding_part parts[2] = {
		{ "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", (char *)"part two", (char *)"v4.6", 2, 3 },
		{ "2e909a04863ebbbbbbbbbbbbbbbbbbbbbbbbbbbb", (char *)"part three", (char *)"v4.6", 3, 3 },
	};
	static const struct {
		size_t nparts;
		const char *asked;  /* the commit the needs-also names */
		bool ignored;
		const char *want, *unwanted;
	} cases[] = {
		{ 1, "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false,
		  "As Dmitri Orlov asked, please queue that one too.", "left out on purpose" },
		{ 2, "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false,
		  "As Dmitri Orlov asked, please queue 1e909a04863e too. If the other was left out on purpose, fine; otherwise is it needed here as well?",
		  "If they were" },
		{ 1, "9999999999999999999999999999999999999999", false,
		  "If it was left out on purpose, fine; otherwise is it needed here as well?", "As Dmitri" },
		{ 1, "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true,
		  "If it was left out on purpose, fine; otherwise is it needed here as well?", "As Dmitri" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(FS_FIND_SERIES_PARTIAL, "404cd27d8378cccccccccccccccccccccccccccc", "subj", NULL);
		struct fs_finding n = finding(FS_FIND_NEEDS_ALSO, cases[i].asked, "wanted", NULL);
		char *b, *sum;

		f.posting.parts = parts;
		f.posting.nparts = cases[i].nparts;
		f.posting.part = 1;
		n.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
		n.note = (char *)"please also take it";
		n.ignored = cases[i].ignored ? (char *)"listed" : NULL;
		add(x, n);
		add(x, f);
		b = patch_body(x);
		sum = squash(b);
		assert_has(sum, cases[i].want);
		assert_null(strstr(sum, cases[i].unwanted));
		g_free(sum);
		g_free(b);
		fixture_free(x);
	}
}

/* A backport that cannot build: the names, the commit that brings them
 * and the request in its reply, the commit among the commits to add in
 * the summary; without a commit, a rework asked for and a note in the
 * summary; a commit queued after the patch said.  A fix of files the
 * branch lacks: said, asked for nowhere. */
static void test_body_tree_kinds(void **state)
{
	struct fs_csym_use uses[2] = {
		{ (char *)"hub_port_settle_ms", FS_CSYM_CALL, NULL, (char *)"drivers/usb/core/hub.c", 21 },
		{ (char *)"new_member", FS_CSYM_MEMBER, NULL, (char *)"drivers/usb/core/hub.c", 22 },
	};
	char *files[] = { (char *)"drivers/usb/typec/tcpm.c", NULL };
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_SYMBOL_MISSING, "dfb10b47a45cdddddddddddddddddddddddddddd",
				      "usb: hub: add hub_port_settle_ms()", "v4.7");
	char *b, *sum;

	f.tree.symbols = uses;
	f.tree.nsymbols = 2;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "This backport uses hub_port_settle_ms() and ->new_member, which linux-4.4.y has "
		      "nowhere; mainline got them with\n\n"
		      "  dfb10b47a45c (\"usb: hub: add hub_port_settle_ms()\")\n\n"
		      "which is neither in linux-4.4.y nor in this series, so as it is this patch does "
		      "not build. Could that commit be queued before this one, or this backport reworked "
		      "so that it does without it?");
	sum = fs_draft_summary_body(&x->review, true);
	assert_non_null(sum);
	assert_has(sum, "Commits to add:");
	assert_has(sum, "dfb10b47a45c (\"usb: hub: add hub_port_settle_ms()\") in v4.7, brings "
			"hub_port_settle_ms() and ->new_member, without which 03/24 does not build (or "
			"it needs a reworked backport)");
	g_free(sum);
	g_free(b);
	fixture_free(x);

	/* queued later in the series */
	x = fixture();
	f.series_index = 7;
	f.tree.nsymbols = 1;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "This backport uses hub_port_settle_ms(), which linux-4.4.y has nowhere; "
		      "mainline got it with");
	assert_has(b, "which this series queues only after this patch, as 07/24, so this one does not "
		      "build on its own.");
	g_free(b);
	fixture_free(x);

	/* no commit found */
	x = fixture();
	f = finding(FS_FIND_SYMBOL_MISSING, NULL, NULL, NULL);
	f.tree.symbols = uses;
	f.tree.nsymbols = 1;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "This backport uses hub_port_settle_ms(), which linux-4.4.y has nowhere, so as it "
		      "is it does not build there. Could it be reworked for linux-4.4.y?");
	sum = fs_draft_summary_body(&x->review, true);
	assert_non_null(sum);
	assert_null(strstr(sum, "Commits to add"));
	assert_has(sum, "Other notes:");
	assert_has(sum, "uses hub_port_settle_ms(), which linux-4.4.y has nowhere: it does not build "
			"there as it is");
	g_free(sum);
	g_free(b);
	fixture_free(x);

	/* a fix of files the branch lacks: said, not asked for */
	x = fixture();
	f = finding(FS_FIND_FIX_NOT_APPLICABLE, "d9687233cb68eeeeeeeeeeeeeeeeeeeeeeeeeeee",
		    "usb: typec: read the port speed", NULL);
	f.tree.files = files;
	f.tree.nfiles = 1;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "Mainline fixed this patch's upstream commit with\n\n"
		      "  d9687233cb68 (\"usb: typec: read the port speed\")\n\n"
		      "but that fix changes only drivers/usb/typec/tcpm.c, which linux-4.4.y does not "
		      "have, so it is not needed here.");
	assert_null(strstr(b, "queue"));
	g_free(b);
	fixture_free(x);

	/* a mail without its diff: said as what reached the reviewer, after
	 * what asks for action; one cut short names where it stops */
	x = fixture();
	f = finding(FS_FIND_FIX_MISSING, "80e046b0715beeeeeeeeeeeeeeeeeeeeeeeeeeee",
		    "netfilter: fix the offset check", "v4.7-rc1");
	add(x, f);
	add(x, finding(FS_FIND_DIFF_ABSENT, "", NULL, NULL));
	b = patch_body(x);
	sum = squash(b);
	assert_has(sum, "The copy of this patch that reached me carries no diff, so I could not compare "
			"its code with the upstream commit or check it against the branch.");
	assert_true(strstr(sum, "80e046b0715b") < strstr(sum, "carries no diff"));
	g_free(sum);
	g_free(b);
	fixture_free(x);
	x = fixture();
	f = finding(FS_FIND_DIFF_ABSENT, "", NULL, NULL);
	f.note = (char *)"the diff stops before include/linux/usb.h, which its diffstat lists";
	add(x, f);
	b = patch_body(x);
	sum = squash(b);
	assert_has(sum, "The copy of this patch that reached me looks cut short or damaged: the diff stops before "
			"include/linux/usb.h, which its diffstat lists, so I could not compare it with the "
			"upstream commit.");
	assert_null(strstr(sum, "carries no diff"));
	g_free(sum);
	g_free(b);
	fixture_free(x);
}

/* A stable-only revert of another branch is a question, never a queue
 * request; a revert undone by a revert of it asks for nothing; an id the
 * clone may just not have yet is not asked about. */
static void test_body_new_causes(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b, *sum;

	f = finding(FS_FIND_REVERTED_IN_STABLE, "5e5e5e5e5e5eaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    "Revert \"net: frob\"", "v4.5.3");
	f.cause = FS_CAUSE_STABLE_REVERT;
	f.branch = (char *)"linux-4.5.y";
	f.revert.reason = (char *)"It breaks suspend on older boards.";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "Note that linux-4.5.y reverted its backport of this commit in v4.5.3:\n\n"
		      "  5e5e5e5e5e5e (\"Revert \"net: frob\"\")\n\n"
		      "The reason it gives:\n\n  \"It breaks suspend on older boards.\"\n\n"
		      "Does that reason apply to linux-4.4.y as well?");
	assert_null(strstr(b, "queue"));
	sum = fs_draft_summary_body(&x->review, true);
	assert_non_null(sum);
	assert_has(sum, "Reverted in another stable branch (worth asking why):");
	assert_has(sum, "linux-4.5.y reverted its backport: 5e5e5e5e5e5e in v4.5.3");
	assert_null(strstr(sum, "Fixes to add"));
	g_free(sum);
	g_free(b);
	fixture_free(x);

	x = fixture();
	f = finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "Revert \"a\"", "v4.6-rc2");
	f.cause = FS_CAUSE_REVERT_OF_REVERT;
	f.revert.reapplied_commit = (char *)"0a0a0a0a0a0abbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	f.revert.reapplied_release = (char *)"v4.6-rc4";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "This commit was reverted upstream by\n\n  08fed77bca31 (\"Revert \"a\"\") in v4.6-rc2\n\n"
		      "and then applied again by 0a0a0a0a0a0a in v4.6-rc4, a revert of that\nrevert, so mainline has it.");
	assert_null(strstr(b, "drop"));
	assert_null(strstr(b, "queue"));
	sum = fs_draft_summary_body(&x->review, true);
	assert_null(sum);
	g_free(b);
	fixture_free(x);

	x = fixture();
	f = finding(FS_FIND_UNKNOWN_UPSTREAM, "cdf4294f5a34", NULL, NULL);
	f.cause = FS_CAUSE_NOT_IN_CLONE;
	f.unresolved = FS_CAUSE_NOT_IN_CLONE;
	f.evidence = FS_FEV_PREFIX;
	add(x, f);
	assert_null(fs_draft_patch_body(&x->review, &x->rp));
	assert_null(fs_draft_summary_body(&x->review, true));
	fixture_free(x);
}

static void test_body_mail_kinds(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;

	f = finding(FS_FIND_REGRESSION_REPORT, chain3[0], NULL, NULL);
	f.mail.message_id = (char *)"report1@example.com";
	f.mail.from = (char *)"Ravi Menon <ravi@example.com>";
	f.mail.date = (char *)"Sat, 09 Apr 2016 01:44:51 +0000";
	f.note = (char *)"\"[REGRESSION] drain never returns\"";
	f.evidence = FS_FEV_MAIL;
	add(x, f);
	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.mail.message_id = (char *)"obj1@example.net";
	f.mail.from = (char *)"Chen Weilin <weilin@example.net>";
	f.note = (char *)"Please drop this, it breaks the build";
	f.evidence = FS_FEV_MAIL;
	add(x, f);
	f = finding(FS_FIND_REVERTS_STABLE, "f8ca9f47ac0caaaaaaaaaaaaaaaaaaaaaaaaaaaa", "regulator: core: x", NULL);
	f.stable_commit = (char *)"3c8bba439ed6bbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "There is a regression report for the upstream commit:\n\n"
		      "  From: Ravi Menon <ravi@example.com>\n"
		      "  Date: Sat, 09 Apr 2016 01:44:51 +0000\n"
		      "  Subject: [REGRESSION] drain never returns\n"
		      "  https://lore.kernel.org/r/report1@example.com\n");
	/* attributed, in the replier's own words, not called an objection */
	assert_has(b, "Chen Weilin wrote (https://lore.kernel.org/r/obj1@example.net):\n\n"
		      "  \"Please drop this, it breaks the build\"\n");
	assert_null(strstr(b, "objected"));
	assert_null(strstr(b, "> Please drop"));
	assert_has(b, "This reverts 3c8bba439ed6, the linux-4.4.y backport of\n\n"
		      "  f8ca9f47ac0c (\"regulator: core: x\")");
	/* the report comes before the reply: order of action */
	assert_true(strstr(b, "regression report") < strstr(b, "Chen Weilin wrote"));
	g_free(b);
	fixture_free(x);
}

/* Someone asks to drop the patch, and it needs fixes: their words come
 * first, and the request is for the case that it stays; one fix or
 * several.  Without the objection the request stands alone. */
static void test_body_objection_and_fixes(void **state)
{
	size_t nfix, with;

	for (with = 0; with < 2; with++)
		for (nfix = 1; nfix <= 2; nfix++) {
			struct fixture *x = fixture();
			struct fs_finding f;
			char *b, *flat;

			f = finding(FS_FIND_FIX_MISSING, "fc2cb07d51ccaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "mm: fix one", "v4.5-rc2");
			add(x, f);
			if (nfix == 2) {
				f = finding(FS_FIND_FIX_MISSING, "d873e577fd18bbbbbbbbbbbbbbbbbbbbbbbbbbbb", "mm: fix two", "v4.6-rc1");
				add(x, f);
			}
			if (with) {
				f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
				f.mail.message_id = (char *)"drop1@example.org";
				f.mail.from = (char *)"Vlad Ionescu <vlad@example.org>";
				f.note = (char *)"Please drop this patch, it breaks compaction";
				f.evidence = FS_FEV_MAIL;
				add(x, f);
			}
			b = patch_body(x);
			flat = squash(b);
			if (with) {
				assert_true(strstr(flat, "Vlad Ionescu wrote") < strstr(flat, "fc2cb07d51cc"));
				assert_has(flat, nfix == 1 ? "If this patch stays, please queue it as well." :
							   "If this patch stays, please queue them as well.");
				assert_null(strstr(flat, "Please queue"));
			} else {
				assert_has(flat, nfix == 1 ? "Please queue it as well." : "Please queue them as well.");
				assert_null(strstr(flat, "If this patch stays"));
			}
			g_free(flat);
			g_free(b);
			fixture_free(x);
		}
}

static void test_body_ignored_and_present(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;

	/* only ignored findings: nothing to say */
	f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "ignored fix", NULL);
	f.ignored = (char *)"not a real fix";
	add(x, f);
	assert_null(fs_draft_patch_body(&x->review, &x->rp));
	assert_null(fs_draft_summary_body(&x->review, true));

	/* a fix already present is not mentioned next to a real problem */
	f = finding(FS_FIND_FIX_PRESENT, "60e7c3ca5b7bdddddddddddddddddddddddddddd", "present fix", NULL);
	add(x, f);
	f = finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "the revert", NULL);
	add(x, f);
	b = patch_body(x);
	assert_null(strstr(b, "present fix"));
	assert_null(strstr(b, "ignored fix"));
	assert_has(b, "reverted upstream");
	g_free(b);
	fixture_free(x);
}

static void test_summary(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;
	const char *fixes, *dups, *rev, *reports, *other;

	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.note = (char *)"This needs another commit";
	add(x, f);
	add(x, finding(FS_FIND_NO_UPSTREAM, NULL, NULL, NULL));
	add(x, finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "Revert it", "v4.6-rc2"));
	f = finding(FS_FIND_ALREADY_APPLIED, "cc3f5ac80b2deeeeeeeeeeeeeeeeeeeeeeeeeeee", "dup", NULL);
	f.stable_commit = (char *)"cc3f5ac80b2deeeeeeeeeeeeeeeeeeeeeeeeeeee";
	f.stable_release = (char *)"v4.4.2";
	add(x, f);
	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	f = finding(FS_FIND_FIX_QUEUED, chain3[1], "queued fix", NULL);
	f.series_index = 21;
	add(x, f);

	b = fs_draft_summary_body(&x->review, true);
	assert_non_null(b);
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:51 +0200, Greta Kroll wrote:\n"
				       "> This is the start of the stable review cycle for the 4.4.7 release.\n\n"));
	fixes = strstr(b, "Fixes to add:\n\n"
			  "  80e046b0715b (\"the fix\") in v4.7-rc1, fixes 03/24\n");
	dups = strstr(b, "Likely duplicates:\n\n"
			 "  03/24 netfilter: x_tables: check the offset\n"
			 "    already backported as cc3f5ac80b2d in v4.4.2\n");
	rev = strstr(b, "Reverted upstream:\n\n"
			"  03/24 netfilter: x_tables: check the offset\n"
			"    08fed77bca31 (\"Revert it\") in v4.6-rc2\n");
	/* a reply is pointed to, neither quoted again nor classed */
	reports = strstr(b, "Reports and replies:\n\n  03/24 netfilter: x_tables: check the offset\n"
			    "    a reply from Dmitri Orlov");
	/* a missing upstream line asks nothing of the maintainer */
	other = strstr(b, "Other notes:");
	if (!fixes || !dups || !rev || !reports || other)
		fail_msg("summary groups missing:\n%s", b);
	assert_true(fixes < dups && dups < rev && rev < reports);
	assert_null(strstr(b, "objected"));
	assert_null(strstr(b, "another commit"));
	assert_null(strstr(b, "no upstream commit"));
	/* the queued fix needs nothing from the maintainer */
	assert_null(strstr(b, "queued fix"));
	assert_true(g_str_has_suffix(b, "Details are in my replies to the patches.\n"));
	g_free(b);

	b = fs_draft_summary_body(&x->review, false);
	assert_null(strstr(b, "Details are in my replies"));
	g_free(b);

	/* no cover, no summary */
	x->series.cover = NULL;
	assert_null(fs_draft_summary_body(&x->review, true));
	fixture_free(x);
}

/* A per-patch reply only where the maintainer must act; every finding
 * with --drafts-for=every-finding.  The summary is written either way. */
static void test_build_only_what_asks(void **state)
{
	static const struct {
		enum fs_finding_kind kind;
		enum fs_finding_cause cause;
		bool asks;
	} cases[] = {
		{ FS_FIND_FIX_MISSING, FS_CAUSE_FIX, true },
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, true },
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT_OF_REVERT, false },
		{ FS_FIND_ALREADY_APPLIED, FS_CAUSE_NONE, true },
		{ FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_NONE, true },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_NONE, true },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_NONE, true },
		{ FS_FIND_REGRESSION_REPORT, FS_CAUSE_NONE, true },
		{ FS_FIND_OBJECTION, FS_CAUSE_NONE, true },
		{ FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_NONE, true },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_FOUND, true },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_IN_CLONE, false },
		{ FS_FIND_FIX_QUEUED, FS_CAUSE_FIX, false },
		{ FS_FIND_FIX_PRESENT, FS_CAUSE_FIX, false },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_NONE, false },
		{ FS_FIND_REVERTS_STABLE, FS_CAUSE_NONE, false },
		{ FS_FIND_NO_UPSTREAM, FS_CAUSE_NONE, false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_drafts dl = FS_DRAFTS_INIT;
		struct fs_error err = FS_ERROR_INIT;
		struct fs_finding f = finding(cases[i].kind, "80e046b0715bcccccccccccccccccccccccccccc",
					      "the fix", "v4.7-rc1");
		int n;

		f.cause = cases[i].cause;
		add(x, f);
		if (fs_draft_finding_asks(&x->review.patches[0].findings.v[0]) != cases[i].asks)
			fail_msg("case %zu (%s): asks is %d", i, fs_finding_kind_name(cases[i].kind),
				 !cases[i].asks);
		n = fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err);
		assert_int_equal(n, cases[i].asks ? 1 : 0);
		n = fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, true, NOW, &err);
		assert_int_equal(n, 1);
		fs_drafts_clear(&dl);
		fixture_free(x);
	}
}

static void test_build_modes(void **state)
{
	struct fixture *x = fixture();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;

	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_ALL, false, NOW, &err), 2);
	assert_string_equal(dl.v[0].key, "summary <cover@stable.example.org>");
	assert_string_equal(dl.v[1].key, "patch <patch3@stable.example.org>");
	assert_string_equal(dl.v[1].label, "03/24 netfilter: x_tables: check the offset");
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_SUMMARY, false, NOW, &err), 1);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 1);
	assert_int_equal(dl.n, 4);
	assert_string_equal(dl.v[2].key, "summary <cover@stable.example.org>");
	assert_string_equal(dl.v[3].key, "patch <patch3@stable.example.org>");
	fs_drafts_clear(&dl);
	assert_int_equal(dl.n, 0);

	assert_int_equal(fs_draft_mode_from_name(NULL), FS_DRAFTS_ALL);
	assert_int_equal(fs_draft_mode_from_name("summary"), FS_DRAFTS_SUMMARY);
	assert_int_equal(fs_draft_mode_from_name("patches"), FS_DRAFTS_PATCHES);
	assert_int_equal(fs_draft_mode_from_name("some"), -1);
	fixture_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_body_quotes),
		cmocka_unit_test(test_body_fix_missing),
		cmocka_unit_test(test_body_each_kind),
		cmocka_unit_test(test_body_duplicate_differs),
		cmocka_unit_test(test_body_series_partial_number),
		cmocka_unit_test(test_body_series_partial_asked),
		cmocka_unit_test(test_body_objection_and_fixes),
		cmocka_unit_test(test_body_tree_kinds),
		cmocka_unit_test(test_body_pending_names),
		cmocka_unit_test(test_body_new_causes),
		cmocka_unit_test(test_body_mail_kinds),
		cmocka_unit_test(test_body_ignored_and_present),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_build_modes),
		cmocka_unit_test(test_build_only_what_asks),
	};

	return cmocka_run_group_tests_name("draft", tests, setup, teardown);
}

