/* Unit tests for what the drafts say across patches (lib/draft/draft.c,
 * draft-summary.c, draft-compose.c): one request per commit, asked once
 * on the patch it fixes, quotes of the lines named, wrapping, the people
 * cited in Cc, the closing lines and the template.
 */
#include "draft-mail.h"

/* ---- the summary of a series, its width, its close --------------------- */

/* Three patches of one series, 20 to 22 of 24, with real mails. */
struct series3 {
	struct fs_patch *cover, *p[3];
	const struct fs_patch *patches[3];
	struct fs_thread_series series;
	struct fs_review_patch rp[3];
	struct fs_review review;
	struct fs_finding f[3][8];
};

static struct fs_patch *patch_mail(int nn, const char *title, const char *upstream)
{
	char *text = g_strdup_printf(
		"From: Greta Kroll <greta@stable.example.org>\n"
		"To: linux-kernel@vger.kernel.org\n"
		"Cc: stable@vger.kernel.org\n"
		"Subject: [PATCH 4.4 %02d/24] %s\n"
		"Date: Fri, 15 Apr 2016 03:45:%02d +0200\n"
		"Message-Id: <patch%d@stable.example.org>\n"
		"In-Reply-To: <cover@stable.example.org>\n"
		"References: <cover@stable.example.org>\n"
		"\n"
		"4.4-stable review patch.  If anyone has any objections, please let me know.\n"
		"\n"
		"------------------\n"
		"\n"
		"commit %s upstream.\n"
		"\n"
		"Text.\n", nn, title, nn, nn, upstream);
	struct fs_patch *p = mail(text);

	g_free(text);
	return p;
}

static struct series3 *series3(void)
{
	static const char *const titles[3] = {
		"sched/fair: update the blocked load of throttled groups",
		"sched/fair: do not update the blocked load of a group being destroyed",
		"mm/page_alloc: let movable allocations reuse high-order atomic reserves when the zone is short of free pages",
	};
	struct series3 *x = calloc(1, sizeof(*x));
	int i;

	x->cover = mail(COVER_MAIL);
	for (i = 0; i < 3; i++) {
		x->p[i] = patch_mail(20 + i, titles[i], chain3[i]);
		x->patches[i] = x->p[i];
		x->rp[i].patch = x->p[i];
		x->rp[i].index = 20 + i;
		x->rp[i].findings.v = x->f[i];
	}
	x->series.cover = x->cover;
	x->series.patches = x->patches;
	x->series.npatches = 3;
	x->series.total = 24;
	x->review.series = &x->series;
	x->review.branch = (char *)"linux-4.4.y";
	x->review.base = (char *)"v4.4.6";
	x->review.patches = x->rp;
	x->review.npatches = 3;
	return x;
}

static void series3_free(struct series3 *x)
{
	int i;

	fs_patch_free(x->cover);
	for (i = 0; i < 3; i++)
		fs_patch_free(x->p[i]);
	free(x);
}

static void add3(struct series3 *x, int i, struct fs_finding f)
{
	x->f[i][x->rp[i].findings.n++] = f;
}

/* The body of a composed draft, as a mail client shows it. */
static char *body_of(const struct fs_draft *d)
{
	GMimeMessage *m = parse_back(d);
	GMimeObject *part = g_mime_message_get_mime_part(m);
	char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(part));

	g_object_unref(m);
	return text;
}

/* The number of times NEEDLE is in HAY. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* Whether LINE may be longer than 72 columns: quoted text, a line that
 * starts with a commit reference, a link alone. */
static bool may_be_long(const char *line)
{
	size_t n;

	while (*line == ' ')
		line++;
	if (!strncmp(line, "> ", 2) || !strncmp(line, "(https://", 9) || !strncmp(line, "https://", 8))
		return true;
	n = strspn(line, "0123456789abcdef");
	return n >= 12 && !strncmp(line + n, " (\"", 3);
}

/* Every line of TEXT fits 72 columns, or may not (may_be_long()). */
static void assert_wrapped(const char *text)
{
	char **lines = g_strsplit(text, "\n", -1);
	size_t i;

	for (i = 0; lines[i]; i++)
		if (g_utf8_strlen(lines[i], -1) > 72 && !may_be_long(lines[i]))
			fail_msg("line %zu is %ld columns: '%s' in:\n%s", i + 1,
				 g_utf8_strlen(lines[i], -1), lines[i], text);
	g_strfreev(lines);
}

static bool answered_22(void *data, const struct fs_patch *p)
{
	(void)data;
	return !strcmp(fs_patch_message_id(p), "patch22@stable.example.org");
}

static bool answered_21(void *data, const struct fs_patch *p)
{
	(*(int *)data)++;
	return !strcmp(fs_patch_message_id(p), "patch21@stable.example.org");
}

