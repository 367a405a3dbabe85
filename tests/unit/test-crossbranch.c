/* Unit tests for the crossbranch module: the open reviews of several
 * stable branches judged together against a small history made with git
 * fast-import (four stable branches, 4.10 after 4.6 in version order),
 * with review threads parsed from invented mails.  Each case lists every
 * cross-branch finding expected, and nothing else may appear.
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

#include "fixscan/crossbranch.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/mail.h"
#include "fixscan/review.h"
#include "fixscan/thread.h"

#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

/* mainline: X0 (v4.4), A, v4.5 on A; B, v4.6 on B2;
 *   U, R1 reverts U (between v4.6 and v4.10); P (before v4.4's fork? no:
 *   after v4.6), v4.10 on K10;
 *   D, E, G, J, R2 reverts R1, PF Fixes P, V, RV reverts V (after v4.10)
 * linux-4.4.y: one commit, v4.4.1
 * linux-4.5.y: one commit, v4.5.3
 * linux-4.6.y: one commit, v4.6.2
 * linux-4.10.y: E backported, D backported and that backport reverted
 *   (v4.10.1: D is not in 4.10, net of the revert), G backported after the
 *   threads (v4.10.2)
 */
struct kernel {
	struct repo *r;
	int x0, a, b, b2, u, r1, p, k10, d, e, g, j, r2, pf, v, rv, s44, s45, s46, e410, g410;
	int d410, rd410, w, w410, rw410;
};

static struct kernel K;
static struct fs_index *IDX;
static char maildir[PATH_MAX];

static void build_kernel(struct kernel *k)
{
	struct repo *r = repo_new("kernel");
	int base;

	k->r = r;
	base = commit(r, "master", 0, "Initial import\n");
	k->x0 = commit(r, "master", base, "net: old thing\n");
	tag_light(r, "v4.4", k->x0);
	k->a = commit(r, "master", k->x0, "net: add a\n");
	tag_light(r, "v4.5", k->a);
	k->b = commit(r, "master", k->a, "mm: fix b\n");
	k->b2 = commit(r, "master", k->b, "mm: more b\n");
	tag_light(r, "v4.6", k->b2);
	k->u = commit(r, "master", k->b2, "usb: add u\n");
	k->r1 = commit(r, "master", k->u, "Revert \"usb: add u\"\n\nThis reverts commit %s.\n", id(r, k->u));
	k->p = commit(r, "master", k->r1, "pci: add p\n");
	k->k10 = commit(r, "master", k->p, "kernel: 4.10 things\n");
	tag_light(r, "v4.10", k->k10);
	k->d = commit(r, "master", k->k10, "drm: fix d\n");
	k->e = commit(r, "master", k->d, "ext4: fix e\n");
	k->g = commit(r, "master", k->e, "gpio: fix g\n");
	k->j = commit(r, "master", k->g, "jbd2: fix j\n");
	k->r2 = commit(r, "master", k->j, "Revert \"Revert \"usb: add u\"\"\n\nThis reverts commit %s.\n",
		       id(r, k->r1));
	k->pf = commit(r, "master", k->r2, "pci: fix p\n\nFixes: %.12s (\"pci: add p\")\n", id(r, k->p));
	k->v = commit(r, "master", k->pf, "sound: add v\n");
	k->rv = commit(r, "master", k->v, "Revert \"sound: add v\"\n\nThis reverts commit %s.\n", id(r, k->v));
	k->w = commit(r, "master", k->rv, "hid: fix w\n");
	k->s44 = commit(r, "linux-4.4.y", k->x0, "net: stable 4.4 thing\n");
	tag_light(r, "v4.4.1", k->s44);
	k->s45 = commit(r, "linux-4.5.y", k->a, "net: stable 4.5 thing\n");
	tag_light(r, "v4.5.3", k->s45);
	k->s46 = commit(r, "linux-4.6.y", k->b2, "mm: stable 4.6 thing\n");
	tag_light(r, "v4.6.2", k->s46);
	k->e410 = commit(r, "linux-4.10.y", k->k10, "ext4: fix e\n\ncommit %s upstream.\n", id(r, k->e));
	k->d410 = commit(r, "linux-4.10.y", k->e410, "drm: fix d\n\ncommit %s upstream.\n", id(r, k->d));
	k->rd410 = commit(r, "linux-4.10.y", k->d410,
			  "Revert \"drm: fix d\"\n\nThis reverts commit %s which is commit %s upstream.\n",
			  id(r, k->d410), id(r, k->d));
	tag_light(r, "v4.10.1", k->rd410);
	/* after the threads: an old store must not see it */
	k->g410 = commit(r, "linux-4.10.y", k->rd410, "gpio: fix g\n\ncommit %s upstream.\n", id(r, k->g));
	tag_light(r, "v4.10.2", k->g410);
	/* W taken and reverted after 4.10's last release: its choice all
	 * the same */
	k->w410 = commit(r, "linux-4.10.y", k->g410, "hid: fix w\n\ncommit %s upstream.\n", id(r, k->w));
	k->rw410 = commit(r, "linux-4.10.y", k->w410,
			  "Revert \"hid: fix w\"\n\nThis reverts commit %s which is commit %s upstream.\n",
			  id(r, k->w410), id(r, k->w));
	repo_flush(r);
}

