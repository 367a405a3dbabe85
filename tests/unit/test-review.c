/* Unit tests for the pipeline's pieces in lib/review/review.c, lib/review/mentions.c,
 * lib/review/ignore.c and the config reading the CLI hands them: loading threads
 * from a real notmuch database, narrowing a review to one patch, the
 * objection lines, the ignore file, and fixscan.branch.* from git config.
 * The mails are invented for these tests. */
#include "review-store.h"

/* The thread comes out as one series of two patches in order, the reply
 * kept, the draft left out. */
static void test_load(void **state)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_store();
	struct fs_thread **threads = NULL;
	const struct fs_thread_series *s;
	size_t n = 0, i;

	assert_int_equal(fs_review_load(&threads, &n, st, "id:\"p2.3@example.org\"",
					&notes, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(fs_thread_count(threads[0]), 1);
	s = fs_thread_get(threads[0], 0);
	assert_non_null(s->cover);
	assert_int_equal(s->npatches, 2);
	assert_string_equal(fs_patch_message_id(s->patches[0]), "p1.2@example.org");
	assert_string_equal(fs_patch_message_id(s->patches[1]), "p2.3@example.org");
	assert_int_equal(s->nreplies, 1);
	assert_string_equal(fs_patch_message_id(s->replies[0]), "reply.5@example.org");
	assert_int_equal(notes.n, 0);
	for (i = 0; i < n; i++)
		fs_thread_free(threads[i]);
	g_free(threads);

	/* No match is no thread and no error. */
	assert_int_equal(fs_review_load(&threads, &n, st, "id:\"nosuch@example.org\"",
					&notes, &err), 0);
	assert_int_equal(n, 0);
	g_free(threads);

	/* A bad query is the store's error. */
	assert_int_equal(fs_review_load(&threads, &n, st, "date:garbage..", &notes, &err),
			 FS_EUSAGE);
	assert_null(threads);
	assert_int_equal(n, 0);
	fs_store_free(st);
}

/* A mail whose file went away since it was indexed is a note, and the
 * rest of the thread is still loaded. */
static void test_load_unreadable(void **state)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_store *st;
	char path[512], gone[520];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", mailroot, samples[4].file);
	snprintf(gone, sizeof(gone), "%s.gone", path);
	assert_int_equal(rename(path, gone), 0);
	/* A directory where the mail was: there, but not readable as mail. */
	assert_int_equal(mkdir(path, 0700), 0);
	st = open_store();
	assert_int_equal(fs_review_load(&threads, &n, st, "id:\"cover.1@example.org\"",
					&notes, &err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(fs_thread_get(threads[0], 0)->npatches, 2);
	assert_int_equal(fs_thread_get(threads[0], 0)->nreplies, 0);
	assert_int_equal(notes.n, 1);
	assert_non_null(strstr(notes.v[0], "5.host"));
	fs_review_notes_clear(&notes);
	assert_int_equal(notes.n, 0);
	fs_thread_free(threads[0]);
	g_free(threads);

	/* Gone since notmuch indexed it (a mail client moved or removed
	 * it): skipped without a word, as "notmuch new" will forget it. */
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(fs_review_load(&threads, &n, st, "id:\"cover.1@example.org\"",
					&notes, &err), 0);
	assert_int_equal(rename(gone, path), 0);
	assert_int_equal(n, 1);
	assert_int_equal(fs_thread_get(threads[0], 0)->nreplies, 0);
	assert_int_equal(notes.n, 0);
	fs_thread_free(threads[0]);
	g_free(threads);
	fs_store_free(st);
}

/* The objections of a series: the reply's own line, not the quote. */
static void test_objections(void **state)
{
	struct fs_review_notes notes = FS_REVIEW_NOTES_INIT;
	struct fs_mentions m = FS_MENTIONS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_store *st = open_store();
	size_t n = 0;

	assert_int_equal(fs_review_load(&threads, &n, st, "id:\"cover.1@example.org\"",
					&notes, &err), 0);
	assert_int_equal(fs_mentions_objections(&m, fs_thread_get(threads[0], 0), NULL, NULL, &err), 0);
	assert_int_equal(m.nobjections, 1);
	assert_int_equal(m.objections[0].series_index, 2);
	assert_string_equal(m.objections[0].line, "This breaks the build on arm.");
	assert_string_equal(m.objections[0].message_id, "reply.5@example.org");
	assert_int_equal(m.nreports, 0);
	fs_mentions_clear(&m);
	assert_null(m.objections);
	fs_thread_free(threads[0]);
	g_free(threads);
	fs_store_free(st);
}

static void test_objection_line(void **state)
{
	static const struct {
		const char *body;
		const char *line; /* NULL: no objection */
	} cases[] = {
		{ "Please drop this, it breaks arm.\n", "Please drop this, it breaks arm." },
		{ "> please drop\n\nThanks, applied.\n", NULL },
		{ "On Mon, Greg wrote: please drop\n", "On Mon, Greg wrote: please drop" },
		{ "Greg KH wrote:\n> nak\n", NULL },
		{ "Tested-by: A <a@b> # needs commit x as well\n", NULL },
		{ "NAK.\n", "NAK." },
		{ "snake oil\n", NULL },
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = fs_mentions_objection_line(cases[i].body, strlen(cases[i].body));
		if (cases[i].line) {
			if (!got)
				fail_msg("case %zu: no objection found", i);
			assert_string_equal(got, cases[i].line);
		} else if (got) {
			fail_msg("case %zu: objection '%s' found", i, got);
		}
		g_free(got);
	}
}

static struct fs_finding finding(enum fs_finding_kind kind, const char *ignored)
{
	struct fs_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.series_index = -1;
	f.ignored = ignored ? g_strdup(ignored) : NULL;
	return f;
}

/* A view of one patch counts that patch's findings alone, forgets the
 * series' gaps, and frees without touching the review it borrows from. */
static void test_narrow(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread_series series;
	struct fs_review *r = calloc(1, sizeof(*r)), *one = NULL;
	int missing[] = { 3 };
	size_t k = 99;

	memset(&series, 0, sizeof(series));
	series.missing = missing;
	series.nmissing = 1;
	series.duplicates = 2;
	r->series = &series;
	r->branch = g_strdup("linux-4.4.y");
	r->base = g_strdup("v4.4.10");
	r->npatches = 2;
	r->patches = g_new0(struct fs_review_patch, 2);
	r->patches[0].index = 1;
	r->patches[1].index = 2;
	r->patches[0].findings.v = g_new0(struct fs_finding, 1);
	r->patches[0].findings.v[0] = finding(FS_FIND_FIX_MISSING, NULL);
	r->patches[0].findings.n = 1;
	r->patches[1].findings.v = g_new0(struct fs_finding, 3);
	r->patches[1].findings.v[0] = finding(FS_FIND_REVERTED_UPSTREAM, NULL);
	r->patches[1].findings.v[1] = finding(FS_FIND_FIX_PRESENT, NULL);
	r->patches[1].findings.v[2] = finding(FS_FIND_TARGET_ABSENT, "known");
	r->patches[1].findings.n = 3;
	r->counts[FS_FIND_FIX_MISSING] = 1;
	r->counts[FS_FIND_REVERTED_UPSTREAM] = 1;
	r->counts[FS_FIND_FIX_PRESENT] = 1;
	r->problems = 2;
	r->ignored = 1;

	assert_int_equal(fs_review_narrow(&one, r, 1, &err), 0);
	assert_int_equal(one->npatches, 1);
	assert_ptr_equal(one->patches, &r->patches[1]);
	assert_int_equal(one->counts[FS_FIND_FIX_MISSING], 0);
	assert_int_equal(one->counts[FS_FIND_REVERTED_UPSTREAM], 1);
	assert_int_equal(one->counts[FS_FIND_FIX_PRESENT], 1);
	assert_int_equal(one->counts[FS_FIND_TARGET_ABSENT], 0);
	assert_int_equal(one->problems, 1);
	assert_int_equal(one->ignored, 1);
	assert_int_equal(one->series->nmissing, 0);
	assert_int_equal(one->series->duplicates, 0);
	assert_int_equal(series.nmissing, 1); /* the review's own is untouched */
	assert_string_equal(one->branch, "linux-4.4.y");
	assert_ptr_not_equal(one->branch, r->branch);
	assert_string_equal(one->base, "v4.4.10");
	fs_review_free(one);
	/* R is whole after its view is gone (ASan would see a double free). */
	assert_int_equal(r->patches[1].findings.n, 3);

	assert_ptr_equal(fs_review_find_patch(r, NULL, &k), &r->patches[0]);
	assert_int_equal(k, 0);
	fs_review_free(r);
}

static void test_ignore(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_ignore *ign = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/ignore", tmpdir);
	write_file(path, "# comment\n\n"
			 "abcd1234 * not for stable\n"
			 "* 99887766aa backported by hand\n"
			 "feedbeef 12345678\n");
	assert_int_equal(fs_ignore_load(&ign, path, &err), 0);
	assert_string_equal(fs_ignore_match(ign, "abcd1234ffff", "0000aaaa"), "not for stable");
	assert_string_equal(fs_ignore_match(ign, "0123", "99887766aabb"), "backported by hand");
	assert_string_equal(fs_ignore_match(ign, "FEEDBEEF00", "1234567800"), "ignored");
	assert_null(fs_ignore_match(ign, "abcd1235", "0000aaaa"));
	assert_null(fs_ignore_match(NULL, "abcd1234", "x"));
	fs_ignore_free(ign);

	/* A missing file is an empty list. */
	snprintf(path, sizeof(path), "%s/no-such-ignore", tmpdir);
	assert_int_equal(fs_ignore_load(&ign, path, &err), 0);
	assert_null(fs_ignore_match(ign, "abcd1234", "0000aaaa"));
	fs_ignore_free(ign);

	/* A bad line names the file and the line. */
	snprintf(path, sizeof(path), "%s/ignore", tmpdir);
	write_file(path, "abcd1234 * fine\nnot-an-id 1234abcd why\n");
	assert_int_equal(fs_ignore_load(&ign, path, &err), FS_EPARSE);
	assert_null(ign);
	assert_non_null(strstr(err.message, "ignore:2:"));
}

/* fixscan.<version>.branch: every key of the pattern, the repository's
 * value over the global one, the version kept whole. */
static void test_config_prefixed(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_config *cfg = NULL;
	char cmd[2048], repo[300], **names = NULL, **values = NULL;
	int n;

	snprintf(repo, sizeof(repo), "%s/repo", tmpdir);
	snprintf(cmd, sizeof(cmd),
		 "git init -q '%s' && "
		 "git config --global fixscan.4.4.branch linux-4.4.y-global && "
		 "git config --global fixscan.5.10.branch linux-5.10.y && "
		 "git config --global fixscan.3.2.branches nope && "
		 "git config --global fixscan.branch nope && "
		 "git -C '%s' config fixscan.4.4.branch linux-4.4.y-repo",
		 repo, repo);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(fs_config_open(&cfg, repo, &err), 0);
	n = fs_config_get_matching(cfg, "fixscan.%s.branch", &names, &values, &err);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "4.4");
	assert_string_equal(values[0], "linux-4.4.y-repo");
	assert_string_equal(names[1], "5.10");
	assert_string_equal(values[1], "linux-5.10.y");
	assert_null(names[2]);
	fs_config_strv_free(names);
	fs_config_strv_free(values);

	n = fs_config_get_matching(cfg, "fixscan.%s.nosuch", &names, &values, &err);
	assert_int_equal(n, 0);
	assert_null(names);
	fs_config_strv_free(values);
	fs_config_free(cfg);
}

/* A kernel repository whose mainline has the commit "net: fix the
 * frobnicator" and a linux-4.4.y branch; its full id in HEX. */
static struct fs_index *own_mail_index(char hex[41])
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	char repo[512], cache[512];
	FILE *f;

	snprintf(repo, sizeof(repo), "%s/kernel", tmpdir);
	snprintf(cache, sizeof(cache), "%s/index-cache", tmpdir);
	/* Fixed dates: both repositories have the same U, F and G, which
	 * the mails of write_pending_samples() name. */
	sh("export GIT_AUTHOR_DATE='2023-11-01T10:00:00Z' GIT_COMMITTER_DATE='2023-11-01T10:00:00Z' && "
	   "git init -q -b master %s && cd %s && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m base && "
	   "git branch linux-4.4.y && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty "
	   "-m 'net: fix the frobnicator' && git rev-parse HEAD > %s/upstream-id",
	   repo, repo, tmpdir);
	snprintf(cache, sizeof(cache), "%s/upstream-id", tmpdir);
	f = fopen(cache, "r");
	assert_non_null(f);
	assert_non_null(fgets(hex, 41, f));
	fclose(f);
	snprintf(cache, sizeof(cache), "%s/index-cache", tmpdir);
	o.repo_path = repo;
	o.cache_path = cache;
	o.threads = 1;
	if (fs_index_open(&idx, &o, NULL, &err) < 0)
		fail_msg("fs_index_open: %s", err.message);
	return idx;
}