/* Two patches that need one fix: one line in the summary naming the
 * commit once and both patches; each patch's own reply asks for it. */
static void test_summary_one_request_per_commit(void **state)
{
	struct series3 *x = series3();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f;
	char *sum, *b20, *b21;
	int calls = 0;

	f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the runqueue lock when skipping a destroyed group", "v4.7-rc1");
	add3(x, 0, f);
	add3(x, 1, f);
	f = finding(FS_FIND_DEP_MISSING, chain3[2], "sched/fair: hold the runqueue lock when skipping a destroyed group", "v4.7-rc1");
	f.cause = FS_CAUSE_PREREQUISITE;
	add3(x, 2, f);
	add3(x, 2, finding(FS_FIND_FIX_MISSING, "fc2cb07d51cc0000000000000000000000000000", "mm: other fix", "v4.5-rc2"));

	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 4);
	sum = body_of(&dl.v[0]);
	/* a prerequisite is no fix: "Commits to add:" */
	assert_has(sum, "Commits to add:\n\n"
		   "  c5fef009a731 (\"sched/fair: hold the runqueue lock when skipping a destroyed group\")\n"
		   "    in v4.7-rc1, fixes 20/24 and 21/24 and is a prerequisite of 22/24\n"
		   "  fc2cb07d51cc (\"mm: other fix\") in v4.5-rc2, fixes 22/24\n");
	assert_int_equal(count_of(sum, "c5fef009a731"), 1);
	assert_null(strstr(sum, "already answered"));
	/* 20 and 21 need the same commit: the reply to the first asks for
	 * it, the other points to that reply */
	b20 = body_of(&dl.v[1]);
	b21 = body_of(&dl.v[2]);
	assert_has(b20, "  c5fef009a731 (\"sched/fair: hold the runqueue lock when skipping a destroyed group\") in v4.7-rc1\n\nPlease queue it as well.");
	assert_null(strstr(b21, "c5fef009a731"));
	assert_has(b21, "This commit needs the follow-up fix I asked for in my reply to 20/24.");
	assert_null(strstr(b21, "Please queue"));
	assert_null(strstr(b20, "covered"));
	g_free(b20);
	g_free(b21);
	g_free(sum);
	fs_drafts_clear(&dl);

	/* a patch the reviewer answered is marked, not dropped */
	o.answered = answered_21;
	o.answered_data = &calls;
	o.mode = FS_DRAFTS_SUMMARY;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 1);
	assert_true(calls > 0);
	sum = body_of(&dl.v[0]);
	assert_has(sum, "fixes 20/24 and 21/24 (already answered) and is a prerequisite of 22/24");
	assert_int_equal(count_of(sum, "(already answered)"), 1);
	g_free(sum);
	fs_drafts_clear(&dl);

	/* someone asked for the fix of an answered patch: one
	 * parenthesis, the asker after a semicolon */
	f = finding(FS_FIND_NEEDS_ALSO, "fc2cb07d51cc0000000000000000000000000000", "mm: other fix", "v4.5-rc2");
	f.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.mail.message_id = (char *)"asked@example.com";
	f.note = (char *)"This needs fc2cb07d51cc too.";
	add3(x, 2, f);
	o.answered = answered_22;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 1);
	sum = body_of(&dl.v[0]);
	assert_has(sum, "fixes 22/24 (already answered); Dmitri Orlov asked for it too:");
	assert_null(strstr(sum, ") ("));
	g_free(sum);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* Every body line fits 72 columns but for quotes, commit references
 * and links; a quoted reason ends where a sentence ends. */
