/* fixscan: building and updating the fixes index from a kernel repository
 * (see build.h): the tips, the walk, whether the old index can be updated,
 * and the order of the phases.  The releases and branches are
 * build-claim.c's, the tables of the new file build-tables.c's. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "fixscan/index.h"
#include "fixscan/version.h"
#include "build.h"
#include "format.h"
#include "load.h"
#include "pendidx.h"
#include "tips.h"
#include "walk.h"

/* An update writes a delta while the commits since the cache are at most
 * one in DELTA_RATIO of it (168,000 at kernel scale): then rewriting the
 * delta each time stays small against rewriting the cache. */
#define DELTA_RATIO 8

/* Is an old index still a prefix of what the repository has now?  Fills
 * NOTE and returns 0 when a full rebuild is needed. */
static int old_still_valid(const struct fsi_build *b, const struct fs_index *old,
			   char *note, size_t nlen)
{
	const struct fsi_layer *T = fsi_top(old);
	const char *strings = T->strings;
	const struct fs_disk_tip *otips = T->tips;
	size_t notips = T->ntips, i, j;
	struct fsi_tip_hint by_name = { otips, notips, strings };

	if (fsi_flags(old) & FS_IDX_SHALLOW) {
		snprintf(note, nlen, "the cache was made from a shallow clone; rebuilding it");
		return 0;
	}
	for (i = 0; i < notips; i++) {
		const char *name = strings + otips[i].name;
		const struct fsi_tip *t = fsi_tips_find(&b->ts, name);

		if (!t || (uint32_t)t->kind != otips[i].kind) {
			snprintf(note, nlen, "'%s' is gone or changed kind; rebuilding the cache", name);
			return 0;
		}
		if (!memcmp(t->oid.id, otips[i].oid, 20))
			continue;
		if (t->kind == FS_TIP_TAG) {
			snprintf(note, nlen, "tag '%s' moved; rebuilding the cache", name);
			return 0;
		}
		/* a branch that moved: whether forward is asked after the
		 * walk (branches_moved_forward()) */
	}
	/* A new tag that sorts before an indexed tag could own commits the
	 * indexed tag claimed: one of its own line; any stable tag, for a new
	 * mainline tag (a stable tag reaches the mainline up to its fork, which
	 * a late fork tag must own); and a mainline tag, for a new stable tag
	 * whose fork tag is missing (it then claims mainline commits itself).
	 * Tags of unrelated lines cannot reach each other's commits. */
	for (i = 0; i < b->ts.t.n; i++) {
		const struct fsi_tip *t = &b->ts.t.v[i];
		int fork_known = 1;
		if (t->kind != FS_TIP_TAG)
			continue;
		if (fsi_tip_hint_find(&by_name, t->name))
			continue;
		if (t->stable_tag) {
			char fork[80];
			snprintf(fork, sizeof(fork), "refs/tags/v%s", t->line);
			fork_known = fsi_tips_find(&b->ts, fork) != NULL;
		}
		for (j = 0; j < notips; j++) {
			const char *on = strings + otips[j].name;
			char oline[FSI_LINE_MAX];
			int st, related;
			if (otips[j].kind != FS_TIP_TAG ||
			    !fsi_classify_tag(on + strlen("refs/tags/"), oline, &st))
				continue;
			if (st == t->stable_tag)
				related = !st || !strcmp(oline, t->line);
			else
				related = !t->stable_tag || !fork_known;
			if (!related)
				continue;
			if (fs_version_name_cmp(on + strlen("refs/tags/"), t->release) > 0) {
				snprintf(note, nlen, "new tag '%s' sorts before indexed tags; rebuilding the cache",
					 t->release);
				return 0;
			}
		}
	}
	return 1;
}
/* ---- an estimate of the work, for the progress line ---------------------- */

static uint64_t be32(const unsigned char *p)
{
	return (uint64_t)p[0] << 24 | (uint64_t)p[1] << 16 | (uint64_t)p[2] << 8 | p[3];
}

/* The number of commits in one commit-graph file (git's
 * Documentation/gitformat-commit-graph: header "CGPH", a chunk table of
 * 12-byte entries, the OIDF chunk's last fan-out entry is the count), or 0
 * when it cannot be read. */