#define OWN_HDR(from, subject, id) \
	"From: " from "\nTo: list@example.org\nSubject: " subject "\n" \
	"Date: Thu, 16 Nov 2023 10:00:00 +0000\nMessage-Id: <" id "@example.org>\n"

/* A series of two patches of one upstream commit; elsewhere a real
 * regression report, fixscan's digest, the user's draft and the user's
 * sent reply, all naming the commit; in the thread the user's own sent
 * "please drop". */
static void write_own_mail_samples(const char *hex)
{
	make_maildir("sent");
	make_maildir("lists");
	write_mail("stable/cur/10.host:2,S",
		   OWN_HDR("Greg <greg@example.org>", "[PATCH 4.4 0/2] two net fixes", "cover.10")
		   "\nTwo fixes.\n");
	write_mail("stable/cur/11.host:2,S",
		   OWN_HDR("Greg <greg@example.org>", "[PATCH 4.4 1/2] net: fix the frobnicator", "p.11")
		   "In-Reply-To: <cover.10@example.org>\nReferences: <cover.10@example.org>\n\n"
		   "commit %s upstream.\n", hex);
	write_mail("stable/cur/12.host:2,S",
		   OWN_HDR("Greg <greg@example.org>", "[PATCH 4.4 2/2] net: fix the frobnicator, part two", "p.12")
		   "In-Reply-To: <cover.10@example.org>\nReferences: <cover.10@example.org>\n\n"
		   "commit %s upstream.\n", hex);
	write_mail("sent/cur/13.host:2,S",
		   OWN_HDR("Rita <Rita@Example.org>", "Re: [PATCH 4.4 1/2] net: fix the frobnicator", "own.13")
		   "In-Reply-To: <p.11@example.org>\nReferences: <cover.10@example.org> <p.11@example.org>\n\n"
		   "Please drop this, 4.4 does not need it.\n");
	write_mail("lists/cur/14.host:2,S",
		   OWN_HDR("Bo <bo@example.org>", "[REGRESSION] frobnicator hangs", "report.14")
		   "\nI bisected the hang to %.12s (\"net: fix the frobnicator\"), a regression.\n", hex);
	write_mail("lists/cur/15.host:2,S",
		   OWN_HDR("Rita <rita@example.org>", "fixscan digest", "digest.15")
		   "X-Fixscan-Digest: digest.15@example.org\n\n"
		   "regression-report: %.12s net: fix the frobnicator\n", hex);
	write_mail("sent/cur/16.host:2,S",
		   OWN_HDR("Rita <rita@example.org>", "Re: frobnicator hangs", "sent.16")
		   "In-Reply-To: <report.14@example.org>\n\n"
		   "Greg, %.12s is a regression, see the report.\n", hex);
	write_mail("Drafts/cur/17.host:2,D",
		   OWN_HDR("Nobody <nobody@example.org>", "Re: frobnicator hangs", "draft.17")
		   "\nDraft: %.12s is a regression.\n", hex);
	sh("notmuch new --quiet >/dev/null 2>&1");
}

