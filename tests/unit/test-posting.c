/* Unit tests for series-partial: the posting ids (series.c), the index's
 * Link table (fs_index_series_of(), through a full build and a delta)
 * and the finding, on a small history made with git fast-import whose
 * mainline commits carry real Link: trailers.
 *
 * Each judgement case lists every finding expected and nothing else.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/posting.h"
#include "fixscan/trailers.h"

#include "repo-builder.h"

/* ---- the ids -------------------------------------------------------------- */

static const struct {
	const char *id;
	enum fs_posting_form form;
	const char *key;
	unsigned part;
} ids[] = {
	{ "20240110123456.12345-3-jdoe@example.com", FS_POSTING_SEND_EMAIL,
	  "20240110123456.12345-*-jdoe@example.com", 3 },
	{ "<20240110123456.12345-12-jdoe@example.com>", FS_POSTING_SEND_EMAIL,
	  "20240110123456.12345-*-jdoe@example.com", 12 },
	{ "1449225155-23735-2-git-send-email-foo@example.org", FS_POSTING_SEND_EMAIL,
	  "1449225155-23735-*-git-send-email-foo@example.org", 2 },
	{ "20240110-topic-v2-3-abcdef012345@example.com", FS_POSTING_B4,
	  "20240110-topic-v2-*-abcdef012345@example.com", 3 },
	{ "20240110-a-long-topic-v11-0-abcdef012345@kernel.org", FS_POSTING_B4,
	  "20240110-a-long-topic-v11-*-abcdef012345@kernel.org", 0 },
	/* git send-email counts from 1 */
	{ "20240110123456.12345-0-jdoe@example.com", FS_POSTING_NONE, NULL, 0 },
	/* git format-patch: the time may differ between the parts */
	{ "cover.1704899999.git.jdoe@example.com", FS_POSTING_NONE, NULL, 0 },
	{ "3f2a1b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a.1704899999.git.jdoe@example.com",
	  FS_POSTING_NONE, NULL, 0 },
	/* mail clients' ids */
	{ "CAHk-=wjx0aBcD1eF2g3H4@mail.gmail.com", FS_POSTING_NONE, NULL, 0 },
	{ "87a5b3c2d1.fsf@example.org", FS_POSTING_NONE, NULL, 0 },
	{ "20240110123456.GA12345@example.com", FS_POSTING_NONE, NULL, 0 },
	{ "20241219888c3a.57436-6-dxu@example.net", FS_POSTING_NONE, NULL, 0 },
	{ "20240110-topic-3-abcdef012345@example.com", FS_POSTING_NONE, NULL, 0 },
	{ "20240110-topic-v2-3-abc@example.com", FS_POSTING_NONE, NULL, 0 },
	{ "20240110123456.12345-99999-jdoe@example.com", FS_POSTING_NONE, NULL, 0 },
	{ "", FS_POSTING_NONE, NULL, 0 },
};

static void test_parse_ids(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char key[256] = "";
		unsigned part = 77;
		enum fs_posting_form f = fs_posting_parse_id(ids[i].id, strlen(ids[i].id), key,
							   sizeof(key), &part);
		if (f != ids[i].form)
			fail_msg("%s: form %d, expected %d", ids[i].id, f, ids[i].form);
		if (!ids[i].key)
			continue;
		assert_string_equal(key, ids[i].key);
		assert_int_equal(part, ids[i].part);
	}
}

static void test_part_id(void **state)
{
	char out[128], small[8];

	assert_true(fs_posting_part_id("20240110-topic-v2-*-abcdef012345@example.com", 0, out,
				      sizeof(out)));
	assert_string_equal(out, "20240110-topic-v2-0-abcdef012345@example.com");
	assert_false(fs_posting_part_id("20240110-topic-v2-*-abcdef012345@example.com", 0, small,
				       sizeof(small)));
	assert_false(fs_posting_part_id("no-star@example.com", 1, out, sizeof(out)));
}