static void test_bodies_wrapped(void **state)
{
	struct series3 *x = series3();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f;
	size_t i;
	char *b;

	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.note = (char *)"This needs commit 80e046b0715b (\"netfilter: x_tables: fix the compat counters offset check\") as well, otherwise the check can still be bypassed by a crafted rule set loaded from a 32-bit process.";
	f.mail.message_id = (char *)"20160425034451.100269246@example.com";
	add3(x, 0, f);
	f = finding(FS_FIND_REVERTED_IN_STABLE, "f0a61a40aca7aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    "Revert \"usb: hub: wait for the port power to settle after a resume\"", "v4.5.3");
	f.cause = FS_CAUSE_STABLE_REVERT;
	f.branch = (char *)"linux-4.5.y";
	f.revert.reason = (char *)"It makes resume hang on boards whose hub lacks per-port power switching, and the code it relies on is not in 4.5. The hub driver there still powers all ports together, so the wait never ends when one port has no device behind it. Bisected on three boards by two people independently, and confirmed by reverting it on top of v4.5.2 where resume works again on all of them. The same hang shows up on the 4.4 based vendor kernels that carry it, as the reports linked from the bug say.";
	add3(x, 1, f);
	f = finding(FS_FIND_TARGET_ABSENT, "c0697f5044f7ffffffffffffffffffffffffffff",
		    "iio: adc: convert the temperature channel to the processed format", "v4.5-rc1");
	add3(x, 2, f);
	f = finding(FS_FIND_FIXES_TAG_MISMATCH, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
		    "ext4: release the journal handle when inode allocation fails", NULL);
	f.cause = FS_CAUSE_SUBJECT_MISMATCH;
	add3(x, 2, f);
	f = finding(FS_FIND_REGRESSION_REPORT, chain3[2], NULL, NULL);
	f.mail.message_id = (char *)"20160418014451.100007919@example.com";
	f.mail.from = (char *)"Ravi Menon <ravi.menon@example.com>";
	f.note = (char *)"\"[REGRESSION] ALSA: pcm: drain never returns on USB audio (bisected) since 4.4.6\"";
	add3(x, 2, f);
	add3(x, 2, finding(FS_FIND_UNKNOWN_UPSTREAM, "cdf4294f5a340cd493e0881f37e28886a5b954b0", NULL, NULL));
	x->f[2][3].unresolved = FS_CAUSE_NOT_FOUND;

	o.now = NOW;
	o.every_finding = true;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 4);
	for (i = 0; i < dl.n; i++) {
		b = body_of(&dl.v[i]);
		assert_wrapped(b);
		g_free(b);
	}
	/* the objection is quoted whole, the long reason up to a sentence */
	b = body_of(&dl.v[1]);
	assert_has(b, "  as well, otherwise the check can still be bypassed by a crafted rule\n  set loaded from a 32-bit process.\"\n");
	g_free(b);
	b = body_of(&dl.v[2]);
	assert_has(b, "resume works again on all of them.\"\n\nDoes that reason");
	assert_null(strstr(b, "vendor"));
	g_free(b);
	b = body_of(&dl.v[0]);
	/* the summary points to the reply; it does not quote it again */
	assert_has(b, "a reply from Dmitri Orlov");
	assert_null(strstr(b, "bypassed"));
	g_free(b);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* The lines a reply quotes are the lines of the mail that name what it
 * speaks of, in their order, a ">" between lines apart: the upstream
 * line and the Fixes: line, never the subject. */
static void test_quotes_named_lines(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_FIXES_TAG_MISMATCH, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
				      "ext4: release the handle", "v4.4-rc1");
	char *b;

	fs_patch_free(x->patch);
	x->patch = mail("From: Greta Kroll <greta@stable.example.org>\n"
			"To: linux-kernel@vger.kernel.org\n"
			"Subject: [PATCH 4.4 03/24] ext4: do not leak the handle\n"
			"Date: Fri, 15 Apr 2016 03:44:54 +0200\n"
			"Message-Id: <patch3@stable.example.org>\n"
			"\n"
			"4.4-stable review patch.  If anyone has any objections, please let me know.\n"
			"\n"
			"------------------\n"
			"\n"
			"commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
			"\n"
			"Do not leak the handle.\n"
			"\n"
			"Fixes: 12c09ccaa0f5 (\"ext4: release the handle\")\n"
			"Signed-off-by: Someone <someone@example.org>\n");
	x->patches[0] = x->patch;
	x->rp.patch = x->patch;
	add(x, f);
	b = patch_body(x);
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n"
				       "> commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
				       ">\n"
				       "> Fixes: 12c09ccaa0f5 (\"ext4: release the handle\")\n"
				       "\n"));
	assert_quotes_mail(b, x->patch);
	assert_null(strstr(b, "> ext4: do not leak"));
	assert_null(strstr(b, "> Do not leak"));
	g_free(b);
	fixture_free(x);
}

/* A fix of 21 that 20 needs through 21 (a chain of three) is asked for
 * in the reply to 21, the patch it fixes directly, though 20 comes
 * first; the reply to 20 points to it and names no commit to queue. */