static size_t graph_file_count(const char *path)
{
	unsigned char head[8], entry[12], fan[4];
	size_t count = 0;
	uint64_t off;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i;

	if (fd < 0)
		return 0;
	if (pread(fd, head, 8, 0) != 8 || memcmp(head, "CGPH", 4) || head[4] != 1)
		goto out;
	for (i = 0; i < head[6]; i++) {
		if (pread(fd, entry, 12, 8 + 12 * i) != 12)
			goto out;
		if (memcmp(entry, "OIDF", 4))
			continue;
		off = be32(entry + 4) << 32 | be32(entry + 8);
		if (pread(fd, fan, 4, (off_t)(off + 255 * 4)) == 4)
			count = (size_t)be32(fan);
		break;
	}
out:
	close(fd);
	return count;
}

/* How many commits the repository has, from its commit-graph (one file or
 * a chain of them) when git has written one; 0 when unknown.  Only an
 * estimate: the graph may be older than the refs, or hold commits the
 * indexed refs do not reach. */
static size_t commit_graph_count(git_repository *repo)
{
	const char *common = git_repository_commondir(repo);
	char path[4096], line[128];
	size_t total;
	FILE *chain;

	snprintf(path, sizeof(path), "%s/objects/info/commit-graph", common);
	total = graph_file_count(path);
	if (total)
		return total;
	snprintf(path, sizeof(path), "%s/objects/info/commit-graphs/commit-graph-chain", common);
	chain = fopen(path, "re");
	if (!chain)
		return 0;
	while (fgets(line, sizeof(line), chain)) {
		line[strcspn(line, "\n")] = '\0';
		if (strlen(line) != GIT_OID_HEXSZ)
			continue;
		snprintf(path, sizeof(path), "%s/objects/info/commit-graphs/graph-%s.graph",
			 common, line);
		total += graph_file_count(path);
	}
	fclose(chain);
	return total;
}

static int cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

/* ---- the phases ---------------------------------------------------------- */

/* Take OLD as the base of an update, or none (a rebuild). */
static void use_old(struct fsi_build *b, const struct fs_index *old)
{
	b->old = old;
	b->base = old ? &old->layer[0] : &b->none;
	b->nold = b->base->ncommits;
}

/* Whether TS are exactly the tips OLD was built from: then there is
 * nothing to read. */
static int tips_unchanged(const struct fs_index *old, const struct fsi_tips *ts)
{
	const struct fsi_layer *T = fsi_top(old);
	size_t i;

	if (T->ntips != ts->t.n)
		return 0;
	for (i = 0; i < ts->t.n; i++)
		if (strcmp(T->strings + T->tips[i].name, ts->t.v[i].name) ||
		    T->tips[i].kind != (uint32_t)ts->t.v[i].kind ||
		    memcmp(T->tips[i].oid, ts->t.v[i].oid.id, 20) ||
		    memcmp(T->tips[i].target, ts->t.v[i].target.id, 20))
			return 0;
	return 1;
}

/* The repository, its tips, and whether the old index can be updated.
 * Returns 1 when OLD is up to date with them. */
static int build_start(struct fsi_build *b, const struct fs_index *old, struct fs_error *err)
{
	struct fs_index_stats *stats = b->stats;
	struct fsi_tip_hint hint, *h = NULL;
	int rc;

	use_old(b, NULL);
	if (old) {
		const struct fsi_layer *T = fsi_top(old);
		hint.v = T->tips;
		hint.n = T->ntips;
		hint.strings = T->strings;
		h = &hint;
	}
	rc = fsi_repo_open(&b->repo, b->opts->repo_path, err);
	if (rc == 0)
		rc = fsi_tips_read(b->repo, b->opts, b->reading, h, &b->ts, err);
	if (rc < 0)
		return rc;
	/* A clone made complete (fetch --unshallow) may keep its tips: the
	 * index of the shallow one is rebuilt all the same (below). */
	if (old && tips_unchanged(old, &b->ts) &&
	    fsi_pending_tips_unchanged(&old->pending, &b->ts) &&
	    !(fsi_flags(old) & FS_IDX_SHALLOW) == !b->ts.shallow)
		return 1;
	if (b->ts.shallow)
		snprintf(stats->note, sizeof(stats->note),
			 "'%s' is a shallow clone: only the commits it has are indexed",
			 b->opts->repo_path);
	if (old && old_still_valid(b, old, stats->note, sizeof(stats->note))) {
		use_old(b, old);
		b->old_tips = hint;
	}
	stats->rebuilt = b->nold == 0;
	return 0;
}

/* Read the commits the old index does not have, and decide between a
 * delta and a new cache. */
