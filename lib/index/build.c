/* fixscan: building and updating the fixes index from a kernel repository
 * (see build.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "fixscan/index.h"
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

static int str_ptr_rel_cmp(const void *a, const void *b)
{
	return fs_release_cmp(*(const char *const *)a, *(const char *const *)b);
}

static int find_name(const char *const *v, size_t n, size_t from, const char *name)
{
	size_t i;

	for (i = from; i < n; i++)
		if (!strcmp(v[i], name))
			return (int)i;
	return -1;
}

/* Parents of global id G, as global ids, for the release walks. */
static size_t parents_of(struct fsi_build *b, size_t g, const uint32_t **out,
			 uint32_t *scratch)
{
	if (g < b->nold) {
		const struct fs_disk_commit *c = &b->base->commits[g];
		*out = b->base->parents + c->parent_first;
		(void)scratch;
		return c->nparents;
	}
	{
		struct fsi_node *n = fsi_node_at(b->w, (uint32_t)(g - b->nold));
		if (n->state != NODE_READ)
			return 0;
		*out = b->w->parents.v + n->parent_first;
		return n->nparents;
	}
}

/* Old commits whose release is known stop a release claim; every old
 * commit stops a branch claim (old commits keep their branch).  Asking
 * the old table instead of copying it for every commit keeps an update's
 * cost to the commits it touches. */
static int settled_release(const struct fsi_build *b, size_t g)
{
	return g < b->nold && fsi_old_release(b, g) != 0;
}

static int settled_branch(const struct fsi_build *b, size_t g)
{
	return g < b->nold;
}

/* Claim every commit reachable from START whose MARK is 0 and that is not
 * SETTLED, setting it to VALUE via SET; stops at claimed commits, whose
 * ancestors are claimed too. */
static int claim(struct fsi_build *b, size_t start, uint8_t *mark,
		 int (*settled)(const struct fsi_build *, size_t),
		 int (*set)(struct fsi_build *, size_t, unsigned), unsigned value)
{
	VEC(uint32_t) stack = { NULL, 0, 0 };
	const uint32_t *par;
	size_t np, i, g;

	if (mark[start] || settled(b, start))
		return 0;
	mark[start] = 1;
	if (set(b, start, value) < 0 || VEC_PUSH(stack, (uint32_t)start))
		return -1;
	while (stack.n) {
		g = stack.v[--stack.n];
		np = parents_of(b, g, &par, NULL);
		for (i = 0; i < np; i++) {
			if (mark[par[i]] || settled(b, par[i]))
				continue;
			mark[par[i]] = 1;
			if (set(b, par[i], value) < 0 || VEC_PUSH(stack, par[i])) {
				free(stack.v);
				return -1;
			}
		}
	}
	free(stack.v);
	return 0;
}

static int set_release(struct fsi_build *b, size_t g, unsigned v)
{
	b->release[g] = (uint16_t)v;
	/* old commits given a release: the delta's relset */
	return g < b->nold ? VEC_PUSH(b->claimed_old, (uint32_t)g) : 0;
}

static int set_branch(struct fsi_build *b, size_t g, unsigned v)
{
	b->branch[g] = (uint8_t)v;
	return 0;
}

/* The number of release NAME in the new table (sorted by version), 0 if
 * it is not there. */