static void test_ask_once_direct(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the lock", "v4.7-rc1");
	char *b20, *b21;

	f.chain = chain3;
	f.nchain = 3;
	add3(x, 0, f);
	f.chain = chain3 + 1;
	f.nchain = 2;
	add3(x, 1, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 2);
	b20 = body_of(&dl.v[0]);
	b21 = body_of(&dl.v[1]);
	assert_has(b21, "  c5fef009a731 (\"sched/fair: hold the lock\") in v4.7-rc1\n\nPlease queue it as well.");
	assert_null(strstr(b20, "c5fef009a731"));
	assert_null(strstr(b20, "Please queue"));
	assert_has(b20, "This commit needs the follow-up fix I asked for in my reply to 21/24.");
	g_free(b20);
	g_free(b21);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* The same, with 20's follow-up fix queued as 21: one sentence in the
 * order of the chain, and the summary says 21 is the fix of 20. */
static void test_ask_once_chain_queued(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the lock", "v4.7-rc1");
	struct fs_finding q = finding(FS_FIND_FIX_QUEUED, chain3[1], "sched/fair: first fix", NULL);
	char *sum, *b20;

	f.chain = chain3;
	f.nchain = 3;
	add3(x, 0, f);
	q.series_index = 21;
	add3(x, 0, q);
	f.chain = chain3 + 1;
	f.nchain = 2;
	add3(x, 1, f);
	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 3);
	sum = body_of(&dl.v[0]);
	b20 = body_of(&dl.v[1]);
	assert_has(b20, "Its follow-up fix 8028d6694e09 (\"sched/fair: first fix\") is queued as 21/24; that one needs c5fef009a731 (\"sched/fair: hold the lock\") in turn, which I asked for in my reply to 21/24.");
	assert_null(strstr(b20, "covered"));
	assert_null(strstr(b20, "This commit needs"));
	assert_has(sum, "in v4.7-rc1, fixes 21/24 (a fix of 20/24)\n");
	g_free(b20);
	g_free(sum);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* Patch NN of series3 X replaced by one of upstream UP whose diff adds
 * LINE. */
static void set_diff(struct series3 *x, int i, const char *up, const char *line)
{
	char *text = g_strdup_printf(
		"From: Greta Kroll <greta@stable.example.org>\n"
		"Subject: [PATCH 4.4 %02d/24] block: account discard bios\n"
		"Message-Id: <patch%d@stable.example.org>\n"
		"\n"
		"commit %s upstream.\n"
		"\n"
		"---\n"
		"diff --git a/block/bio.c b/block/bio.c\n"
		"--- a/block/bio.c\n"
		"+++ b/block/bio.c\n"
		"@@ -1,1 +1,2 @@\n"
		" a\n"
		"+%s\n"
		"-- \n"
		"2.8.%d\n", 20 + i, 20 + i, up, line, i);

	fs_patch_free(x->p[i]);
	x->p[i] = mail(text);
	x->patches[i] = x->p[i];
	x->rp[i].patch = x->p[i];
	g_free(text);
}

/* Two patches of one upstream commit, neither flagged as differing
 * from upstream: the same diff is a duplicate to drop, two diffs are
 * a question (the signatures differ; they are no part of the diff). */
static void test_duplicate_diffs_compared(void **state)
{
	static const char *const second[2] = { "b();", "c();" };
	size_t k;

	for (k = 0; k < 2; k++) {
		struct series3 *x = series3();
		struct fs_finding f = finding(FS_FIND_DUPLICATE_IN_SERIES, chain3[0], "subj", "v4.6");
		char *b;

		set_diff(x, 0, chain3[0], "b();");
		set_diff(x, 1, chain3[0], second[k]);
		f.series_index = 20;
		add3(x, 1, f);
		b = fs_draft_patch_body(&x->review, &x->rp[1]);
		assert_non_null(b);
		if (k == 0)
			assert_has(b, "so one of the two looks like a duplicate. Please drop this one.");
		else
			assert_has(b, "but the two are not the same diff. Which of the two is meant?");
		g_free(b);
		series3_free(x);
	}
}

/* The reporter of a regression and the author of a reply the draft
 * cites are in its Cc, once, whatever the case of their address. */
static void test_cc_people_cited(void **state)
{
	struct fixture *x = fixture();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_REGRESSION_REPORT, chain3[0], "x", NULL);
	GMimeMessage *m;
	char *cc;

	f.mail.from = (char *)"Ravi Menon <ravi@example.com>";
	f.mail.message_id = (char *)"report1@example.com";
	f.note = (char *)"\"[REGRESSION] drain never returns\"";
	add(x, f);
	f = finding(FS_FIND_OBJECTION, "", NULL, NULL);
	f.mail.from = (char *)"Dmitri Orlov <DOrlov@example.com>";
	f.mail.message_id = (char *)"obj1@example.com";
	f.note = (char *)"Please drop this.";
	add(x, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 1);
	m = parse_back(&dl.v[0]);
	cc = addrs(m, GMIME_ADDRESS_TYPE_CC);
	/* Dmitri was in Cc of the patch already: not named twice */
	assert_string_equal(cc, "linux-kernel@vger.kernel.org, stable@vger.kernel.org, dorlov@example.com, "
			    "ravi@example.com");
	g_free(cc);
	g_object_unref(m);
	fs_drafts_clear(&dl);
	fixture_free(x);
}

/* Each draft ends like a person's mail: "Thanks," and the name, or the
 * signature; a template sets the opening and the close. */
