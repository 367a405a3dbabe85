/* fixscan: the commit walk's nodes, their oid table and their queue (see
 * walk.h); the reads are walk-git.c's and walk-pack.c's. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <git2.h>

#include "fixscan/index.h"
#include "format.h"
#include "walk-private.h"

static inline int pending_before(const struct fsi_pending *a, const struct fsi_pending *b)
{
	return a->when != b->when ? a->when > b->when : a->seq < b->seq;
}

static int queue_push(struct fsi_walk *w, uint32_t slot, int64_t when)
{
	struct fsi_pending p = { when, w->queue_seq++, slot };
	size_t i;

	if (VEC_RESERVE(w->queue, w->queue.n + 1))
		return -1;
	i = w->queue.n++;
	while (i > 0 && pending_before(&p, &w->queue.v[(i - 1) / 2])) {
		w->queue.v[i] = w->queue.v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->queue.v[i] = p;
	return 0;
}

uint32_t fsi_walk_queue_pop(struct fsi_walk *w)
{
	uint32_t top = w->queue.v[0].slot;
	struct fsi_pending last = w->queue.v[--w->queue.n];
	size_t i = 0, n = w->queue.n;

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && pending_before(&w->queue.v[c + 1], &w->queue.v[c]))
			c++;
		if (!pending_before(&w->queue.v[c], &last))
			break;
		w->queue.v[i] = w->queue.v[c];
		i = c;
	}
	if (n)
		w->queue.v[i] = last;
	return top;
}

struct old_key {
	const struct fs_disk_commit *commits;
	const unsigned char *id;
};

static uint64_t old_at(size_t i, const void *data)
{
	return fsi_be64(((const struct old_key *)data)->commits[i].oid);
}

static int old_before(size_t i, const void *data)
{
	const struct old_key *q = data;

	return memcmp(q->commits[i].oid, q->id, 20) < 0;
}

/* The cid of OID in the old index, or -1.  Each new commit's parents are
 * looked up here, in the cache's mapped table. */
static long old_lookup(const struct fsi_walk *w, const git_oid *oid)
{
	struct old_key q = { w->old_commits, oid->id };
	size_t i = fsi_interp_lower_bound(w->nold, fsi_be64(oid->id), old_at, old_before, &q);

	return i < w->nold && !memcmp(w->old_commits[i].oid, oid->id, 20) ? (long)i : -1;
}

int fsi_walk_table_grow(struct fsi_walk *w)
{
	size_t nsize = w->table_size ? w->table_size * 2 : 1u << 16, i, j;
	uint32_t *nt = calloc(nsize, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < w->table_size; i++) {
		uint32_t s = w->table[i];
		if (!s)
			continue;
		j = fsi_walk_oid_hash(&fsi_node_at(w, s - 1)->oid) & (nsize - 1);
		while (nt[j])
			j = (j + 1) & (nsize - 1);
		nt[j] = s;
	}
	free(w->table);
	w->table = nt;
	w->table_size = nsize;
	return 0;
}

int fsi_walk_reach(struct fsi_walk *w, uint32_t slot, int64_t when)
{
	struct fsi_node *n = fsi_node_at(w, slot);

	if (n->state == NODE_AHEAD)
		n->state = NODE_QUEUED;
	else if (n->state == NODE_UNREAD)
		n->state = NODE_PENDING;
	else
		return 0;
	return queue_push(w, slot, when);
}

static long add_node(struct fsi_walk *w, const git_oid *oid, int queue, int64_t when);

long fsi_walk_intern(struct fsi_walk *w, const git_oid *oid, int64_t when)
{
	long old = w->nold ? old_lookup(w, oid) : -1;

	if (old >= 0)
		return old;
	return add_node(w, oid, 1, when);
}

/* The global id of OID among the nodes, adding a node when it is new: to
 * be read (QUEUE), or already known (a commit of the old delta). */