static struct fs_review *review_own(struct fs_index *idx, struct fs_store *st,
				    const char *const *own, struct fs_thread **thread)
{
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_review *r = NULL;
	size_t n = 0;

	assert_int_equal(fs_review_load(&threads, &n, st, "id:cover.10@example.org", NULL, &err), 0);
	assert_int_equal(n, 1);
	*thread = threads[0];
	g_free(threads);
	assert_int_equal(fs_thread_count(*thread), 1);
	o.own_addresses = own;
	if (fs_review_run(&r, fs_thread_get(*thread, 0), idx, st, &o, &err) < 0)
		fail_msg("fs_review_run: %s", err.message);
	assert_int_equal(r->npatches, 2);
	return r;
}

/* Each patch gets the one real report once; the digest and the draft
 * never count; the user's sent mail counts only when the user's
 * addresses are not given. */
static void test_own_mail_and_reports_once(void **state)
{
	static const char *const own[] = { "someone@else.example", "rita@example.org", NULL };
	struct fs_thread *thread = NULL;
	struct fs_store *st;
	struct fs_index *idx;
	struct fs_review *r;
	char hex[41];
	size_t k;

	idx = own_mail_index(hex);
	write_own_mail_samples(hex);
	st = open_store();

	r = review_own(idx, st, own, &thread);
	for (k = 0; k < 2; k++) {
		assert_string_equal(finding_ids(r, k, FS_FIND_REGRESSION_REPORT), "report.14@example.org");
		assert_string_equal(finding_ids(r, k, FS_FIND_OBJECTION), "");
	}
	fs_review_free(r);
	fs_thread_free(thread);

	/* Without the addresses the user's mail is anyone's: this is what
	 * the addresses leave out, and the digest and draft still never
	 * count. */
	r = review_own(idx, st, NULL, &thread);
	assert_string_equal(finding_ids(r, 0, FS_FIND_REGRESSION_REPORT),
			    "report.14@example.org sent.16@example.org");
	assert_string_equal(finding_ids(r, 1, FS_FIND_REGRESSION_REPORT),
			    "report.14@example.org sent.16@example.org");
	assert_string_equal(finding_ids(r, 0, FS_FIND_OBJECTION), "own.13@example.org");
	assert_string_equal(finding_ids(r, 1, FS_FIND_OBJECTION), "");
	fs_review_free(r);
	fs_thread_free(thread);
	fs_store_free(st);
	fs_index_free(idx);
}

