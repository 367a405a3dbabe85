/* fixscan: the releases and branches of a build (see build.h): the tables
 * of names, then each tag, in version order, claiming the commits it
 * reaches that no earlier tag claimed, and each stable branch its own. */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "fixscan/index.h"
#include "fixscan/version.h"
#include "build.h"
#include "format.h"
#include "load.h"
#include "tips.h"
#include "walk.h"

static int str_ptr_rel_cmp(const void *a, const void *b)
{
	return fs_version_name_cmp(*(const char *const *)a, *(const char *const *)b);
}

static int find_name(const char *const *v, size_t n, size_t from, const char *name)
{
	size_t i;

	for (i = from; i < n; i++)
		if (!strcmp(v[i], name))
			return (int)i;
	return -1;
}

size_t fsi_build_parents_of(struct fsi_build *b, size_t g, const uint32_t **out,
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
		np = fsi_build_parents_of(b, g, &par, NULL);
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
		int c = fs_version_name_cmp(b->rel_names.v[mid], name);
		if (c == 0)
			return (unsigned)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int fsi_build_tip_unchanged(const struct fsi_build *b, const struct fsi_tip *t)
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
	if (fsi_build_tip_unchanged(b, t))
		return fsi_walk_lookup_node(b->w, &t->oid);
	return fsi_walk_lookup(b->w, &t->oid);
}

int fsi_build_release_table(struct fsi_build *b, struct fs_error *err)
{
	size_t i;

	b->ntotal = b->nold + b->nnodes;
	b->release = calloc(b->ntotal + 1, sizeof(*b->release));
	b->branch = calloc(b->ntotal + 1, sizeof(*b->branch));
	b->assigned = calloc(b->ntotal + 1, 1);
	if (!b->release || !b->branch || !b->assigned || VEC_PUSH(b->rel_names, "") ||
	    VEC_PUSH(b->br_names, "mainline") || VEC_PUSH(b->br_fork, 0))
		return FSI_OOM(err);
	for (i = 0; i < b->ts.t.n; i++)
		if (b->ts.t.v[i].release && VEC_PUSH(b->rel_names, b->ts.t.v[i].release))
			return FSI_OOM(err);
	/* Releases of old commits whose tags are gone would have forced a
	 * rebuild, so every old release name is among the tags. */
	qsort(b->rel_names.v + 1, b->rel_names.n - 1, sizeof(*b->rel_names.v), str_ptr_rel_cmp);
	if (b->rel_names.n > 65535)
		return fs_error_set(err, FS_EGENERIC, "too many release tags (%zu)",
				    b->rel_names.n);
	return 0;
}

int fsi_build_branch_table(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_layer *base = b->base;
	size_t i;

	for (i = 1; i < base->nbranches; i++)
		if (VEC_PUSH(b->br_names, base->strings + base->branches[i].name) ||
		    VEC_PUSH(b->br_fork, 0))
			return FSI_OOM(err);
	for (i = 0; i < b->ts.t.n; i++) {
		const char *br = b->ts.t.v[i].branch;
		if (!br || find_name(b->br_names.v, b->br_names.n, 1, br) >= 0)
			continue;
		if (b->br_names.n >= 255)
			return fs_error_set(err, FS_EGENERIC, "too many stable branches");
		if (VEC_PUSH(b->br_names, br) || VEC_PUSH(b->br_fork, 0))
			return FSI_OOM(err);
	}
	for (i = 1; i < b->br_names.n; i++) {
		/* linux-4.4.y forked from v4.4, linux-2.6.32.y from v2.6.32. */
		struct fs_version series;
		char fork[FS_VERSION_NAME_MAX];
		if (fs_version_branch_parse(b->br_names.v[i], &series)) {
			int r;
			series.v = true;
			fs_version_format(&series, fork, sizeof(fork));
			r = find_name(b->rel_names.v, b->rel_names.n, 1, fork);
			b->br_fork.v[i] = r > 0 ? (uint16_t)r : 0;
		}
	}
	return 0;
}

int fsi_build_old_releases(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_layer *base = b->base, *d;
	size_t i;

	if (!b->nold)
		return 0;
	b->release_map = calloc(base->nreleases + 1, sizeof(*b->release_map));
	if (!b->release_map)
		return FSI_OOM(err);
	for (i = 1; i < base->nreleases; i++)
		b->release_map[i] = (uint16_t)release_number(b, base->strings + base->releases[i]);
	d = fsi_delta(b->old);
	for (i = 0; d && i < d->nrelset; i++) {
		const struct fs_disk_relset *e = &d->relset[i];
		unsigned r = release_number(b, d->strings + d->releases[e->release]);
		if (e->cid < b->nold && r && set_release(b, e->cid, r) < 0)
			return FSI_OOM(err);
	}
	return 0;
}

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

int fsi_build_claim_releases(struct fsi_build *b, struct fs_error *err)
{
	uint8_t *mark = calloc(b->ntotal + 1, 1);
	struct tag_claim *order = calloc(b->ts.t.n + 1, sizeof(*order));
	size_t g, i, n = 0;
	int rc = 0;

	if (!mark || !order) {
		free(mark);
		free(order);
		return FSI_OOM(err);
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
			rc = FSI_OOM(err);
	}
	free(order);
	free(mark);
	return rc;
}

int fsi_build_claim_branches(struct fsi_build *b, struct fs_error *err)
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
				return FSI_OOM(err);
		}
	}
	return 0;
}