/* The thread date of every review: 2016-08-01. */
#define THREAD_DATE "Mon, 1 Aug 2016 10:00:00 +0000"
#define THREAD_TIME 1470045600

/* Releases as the CLI reads them from the tags, with chosen dates:
 * 4.5's last release before the threads is eight months old, and one
 * after them must not count. */
static struct fs_cross_release releases[] = {
	{ "linux-4.4.y", "v4.4", 1440000000 },
	{ "linux-4.4.y", "v4.4.1", 1468000000 },
	{ "linux-4.5.y", "v4.5", 1445000000 },
	{ "linux-4.5.y", "v4.5.3", 1449000000 },
	{ "linux-4.5.y", "v4.5.9", 1480000000 },
	{ "linux-4.6.y", "v4.6", 1455000000 },
	{ "linux-4.6.y", "v4.6.2", 1468000000 },
	{ "linux-4.10.y", "v4.10", 1460000000 },
	{ "linux-4.10.y", "v4.10.1", 1469000000 },
	{ "linux-4.10.y", "v4.10.2", 1480000000 },
};

/* ---- threads ------------------------------------------------------------- */

struct thread {
	struct fs_thread *t;
	struct fs_review *r;
};

/* A review thread of VERSION ("4.4"), release RELEASE ("4.4.2-rc1", or
 * NULL for a lone patch), with one patch per mark in UPS (0-terminated). */
static void make_thread(struct thread *out, const char *version, const char *release,
			const char *tag, const int *ups)
{
	struct fs_patch *msgs[32];
	struct fs_error err = FS_ERROR_INIT;
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	size_t n = 0, total = 0, i;
	char path[PATH_MAX + 64];

	while (ups[total])
		total++;
	if (release) {
		char *text = g_strdup_printf(
			"From: Greg <greg@example.org>\nSubject: [PATCH %s 00/%02zu] %s review\n"
			"Date: " THREAD_DATE "\nMessage-Id: <cover.%s@example.org>\n"
			"X-KernelTest-Branch: linux-%s.y\nX-KernelTest-Version: %s\n\n"
			"This is the start of the stable review cycle for the %.*s release.\n",
			version, total, release, tag, version, release,
			(int)strcspn(release, "-"), release);
		snprintf(path, sizeof(path), "%s/%s-00", maildir, tag);
		g_file_set_contents(path, text, -1, NULL);
		g_free(text);
		assert_int_equal(fs_patch_parse_file(&msgs[n++], path, &err), 0);
	}
	for (i = 0; i < total; i++) {
		char *text;
		if (release)
			text = g_strdup_printf(
				"From: Greg <greg@example.org>\nSubject: [PATCH %s %02zu/%02zu] patch %zu\n"
				"Date: " THREAD_DATE "\nMessage-Id: <p%zu.%s@example.org>\n"
				"In-Reply-To: <cover.%s@example.org>\nReferences: <cover.%s@example.org>\n\n"
				"commit %s upstream.\n",
				version, i + 1, total, i + 1, i + 1, tag, tag, tag, id(K.r, ups[i]));
		else
			text = g_strdup_printf(
				"From: Someone <s@example.org>\nSubject: [PATCH %s] lone patch\n"
				"Date: " THREAD_DATE "\nMessage-Id: <lone.%s@example.org>\n\n"
				"commit %s upstream.\n", version, tag, id(K.r, ups[i]));
		snprintf(path, sizeof(path), "%s/%s-%02zu", maildir, tag, i + 1);
		g_file_set_contents(path, text, -1, NULL);
		g_free(text);
		assert_int_equal(fs_patch_parse_file(&msgs[n++], path, &err), 0);
	}
	assert_int_equal(fs_thread_build(&out->t, msgs, n, &err), 0);
	assert_int_equal(fs_thread_count(out->t), 1);
	o.no_reports = true;
	assert_int_equal(fs_review_run(&out->r, fs_thread_get(out->t, 0), IDX, NULL, &o, &err), 0);
	assert_int_equal(out->r->thread_time, THREAD_TIME);
}