static const struct {
	const char *msg;
	const char *key; /* NULL: none */
	unsigned part;
} msgs[] = {
	{ "x: y\n\nBody.\n\nLink: https://lore.kernel.org/r/20240110123456.12345-3-jdoe@example.com\n",
	  "20240110123456.12345-*-jdoe@example.com", 3 },
	{ "x: y\n\nLink: https://lore.kernel.org/all/20240110123456.12345-4-jdoe@example.com/\n"
	  "Signed-off-by: M <m@example.org>\n", "20240110123456.12345-*-jdoe@example.com", 4 },
	{ "x: y\n\nLink: https://lore.kernel.org/linux-usb/20240110123456.12345-5-jdoe@example.com/T/\n",
	  "20240110123456.12345-*-jdoe@example.com", 5 },
	{ "x: y\n\nLink: https://patch.msgid.link/20240110-topic-v2-3-abcdef012345@example.com\n",
	  "20240110-topic-v2-*-abcdef012345@example.com", 3 },
	{ "x: y\n\nLink: https://msgid.link/r/20240110-topic-v2-1-abcdef012345@example.com\n",
	  "20240110-topic-v2-*-abcdef012345@example.com", 1 },
	/* an escaped @ */
	{ "x: y\n\nLink: https://lore.kernel.org/r/20240110123456.12345-2-jdoe%40example.com\n",
	  "20240110123456.12345-*-jdoe@example.com", 2 },
	/* the last numbered posting wins: the one the commit was applied from */
	{ "x: y\n\nLink: https://lore.kernel.org/r/20240101000000.1-1-a@example.com\n"
	  "Link: https://bugzilla.kernel.org/show_bug.cgi?id=1\n"
	  "Link: https://lore.kernel.org/r/20240110123456.12345-2-jdoe@example.com\n"
	  "Link: https://lore.kernel.org/r/CAHk-=abc@mail.gmail.com\n",
	  "20240110123456.12345-*-jdoe@example.com", 2 },
	/* no archive, a mail client's id, a quoted link, no Link: */
	{ "x: y\n\nLink: https://example.com/20240110123456.12345-2-jdoe@example.com\n", NULL, 0 },
	{ "x: y\n\nLink: https://lore.kernel.org/r/87a5b3c2d1.fsf@example.org\n", NULL, 0 },
	{ "x: y\n\nAs in Link: https://lore.kernel.org/r/20240110123456.12345-2-jdoe@example.com\n",
	  NULL, 0 },
	{ "x: y\n\nCloses: https://lore.kernel.org/r/20240110123456.12345-2-jdoe@example.com\n",
	  NULL, 0 },
	{ "Link:", NULL, 0 },
};

static void test_from_message(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		char key[256] = "";
		unsigned part = 0;
		enum fs_posting_form f = fs_posting_from_message(msgs[i].msg, strlen(msgs[i].msg), key,
							       sizeof(key), &part);
		if ((f != FS_POSTING_NONE) != (msgs[i].key != NULL))
			fail_msg("message %zu: form %d", i, f);
		if (!msgs[i].key)
			continue;
		assert_string_equal(key, msgs[i].key);
		assert_int_equal(part, msgs[i].part);
	}
}

/* ---- the history ------------------------------------------------------------
 *
 * mainline after v4.4 (light, on X0, where linux-4.4.y forks):
 *   A1..A4  one git send-email posting (lore /r/ links); A5 comes later
 *   B1, B2  one b4 posting (patch.msgid.link)
 *   C1, C2  one posting (lore /all/); C2 backported to linux-4.4.y
 *   D1      a series of one
 *   E1, E2  both link one mail whose id is no series id
 *   F1, F2  git format-patch ids, the same time and sender
 *   G1, G2  v1 and v2 of a b4 posting (parts 1 and 2 of each)
 *   H1, H2  one posting; H1's part twice in mainline (H1, H1B), H1B
 *           backported
 *   I1..I3  one posting; I3 reverted in mainline (IR)
 *   J1, J2  both link the cover of one b4 posting; J1B is J1 again
 * linux-4.4.y: BA1 = A1 (carrying A1's Link: too), BC2 = C2, BH1B = H1B.
 */
struct hist {
	struct repo *r;
	int x0, a[6], b[3], c[3], d1, e[3], f[3], g[3], h1, h1b, h2, i[4], ir, j1, j2, j1b;
	int ba1, bc2, bh1b;
};

static struct hist H;
static struct fs_index *IDX;
static char cache_path[PATH_MAX];

#define SE "20160105120000.4242-%d-dev@example.org"

static int linked(struct repo *r, int parent, const char *subject, const char *link)
{
	return commit(r, "master", parent, "%s\n\nWhat it does.\n\nSigned-off-by: D Ev <dev@example.org>\n"
		      "Link: %s\nSigned-off-by: M Aint <maint@example.org>\n", subject, link);
}