static long add_node(struct fsi_walk *w, const git_oid *oid, int queue, int64_t when)
{
	uint32_t slot;
	size_t j;
	struct fsi_node *n;

	if ((w->nnodes + 1) * 2 > w->table_size && fsi_walk_table_grow(w) < 0)
		return -1;
	j = fsi_walk_oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		n = fsi_node_at(w, w->table[j] - 1);
		if (git_oid_equal(&n->oid, oid)) {
			if (queue && fsi_walk_reach(w, w->table[j] - 1, when) < 0)
				return -1;
			return (long)(w->nold + w->table[j] - 1);
		}
		j = (j + 1) & (w->table_size - 1);
	}
	slot = w->nnodes;
	if ((slot >> FSI_CHUNK_BITS) >= FSI_MAX_CHUNKS)
		return -1;
	if (!w->chunks[slot >> FSI_CHUNK_BITS] &&
	    !(w->chunks[slot >> FSI_CHUNK_BITS] = calloc(FSI_CHUNK_SIZE, sizeof(struct fsi_node))))
		return -1;
	n = fsi_node_at(w, slot);
	memset(n, 0, sizeof(*n));
	n->oid = *oid;
	w->nnodes++;
	w->table[j] = slot + 1;
	if (queue && queue_push(w, slot, when))
		return -1;
	return (long)(w->nold + slot);
}

void fsi_walk_record_node(struct fsi_walk *w, uint32_t slot, const git_oid *parents,
			  int nparents, int missing, int64_t when)
{
	struct fsi_node *n = fsi_node_at(w, slot);
	int j;

	n->state = missing ? NODE_MISSING : NODE_READ;
	n->parent_first = (uint32_t)w->parents.n;
	n->nparents = 0;
	for (j = 0; j < nparents && !w->failed; j++) {
		long gid = fsi_walk_intern(w, &parents[j], when);
		if (gid < 0 || VEC_PUSH(w->parents, (uint32_t)gid)) {
			w->failed = 1;
			fs_error_set(&w->err, FS_ENOMEM, "out of memory");
			break;
		}
		n = fsi_node_at(w, slot);
		n->nparents++;
	}
}

/* Copy the subject and refs of the old delta's commit J (layer D) into
 * POOL and the pool's refs, for node ND. */
static int preload_texts(struct fsi_worker *pw, const struct fsi_layer *d, size_t j,
			 struct fsi_node *nd)
{
	const struct fs_disk_commit *dc = &d->commits[j];
	long off;
	size_t k;

	off = fsi_pool_add(&pw->pool, d->strings + dc->subject, strlen(d->strings + dc->subject));
	if (off < 0)
		return -1;
	nd->subject = (uint32_t)off;
	nd->shash = fsi_subject_hash(pw->pool.p + off);
	nd->ref_first = (uint32_t)pw->refs.n;
	nd->nrefs = dc->nrefs;
	for (k = 0; k < dc->nrefs; k++) {
		struct fs_disk_ref r = d->refs[dc->ref_first + k];
		r.source = (uint32_t)j;
		if (r.subject) {
			off = fsi_pool_add(&pw->pool, d->strings + r.subject,
					   strlen(d->strings + r.subject));
			if (off < 0)
				return -1;
			r.subject = (uint32_t)off;
		}
		if (VEC_PUSH(pw->refs, r))
			return -1;
	}
	return 0;
}

/* Make the old delta's commits nodes that are already read, so that the
 * walk stops at them as it stops at the cache's, and the new delta or
 * cache is written from them as from the commits just read.  Their
 * subjects and refs are copied into the last pool.  Slot J is the delta's
 * commit J, so a parent number in the delta maps to a slot directly. */