/* ---- reports found the same way whatever the search costs ------------ */

/* Mainline commits, in order, whose reports test_reports_either_way()
 * looks for: two subjects that begin alike, a subject of under 8 bytes,
 * and one nobody names. */
static const char *const report_subjects[] = {
	"net: fix the gizmo", "net: fix the widget", "tun: z",
	"mm: avoid a leak in the pool allocator", "sound: quiet the beeper",
};
#define NREPORT_SUBJECTS (sizeof(report_subjects) / sizeof(report_subjects[0]))

static struct fs_index *reports_index(char hex[][41])
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	char repo[512], cache[512];
	size_t i;
	FILE *f;

	snprintf(repo, sizeof(repo), "%s/kernel-reports", tmpdir);
	/* Fixed dates: both repositories have the same U, F and G, which
	 * the mails of write_pending_samples() name. */
	sh("export GIT_AUTHOR_DATE='2023-11-01T10:00:00Z' GIT_COMMITTER_DATE='2023-11-01T10:00:00Z' && "
	   "git init -q -b master %s && cd %s && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m base && "
	   "git branch linux-4.4.y", repo, repo);
	for (i = 0; i < NREPORT_SUBJECTS; i++)
		sh("cd %s && git -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m '%s'",
		   repo, report_subjects[i]);
	sh("cd %s && git log --reverse --format=%%H master~%zu..master > %s/report-ids",
	   repo, NREPORT_SUBJECTS, tmpdir);
	snprintf(cache, sizeof(cache), "%s/report-ids", tmpdir);
	f = fopen(cache, "r");
	assert_non_null(f);
	for (i = 0; i < NREPORT_SUBJECTS; i++) {
		char line[64];
		assert_non_null(fgets(line, sizeof(line), f));
		memcpy(hex[i], line, 40);
		hex[i][40] = '\0';
	}
	fclose(f);
	snprintf(cache, sizeof(cache), "%s/index-cache-reports", tmpdir);
	o.repo_path = repo;
	o.cache_path = cache;
	o.threads = 1;
	if (fs_index_open(&idx, &o, NULL, &err) < 0)
		fail_msg("fs_index_open: %s", err.message);
	return idx;
}

