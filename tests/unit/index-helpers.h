/* The fixes index's unit tests share this: the standard kernel-like
 * history (build_kernel()), the per-test environment, opening an index
 * and a dump of everything it says, to compare two indexes.  Included by
 * test-index-*.c; built on repo-builder.h.
 *
 * The repositories are real, made with git fast-import in a temporary
 * directory and indexed through the public API.  Commit dates are fixed
 * and messages deterministic, so the same test always makes the same
 * ids; ids that a message must quote are read back from fast-import's
 * marks file, importing in as many rounds as needed. */
#ifndef FIXSCAN_TEST_INDEX_HELPERS_H
#define FIXSCAN_TEST_INDEX_HELPERS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/index.h"

#include "repo-builder.h"

__attribute__((unused)) static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

__attribute__((unused)) static void tag_annotated(struct repo *r, const char *name, int mark)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "Linux %s", name + 1);
	g_string_append_printf(r->fi, "tag %s\nfrom :%d\n", name, mark);
	g_string_append_printf(r->fi, "tagger T A Gger <tagger@example.org> %ld +0000\n", r->when);
	r->when += 60;
	g_string_append_printf(r->fi, "data %zu\n%s\n", strlen(msg), msg);
}

/* ---- the standard kernel-like history ----------------------------------- */

struct kernel {
	struct repo *r;
	/* mainline */
	int base, a, x, b, c, rev, d, e, f, ping, pong, self, g;
	/* linux-4.4.y */
	int s1, s2, s3, s4, s5;
};

/* mainline (master):
 *   base, A, X          v4.4-rc1 (annotated) on X
 *   B  Fixes A          v4.4 (light) on B
 *   C  Fixes B
 *   R  reverts C
 *   D
 *   E  Fixes: the stable id of D's backport
 *   F  Fixes: A's id with X's subject (the id is wrong)
 *   PING Fixes: a bogus id with PONG's subject; PONG Fixes PING; SELF fixes
 *        itself by subject             v4.5-rc1 on SELF
 *   G (untagged tip)
 * linux-4.4.y, forked at B:
 *   S1 = C "commit X upstream." (carrying C's Fixes: B line too)
 *   S2 = D "[ Upstream commit X ]"  v4.4.1
 *   S3 = R "(cherry picked from commit X)"
 *   S4 = E "commit X upstream" (no dot)      v4.4.2
 *   S5 stable-only, untagged tip
 */