static void free_thread(struct thread *t)
{
	fs_review_free(t->r);
	fs_thread_free(t->t);
}

/* The threads of the cases. */
static struct thread T44, T46, T410, T46OLD;

/* ---- expectations --------------------------------------------------------- */

struct want {
	struct thread *t;
	int index;           /* NN */
	int commit;          /* mark */
	const char *newer;   /* missing-in-newer: the branch */
};

/* Every missing-in-newer finding of the reviews is one of WANT, and every
 * one of WANT is there. */
static void check_newer(struct thread *const *ts, size_t nt, const struct want *want, size_t nwant)
{
	size_t i, k, f, w, found = 0;
	bool ok = true;

	for (i = 0; i < nt; i++)
		for (k = 0; k < ts[i]->r->npatches; k++) {
			const struct fs_review_patch *rp = &ts[i]->r->patches[k];
			for (f = 0; f < rp->findings.n; f++) {
				const struct fs_finding *g = &rp->findings.v[f];
				bool match = false;
				if (g->kind != FS_FIND_MISSING_IN_NEWER)
					continue;
				for (w = 0; w < nwant && !match; w++)
					match = want[w].t == ts[i] && want[w].index == rp->index &&
						!strcmp(id(K.r, want[w].commit), g->commit) &&
						!strcmp(want[w].newer, g->cross.newer_branch);
				if (!match) {
					fprintf(stderr, "unexpected: %s %02d missing-in-newer %.12s %s\n",
						ts[i]->r->branch, rp->index, g->commit, g->cross.newer_branch);
					ok = false;
				}
				found += match;
			}
		}
	if (found != nwant) {
		fprintf(stderr, "found %zu of the %zu expected\n", found, nwant);
		ok = false;
	}
	assert_true(ok);
}

static void apply(struct thread *const *ts, size_t nt, int64_t within,
		  const struct fs_cross_notice *notices, size_t nnotices,
		  struct fs_cross_matrix *m)
{
	struct fs_review *v[8];
	struct fs_cross_opts o;
	struct fs_error err = FS_ERROR_INIT;
	size_t i;

	memset(&o, 0, sizeof(o));
	o.idx = IDX;
	o.releases = releases;
	o.nreleases = G_N_ELEMENTS(releases);
	o.maintained_within = within;
	o.notices = notices;
	o.nnotices = nnotices;
	for (i = 0; i < nt; i++)
		v[i] = ts[i]->r;
	assert_int_equal(fs_cross_apply(v, nt, &o, m, &err), 0);
}

#define SIX_MONTHS (6 * (int64_t)2629746)

/* Fresh reviews for every case: fs_cross_apply adds to them. */
static void make_all(void)
{
	/* 4.4: 01 D (nowhere; 4.10 reverted its backport: asked of 4.6
	 * only, never of the branch that reverted it), 02 B (4.6 by ancestry), 03 E (4.6 queues,
	 * 4.10 as a backport), 04 G (4.6 queues, 4.10 neither), 05 R2 (a
	 * revert of a revert: 4.6 never had U nor R1), 06 P (its fix PF is
	 * queued in 4.6), 07 J (added notices for 4.6 and 4.10), 08 V
	 * (reverted upstream: to be dropped, so never missing-in-newer), 09 W
	 * (4.10 took it and reverted it after its last release: asked of
	 * 4.6 only). */
	int ups44[10], ups46[4], ups410[2], ups46old[2];

	ups44[0] = K.d; ups44[1] = K.b; ups44[2] = K.e; ups44[3] = K.g;
	ups44[4] = K.r2; ups44[5] = K.p; ups44[6] = K.j; ups44[7] = K.v; ups44[8] = K.w;
	ups44[9] = 0;
	ups46[0] = K.e; ups46[1] = K.g; ups46[2] = K.pf; ups46[3] = 0;
	ups410[0] = K.g; ups410[1] = 0;
	ups46old[0] = K.d; ups46old[1] = 0;
	make_thread(&T44, "4.4", "4.4.2-rc1", "t44", ups44);
	make_thread(&T46, "4.6", "4.6.3-rc2", "t46", ups46);
	make_thread(&T410, "4.10", NULL, "t410", ups410);
	make_thread(&T46OLD, "4.6", "4.6.3-rc1", "t46old", ups46old);
}