static int se_part(struct repo *r, int parent, int n)
{
	char link[200], subject[64];

	snprintf(link, sizeof(link), "https://lore.kernel.org/r/" SE, n);
	snprintf(subject, sizeof(subject), "usb: part %d of a", n);
	return linked(r, parent, subject, link);
}

static void build_hist(struct hist *h)
{
	struct repo *r = repo_new("kernel");
	int at, i;

	h->r = r;
	at = commit(r, "master", 0, "Initial import\n");
	h->x0 = commit(r, "master", at, "net: old thing\n");
	g_string_append_printf(r->fi, "reset refs/tags/v4.4\nfrom :%d\n\n", h->x0);
	at = h->x0;
	for (i = 1; i <= 4; i++)
		at = h->a[i] = se_part(r, at, i);
	at = h->b[1] = linked(r, at, "gpio: b one",
			      "https://patch.msgid.link/20160106-gpio-cleanup-v1-1-0123456789ab@example.org");
	at = h->b[2] = linked(r, at, "gpio: b two",
			      "https://patch.msgid.link/20160106-gpio-cleanup-v1-2-0123456789ab@example.org");
	at = h->c[1] = linked(r, at, "mm: c one",
			      "https://lore.kernel.org/all/20160107080000.777-1-cee@example.org/");
	at = h->c[2] = linked(r, at, "mm: c two",
			      "https://lore.kernel.org/all/20160107080000.777-2-cee@example.org/");
	at = h->d1 = linked(r, at, "fs: d alone", "https://lore.kernel.org/r/20160108080000.888-1-dee@example.org");
	at = h->e[1] = linked(r, at, "net: e one", "https://lore.kernel.org/r/CAHk-=eee@mail.gmail.com");
	at = h->e[2] = linked(r, at, "net: e two", "https://lore.kernel.org/r/CAHk-=eee@mail.gmail.com");
	at = h->f[1] = linked(r, at, "net: f one",
			      "https://lore.kernel.org/r/1111111111111111111111111111111111111111.1452000000.git.eff@example.org");
	at = h->f[2] = linked(r, at, "net: f two",
			      "https://lore.kernel.org/r/2222222222222222222222222222222222222222.1452000000.git.eff@example.org");
	at = h->g[1] = linked(r, at, "drm: g one",
			      "https://patch.msgid.link/20160109-drm-gee-v1-1-aaaaaaaaaaaa@example.org");
	at = h->g[2] = linked(r, at, "drm: g two",
			      "https://patch.msgid.link/20160110-drm-gee-v2-2-aaaaaaaaaaaa@example.org");
	at = h->h1 = linked(r, at, "hid: h one", "https://lore.kernel.org/r/20160111080000.999-1-aitch@example.org");
	at = h->h1b = linked(r, at, "hid: h one, again",
			     "https://lore.kernel.org/r/20160111080000.999-1-aitch@example.org");
	at = h->h2 = linked(r, at, "hid: h two", "https://lore.kernel.org/r/20160111080000.999-2-aitch@example.org");
	for (i = 1; i <= 3; i++) {
		char link[128], subject[32];

		snprintf(link, sizeof(link), "https://lore.kernel.org/r/20160112080000.321-%d-eye@example.org", i);
		snprintf(subject, sizeof(subject), "iio: i part %d", i);
		at = h->i[i] = linked(r, at, subject, link);
	}
	at = h->ir = commit(r, "master", at, "Revert \"iio: i part 3\"\n\nThis reverts commit %s.\n",
			    id(r, h->i[3]));
	at = h->j1 = linked(r, at, "spi: j one", "https://patch.msgid.link/20160113-spi-jay-v1-0-bbbbbbbbbbbb@example.org");
	at = h->j2 = linked(r, at, "spi: j two", "https://patch.msgid.link/20160113-spi-jay-v1-0-bbbbbbbbbbbb@example.org");
	at = h->j1b = linked(r, at, "spi: j one", "https://patch.msgid.link/20160113-spi-jay-v1-0-bbbbbbbbbbbb@example.org");
	g_string_append_printf(r->fi, "reset refs/tags/v4.5-rc1\nfrom :%d\n\n", at);
	h->ba1 = commit(r, "linux-4.4.y", h->x0, "usb: part 1 of a\n\ncommit %s upstream.\n\n"
			"Link: https://lore.kernel.org/r/" SE "\n", id(r, h->a[1]), 1);
	h->bc2 = commit(r, "linux-4.4.y", h->ba1, "mm: c two\n\ncommit %s upstream.\n", id(r, h->c[2]));
	h->bh1b = commit(r, "linux-4.4.y", h->bc2, "hid: h one, again\n\ncommit %s upstream.\n",
			 id(r, h->h1b));
	g_string_append_printf(r->fi, "reset refs/tags/v4.4.1\nfrom :%d\n\n", h->bh1b);
	repo_flush(r);
}