__attribute__((unused)) static void build_kernel(struct kernel *k, const char *name)
{
	struct repo *r = repo_new(name);

	k->r = r;
	k->base = commit(r, "master", 0, "Initial import\n");
	k->a = commit(r, "master", k->base, "mm: add frobnicator\n\nA new allocator helper.\n");
	k->x = commit(r, "master", k->a, "net: tidy up the socket code\n");
	tag_annotated(r, "v4.4-rc1", k->x);
	k->b = commit(r, "master", k->x,
		      "mm: fix frobnicator leak\n\nThe frobnicator forgot to free its buffer.\n\n"
		      "Fixes: %.12s (\"mm: add frobnicator\")\n"
		      "Signed-off-by: A U Thor <author@example.org>\n", id(r, k->a));
	tag_light(r, "v4.4", k->b);
	k->c = commit(r, "master", k->b,
		      "mm: fix the leak fix\n\nThe free came too early.\n\n"
		      "Fixes: %.16s (\"mm: fix frobnicator leak\")\n", id(r, k->b));
	k->rev = commit(r, "master", k->c,
			"Revert \"mm: fix the leak fix\"\n\nThis reverts commit %s.\n\n"
			"It broke the build on arm.\n", id(r, k->c));
	k->d = commit(r, "master", k->rev, "drm: add widget\n\nWidgets for everyone.\n");
	/* The stable branch forks at v4.4. */
	k->s1 = commit(r, "linux-4.4.y", k->b,
		       "mm: fix the leak fix\n\ncommit %s upstream.\n\nThe free came too early.\n\n"
		       "Fixes: %.12s (\"mm: fix frobnicator leak\")\n", id(r, k->c), id(r, k->b));
	k->s2 = commit(r, "linux-4.4.y", k->s1,
		       "drm: add widget\n\n[ Upstream commit %s ]\n\nWidgets for everyone.\n",
		       id(r, k->d));
	tag_annotated(r, "v4.4.1", k->s2);
	k->s3 = commit(r, "linux-4.4.y", k->s2,
		       "Revert \"mm: fix the leak fix\"\n\nThis reverts commit %s.\n\n"
		       "(cherry picked from commit %s)\n", id(r, k->s1), id(r, k->rev));
	k->e = commit(r, "master", k->d,
		      "drm: fix widget refcount\n\nFixes: %.12s (\"drm: add widget\")\n",
		      id(r, k->s2));
	k->s4 = commit(r, "linux-4.4.y", k->s3,
		       "drm: fix widget refcount\n\ncommit %s upstream\n\n"
		       "Fixes: %.12s (\"drm: add widget\")\n", id(r, k->e), id(r, k->s2));
	tag_light(r, "v4.4.2", k->s4);
	k->s5 = commit(r, "linux-4.4.y", k->s4, "usb: stable-only quirk\n\nNo upstream.\n");
	k->f = commit(r, "master", k->e,
		      "mm: harden frobnicator\n\nFixes: %.12s (\"net: tidy up the socket code\")\n",
		      id(r, k->a));
	k->ping = commit(r, "master", k->f,
			 "fs: make ping\n\nFixes: 0123456789ab (\"fs: make pong\")\n");
	k->pong = commit(r, "master", k->ping,
			 "fs: make pong\n\nFixes: %.12s (\"fs: make ping\")\n", id(r, k->ping));
	k->self = commit(r, "master", k->pong,
			 "fs: fix myself\n\nFixes: fedcba987654 (\"fs: fix myself\")\n");
	tag_annotated(r, "v4.5-rc1", k->self);
	k->g = commit(r, "master", k->self, "kernel: untagged work\n");
	repo_flush(r);
}

/* ---- per-test environment ---------------------------------------------- */

__attribute__((unused)) static int setup(void **state)
{
	*state = NULL;
	return repo_env_setup("index");
}

__attribute__((unused)) static int teardown(void **state)
{
	return repo_env_teardown();
}

/* ---- helpers on the index ---------------------------------------------- */

__attribute__((unused)) static struct fs_index *open_idx(const char *repo, const char *cache, bool rebuild,
				 struct fs_index_stats *st)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	int rc;

	o.repo_path = repo;
	o.cache_path = cache;
	o.rebuild = rebuild;
	o.threads = 2;
	rc = fs_index_open(&idx, &o, st, &err);
	if (rc < 0)
		fail_msg("fs_index_open: %s", err.message);
	assert_non_null(idx);
	return idx;
}


__attribute__((unused)) static fs_cid cid_of(const struct fs_index *idx, const char *hex)
{
	struct fs_error err = FS_ERROR_INIT;
	fs_cid c = FS_CID_NONE;

	if (fs_index_resolve(idx, hex, &c, &err) < 0)
		fail_msg("resolve %s: %s", hex, err.message);
	return c;
}

__attribute__((unused)) static const char *hex_of(const struct fs_index *idx, fs_cid c)
{
	static char buf[8][41];
	static int n;
	char *h = buf[n++ % 8];

	fs_index_commit_hex(idx, c, h);
	return h;
}