static void test_close_and_template(void **state)
{
	static const char tmpl[] =
		"${greeting}\n\n${quote}\n\n${findings}\n\n"
		"Cost: $$0 (${patch} on ${branch}, re: ${subject}, from ${author})\n"
		"Thanks,\n${name} <${email}>\n-- \n${signature}\n";
	struct fixture *x = fixture();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_identity noname = { (char *)"", (char *)"rita@example.org", "git config" };
	char *b;

	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[0]);
	assert_true(g_str_has_suffix(b, "Details are in my replies to the patches.\n\nThanks,\nRita Reviewer\n"));
	g_free(b);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\nThanks,\nRita Reviewer\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* no name: the address */
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &noname, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "\n\nThanks,\nrita@example.org\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* a signature file's text instead of the name, trailing lines cut */
	o.signature = "Rita\n\nExample Kernel Team\n\n\n";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\nThanks,\nRita\n\nExample Kernel Team\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* a template: every variable */
	o.template_text = tmpl;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_prefix(b, "Hi Greta,\n\nOn Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n> commit 404cd27d"));
	assert_has(b, "upstream.\n\nThis commit has a known follow-up fix");
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\n"
				     "Cost: $0 (03/24 on linux-4.4.y, re: [PATCH 4.4 03/24] netfilter: x_tables: check the offset, from Greta Kroll)\n"
				     "Thanks,\nRita Reviewer <rita@example.org>\n-- \nRita\n\nExample Kernel Team\n"));
	g_free(b);
	b = body_of(&dl.v[0]);
	assert_has(b, "Cost: $0 (00/24 on linux-4.4.y, re: [PATCH 4.4 00/24] 4.4.7-stable review, from Greta Kroll)");
	g_free(b);
	fs_drafts_clear(&dl);

	/* a template that cannot be filled: a clear error, no draft */
	assert_int_equal(fs_draft_template_check("${quote}\n${findings}\nBye, ${nmae}\n", &err), FS_EUSAGE);
	assert_string_equal(err.message, "line 3: unknown variable ${nmae} (known: ${quote}, ${findings}, ${greeting}, ${name}, ${email}, ${signature}, ${subject}, ${author}, ${patch}, ${branch})");
	o.template_text = "Hi,\n${quote}\n${findings";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), FS_EUSAGE);
	assert_string_equal(err.message, "draft template: line 3: '${' without its '}'");
	o.template_text = "${quote}\nThanks\n";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), FS_EUSAGE);
	assert_non_null(strstr(err.message, "no ${findings}"));
	assert_int_equal(dl.n, 0);
	assert_int_equal(fs_draft_template_check("$5 and $$ and ${findings}", &err), 0);
	fixture_free(x);
}

/* Nobody at all to answer: no draft, one line saying why, and the
 * other patches' drafts are still made. */
static void test_build_unanswerable(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc",
				      "the fix", "v4.7-rc1");

	fs_patch_free(x->p[1]);
	x->p[1] = mail("From: \"Greta <>\nTo: undisclosed-recipients:;\n"
		       "Subject: [PATCH 4.4 21/24] x\nMessage-Id: <patch21@stable.example.org>\n\nbody\n");
	x->patches[1] = x->p[1];
	x->rp[1].patch = x->p[1];
	add3(x, 0, f);
	add3(x, 1, f);
	add3(x, 2, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err),
			 FS_EPARSE);
	assert_string_equal(err.message,
			    "cannot reply to <patch21@stable.example.org>: no address in its From, To or Cc can be parsed");
	assert_int_equal(dl.n, 2);
	assert_string_equal(dl.v[0].key, "patch <patch20@stable.example.org>");
	assert_string_equal(dl.v[1].key, "patch <patch22@stable.example.org>");
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* A part of the upstream posting that a reply to the patch asks for:
 * the patch's reply asks for it with the reply, and so does the summary,
 * among the commits to add, not among the parts maybe left out on
 * purpose; without the reply it stays one of those. */
