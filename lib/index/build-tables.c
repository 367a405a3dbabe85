/* fixscan: the tables of the file a build writes (see build.h), in their
 * final order: commits merged by id, strings, references, their keys,
 * subjects, the releases newer tags gave cache commits, pending commits. */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "fixscan/index.h"
#include "build.h"
#include "format.h"
#include "load.h"
#include "pendidx.h"
#include "tips.h"
#include "walk.h"

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

int fsi_build_order(struct fsi_build *b, struct fs_error *err)
{
	struct fsi_walk *w = b->w;
	size_t nnew, i, j;

	b->new_order = malloc((b->nnodes + 1) * sizeof(*b->new_order));
	b->final_of_new = malloc((b->nnodes + 1) * sizeof(*b->final_of_new));
	b->final_of_old = malloc((b->nold + 1) * sizeof(*b->final_of_old));
	b->final_src = malloc((b->nold + b->nnodes + 1) * sizeof(*b->final_src));
	if (!b->new_order || !b->final_of_new || !b->final_of_old || !b->final_src)
		return FSI_OOM(err);
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

int fsi_build_strings(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t base, rbase, k, i;
	char *abs;
	int bad = 0;

	b->str_base = calloc(w->npools + 1, sizeof(*b->str_base));
	b->ref_base = calloc(w->npools + 1, sizeof(*b->ref_base));
	if (!b->str_base || !b->ref_base)
		return FSI_OOM(err);
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
		return FSI_OOM(err);
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
	return bad ? FSI_OOM(err) : 0;
}

int fsi_build_refs(struct fsi_build *b, struct fs_error *err)
{
	struct fsi_walk *w = b->w;
	size_t i, k;

	b->refs = malloc((b->nrefs + 1) * sizeof(*b->refs));
	if (!b->refs)
		return FSI_OOM(err);
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

int fsi_build_refkeys(struct fsi_build *b, struct fs_error *err)
{
	size_t nn = b->nrefs - b->kept_refs, i, j, k;
	uint32_t *newpos;

	b->refkeys = malloc((b->nrefs + 1) * sizeof(*b->refkeys));
	newpos = malloc((nn + 1) * sizeof(*newpos));
	if (!b->refkeys || !newpos) {
		free(newpos);
		return FSI_OOM(err);
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

int fsi_build_refsubj(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t first_new, i, k;

	for (i = 0; b->keep_old && i < b->base->nrefsubj; i++)
		if (VEC_PUSH(b->refsubj, b->base->refsubj[i]))
			return FSI_OOM(err);
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
				return FSI_OOM(err);
		}
	}
	if (merge_new_hashes(b->refsubj.v, b->refsubj.n, first_new) < 0)
		return FSI_OOM(err);
	return 0;
}

int fsi_build_subjects(struct fsi_build *b, struct fs_error *err)
{
	const struct fsi_walk *w = b->w;
	size_t nold = b->keep_old ? b->base->nsubjects : 0, i;

	if (VEC_RESERVE(b->subjects, nold + b->nnew + 1))
		return FSI_OOM(err);
	for (i = 0; i < nold; i++) {
		struct fs_disk_hash hh = b->base->subjects[i];
		hh.value = b->final_of_old[hh.value];
		if (VEC_PUSH(b->subjects, hh))
			return FSI_OOM(err);
	}
	for (i = 0; i < b->nnew; i++) {
		const struct fsi_node *n = fsi_node_at(w, b->new_order[i]);
		struct fs_disk_hash hh = { 0, 0, 0 };
		hh.hash = n->shash;
		hh.value = b->final_of_new[b->new_order[i]];
		if (hh.hash && VEC_PUSH(b->subjects, hh))
			return FSI_OOM(err);
	}
	if (merge_new_hashes(b->subjects.v, b->subjects.n, nold) < 0)
		return FSI_OOM(err);
	return 0;
}

int fsi_build_relset(struct fsi_build *b, struct fs_error *err)
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
			return FSI_OOM(err);
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

int fsi_build_pending(struct fsi_build *b, struct fs_error *err)
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