static void free_all(void)
{
	free_thread(&T44);
	free_thread(&T46);
	free_thread(&T410);
	free_thread(&T46OLD);
}

static struct fs_cross_notice notice(enum fs_notice_kind kind, const char *branch, int mark,
				     const char *msgid)
{
	struct fs_cross_notice n;

	memset(&n, 0, sizeof(n));
	n.kind = kind;
	n.branch = (char *)branch;
	snprintf(n.upstream, sizeof(n.upstream), "%s", id(K.r, mark));
	n.message_id = (char *)msgid;
	n.date = (char *)"Sat, 30 Jul 2016 10:00:00 +0000";
	return n;
}

/* ---- the cases -------------------------------------------------------------- */

/* 4.4 and 4.6 open, 4.10 maintained without a thread, 4.5 not
 * maintained (its last release before the threads is eight months old;
 * the one after them does not count). */
static void test_two_threads(void **state)
{
	struct thread *ts[] = { &T44, &T46 };
	struct fs_cross_notice nt[] = {
		notice(FS_NOTICE_ADDED, "linux-4.6.y", K.j, "added.j46@example.org"),
		notice(FS_NOTICE_ADDED, "linux-4.10.y", K.j, "added.j410@example.org"),
		notice(FS_NOTICE_FAILED, "linux-4.4.y", K.pf, "failed.pf44@example.org"),
	};
	const struct want want[] = {
		{ &T44, 1, K.d, "linux-4.6.y" },
		{ &T44, 4, K.g, "linux-4.10.y" },
		{ &T44, 5, K.r2, "linux-4.10.y" },
		{ &T44, 6, K.p, "linux-4.6.y" },
		{ &T44, 9, K.w, "linux-4.6.y" },
		{ &T46, 2, K.g, "linux-4.10.y" },
		{ &T46, 3, K.pf, "linux-4.10.y" },
	};
	struct fs_cross_matrix m = FS_CROSS_MATRIX_INIT;
	const struct fs_finding *f = NULL;
	size_t i;

	make_all();
	apply(ts, 2, SIX_MONTHS, nt, G_N_ELEMENTS(nt), &m);
	check_newer(ts, 2, want, G_N_ELEMENTS(want));
	/* The named branch: with a thread, or maintained without one. */
	for (i = 0; i < T44.r->patches[0].findings.n; i++)
		if (T44.r->patches[0].findings.v[i].kind == FS_FIND_MISSING_IN_NEWER &&
		    !strcmp(T44.r->patches[0].findings.v[i].cross.newer_branch, "linux-4.6.y"))
			f = &T44.r->patches[0].findings.v[i];
	assert_non_null(f);
	assert_string_equal(f->cross.newer_release, "4.6.3-rc2");
	assert_true(f->cross.newer_thread);
	f = NULL;
	for (i = 0; i < T44.r->patches[3].findings.n; i++)
		if (T44.r->patches[3].findings.v[i].kind == FS_FIND_MISSING_IN_NEWER)
			f = &T44.r->patches[3].findings.v[i];
	assert_non_null(f);
	assert_null(f->cross.newer_release);
	assert_false(f->cross.newer_thread);
	assert_string_equal(f->cross.newer_last_release, "v4.10.1");
	/* 06 P: its fix PF is fix-missing here, queued for 4.6 as 03/03,
	 * and FAILED to apply to 4.4. */
	f = NULL;
	for (i = 0; i < T44.r->patches[5].findings.n; i++)
		if (T44.r->patches[5].findings.v[i].kind == FS_FIND_FIX_MISSING)
			f = &T44.r->patches[5].findings.v[i];
	assert_non_null(f);
	assert_string_equal(f->commit, id(K.r, K.pf));
	assert_int_equal(f->cross.nqueued, 1);
	assert_string_equal(f->cross.queued[0].branch, "linux-4.6.y");
	assert_string_equal(f->cross.queued[0].release, "4.6.3-rc2");
	assert_int_equal(f->cross.queued[0].index, 3);
	assert_string_equal(f->cross.queued[0].message_id, "p3.t46@example.org");
	assert_true(f->cross.failed_to_apply);
	assert_string_equal(f->cross.failed_message_id, "failed.pf44@example.org");
	assert_int_equal(T44.r->counts[FS_FIND_MISSING_IN_NEWER], 5);
	/* The matrix: branches in version order, 4.10 (flagged) last. */
	assert_int_equal(m.nbranches, 3);
	assert_string_equal(m.branches[0], "linux-4.4.y");
	assert_string_equal(m.branches[1], "linux-4.6.y");
	assert_string_equal(m.branches[2], "linux-4.10.y");
	for (i = 0; i < m.nrows; i++) {
		const struct fs_cross_row *row = &m.rows[i];
		if (!strcmp(row->commit, id(K.r, K.e))) {
			assert_int_equal(row->cells[0].state, FS_CROSS_QUEUED);
			assert_int_equal(row->cells[0].index, 3);
			assert_int_equal(row->cells[1].state, FS_CROSS_QUEUED);
			assert_int_equal(row->cells[2].state, FS_CROSS_IN);
			assert_string_equal(row->cells[2].release, "v4.10.1");
		} else if (!strcmp(row->commit, id(K.r, K.pf))) {
			assert_int_equal(row->cells[0].state, FS_CROSS_FAILED);
			assert_int_equal(row->cells[1].state, FS_CROSS_QUEUED);
			assert_int_equal(row->cells[2].state, FS_CROSS_MISSING);
		} else if (!strcmp(row->commit, id(K.r, K.p))) {
			/* P: in 4.10 by ancestry, since its fork */
			assert_int_equal(row->cells[0].state, FS_CROSS_QUEUED);
			assert_int_equal(row->cells[1].state, FS_CROSS_MISSING);
			assert_int_equal(row->cells[2].state, FS_CROSS_IN);
			assert_string_equal(row->cells[2].release, "v4.10");
		} else if (!strcmp(row->commit, id(K.r, K.j))) {
			assert_int_equal(row->cells[1].state, FS_CROSS_ADDED);
		} else if (!strcmp(row->commit, id(K.r, K.d))) {
			/* D: missing in 4.6, taken and reverted by 4.10 */
			assert_int_equal(row->cells[0].state, FS_CROSS_QUEUED);
			assert_int_equal(row->cells[1].state, FS_CROSS_MISSING);
			assert_int_equal(row->cells[2].state, FS_CROSS_REVERTED);
		} else if (!strcmp(row->commit, id(K.r, K.b))) {
			fail_msg("B is in one thread and flagged nowhere: no row");
		}
	}
	fs_cross_matrix_clear(&m);
	free_all();
}