static void test_summary_part_asked(void **state)
{
	struct fs_finding_part part = { "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", (char *)"part two",
					(char *)"v4.6", 2, 2 };
	int asked;

	for (asked = 1; asked >= 0; asked--) {
		struct series3 *x = series3();
		struct fs_finding f = finding(FS_FIND_SERIES_PARTIAL, "404cd27d8378cccccccccccccccccccccccccccc",
					      "subj", NULL);
		char *sum, *body, *flat;

		f.posting.parts = &part;
		f.posting.nparts = 1;
		f.posting.part = 1;
		add3(x, 0, f);
		if (asked) {
			f = finding(FS_FIND_NEEDS_ALSO, part.commit, "part two", "v4.6");
			f.mail.from = (char *)"Nadia Perez <nadia@example.org>";
			f.mail.message_id = (char *)"n1@example.org";
			f.note = (char *)"Please also queue 1e909a04863e.";
			add3(x, 0, f);
		}
		sum = fs_draft_summary_body(&x->review, true);
		flat = squash(sum);
		if (asked) {
			assert_has(flat, "Commits to add: 1e909a04863e (\"part two\") in v4.6, posted with 20/24 "
					 "(Nadia Perez asked for it too: https://lore.kernel.org/r/n1@example.org)");
			assert_null(strstr(flat, "maybe on purpose"));
			assert_int_equal(count_of(flat, "1e909a04863e"), 1);
		} else {
			assert_has(flat, "but not queued (maybe on purpose): 1e909a04863e (\"part two\") in v4.6, "
					 "posted with 20/24");
			assert_null(strstr(flat, "Commits to add"));
		}
		g_free(flat);
		body = fs_draft_patch_body(&x->review, &x->rp[0]);
		flat = squash(body);
		if (asked)
			assert_has(flat, "As Nadia Perez asked, please queue that one too.");
		else
			assert_has(flat, "If it was left out on purpose, fine");
		g_free(flat);
		g_free(body);
		g_free(sum);
		series3_free(x);
	}
}

/* ---- what a reply to the cover asks for -------------------------------- */

/* The commit of a reply to the cover that asks for more commits. */
#define USB_FIX "6e13b426735a4f0c8d1e2a3b4c5d6e7f80910111"
#define NET_FIX "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* The beginning of every summary of series3(): the cover quoted. */
#define SUMMARY_QUOTE \
	"On Fri, 15 Apr 2016 03:44:51 +0200, Greta Kroll wrote:\n" \
	"> This is the start of the stable review cycle for the 4.4.7 release.\n\n"

/* Finding of KIND of Pam Ode's reply to the cover (mail MID) for commit
 * HEX (NULL: it names none), as fs_findings_series_replies() gives it. */
static struct fs_finding cover_reply(enum fs_finding_kind kind, const char *mid, const char *hex,
				     const char *subject, const char *release)
{
	struct fs_finding f = finding(kind, hex, subject, release);

	f.mail.from = (char *)"Pam Ode <pam@example.org>";
	f.mail.message_id = (char *)mid;
	f.note = (char *)"Kernels taking this release will also need these, please queue them.";
	return f;
}

/* The summary of X with its series findings SF (N of them): compared
 * whole with WANT (NULL: no summary). */
static void assert_summary(struct series3 *x, struct fs_finding *sf, size_t n, const char *want)
{
	char *got;

	x->review.series_findings.v = sf;
	x->review.series_findings.n = n;
	got = fs_draft_summary_body(&x->review, true);
	if (!want && got)
		fail_msg("a summary where none was wanted:\n%s", got);
	if (want && (!got || strcmp(got, want)))
		fail_msg("summary:\n%s\nwanted:\n%s", got ? got : "(none)", want);
	g_free(got);
	x->review.series_findings.v = NULL;
	x->review.series_findings.n = 0;
}

/* A reply to the cover naming one commit: a line under the commits to
 * add, with who asked, and the reply not quoted again; the same reply
 * asking for it in answer to a patch would be on the same line. */
static void test_summary_cover_asks_one(void **state)
{
	struct series3 *x = series3();
	struct fs_finding sf[1];

	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget",
			    "v4.6");
	assert_summary(x, sf, 1, SUMMARY_QUOTE
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n");
	/* without a release; its own link */
	sf[0].release = NULL;
	sf[0].mail.link = (char *)"https://lore.example.org/all/pam@example.org/";
	assert_summary(x, sf, 1, SUMMARY_QUOTE
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") (Pam Ode asked for it:\n"
		       "    https://lore.example.org/all/pam@example.org/)\n");
	series3_free(x);
}

/* Naming two commits: a line for each, each with who asked. */
static void test_summary_cover_asks_two(void **state)
{
	struct series3 *x = series3();
	struct fs_finding sf[2];

	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget",
			    "v4.6");
	sf[1] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", NET_FIX, "net: mend the fifth widget",
			    "v4.7-rc1");
	assert_summary(x, sf, 2, SUMMARY_QUOTE
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n"
		       "  1e909a04863e (\"net: mend the fifth widget\") in v4.7-rc1 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n");
	series3_free(x);
}

/* The commit a patch's finding asks for too: one line, both reasons,
 * under the fixes when it is one; the reply to a patch asking for a
 * commit only the cover's reply makes a line of is said on that line,
 * not under the replies. */