#define REPORT_HDR(subject, id, minute) \
	"From: Bo <bo@example.org>\nTo: list@example.org\nSubject: " subject "\n" \
	"Date: Fri, 17 Nov 2023 10:" minute ":00 +0000\nMessage-Id: <" id "@example.org>\n\n"

/* A thread backporting the last commit, and reports each naming one
 * commit in one of the ways a report names a commit, so that the search
 * missing one way misses a report: a subject in the report's subject,
 * ending it (that of the second of two commits whose subjects begin
 * alike), an abbreviated id in capitals, a subject of under 8 bytes,
 * the id inside a longer run of hex digits (the subject there as words,
 * not exactly), the full id; and a patch mail of another series, which
 * reports nothing. */
static void write_report_samples(char hex[][41])
{
	char up[13];
	size_t i;

	for (i = 0; i < 12; i++)
		up[i] = g_ascii_toupper(hex[1][i]);
	up[12] = '\0';
	make_maildir("lists");
	write_mail("stable/cur/20.host:2,S",
		   REPORT_HDR("[PATCH 4.4 0/1] one sound fix", "cover.20", "00") "One fix.\n");
	write_mail("stable/cur/21.host:2,S",
		   "In-Reply-To: <cover.20@example.org>\nReferences: <cover.20@example.org>\n"
		   REPORT_HDR("[PATCH 4.4 1/1] sound: quiet the beeper", "p.21", "01")
		   "commit %s upstream.\n", hex[4]);
	write_mail("lists/cur/30.host:2,S",
		   REPORT_HDR("[REGRESSION] boot hangs", "r.30", "30") "Bisected to %s in mainline.\n", up);
	write_mail("lists/cur/31.host:2,S",
		   REPORT_HDR("Regression from net: fix the gizmo", "r.31", "31") "Seen here too.\n");
	write_mail("lists/cur/32.host:2,S",
		   REPORT_HDR("tunnels", "r.32", "32") "Reverting tun: z made it work again.\n");
	write_mail("lists/cur/33.host:2,S",
		   REPORT_HDR("pools", "r.33", "33")
		   "mm avoid a leak in the pool allocator broke my box, see g0%.12s.\n", hex[3]);
	write_mail("lists/cur/34.host:2,S",
		   REPORT_HDR("beeps", "r.34", "34") "Since %s the beeper is broken.\n", hex[4]);
	write_mail("lists/cur/35.host:2,S",
		   REPORT_HDR("[PATCH] net: revert the gizmo fix", "p.35", "35")
		   "This reverts commit %s (net: fix the gizmo).\n", hex[0]);
	sh("notmuch new --quiet >/dev/null 2>&1");
}