/* A lone patch for 4.10 queues G there, and makes 4.10 a branch with
 * an open thread. */
static void test_lone_patch(void **state)
{
	struct thread *ts[] = { &T44, &T46, &T410 };
	const struct want want[] = {
		{ &T44, 1, K.d, "linux-4.6.y" },
		{ &T44, 5, K.r2, "linux-4.10.y" },
		{ &T44, 6, K.p, "linux-4.6.y" },
		{ &T44, 9, K.w, "linux-4.6.y" },
		{ &T44, 7, K.j, "linux-4.6.y" },
		{ &T44, 7, K.j, "linux-4.10.y" },
		{ &T46, 3, K.pf, "linux-4.10.y" },
	};

	make_all();
	apply(ts, 3, SIX_MONTHS, NULL, 0, NULL);
	check_newer(ts, 3, want, G_N_ELEMENTS(want));
	free_all();
}

/* Maintained by the window: with a year, 4.5 (last release eight months
 * before the threads) counts, and needs every patch but R2, which reverts
 * R1, which 4.5 never had. */
static void test_window(void **state)
{
	struct thread *ts[] = { &T44, &T46 };
	const struct want want[] = {
		{ &T44, 1, K.d, "linux-4.5.y" },
		{ &T44, 1, K.d, "linux-4.6.y" },
		{ &T44, 2, K.b, "linux-4.5.y" },
		{ &T44, 3, K.e, "linux-4.5.y" },
		{ &T44, 4, K.g, "linux-4.5.y" },
		{ &T44, 4, K.g, "linux-4.10.y" },
		{ &T44, 5, K.r2, "linux-4.10.y" },
		{ &T44, 6, K.p, "linux-4.5.y" },
		{ &T44, 6, K.p, "linux-4.6.y" },
		{ &T44, 9, K.w, "linux-4.6.y" },
		{ &T44, 9, K.w, "linux-4.5.y" },
		{ &T44, 7, K.j, "linux-4.5.y" },
		{ &T44, 7, K.j, "linux-4.6.y" },
		{ &T44, 7, K.j, "linux-4.10.y" },
		{ &T46, 2, K.g, "linux-4.10.y" },
		{ &T46, 3, K.pf, "linux-4.10.y" },
	};

	make_all();
	apply(ts, 2, 2 * SIX_MONTHS, NULL, 0, NULL);
	check_newer(ts, 2, want, G_N_ELEMENTS(want));
	free_all();
}