static void test_summary_cover_asks_shared(void **state)
{
	struct series3 *x = series3();
	struct fs_finding sf[2], f;

	add3(x, 0, finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the runqueue lock", "v4.7-rc1"));
	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", chain3[2], "sched/fair: hold the runqueue lock",
			    "v4.7-rc1");
	assert_summary(x, sf, 1, SUMMARY_QUOTE
		       "I went through this series against linux-4.4.y (v4.4.6) looking for\n"
		       "known upstream follow-up fixes, reverts and duplicates. These patches\n"
		       "need a look:\n\n"
		       "Fixes to add:\n\n"
		       "  c5fef009a731 (\"sched/fair: hold the runqueue lock\") in v4.7-rc1, fixes\n"
		       "    20/24 (Pam Ode asked for it too:\n"
		       "    https://lore.kernel.org/r/pam@example.org)\n\n"
		       "Details are in my replies to the patches.\n");
	/* and a commit only the cover's reply asks for: maybe no fix */
	sf[1] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget",
			    "v4.6");
	assert_summary(x, sf, 2, SUMMARY_QUOTE
		       "I went through this series against linux-4.4.y (v4.4.6) looking for\n"
		       "known upstream follow-up fixes, reverts and duplicates. These patches\n"
		       "need a look:\n\n"
		       "Commits to add:\n\n"
		       "  c5fef009a731 (\"sched/fair: hold the runqueue lock\") in v4.7-rc1, fixes\n"
		       "    20/24 (Pam Ode asked for it too:\n"
		       "    https://lore.kernel.org/r/pam@example.org)\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n\n"
		       "Details are in my replies to the patches.\n");

	x->rp[0].findings.n = 0;
	f = finding(FS_FIND_NEEDS_ALSO, USB_FIX, "usb: mend the fourth widget", "v4.6");
	f.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.mail.message_id = (char *)"dmitri@example.com";
	f.note = (char *)"This needs 6e13b426735a too.";
	add3(x, 1, f);
	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget",
			    "v4.6");
	assert_summary(x, sf, 1, SUMMARY_QUOTE
		       "I went through this series against linux-4.4.y (v4.4.6) looking for\n"
		       "known upstream follow-up fixes, reverts and duplicates. These patches\n"
		       "need a look:\n\n"
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6, for 21/24\n"
		       "    (Dmitri Orlov asked for it:\n"
		       "    https://lore.kernel.org/r/dmitri@example.com; Pam Ode asked for it\n"
		       "    too: https://lore.kernel.org/r/pam@example.org)\n\n"
		       "Details are in my replies to the patches.\n");
	series3_free(x);
}

/* What the branch has or the series queues is not asked for: a reply
 * asking only for those is not in the summary; one asking for another
 * too asks for that one alone. */
static void test_summary_cover_asks_had(void **state)
{
	struct series3 *x = series3();
	struct fs_finding sf[3];

	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", chain3[1], "sched/fair: queued", "v4.6");
	sf[0].series_index = 21;
	sf[1] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", chain3[2], "sched/fair: had", "v4.5");
	sf[1].stable_commit = (char *)"b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";
	assert_summary(x, sf, 2, NULL);
	sf[2] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget",
			    "v4.6");
	assert_summary(x, sf, 3, SUMMARY_QUOTE
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n");
	series3_free(x);
}

/* Finding of Dmitri Orlov's reply (mail MID) to a patch asking for
 * commit HEX (NULL: it names none). */
static struct fs_finding patch_reply(const char *mid, const char *hex, const char *subject,
				     const char *release)
{
	struct fs_finding f = finding(FS_FIND_NEEDS_ALSO, hex, subject, release);

	f.mail.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.mail.message_id = (char *)mid;
	f.note = (char *)"This needs the widget fix as well.";
	return f;
}

#define SUMMARY_INTRO \
	"I went through this series against linux-4.4.y (v4.4.6) looking for\n" \
	"known upstream follow-up fixes, reverts and duplicates. These patches\n" \
	"need a look:\n\n"

/* A reply to a patch asking for a commit no other finding asks for: a
 * line under the commits to add naming the patch and who asked, not "a
 * reply from X" under the replies; two patches' replies asking for it,
 * one line naming both; what the branch has or an id that names no
 * commit: no line (the latter quoted as a reply, as before). */