int fsi_walk_preload(struct fsi_walk *w, const struct fsi_layer *d, struct fs_error *err)
{
	struct fsi_worker *pw = &w->workers[w->nworkers];
	size_t j, k;

	for (j = 0; d && j < d->ncommits; j++) {
		const struct fs_disk_commit *dc = &d->commits[j];
		git_oid oid;
		long slot;
		struct fsi_node *nd;

		memcpy(oid.id, dc->oid, 20);
		slot = add_node(w, &oid, 0, 0);
		if (slot < 0 || (size_t)slot != w->nold + j)
			goto oom;
		nd = fsi_node_at(w, (uint32_t)j);
		if (preload_texts(pw, d, j, nd) < 0)
			goto oom;
		nd->parent_first = (uint32_t)w->parents.n;
		nd->nparents = dc->nparents;
		nd->author = dc->author;
		for (k = 0; k < dc->nparents; k++) {
			/* global numbers in the old index are global ids here:
			 * the cache's first, then the delta's in slot order */
			if (VEC_PUSH(w->parents, d->parents[dc->parent_first + k]))
				goto oom;
		}
		nd->thread = (uint8_t)w->nworkers;
		nd->state = NODE_READ;
	}
	w->npreloaded = d ? d->ncommits : 0;
	return 0;
oom:
	return fs_error_set(err, FS_ENOMEM, "out of memory");
}

long fsi_walk_add_tip(struct fsi_walk *w, const git_oid *oid)
{
	return fsi_walk_intern(w, oid, INT64_MAX);
}

long fsi_walk_lookup_node(const struct fsi_walk *w, const git_oid *oid)
{
	long slot = fsi_walk_table_find(w, oid);

	return slot < 0 ? -1 : (long)w->nold + slot;
}

long fsi_walk_lookup(const struct fsi_walk *w, const git_oid *oid)
{
	long old = w->nold ? old_lookup(w, oid) : -1;

	return old >= 0 ? old : fsi_walk_lookup_node(w, oid);
}

void fsi_walk_drop_table(struct fsi_walk *w)
{
	free(w->table);
	w->table = NULL;
	w->table_size = 0;
}

void fsi_walk_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

void fsi_walk_drop_refs(struct fsi_walk *w)
{
	size_t k;

	for (k = 0; w->workers && k < w->npools; k++) {
		free(w->workers[k].refs.v);
		memset(&w->workers[k].refs, 0, sizeof(w->workers[k].refs));
	}
	/* they were grown by the reading threads, in their arenas */
	fsi_walk_trim();
}

int fsi_walk_new(struct fsi_walk **out, const struct fs_index_opts *opts,
		 const struct fs_disk_commit *old_commits, size_t nold, int nworkers,
		 size_t expect_total, struct fs_error *err)
{
	struct fsi_walk *w = calloc(1, sizeof(*w));
	size_t k;

	*out = NULL;
	if (!w)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->old_commits = old_commits;
	w->nold = nold;
	w->opts = opts;
	w->expect_total = expect_total;
	w->nworkers = nworkers;
	/* the workers', the old delta's, and those of the packs' read */
	w->npools = 2 * (size_t)nworkers + 1;
	w->workers = calloc(w->npools, sizeof(*w->workers));
	if (!w->workers)
		goto oom;
	for (k = 0; k < w->npools; k++) {
		w->workers[k].w = w;
		w->workers[k].id = (int)k;
		if (fsi_pool_add(&w->workers[k].pool, "", 0) < 0)
			goto oom;
	}
	*out = w;
	return 0;
oom:
	fsi_walk_free(w);
	return fs_error_set(err, FS_ENOMEM, "out of memory");
}

void fsi_walk_free(struct fsi_walk *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; w->workers && i < w->npools; i++) {
		git_odb_free(w->workers[i].odb);
		git_repository_free(w->workers[i].repo);
		free(w->workers[i].pool.p);
		free(w->workers[i].refs.v);
		free(w->workers[i].parents.v);
	}
	free(w->workers);
	for (i = 0; i < FSI_MAX_CHUNKS && w->chunks[i]; i++)
		free(w->chunks[i]);
	free(w->table);
	free(w->queue.v);
	free(w->parents.v);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