static int build_walk(struct fsi_build *b, const struct fs_index *old, struct fs_error *err)
{
	const struct fs_index_opts *opts = b->opts;
	struct fs_index_stats *stats = b->stats;
	size_t expect_total = 0, i, nread = 0;
	int nworkers, rc;

	/* The progress line's total: git's own count when it has one, else
	 * on a rebuild the size of the cache it replaces. */
	if (opts->progress && !b->nold) {
		expect_total = commit_graph_count(b->repo);
		if (!expect_total && old)
			expect_total = old->ncommits;
	}
	nworkers = opts->threads > 0 ? opts->threads : cpu_count();
	if (nworkers > 8)
		nworkers = 8;
	rc = fsi_walk_new(&b->w, opts, b->base->commits, b->nold, nworkers, expect_total, err);
	if (rc == 0 && b->nold)
		rc = fsi_walk_preload(b->w, fsi_delta(b->old), err);
	if (rc < 0)
		return rc;
	for (i = 0; i < b->ts.t.n; i++)
		if (!fsi_build_tip_unchanged(b, &b->ts.t.v[i]) && fsi_walk_add_tip(b->w, &b->ts.t.v[i].oid) < 0)
			return FSI_OOM(err);
	if (b->nold || getenv("FIXSCAN_TEST_LIBGIT2_READ")) {
		/* (tests compare the two ways of reading on one repository) */
		rc = fsi_walk_run(b->w, err);
	} else {
		/* A full build reads every commit: from the packs directly. */
		char objects[4096];
		snprintf(objects, sizeof(objects), "%sobjects", git_repository_commondir(b->repo));
		rc = fsi_walk_run_packed(b->w, objects, err);
	}
	if (rc < 0)
		return rc;
	b->nnodes = b->w->nnodes;
	for (i = 0; i < b->nnodes; i++)
		if (fsi_node_at(b->w, i)->state == NODE_READ)
			nread++;
	/* In a clone that is not shallow every parent is there: one that is
	 * not is damage (a pack deleted), and an index without it would
	 * stop its branches short without saying so. */
	for (i = 0; b->nnodes - nread && !b->ts.shallow && i < b->nnodes; i++) {
		char hex[GIT_OID_HEXSZ + 1];

		if (fsi_node_at(b->w, i)->state == NODE_READ)
			continue;
		git_oid_tostr(hex, sizeof(hex), &fsi_node_at(b->w, i)->oid);
		return fs_error_set(err, FS_EGIT, "cannot read commit %s in '%s': it is missing, "
				    "and '%s' is not a shallow clone", hex, opts->repo_path,
				    opts->repo_path);
	}
	/* Few commits since the cache: write them as its delta and leave the
	 * cache as it is.  Many: one new cache with everything (the delta's
	 * commits are among the nodes). */
	b->delta = b->nold && nread * DELTA_RATIO <= b->nold;
	{
		/* Tests take either path on small histories. */
		const char *t = getenv("FIXSCAN_TEST_DELTA");
		if (t && b->nold)
			b->delta = !strcmp(t, "always") ? 1 : !strcmp(t, "never") ? 0 : b->delta;
	}
	stats->new_commits = nread - b->w->npreloaded;
	return 0;
}

/* Whether commit NOW reaches BEFORE through the commits the walk holds
 * (global ids; the cache's own commits are not followed).  A branch that
 * moved forward reaches its old tip that way; 0 means not found so. */
static int reaches_through_nodes(struct fsi_build *b, long now, long before)
{
	VEC(uint32_t) stack = { NULL, 0, 0 };
	uint8_t *seen = calloc(b->nnodes + 1, 1);
	const uint32_t *par;
	size_t np, i;
	int found = now == before, oom = !seen;

	if (!found && !oom && now >= (long)b->nold) {
		seen[now - b->nold] = 1;
		oom = VEC_PUSH(stack, (uint32_t)now);
	}
	while (!found && !oom && stack.n) {
		np = fsi_build_parents_of(b, stack.v[--stack.n], &par, NULL);
		for (i = 0; i < np && !found && !oom; i++) {
			found = par[i] == (uint32_t)before;
			if (par[i] >= b->nold && !seen[par[i] - b->nold]) {
				seen[par[i] - b->nold] = 1;
				oom = VEC_PUSH(stack, par[i]);
			}
		}
	}
	free(stack.v);
	free(seen);
	return found;
}

/* After an update's walk: did every branch that moved move forward?  The
 * walk's own graph answers in the usual case; otherwise git does (its
 * reachability query took half of a small update's time on a clone with a
 * commit-graph).  Fills NOTE and returns 0 when the cache must be rebuilt. */