static unsigned release_number(const struct fsi_build *b, const char *name)
{
	size_t lo = 1, hi = b->rel_names.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = fs_release_cmp(b->rel_names.v[mid], name);
		if (c == 0)
			return (unsigned)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

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
			if (fs_release_cmp(on + strlen("refs/tags/"), t->release) > 0) {
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
/* Comparators take their context through qsort_r(), not a global, so two
 * builds in one process (two threads) cannot disturb each other's sort. */
static int slot_oid_cmp(const void *a, const void *b, void *data)
{
	struct fsi_walk *w = data;

	return git_oid_cmp(&fsi_node_at(w, *(const uint32_t *)a)->oid,
			   &fsi_node_at(w, *(const uint32_t *)b)->oid);
}

static int refpos_cmp(const void *a, const void *b, void *data)
{
	const struct fs_disk_ref *refs = data;
	uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
	const struct fs_disk_ref *x = &refs[pa], *y = &refs[pb];
	int c = memcmp(x->key, y->key, 20);

	if (c)
		return c;
	if (x->keylen != y->keylen)
		return (int)x->keylen - (int)y->keylen;
	return pa < pb ? -1 : pa > pb;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int hash_cmp(const void *a, const void *b)
{
	const struct fs_disk_hash *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* V[0..NOLD) is sorted (the old index's table, renumbered in order);
 * sort the new entries V[NOLD..N) and merge them in, so an update costs a
 * pass over the table rather than a sort of it. */
static int merge_new_hashes(struct fs_disk_hash *v, size_t n, size_t nold)
{
	struct fs_disk_hash *tail;
	size_t ntail = n - nold, i, j, k;

	if (!ntail)
		return 0;
	fsi_sort_key64(v + nold, ntail, sizeof(*v), hash_cmp);
	if (!nold)
		return 0;
	tail = malloc(ntail * sizeof(*tail));
	if (!tail)
		return -1;
	memcpy(tail, v + nold, ntail * sizeof(*tail));
	/* Merge from the back, into the room the tail occupied. */
	i = nold, j = ntail, k = n;
	while (j > 0) {
		if (i > 0 && hash_cmp(&v[i - 1], &tail[j - 1]) > 0)
			v[--k] = v[--i];
		else
			v[--k] = tail[--j];
	}
	free(tail);
	return 0;
}

#define OOM(err) fs_error_set((err), FS_ENOMEM, "out of memory")

/* ---- the phases ---------------------------------------------------------- */

/* Take OLD as the base of an update, or none (a rebuild). */
static void use_old(struct fsi_build *b, const struct fs_index *old)
{
	b->old = old;
	b->base = old ? &old->layer[0] : &b->none;
	b->nold = b->base->ncommits;
}

/* Whether tip T of an update points where it did in the old index.  Its
 * commit is then the cache's, or a commit of the old delta that the walk
 * holds as a node: the walk need not start from it, and a claim from it
 * matters only in the second case (the cache's commits keep their release
 * and branch, see settled_release()).  Looking every unchanged tag up in
 * the cache's table cost more than the rest of a small update. */
static int tip_unchanged(const struct fsi_build *b, const struct fsi_tip *t)
{
	const struct fs_disk_tip *o;

	if (!b->nold)
		return 0;
	o = fsi_tip_hint_find(&b->old_tips, t->name);
	return o && !memcmp(o->oid, t->oid.id, GIT_OID_RAWSZ);
}

/* The global id a claim starts from for tip T, or -1 for none. */
static long claim_start(const struct fsi_build *b, const struct fsi_tip *t)
{
	if (tip_unchanged(b, t))
		return fsi_walk_lookup_node(b->w, &t->oid);
	return fsi_walk_lookup(b->w, &t->oid);
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
		if (!tip_unchanged(b, &b->ts.t.v[i]) && fsi_walk_add_tip(b->w, &b->ts.t.v[i].oid) < 0)
			return OOM(err);
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
		np = parents_of(b, stack.v[--stack.n], &par, NULL);
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

/* The release table: the old names plus the tags, in version order. */
static int release_table(struct fsi_build *b, struct fs_error *err)
{
	size_t i;

	b->ntotal = b->nold + b->nnodes;
	b->release = calloc(b->ntotal + 1, sizeof(*b->release));
	b->branch = calloc(b->ntotal + 1, sizeof(*b->branch));
	b->assigned = calloc(b->ntotal + 1, 1);
	if (!b->release || !b->branch || !b->assigned || VEC_PUSH(b->rel_names, "") ||
	    VEC_PUSH(b->br_names, "mainline") || VEC_PUSH(b->br_fork, 0))
		return OOM(err);
	for (i = 0; i < b->ts.t.n; i++)
		if (b->ts.t.v[i].release && VEC_PUSH(b->rel_names, b->ts.t.v[i].release))
			return OOM(err);
	/* Releases of old commits whose tags are gone would have forced a
	 * rebuild, so every old release name is among the tags. */
	qsort(b->rel_names.v + 1, b->rel_names.n - 1, sizeof(*b->rel_names.v), str_ptr_rel_cmp);
	if (b->rel_names.n > 65535)
		return fs_error_set(err, FS_EGENERIC, "too many release tags (%zu)",
				    b->rel_names.n);
	return 0;
}

/* The branch table: old branches keep their numbers' names; new ones
 * follow.  Each knows the release it forked from. */
static int branch_table(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_layer *base = b->base;
	size_t i;

	for (i = 1; i < base->nbranches; i++)
		if (VEC_PUSH(b->br_names, base->strings + base->branches[i].name) ||
		    VEC_PUSH(b->br_fork, 0))
			return OOM(err);
	for (i = 0; i < b->ts.t.n; i++) {
		const char *br = b->ts.t.v[i].branch;
		if (!br || find_name(b->br_names.v, b->br_names.n, 1, br) >= 0)
			continue;
		if (b->br_names.n >= 255)
			return fs_error_set(err, FS_EGENERIC, "too many stable branches");
		if (VEC_PUSH(b->br_names, br) || VEC_PUSH(b->br_fork, 0))
			return OOM(err);
	}
	for (i = 1; i < b->br_names.n; i++) {
		/* linux-4.4.y forked from v4.4, linux-2.6.32.y from v2.6.32. */
		const char *name = b->br_names.v[i];
		size_t len = strlen(name);
		char fork[64];
		if (len > 8 && len < sizeof(fork) && !strncmp(name, "linux-", 6) &&
		    !strcmp(name + len - 2, ".y")) {
			int r;
			snprintf(fork, sizeof(fork), "v%.*s", (int)(len - 8), name + 6);
			r = find_name(b->rel_names.v, b->rel_names.n, 1, fork);
			b->br_fork.v[i] = r > 0 ? (uint16_t)r : 0;
		}
	}
	return 0;
}

/* Old commits keep their release (renumbered); cache commits a tag newer
 * than the cache claimed (the old delta's relset) keep that one. */
static int old_releases(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_layer *base = b->base, *d;
	size_t i;

	if (!b->nold)
		return 0;
	b->release_map = calloc(base->nreleases + 1, sizeof(*b->release_map));
	if (!b->release_map)
		return OOM(err);
	for (i = 1; i < base->nreleases; i++)
		b->release_map[i] = (uint16_t)release_number(b, base->strings + base->releases[i]);
	d = fsi_delta(b->old);
	for (i = 0; d && i < d->nrelset; i++) {
		const struct fs_disk_relset *e = &d->relset[i];
		unsigned r = release_number(b, d->strings + d->releases[e->release]);
		if (e->cid < b->nold && r && set_release(b, e->cid, r) < 0)
			return OOM(err);
	}
	return 0;
}

/* Releases: tags in version order; a commit belongs to the first tag
 * that reaches it. */
/* A release tag's place in the claims: its release's number, then its
 * place among the tips. */
struct tag_claim {
	uint32_t release, tip;
};

static int tag_claim_cmp(const void *a, const void *b)
{
	const struct tag_claim *x = a, *y = b;

	if (x->release != y->release)
		return x->release < y->release ? -1 : 1;
	return x->tip < y->tip ? -1 : x->tip > y->tip;
}

static int claim_releases(struct fsi_build *b, struct fs_error *err)
{
	uint8_t *mark = calloc(b->ntotal + 1, 1);
	struct tag_claim *order = calloc(b->ts.t.n + 1, sizeof(*order));
	size_t g, i, n = 0;
	int rc = 0;

	if (!mark || !order) {
		free(mark);
		free(order);
		return OOM(err);
	}
	for (g = b->nold; g < b->ntotal; g++)
		mark[g] = fsi_node_at(b->w, g - b->nold)->state != NODE_READ;
	/* Oldest release first, so that each commit goes to the first
	 * release that has it; the tags sorted once rather than matched
	 * against every release. */
	for (i = 0; i < b->ts.t.n; i++) {
		unsigned r = b->ts.t.v[i].release ? release_number(b, b->ts.t.v[i].release) : 0;
		if (r) {
			order[n].release = r;
			order[n++].tip = (uint32_t)i;
		}
	}
	qsort(order, n, sizeof(*order), tag_claim_cmp);
	for (i = 0; i < n && rc == 0; i++) {
		long gid = claim_start(b, &b->ts.t.v[order[i].tip]);
		if (gid >= 0 &&
		    claim(b, gid, mark, settled_release, set_release, order[i].release) < 0)
			rc = OOM(err);
	}
	free(order);
	free(mark);
	return rc;
}

/* Branches of new commits: mainline first (its ref and tags), then each
 * stable ref and stable tag. */
static int claim_branches(struct fsi_build *b, struct fs_error *err)
{
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < b->ts.t.n; i++) {
			const struct fsi_tip *t = &b->ts.t.v[i];
			int is_main = t->kind == FS_TIP_MAINLINE ||
				      (t->kind == FS_TIP_TAG && !t->stable_tag);
			long gid;
			unsigned br = 0;
			if (is_main != (pass == 0))
				continue;
			if (!is_main) {
				int x = find_name(b->br_names.v, b->br_names.n, 1, t->branch);
				if (x <= 0)
					continue;
				br = (unsigned)x;
			}
			gid = claim_start(b, t);
			if (gid >= 0 &&
			    claim(b, gid, b->assigned, settled_branch, set_branch, br) < 0)
				return OOM(err);
		}
	}
	return 0;
}

/* The final order: old commits and new ones merged by id.  A delta holds
 * the nodes only, numbered after the cache's commits, which keep their
 * numbers. */
static int build_order(struct fsi_build *b, struct fs_error *err)
{
	struct fsi_walk *w = b->w;
	size_t nnew, i, j;

	b->new_order = malloc((b->nnodes + 1) * sizeof(*b->new_order));
	b->final_of_new = malloc((b->nnodes + 1) * sizeof(*b->final_of_new));
	b->final_of_old = malloc((b->nold + 1) * sizeof(*b->final_of_old));
	b->final_src = malloc((b->nold + b->nnodes + 1) * sizeof(*b->final_src));
	if (!b->new_order || !b->final_of_new || !b->final_of_old || !b->final_src)
		return OOM(err);
	for (i = 0, j = 0; i < b->nnodes; i++)
		if (fsi_node_at(w, i)->state == NODE_READ)
			b->new_order[j++] = (uint32_t)i;
	nnew = b->nnew = j;
	qsort_r(b->new_order, nnew, sizeof(*b->new_order), slot_oid_cmp, w);
	for (i = 0; i < w->nnodes; i++)
		b->final_of_new[i] = UINT32_MAX;
	b->keep_old = b->delta ? 0 : b->nold;
	b->cid_off = b->delta ? b->nold : 0;
	for (i = 0, j = 0; i < b->keep_old || j < nnew;) {
		int take_old;
		if (i == b->keep_old)
			take_old = 0;
		else if (j == nnew)
			take_old = 1;
		else
			take_old = memcmp(b->base->commits[i].oid,
					  fsi_node_at(w, b->new_order[j])->oid.id, 20) < 0;
		if (take_old) {
			b->final_of_old[i] = (uint32_t)b->nfinal;
			b->final_src[b->nfinal++] = (int32_t)i;
			i++;
		} else {
			b->final_of_new[b->new_order[j]] = (uint32_t)(b->cid_off + b->nfinal);
			b->final_src[b->nfinal++] = -(int32_t)b->new_order[j] - 1;
			j++;
		}
	}
	b->kept_refs = b->keep_old ? b->base->nrefs : 0;
	if (b->cid_off + b->nfinal >= UINT32_MAX / 2)
		return fs_error_set(err, FS_EGENERIC, "too many commits");
	return 0;
}

/* Add S to the names pool; its offset in the file's strings, in *DST. */
static int add_name(struct fsi_build *b, const char *s, uint32_t *dst)
{
	long o = fsi_pool_add(&b->names, s, strlen(s));

	if (o < 0)
		return -1;
	*dst = (uint32_t)(b->names_base + o);
	return 0;
}

/* Strings: the old pool, each pool of the walk, then the names of
 * releases, branches, tips and the repository. */
static int build_strings(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t base, rbase, k, i;
	char *abs;
	int bad = 0;

	b->str_base = calloc(w->npools + 1, sizeof(*b->str_base));
	b->ref_base = calloc(w->npools + 1, sizeof(*b->ref_base));
	if (!b->str_base || !b->ref_base)
		return OOM(err);
	/* Without the old pool, offset 0 is the "" that starts the file's. */
	base = b->keep_old ? b->base->strings_len : 1;
	rbase = b->kept_refs;
	for (k = 0; k < w->npools; k++) {
		b->str_base[k] = base;
		b->ref_base[k] = rbase;
		base += w->workers[k].pool.n;
		rbase += w->workers[k].refs.n;
	}
	b->names_base = base;
	b->nrefs = rbase;
	if (base > UINT32_MAX - (1u << 24))
		return fs_error_set(err, FS_EGENERIC, "the string pool is too large");
	b->rel_off = calloc(b->rel_names.n, sizeof(*b->rel_off));
	b->br_off = calloc(b->br_names.n, sizeof(*b->br_off));
	b->tip_off = calloc(b->ts.t.n + 1, sizeof(*b->tip_off));
	if (fsi_pool_add(&b->names, "", 0) < 0 || !b->rel_off || !b->br_off || !b->tip_off)
		return OOM(err);
	for (i = 1; i < b->rel_names.n && !bad; i++)
		bad = add_name(b, b->rel_names.v[i], &b->rel_off[i]);
	for (i = 0; i < b->br_names.n && !bad; i++)
		bad = add_name(b, b->br_names.v[i], &b->br_off[i]);
	for (i = 0; i < b->ts.t.n && !bad; i++)
		bad = add_name(b, b->ts.t.v[i].name, &b->tip_off[i]);
	if (!bad) {
		abs = realpath(b->opts->repo_path, NULL);
		bad = add_name(b, abs ? abs : b->opts->repo_path, &b->repo_off);
		free(abs);
	}
	return bad ? OOM(err) : 0;
}

/* Refs: old refs as they were (sources renumbered), then each pool's
 * refs in pool order.  Refs of commits that turned out missing were never
 * made; every source is a final commit.  The pools' refs are freed
 * then: what follows reads B->refs. */
static int build_refs(struct fsi_build *b, struct fs_error *err)
{
	struct fsi_walk *w = b->w;
	size_t i, k;

	b->refs = malloc((b->nrefs + 1) * sizeof(*b->refs));
	if (!b->refs)
		return OOM(err);
	for (i = 0; i < b->kept_refs; i++) {
		b->refs[i] = b->base->refs[i];
		b->refs[i].source = b->final_of_old[b->refs[i].source];
	}
	for (k = 0; k < w->npools; k++) {
		const struct fsi_worker *wk = &w->workers[k];
		for (i = 0; i < wk->refs.n; i++) {
			struct fs_disk_ref *r = &b->refs[b->ref_base[k] + i];
			*r = wk->refs.v[i];
			r->source = b->final_of_new[r->source];
			if (r->subject)
				r->subject += (uint32_t)b->str_base[k];
		}
	}
	fsi_walk_drop_refs(w);
	return 0;
}

/* refkeys: the old order kept, new refs sorted and merged in. */
static int build_refkeys(struct fsi_build *b, struct fs_error *err)
{
	size_t nn = b->nrefs - b->kept_refs, i, j, k;
	uint32_t *newpos;

	b->refkeys = malloc((b->nrefs + 1) * sizeof(*b->refkeys));
	newpos = malloc((nn + 1) * sizeof(*newpos));
	if (!b->refkeys || !newpos) {
		free(newpos);
		return OOM(err);
	}
	for (i = 0; i < nn; i++)
		newpos[i] = (uint32_t)(b->kept_refs + i);
	qsort_r(newpos, nn, sizeof(*newpos), refpos_cmp, b->refs);
	for (i = 0, j = 0, k = 0; i < b->kept_refs || j < nn; k++) {
		if (j == nn || (i < b->kept_refs &&
				refpos_cmp(&b->base->refkeys[i], &newpos[j], b->refs) < 0))
			b->refkeys[k] = b->base->refkeys[i++];
		else
			b->refkeys[k] = newpos[j++];
	}
	free(newpos);
	return 0;
}

/* Hashes of the quoted subjects of Fixes: tags, for tags whose id is
 * wrong. */
static int build_refsubj(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t first_new, i, k;

	for (i = 0; b->keep_old && i < b->base->nrefsubj; i++)
		if (VEC_PUSH(b->refsubj, b->base->refsubj[i]))
			return OOM(err);
	first_new = b->refsubj.n;
	for (k = 0; k < w->npools; k++) {
		const char *pool = w->workers[k].pool.p;
		size_t end = k + 1 < w->npools ? b->ref_base[k + 1] : b->nrefs;
		for (i = b->ref_base[k]; i < end; i++) {
			const struct fs_disk_ref *r = &b->refs[i];
			struct fs_disk_hash hh = { 0, 0, 0 };
			if (!r->subject || r->kind != FS_REF_FIXES)
				continue;
			hh.hash = fsi_subject_hash(pool + (r->subject - b->str_base[k]));
			hh.value = (uint32_t)i;
			if (hh.hash && VEC_PUSH(b->refsubj, hh))
				return OOM(err);
		}
	}
	if (merge_new_hashes(b->refsubj.v, b->refsubj.n, first_new) < 0)
		return OOM(err);
	return 0;
}

/* Subject hashes of commits. */
static int build_subjects(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t nold = b->keep_old ? b->base->nsubjects : 0, i;

	if (VEC_RESERVE(b->subjects, nold + b->nnew + 1))
		return OOM(err);
	for (i = 0; i < nold; i++) {
		struct fs_disk_hash hh = b->base->subjects[i];
		hh.value = b->final_of_old[hh.value];
		if (VEC_PUSH(b->subjects, hh))
			return OOM(err);
	}
	for (i = 0; i < b->nnew; i++) {
		const struct fsi_node *n = fsi_node_at(w, b->new_order[i]);
		struct fs_disk_hash hh = { 0, 0, 0 };
		hh.hash = n->shash;
		hh.value = b->final_of_new[b->new_order[i]];
		if (hh.hash && VEC_PUSH(b->subjects, hh))
			return OOM(err);
	}
	if (merge_new_hashes(b->subjects.v, b->subjects.n, nold) < 0)
		return OOM(err);
	return 0;
}

/* A delta's view of the cache's commits: those a tag newer than the
 * cache has claimed.  (relmap, the cache's releases renumbered, is
 * release_map.) */
static int build_relset(struct fsi_build *b, struct fs_error *err)
{
	size_t i;

	if (!b->delta || !b->claimed_old.n)
		return 0;
	qsort(b->claimed_old.v, b->claimed_old.n, sizeof(*b->claimed_old.v), u32_cmp);
	for (i = 0; i < b->claimed_old.n; i++) {
		struct fs_disk_relset e = { b->claimed_old.v[i], 0, 0 };
		if (i && b->claimed_old.v[i] == b->claimed_old.v[i - 1])
			continue;
		e.release = b->release[e.cid];
		if (VEC_PUSH(b->relset, e))
			return OOM(err);
	}
	return 0;
}

/* Whether OID is a mainline commit of the index being built: the cache's
 * and the walk's commits, with their branches as the claims gave them. */
static int build_is_mainline(void *data, const git_oid *oid)
{
	const struct fsi_build *b = data;
	long g = fsi_walk_lookup(b->w, oid);

	if (g < 0)
		return 0;
	if ((size_t)g < b->nold)
		return b->base->commits[g].branch == 0;
	return fsi_node_at(b->w, (uint32_t)(g - b->nold))->state == NODE_READ &&
	       b->assigned[g] && b->branch[g] == 0;
}

/* The pending commits (SEC_PENDING), on the claimed graph: an update
 * takes the old section's commits from it, a rebuild reads them all. */
static int build_pending(struct fsi_build *b, struct fs_error *err)
{
	size_t ncommits = 0, nread = 0;
	int rc;

	rc = fsi_pending_build(b->repo, &b->ts, b->nold ? &b->old->pending : NULL,
			       build_is_mainline, b, &b->pending, &b->pending_len, &ncommits,
			       &nread, err);
	b->stats->pending = ncommits;
	b->stats->pending_read = nread;
	return rc;
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
		rc = release_table(&b, err);
	if (rc == 0)
		rc = branch_table(&b, err);
	if (rc == 0)
		rc = old_releases(&b, err);
	if (rc == 0)
		rc = claim_releases(&b, err);
	if (rc == 0)
		rc = claim_branches(&b, err);
	if (rc == 0)
		rc = build_pending(&b, err);
	/* The oid table was for finding commits by id; what follows goes
	 * by slot. */
	if (rc == 0)
		fsi_walk_drop_table(b.w);
	/* The tables of the new file, in their final order. */
	if (rc == 0)
		rc = build_order(&b, err);
	if (rc == 0)
		rc = build_strings(&b, err);
	if (rc == 0)
		rc = build_refs(&b, err);
	if (rc == 0)
		rc = build_refkeys(&b, err);
	if (rc == 0)
		rc = build_refsubj(&b, err);
	if (rc == 0)
		rc = build_subjects(&b, err);
	if (rc == 0)
		rc = build_relset(&b, err);
	if (rc == 0)
		rc = fsi_write(&b, err);
	*fingerprint = rc == 0 ? b.ts.fingerprint : 0;
	build_free(&b);
	return rc;
}