__attribute__((unused)) static void assert_release(const struct fs_index *idx, const char *hex, const char *want)
{
	const char *got = fs_index_commit_release(idx, cid_of(idx, hex));

	if (!want) {
		if (got)
			fail_msg("%.12s: release %s, want none", hex, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%.12s: release %s, want %s", hex, got ? got : "(none)", want);
}

/* Everything the index says about every commit, one line per fact, by id:
 * two indexes that print the same dump give the same answers. */
__attribute__((unused)) static int by_hex(const void *a, const void *b, void *data)
{
	char x[41], y[41];

	fs_index_commit_hex(data, *(const fs_cid *)a, x);
	fs_index_commit_hex(data, *(const fs_cid *)b, y);
	return strcmp(x, y);
}

__attribute__((unused)) static char *dump(const struct fs_index *idx)
{
	GString *s = g_string_new(NULL);
	size_t n = fs_index_count(idx), c, i, m, k;
	fs_cid *order = malloc((n + 1) * sizeof(*order));

	/* By id: commit numbers follow ids only within one layer of the
	 * cache. */
	assert_non_null(order);
	for (k = 0; k < n; k++)
		order[k] = (fs_cid)k;
	qsort_r(order, n, sizeof(*order), by_hex, (void *)idx);
	for (k = 0; k < n; k++) {
		c = order[k];
		struct fs_index_ref refs[32];
		struct fs_index_fix *fx = NULL;
		fs_cid list[32], up;
		const char *rel = fs_index_commit_release(idx, (fs_cid)c);
		int nf;

		g_string_append_printf(s, "%s %s | %s | %s | in-4.4:%d\n", hex_of(idx, (fs_cid)c),
				       fs_index_commit_subject(idx, (fs_cid)c),
				       fs_index_commit_branch(idx, (fs_cid)c), rel ? rel : "-",
				       fs_index_in_branch(idx, (fs_cid)c, "linux-4.4.y", NULL));
		up = fs_index_upstream_of(idx, (fs_cid)c);
		if (up != FS_CID_NONE)
			g_string_append_printf(s, "  upstream %s\n", hex_of(idx, up));
		m = fs_index_backports(idx, (fs_cid)c, list, 32);
		for (i = 0; i < m && i < 32; i++)
			g_string_append_printf(s, "  backport %s\n", hex_of(idx, list[i]));
		m = fs_index_commit_refs(idx, (fs_cid)c, refs, 32);
		for (i = 0; i < m && i < 32; i++) {
			enum fs_evidence ev = 0;
			bool mm = false;
			fs_cid t = fs_index_ref_target(idx, &refs[i], &ev, &mm);
			g_string_append_printf(s, "  ref %s %s (%s) -> %s %s%s\n",
					       fs_ref_kind_name(refs[i].kind), refs[i].hex,
					       refs[i].subject ? refs[i].subject : "",
					       t == FS_CID_NONE ? "none" : hex_of(idx, t),
					       t == FS_CID_NONE ? "" : fs_evidence_name(ev),
					       mm ? " mismatch" : "");
		}
		nf = fs_index_fixes_of(idx, (fs_cid)c, &fx);
		assert_true(nf >= 0);
		for (i = 0; i < (size_t)nf; i++)
			g_string_append_printf(s, "  fixed-by %s of %s depth %u %s %s\n",
					       hex_of(idx, fx[i].fixer), hex_of(idx, fx[i].fixed),
					       fx[i].depth, fx[i].revert ? "revert" : "fix",
					       fs_evidence_name(fx[i].evidence));
		free(fx);
	}
	free(order);
	return g_string_free(s, FALSE);
}

__attribute__((unused)) static void assert_same_dump(const char *want, const char *got)
{
	if (strcmp(want, got)) {
		fprintf(stderr, "--- want\n%s--- got\n%s", want, got);
		fail_msg("the two indexes differ");
	}
}

__attribute__((unused)) static char *rebuilt_dump(const char *repo)
{
	char cache[PATH_MAX];
	struct fs_index_stats st;
	struct fs_index *idx;
	char *d;

	snprintf(cache, sizeof(cache), "%s/fresh-%d.idx", tmp_root, (int)g_random_int_range(0, 1 << 30));
	idx = open_idx(repo, cache, true, &st);
	assert_true(st.rebuilt);
	d = dump(idx);
	fs_index_free(idx);
	unlink(cache);
	return d;
}

#endif