static struct fs_index_stats STATS;

static int open_index(void)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;

	fs_index_free(IDX);
	IDX = NULL;
	o.repo_path = H.r->dir;
	o.cache_path = cache_path;
	o.threads = 2;
	if (fs_index_open(&IDX, &o, &STATS, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	return 0;
}

static int group_setup(void **state)
{
	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-posting.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	build_hist(&H);
	snprintf(cache_path, sizeof(cache_path), "%s/index.cache", tmp_root);
	*state = NULL;
	return open_index();
}

static int group_teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	fs_index_free(IDX);
	repo_free(H.r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

static fs_cid cid_of(int mark)
{
	fs_cid c = FS_CID_NONE;

	assert_int_equal(fs_index_resolve(IDX, id(H.r, mark), &c, NULL), 0);
	return c;
}

/* ---- the Link table ---------------------------------------------------------- */

/* fs_index_series_of(MARK) is exactly the marks OTHERS (0-ended) with
 * parts PARTS, MARK itself part PART. */
static void expect_series(int mark, unsigned part, const int *others, const unsigned *parts)
{
	struct fs_index_series_part got[16];
	unsigned p = 99;
	size_t n = fs_index_series_of(IDX, cid_of(mark), &p, got, 16), i;

	assert_int_equal(p, part);
	for (i = 0; others[i]; i++) {
		size_t j;

		/* in part order; one part's commits in id order */
		for (j = 0; j < n && got[j].commit != cid_of(others[i]); j++)
			;
		assert_true(j < n);
		assert_int_equal(got[j].part, parts[i]);
		assert_true(j == 0 || got[j - 1].part <= got[j].part);
	}
	assert_int_equal(n, i);
}

static void test_link_table(void **state)
{
	const int none[] = { 0 };

	expect_series(H.a[2], 2, (int[]){ H.a[1], H.a[3], H.a[4], 0 }, (unsigned[]){ 1, 3, 4 });
	expect_series(H.b[1], 1, (int[]){ H.b[2], 0 }, (unsigned[]){ 2 });
	expect_series(H.c[1], 1, (int[]){ H.c[2], 0 }, (unsigned[]){ 2 });
	expect_series(H.d1, 1, none, NULL);
	expect_series(H.e[1], 0, none, NULL);
	expect_series(H.f[1], 0, none, NULL);
	expect_series(H.g[1], 1, none, NULL);
	expect_series(H.g[2], 2, none, NULL);
	/* the same part twice is no other part */
	expect_series(H.h1, 1, (int[]){ H.h2, 0 }, (unsigned[]){ 2 });
	expect_series(H.h2, 2, (int[]){ H.h1, H.h1b, 0 }, (unsigned[]){ 1, 1 });
	/* a backport's copy of the Link: is not in the table */
	expect_series(H.ba1, 0, none, NULL);
	/* and the references of a commit do not show the table's entry */
	{
		struct fs_index_ref refs[4];
		assert_int_equal(fs_index_commit_refs(IDX, cid_of(H.a[1]), refs, 4), 0);
	}
}

/* ---- the finding ------------------------------------------------------------- */

/* Judge the patch backporting mainline commit SELF in a series of the
 * backports of the marks SERIES (0-ended, SELF among them). */
static void judge(int self, const int *series, struct fs_findings *out)
{
	struct fs_series_entry entries[8];
	fs_cid ups[8];
	struct fs_findings_ctx ctx;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_trailers *tags = NULL;
	char *text;
	int i, me = -1;

	for (i = 0; series[i]; i++) {
		ups[i] = cid_of(series[i]);
		entries[i].index = i + 1;
		entries[i].upstream = &ups[i];
		entries[i].nupstream = 1;
		if (series[i] == self)
			me = i + 1;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = IDX;
	ctx.branch = "linux-4.4.y";
	ctx.series = entries;
	ctx.nseries = (size_t)i;
	text = g_strdup_printf("%s\n\ncommit %s upstream.\n", fs_index_commit_subject(IDX, cid_of(self)),
			       id(H.r, self));
	assert_int_equal(fs_trailers_parse(&tags, text, strlen(text), &err), 0);
	assert_int_equal(fs_findings_judge(out, &ctx, tags, fs_index_commit_subject(IDX, cid_of(self)),
					   me, &err), 0);
	fs_trailers_free(tags);
	g_free(text);
}

/* OUT is exactly one series-partial naming MISSING (marks, 0-ended, with
 * parts PARTS) for mark SELF at part PART, or nothing when MISSING is
 * empty. */
static void expect_partial(const struct fs_findings *out, int self, unsigned part,
			   const int *missing, const unsigned *parts)
{
	size_t i;

	if (!missing[0]) {
		for (i = 0; i < out->n; i++)
			fail_msg("unexpected %s %s", fs_finding_kind_name(out->v[i].kind), out->v[i].commit);
		return;
	}
	assert_int_equal(out->n, 1);
	assert_int_equal(out->v[0].kind, FS_FIND_SERIES_PARTIAL);
	assert_string_equal(out->v[0].commit, id(H.r, self));
	assert_false(fs_finding_is_problem(&out->v[0]));
	assert_int_equal(out->v[0].posting.part, part);
	for (i = 0; missing[i]; i++) {
		assert_true(i < out->v[0].posting.nparts);
		assert_string_equal(out->v[0].posting.parts[i].commit, id(H.r, missing[i]));
		assert_string_equal(out->v[0].posting.parts[i].subject,
				    fs_index_commit_subject(IDX, cid_of(missing[i])));
		assert_int_equal(out->v[0].posting.parts[i].part, parts[i]);
		assert_int_equal(out->v[0].posting.parts[i].total, 0);
	}
	assert_int_equal(out->v[0].posting.nparts, i);
}

static void check(int self, const int *series, unsigned part, const int *missing,
		  const unsigned *parts)
{
	struct fs_findings out = FS_FINDINGS_INIT;

	judge(self, series, &out);
	expect_partial(&out, self, part, missing, parts);
	fs_findings_clear(&out);
}

static void test_partial(void **state)
{
	const int none[] = { 0 };

	/* A1 is in the branch (a backport), A3 queued: A4 is missing */
	check(H.a[2], (int[]){ H.a[2], H.a[3], 0 }, 2, (int[]){ H.a[4], 0 }, (unsigned[]){ 4 });
	/* alone in its series: A3 and A4 */
	check(H.a[2], (int[]){ H.a[2], 0 }, 2, (int[]){ H.a[3], H.a[4], 0 }, (unsigned[]){ 3, 4 });
	/* the whole posting queued (or in the branch): nothing */
	check(H.a[2], (int[]){ H.a[4], H.a[2], H.a[3], 0 }, 2, none, NULL);
	/* b4 ids, patch.msgid.link */
	check(H.b[1], (int[]){ H.b[1], 0 }, 1, (int[]){ H.b[2], 0 }, (unsigned[]){ 2 });
	check(H.b[2], (int[]){ H.b[1], H.b[2], 0 }, 2, none, NULL);
	/* lore /all/; the other part in the branch through its backport */
	check(H.c[1], (int[]){ H.c[1], 0 }, 1, none, NULL);
	/* a series of one; ids of no series; v1 and v2 of a posting */
	check(H.d1, (int[]){ H.d1, 0 }, 1, none, NULL);
	check(H.e[1], (int[]){ H.e[1], 0 }, 0, none, NULL);
	check(H.f[1], (int[]){ H.f[1], 0 }, 0, none, NULL);
	check(H.g[1], (int[]){ H.g[1], 0 }, 1, none, NULL);
	/* a part mainline has twice: one of them in the branch is enough */
	check(H.h2, (int[]){ H.h2, 0 }, 2, none, NULL);
	check(H.h1, (int[]){ H.h1, 0 }, 1, (int[]){ H.h2, 0 }, (unsigned[]){ 2 });
	/* the commits that link a b4 cover: each a part (not one of the
	 * same subject, the same patch again) */
	check(H.j1, (int[]){ H.j1, 0 }, 0, (int[]){ H.j2, 0 }, (unsigned[]){ 0 });
	check(H.j2, (int[]){ H.j2, 0 }, 0, (int[]){ H.j1, H.j1b, 0 }, (unsigned[]){ 0, 0 });
	check(H.j2, (int[]){ H.j2, H.j1, 0 }, 0, none, NULL);
	/* a part mainline reverted is none */
	check(H.i[1], (int[]){ H.i[1], 0 }, 1, (int[]){ H.i[2], 0 }, (unsigned[]){ 2 });
	check(H.i[1], (int[]){ H.i[1], H.i[2], 0 }, 1, none, NULL);
}

/* The store's answer for posting A: mail 1 a cover of 3 patches (so A1,
 * mail 1, would be no patch of it: the numbers are the store's word). */
static int fake_size(void *data, const char *key, int form, unsigned *total, unsigned *first)
{
	if (strcmp(key, "20160105120000.4242-*-dev@example.org") || form != FS_POSTING_SEND_EMAIL)
		return FS_ENOTFOUND;
	*total = 3;
	*first = 2;
	return 0;
}

/* With the posting's size known, the parts are its patch numbers, N/M. */
static void test_total(void **state)
{
	struct fs_findings out = FS_FINDINGS_INIT;
	struct fs_findings_ctx ctx;
	struct fs_series_entry e = { 1, NULL, 1 };
	struct fs_error err = FS_ERROR_INIT;
	struct fs_trailers *tags = NULL;
	fs_cid up = cid_of(H.a[2]);
	char *text = g_strdup_printf("x\n\ncommit %s upstream.\n", id(H.r, H.a[2]));

	e.upstream = &up;
	memset(&ctx, 0, sizeof(ctx));
	ctx.idx = IDX;
	ctx.branch = "linux-4.4.y";
	ctx.series = &e;
	ctx.nseries = 1;
	ctx.message = fs_index_read_message;
	ctx.message_data = H.r->dir;
	ctx.posting_size = fake_size;
	assert_int_equal(fs_trailers_parse(&tags, text, strlen(text), &err), 0);
	assert_int_equal(fs_findings_judge(&out, &ctx, tags, "x", 1, &err), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.v[0].posting.part, 1);
	assert_int_equal(out.v[0].posting.nparts, 2);
	assert_string_equal(out.v[0].posting.parts[0].commit, id(H.r, H.a[3]));
	assert_int_equal(out.v[0].posting.parts[0].part, 2);
	assert_int_equal(out.v[0].posting.parts[0].total, 3);
	assert_int_equal(out.v[0].posting.parts[1].part, 3);
	assert_int_equal(out.v[0].posting.parts[1].total, 3);
	assert_string_equal(out.v[0].note, "part 1/3 of its posting; 2 other parts in mainline, "
			    "neither in linux-4.4.y nor in this series");
	fs_findings_clear(&out);
	/* another posting: the store does not know it, mail numbers */
	fs_trailers_free(tags);
	g_free(text);
	text = g_strdup_printf("x\n\ncommit %s upstream.\n", id(H.r, H.b[1]));
	up = cid_of(H.b[1]);
	assert_int_equal(fs_trailers_parse(&tags, text, strlen(text), &err), 0);
	assert_int_equal(fs_findings_judge(&out, &ctx, tags, "x", 1, &err), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.v[0].posting.parts[0].part, 2);
	assert_int_equal(out.v[0].posting.parts[0].total, 0);
	fs_findings_clear(&out);
	fs_trailers_free(tags);
	g_free(text);
}

/* A part that lands later comes through the index's delta. */
static void test_delta(void **state)
{
	struct repo *r = H.r;

	H.a[5] = commit(r, "master", H.j1b, "usb: part 5 of a\n\nLink: https://lore.kernel.org/r/"
			SE "\n", 5);
	repo_flush(r);
	assert_int_equal(open_index(), 0);
	/* an update: the new commit read, the cache's kept */
	assert_false(STATS.rebuilt);
	assert_int_equal(STATS.new_commits, 1);
	check(H.a[2], (int[]){ H.a[2], H.a[3], 0 }, 2, (int[]){ H.a[4], H.a[5], 0 },
	      (unsigned[]){ 4, 5 });
	expect_series(H.a[5], 5, (int[]){ H.a[1], H.a[2], H.a[3], H.a[4], 0 },
		      (unsigned[]){ 1, 2, 3, 4 });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ids),
		cmocka_unit_test(test_part_id),
		cmocka_unit_test(test_from_message),
		cmocka_unit_test(test_link_table),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_delta),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