static void test_summary_patch_asks(void **state)
{
	struct series3 *x = series3();
	struct fs_finding f;

	add3(x, 0, patch_reply("d1@example.com", USB_FIX, "usb: mend the fourth widget", "v4.6"));
	assert_summary(x, NULL, 0, SUMMARY_QUOTE SUMMARY_INTRO
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6, for 20/24\n"
		       "    (Dmitri Orlov asked for it:\n"
		       "    https://lore.kernel.org/r/d1@example.com)\n\n"
		       "Details are in my replies to the patches.\n");
	f = patch_reply("d3@example.com", USB_FIX, "usb: mend the fourth widget", "v4.6");
	f.mail.from = (char *)"Uma <uma@example.org>";
	add3(x, 2, f);
	assert_summary(x, NULL, 0, SUMMARY_QUOTE SUMMARY_INTRO
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6, for 20/24 and\n"
		       "    22/24 (Dmitri Orlov asked for it:\n"
		       "    https://lore.kernel.org/r/d1@example.com; Uma asked for it too:\n"
		       "    https://lore.kernel.org/r/d3@example.com)\n\n"
		       "Details are in my replies to the patches.\n");
	/* the branch has it: nothing to ask */
	x->rp[0].findings.n = x->rp[2].findings.n = 0;
	f = patch_reply("d1@example.com", USB_FIX, "usb: mend the fourth widget", "v4.6");
	f.stable_commit = (char *)"b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";
	add3(x, 0, f);
	assert_summary(x, NULL, 0, NULL);
	/* an id that names no commit: the reply, as before */
	x->rp[0].findings.n = 0;
	f = patch_reply("d1@example.com", "abcdef123456", NULL, NULL);
	f.unresolved = FS_CAUSE_NOT_FOUND;
	add3(x, 0, f);
	assert_summary(x, NULL, 0, SUMMARY_QUOTE SUMMARY_INTRO
		       "Reports and replies:\n\n"
		       "  20/24 sched/fair: update the blocked load of throttled groups\n"
		       "    a reply from Dmitri Orlov: https://lore.kernel.org/r/d1@example.com\n\n"
		       "Details are in my replies to the patches.\n");
	series3_free(x);
}

/* The reply quoted as it always was, after "In the replies to this
 * series:", SAID: who wrote where. */
#define PAM_QUOTED(said) \
	"In the replies to this series:\n\n" said ":\n\n" \
	"  \"Kernels taking this release will also need these, please queue them.\"\n"
#define PAM_COVER "Pam Ode wrote in reply to the cover\n(https://lore.kernel.org/r/pam@example.org)"
#define PAM_ABSENT "Pam Ode wrote about 07/24 (https://lore.kernel.org/r/pam@example.org)"

/* A reply to the cover asking for more commits but naming none that can
 * be read (no id, or an id that names no commit), one on a patch whose
 * mail is absent, and one of another class: quoted as before, and no
 * commit line. */
static void test_summary_cover_asks_none(void **state)
{
	struct series3 *x = series3();
	struct fs_finding sf[2];

	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", NULL, NULL, NULL);
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_COVER));
	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", "123456789012", NULL, NULL);
	sf[0].unresolved = FS_CAUSE_NOT_FOUND;
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_COVER));
	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget", "v4.6");
	sf[0].mail.absent_index = 7;
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_ABSENT));
	sf[0] = cover_reply(FS_FIND_OBJECTION, "pam@example.org", NULL, NULL, NULL);
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_COVER));
	/* even one whose finding names a commit */
	sf[0] = cover_reply(FS_FIND_OBJECTION, "pam@example.org", USB_FIX, "usb: mend the fourth widget", "v4.6");
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_COVER));
	sf[0] = cover_reply(FS_FIND_REGRESSION_REPORT, "pam@example.org", NULL, NULL, NULL);
	assert_summary(x, sf, 1, SUMMARY_QUOTE PAM_QUOTED(PAM_COVER));

	/* an id it reads and one it cannot: a line for the first, and the
	 * reply quoted for the other */
	sf[0] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", USB_FIX, "usb: mend the fourth widget", "v4.6");
	sf[1] = cover_reply(FS_FIND_NEEDS_ALSO, "pam@example.org", "123456789012", NULL, NULL);
	sf[1].unresolved = FS_CAUSE_NOT_FOUND;
	assert_summary(x, sf, 2, SUMMARY_QUOTE
		       "Commits to add:\n\n"
		       "  6e13b426735a (\"usb: mend the fourth widget\") in v4.6 (Pam Ode asked\n"
		       "    for it: https://lore.kernel.org/r/pam@example.org)\n\n"
		       PAM_QUOTED(PAM_COVER));
	series3_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quotes_named_lines),
		cmocka_unit_test(test_ask_once_direct),
		cmocka_unit_test(test_ask_once_chain_queued),
		cmocka_unit_test(test_duplicate_diffs_compared),
		cmocka_unit_test(test_cc_people_cited),
		cmocka_unit_test(test_summary_one_request_per_commit),
		cmocka_unit_test(test_bodies_wrapped),
		cmocka_unit_test(test_close_and_template),
		cmocka_unit_test(test_build_unanswerable),
		cmocka_unit_test(test_summary_part_asked),
		cmocka_unit_test(test_summary_cover_asks_one),
		cmocka_unit_test(test_summary_cover_asks_two),
		cmocka_unit_test(test_summary_cover_asks_shared),
		cmocka_unit_test(test_summary_cover_asks_had),
		cmocka_unit_test(test_summary_cover_asks_none),
		cmocka_unit_test(test_summary_patch_asks),
	};

	return cmocka_run_group_tests_name("draft", tests, setup, teardown);
}