/* An "added to the 4.4-stable tree" notice of the fix PF: the 4.4
 * fix-missing becomes fix-queued, asking for nothing. */
static void test_added_here(void **state)
{
	struct thread *ts[] = { &T44, &T46 };
	struct fs_cross_notice nt[] = {
		notice(FS_NOTICE_ADDED, "linux-4.4.y", K.pf, "added.pf44@example.org"),
	};
	const struct fs_findings *fs;
	size_t i, missing = 0, queued = 0;
	char hex[41];

	make_all();
	apply(ts, 2, SIX_MONTHS, nt, G_N_ELEMENTS(nt), NULL);
	fs = &T44.r->patches[5].findings;
	snprintf(hex, sizeof(hex), "%s", id(K.r, K.pf));
	for (i = 0; i < fs->n; i++) {
		if (strcmp(fs->v[i].commit, hex))
			continue;
		missing += fs->v[i].kind == FS_FIND_FIX_MISSING;
		if (fs->v[i].kind == FS_FIND_FIX_QUEUED) {
			queued++;
			assert_int_equal(fs->v[i].series_index, -1);
			assert_non_null(strstr(fs->v[i].note, "added.pf44@example.org"));
			assert_false(fs_finding_is_problem(&fs->v[i]));
		}
	}
	assert_int_equal(missing, 0);
	assert_int_equal(queued, 1);
	assert_int_equal(T44.r->counts[FS_FIND_FIX_MISSING], 0);
	free_all();
}

/* The -rc2 thread of 4.6 supersedes its -rc1; a lone patch supersedes
 * nothing and is never superseded. */
static void test_superseded(void **state)
{
	struct fs_review *v[4];

	make_all();
	v[0] = T44.r;
	v[1] = T46OLD.r;
	v[2] = T46.r;
	v[3] = T410.r;
	assert_false(fs_cross_superseded(v, 4, 0));
	assert_true(fs_cross_superseded(v, 4, 1));
	assert_false(fs_cross_superseded(v, 4, 2));
	assert_false(fs_cross_superseded(v, 4, 3));
	free_all();
}

static void test_names(void **state)
{
	char b[64];

	assert_true(fs_cross_branch_cmp("linux-4.10.y", "linux-4.6.y") > 0);
	assert_true(fs_cross_branch_cmp("linux-5.4.y", "linux-4.19.y") > 0);
	assert_true(fs_cross_branch_cmp("linux-6.1.y", "linux-6.1.y") == 0);
	assert_true(fs_cross_release_branch("v5.15.3", b, sizeof(b)));
	assert_string_equal(b, "linux-5.15.y");
	assert_true(fs_cross_release_branch("v5.15", b, sizeof(b)));
	assert_string_equal(b, "linux-5.15.y");
	assert_false(fs_cross_release_branch("v5.16-rc1", b, sizeof(b)));
	assert_false(fs_cross_release_branch("v5", b, sizeof(b)));
	assert_false(fs_cross_release_branch("next-20240101", b, sizeof(b)));
	/* before 3.0 a series had three numbers (fixscan/version.h) */
	assert_true(fs_cross_release_branch("v2.6.32.5", b, sizeof(b)));
	assert_string_equal(b, "linux-2.6.32.y");
	assert_true(fs_cross_release_branch("v2.6.32", b, sizeof(b)));
	assert_string_equal(b, "linux-2.6.32.y");
	assert_false(fs_cross_release_branch("v2.6", b, sizeof(b)));
	assert_true(fs_cross_branch_cmp("linux-3.0.y", "linux-2.6.32.y") > 0);
	assert_true(fs_cross_branch_cmp("linux-2.6.32.y", "stable-queue") > 0);
}