static int branches_moved_forward(struct fsi_build *b, char *note, size_t nlen)
{
	const struct fsi_tip_hint *h = &b->old_tips;
	size_t i;

	for (i = 0; i < h->n; i++) {
		const char *name = h->strings + h->v[i].name;
		const struct fsi_tip *t = fsi_tips_find(&b->ts, name);
		git_oid before;
		long g_now, g_before;

		if (!t || t->kind == FS_TIP_TAG || !memcmp(t->oid.id, h->v[i].oid, 20))
			continue;
		memcpy(before.id, h->v[i].oid, 20);
		g_now = fsi_walk_lookup(b->w, &t->oid);
		g_before = fsi_walk_lookup(b->w, &before);
		if (g_now >= 0 && g_before >= 0 && reaches_through_nodes(b, g_now, g_before))
			continue;
		if (git_graph_descendant_of(b->repo, &t->oid, &before) != 1) {
			snprintf(note, nlen, "'%s' was rewound or force-pushed; rebuilding the cache",
				 name);
			return 0;
		}
	}
	return 1;
}

static void build_free(struct fsi_build *b)
{
	free(b->pending);
	free(b->relset.v);
	free(b->subjects.v);
	free(b->refsubj.v);
	free(b->refkeys);
	free(b->refs);
	free(b->rel_off);
	free(b->br_off);
	free(b->tip_off);
	free(b->names.p);
	free(b->str_base);
	free(b->ref_base);
	free(b->new_order);
	free(b->final_of_new);
	free(b->final_of_old);
	free(b->final_src);
	free(b->release);
	free(b->release_map);
	free(b->branch);
	free(b->assigned);
	free(b->claimed_old.v);
	free(b->rel_names.v);
	free(b->br_names.v);
	free(b->br_fork.v);
	fsi_walk_free(b->w);
	fsi_tips_clear(&b->ts);
	git_repository_free(b->repo);
}

int fsi_build(const struct fs_index_opts *opts, const char *cache_path,
	      const struct fsi_refs *refs, const struct fs_index *old,
	      struct fs_index_stats *stats, uint64_t *fingerprint, struct fs_error *err)
{
	struct fsi_build b;
	int rc;

	memset(&b, 0, sizeof(b));
	b.opts = opts;
	b.reading = refs;
	b.cache_path = cache_path;
	b.stats = stats;
	rc = build_start(&b, old, err);
	if (rc == 1) {
		*fingerprint = b.ts.fingerprint;
		build_free(&b);
		return 1;
	}
	if (rc == 0)
		rc = build_walk(&b, old, err);
	if (rc == 0 && b.nold && !branches_moved_forward(&b, stats->note, sizeof(stats->note))) {
		/* the update cannot be: read everything */
		fsi_walk_free(b.w);
		b.w = NULL;
		use_old(&b, NULL);
		memset(&b.old_tips, 0, sizeof(b.old_tips));
		stats->rebuilt = 1;
		rc = build_walk(&b, old, err);
	}
	/* Releases and branches, on the graph the walk made. */
	if (rc == 0)
		rc = fsi_build_release_table(&b, err);
	if (rc == 0)
		rc = fsi_build_branch_table(&b, err);
	if (rc == 0)
		rc = fsi_build_old_releases(&b, err);
	if (rc == 0)
		rc = fsi_build_claim_releases(&b, err);
	if (rc == 0)
		rc = fsi_build_claim_branches(&b, err);
	if (rc == 0)
		rc = fsi_build_pending(&b, err);
	/* The oid table was for finding commits by id; what follows goes
	 * by slot. */
	if (rc == 0)
		fsi_walk_drop_table(b.w);
	/* The tables of the new file, in their final order. */
	if (rc == 0)
		rc = fsi_build_order(&b, err);
	if (rc == 0)
		rc = fsi_build_strings(&b, err);
	if (rc == 0)
		rc = fsi_build_refs(&b, err);
	if (rc == 0)
		rc = fsi_build_refkeys(&b, err);
	if (rc == 0)
		rc = fsi_build_refsubj(&b, err);
	if (rc == 0)
		rc = fsi_build_subjects(&b, err);
	if (rc == 0)
		rc = fsi_build_relset(&b, err);
	if (rc == 0)
		rc = fsi_write(&b, err);
	*fingerprint = rc == 0 ? b.ts.fingerprint : 0;
	build_free(&b);
	return rc;
}