/* The reports of the series in THREAD for the commits CIDS, searched with
 * the limit PER_COMMIT, as "commit-number:message-id ..." */
static char *reports_with(struct fs_store *st, const struct fs_index *idx,
			  const struct fs_thread *thread, const fs_cid *cids, size_t per_commit)
{
	struct fs_mentions m = FS_MENTIONS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	GString *out = g_string_new(NULL);
	size_t i, k;

	if (fs_mentions_reports_limit(&m, st, idx, fs_thread_get(thread, 0), cids,
				      NREPORT_SUBJECTS, NULL, per_commit, &err) < 0)
		fail_msg("fs_mentions_reports_limit: %s", err.message);
	for (i = 0; i < m.nreports; i++) {
		for (k = 0; k < NREPORT_SUBJECTS && cids[k] != m.reports[i].upstream; k++)
			;
		g_string_append_printf(out, "%s%zu:%s", out->len ? " " : "", k,
				       m.reports[i].message_id);
	}
	fs_mentions_clear(&m);
	return g_string_free(out, FALSE);
}

/* Reading the candidate mails and asking notmuch only for the commits
 * they name finds what asking for every commit finds. */
static void test_reports_either_way(void **state)
{
	static const char expected[] =
		"0:r.31@example.org 1:r.30@example.org 2:r.32@example.org "
		"3:r.33@example.org 4:r.34@example.org";
	static const size_t limits[] = { 0, SIZE_MAX, FS_MENTIONS_CANDIDATES_PER_COMMIT };
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	fs_cid cids[NREPORT_SUBJECTS];
	char hex[NREPORT_SUBJECTS][41];
	struct fs_store *st;
	struct fs_index *idx;
	size_t i, n = 0;

	idx = reports_index(hex);
	write_report_samples(hex);
	for (i = 0; i < NREPORT_SUBJECTS; i++)
		assert_int_equal(fs_index_resolve(idx, hex[i], &cids[i], &err), 0);
	st = open_store();
	assert_int_equal(fs_review_load(&threads, &n, st, "id:cover.20@example.org", NULL, &err), 0);
	assert_int_equal(n, 1);
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		char *got = reports_with(st, idx, threads[0], cids, limits[i]);
		assert_string_equal(got, expected);
		g_free(got);
	}
	fs_thread_free(threads[0]);
	g_free(threads);
	fs_store_free(st);
	fs_index_free(idx);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_load_unreadable),
		cmocka_unit_test(test_objections),
		cmocka_unit_test(test_objection_line),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_ignore),
		cmocka_unit_test(test_config_prefixed),
		cmocka_unit_test(test_own_mail_and_reports_once),
		cmocka_unit_test(test_reports_either_way),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