static void test_notice_parse(void **state)
{
	static const char failed_body[] =
		"\nThe patch below does not apply to the 6.1-stable tree.\n"
		"If someone wants it applied there, or to any other stable or longterm\n"
		"tree, then please email the backport, including the original git commit\n"
		"id to <stable@vger.kernel.org>.\n\n"
		"To reproduce the conflict and resubmit, you may use the following commands:\n\n"
		"git fetch https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/ linux-6.1.y\n"
		"git checkout FETCH_HEAD\n"
		"git cherry-pick -x 0123456789abcdef0123456789abcdef01234567\n"
		"------------------ original commit in Linus's tree ------------------\n\n"
		"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
		"From: Real Author <a@example.org>\n";
	static const char added_body[] =
		"\nThis is a note to let you know that I've just added the patch titled\n\n"
		"    net: fix foo\n\nto the 5.10-stable tree which can be found at:\n"
		"    http://www.kernel.org/git/?p=linux/kernel/git/stable/stable-queue.git;a=summary\n\n"
		"commit ABCDEF0123456789ABCDEF0123456789ABCDEF01\nAuthor: Real Author <a@example.org>\n";
	struct fs_cross_notice n;

	assert_int_equal(fs_cross_notice_parse(&n,
		"FAILED: patch \"[PATCH] net: fix foo\" failed to apply to 6.1-stable tree",
		failed_body, strlen(failed_body)), 0);
	assert_int_equal(n.kind, FS_NOTICE_FAILED);
	assert_string_equal(n.branch, "linux-6.1.y");
	assert_string_equal(n.subject, "net: fix foo");
	assert_string_equal(n.upstream, "0123456789abcdef0123456789abcdef01234567");
	fs_cross_notice_clear(&n);
	assert_int_equal(fs_cross_notice_parse(&n,
		"Patch \"net: fix foo\" has been added to the 5.10-stable tree",
		added_body, strlen(added_body)), 0);
	assert_int_equal(n.kind, FS_NOTICE_ADDED);
	assert_string_equal(n.branch, "linux-5.10.y");
	assert_string_equal(n.upstream, "abcdef0123456789abcdef0123456789abcdef01");
	fs_cross_notice_clear(&n);
	assert_int_equal(fs_cross_notice_parse(&n, "Re: [PATCH 5.10 01/20] net: fix foo",
					       added_body, strlen(added_body)), FS_ENOTFOUND);
	assert_int_equal(fs_cross_notice_parse(&n,
		"FAILED: patch \"[PATCH] net: fix foo\" failed to apply to 6.1-stable tree",
		"no id here\n", 11), FS_ENOTFOUND);
}

static void test_deadline(void **state)
{
	struct fs_thread_series s;

	memset(&s, 0, sizeof(s));
	s.deadline = (char *)"2020-01-13T09:49+00:00";
	assert_int_equal(fs_cross_deadline(&s), 1578908940);
	s.deadline = (char *)"Mon, 13 Jan 2020 09:46:17 +0000";
	assert_int_equal(fs_cross_deadline(&s), 1578908777);
	s.deadline = (char *)"soon";
	assert_int_equal(fs_cross_deadline(&s), 0);
	s.deadline = (char *)"2020-01-13T09:49+00:00";
	assert_true(fs_cross_is_open(&s, 1578908000, 0));
	assert_false(fs_cross_is_open(&s, 1578909000, 0));
}

static int group_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char cache[PATH_MAX];

	snprintf(tmp_root, sizeof(tmp_root), "%s/fixscan-test-crossbranch.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmp_root))
		return -1;
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	build_kernel(&K);
	snprintf(cache, sizeof(cache), "%s/index.cache", tmp_root);
	snprintf(maildir, sizeof(maildir), "%s/mail", tmp_root);
	mkdir(maildir, 0700);
	o.repo_path = K.r->dir;
	o.cache_path = cache;
	o.threads = 1;
	if (fs_index_open(&IDX, &o, NULL, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	fs_index_free(IDX);
	repo_free(K.r);
	run("rm -rf '%s'", tmp_root);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_notice_parse),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_superseded),
		cmocka_unit_test(test_two_threads),
		cmocka_unit_test(test_lone_patch),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_added_here),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
