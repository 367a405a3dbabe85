/* fixscan: the full build's read of the pack files (fsi_walk_run_packed(),
 * see walk.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <git2.h>

#include "fixscan/index.h"
#include "base/git-util.h"
#include "pack.h"
#include "tips.h"
#include "walk-private.h"

/* The full build's read: every commit of the pack files read ahead, in
 * parallel and in pack order (pack.c), each straight into a node of its
 * own (AHEAD, see walk.h) whose slot is given out before the read, its
 * parents looked up by the reading thread; then the walk from the tips
 * over those nodes, in this thread: a commit the packs did not give
 * (loose, deltified, in an alternate) is read through libgit2 as it is
 * reached.  The walk reaches what fsi_walk_run() reaches, with the same
 * parents and texts, and what else the packs hold is taken out at the
 * end: only the numbering of the nodes and the order of the pools
 * differ, which the file's contents do not depend on.  One copy of each
 * commit is kept, its node, and its parents are numbers from the start. */

/* A parent the packs do not have: its id is the thread's named[i]. */
#define PF_NAMED 0x80000000u

struct pf_thread {
	struct fsi_walk *w;
	struct fsi_worker *wk; /* its pool: w->workers[nworkers + 1 + k] */
	const struct fsi_packs *ps;
	const struct fsi_pack_obj *scan; /* the entries this thread scans */
	size_t nscan;
	struct fsi_pack_obj *found; /* the scan's commits, sorted */
	size_t nfound;
	const struct fsi_pack_obj *objs; /* what this thread reads */
	size_t nobjs;
	uint32_t slot; /* the node of objs[0]; the others follow it */
	VEC(uint32_t) parents; /* of its nodes: slots, or PF_NAMED | i */
	VEC(git_oid) named;
	int rc;
	struct fs_error err;
	pthread_t thread;
};

#define PF_PROGRESS 8192
/* Commits read between two drops of the pages read (of the pack, and of
 * the thread's part of the list of commits). */
#define PF_DROP_EVERY 2048

/* The list of the commits to read: in a mapping of its own, so that each
 * thread can hand back the pages of its part it has passed. */
static struct fsi_pack_obj *pf_list_new(size_t n, size_t *len)
{
	void *m;

	*len = (n + 1) * sizeof(struct fsi_pack_obj);
	m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

/* Hand back the whole pages of [FROM, TO) of a pf_list_new() list. */
static void pf_list_drop(const struct fsi_pack_obj *from, const struct fsi_pack_obj *to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a, e;

	if (pg <= 0)
		return;
	a = ((uintptr_t)from + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
	e = (uintptr_t)to & ~((uintptr_t)pg - 1);
	if (e > a)
		madvise((void *)a, e - a, MADV_DONTNEED);
}

static void *pf_scan_main(void *arg)
{
	struct pf_thread *t = arg;

	if (fsi_packs_scan(t->ps, t->scan, t->nscan, &t->found, &t->nfound) < 0)
		t->rc = fs_error_set(&t->err, FS_ENOMEM, "out of memory");
	return NULL;
}

/* Parse the commit at DATA (LEN bytes) into node SLOT (its id is there
 * already), read ahead; its parents into the thread's, as slots. */
static int pf_parse(struct pf_thread *t, uint32_t slot, const char *data, size_t len)
{
	struct fsi_worker *wk = t->wk;
	struct fsi_node *n = fsi_node_at(t->w, slot);
	size_t first = t->parents.n;
	struct fsi_parsed p;
	int rc, j;

	wk->parents.n = 0;
	rc = fsi_walk_parse_commit(wk, data, data + len, slot, &p, &t->err);
	if (rc < 0)
		return rc;
	for (j = 0; j < p.nparents; j++) {
		long s = fsi_walk_table_find(t->w, &wk->parents.v[j]);
		uint32_t id = (uint32_t)s;
		if (s < 0) {
			id = PF_NAMED | (uint32_t)t->named.n;
			if (t->named.n >= PF_NAMED || VEC_PUSH(t->named, wk->parents.v[j]))
				return fs_error_set(&t->err, FS_ENOMEM, "out of memory");
		}
		if (VEC_PUSH(t->parents, id))
			return fs_error_set(&t->err, FS_ENOMEM, "out of memory");
	}
	n->shash = p.shash;
	n->subject = p.subject;
	n->ref_first = p.ref_first;
	n->nrefs = p.nrefs;
	n->author = p.author;
	n->parent_first = (uint32_t)first;
	n->nparents = (uint8_t)p.nparents;
	n->thread = (uint8_t)wk->id;
	n->state = NODE_AHEAD;
	return 0;
}

static void pf_progress(struct pf_thread *t, size_t n)
{
	struct fsi_walk *w = t->w;

	pthread_mutex_lock(&w->lock);
	w->done += n;
	if (w->opts->progress)
		w->opts->progress(w->done, w->expect_total, w->opts->progress_data);
	pthread_mutex_unlock(&w->lock);
}

static void *pf_read_main(void *arg)
{
	struct pf_thread *t = arg;
	struct fsi_pack_reader r;
	uint64_t dropped = t->nobjs ? t->objs[0].off : 0;
	size_t i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < t->nobjs && t->rc == 0; i++) {
		const struct fsi_pack_obj *o = &t->objs[i];
		struct fsi_node *n = fsi_node_at(t->w, t->slot + (uint32_t)i);
		const char *data;
		size_t len;
		if (i && o->pack != o[-1].pack)
			dropped = o->off;
		if (n->state == NODE_GONE)
			;
		else if (fsi_pack_read(t->ps, &r, o, &data, &len) == 0)
			t->rc = pf_parse(t, t->slot + (uint32_t)i, data, len);
		else
			n->state = NODE_UNREAD;
		if ((i + 1) % PF_DROP_EVERY == 0) {
			fsi_packs_drop(t->ps, o->pack, dropped, o->off);
			dropped = o->off;
			pf_list_drop(t->objs, o);
		}
		if ((i + 1) % PF_PROGRESS == 0)
			pf_progress(t, PF_PROGRESS);
	}
	fsi_pack_reader_free(&r);
	return NULL;
}

/* Run MAIN on each of the N threads T; the first error, or 0. */
static int pf_run(struct pf_thread *t, int n, void *(*main_fn)(void *), struct fs_error *err)
{
	int i, started = 0, rc = 0;

	for (i = 0; i < n; i++) {
		if (pthread_create(&t[i].thread, NULL, main_fn, &t[i])) {
			rc = fs_error_set(err, FS_EGENERIC, "cannot start a thread");
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(t[i].thread, NULL);
	for (i = 0; i < started && rc == 0; i++)
		if (t[i].rc < 0) {
			*err = t[i].err;
			rc = t[i].rc;
		}
	return rc;
}

struct pf_ids {
	struct fsi_walk *w;
	uint32_t base;
};

static void pf_put_oid(void *ctx, size_t i, const unsigned char *oid)
{
	struct pf_ids *ids = ctx;

	memcpy(fsi_node_at(ids->w, ids->base + (uint32_t)i)->oid.id, oid, 20);
}

/* The nodes of the NALL commits ALL: slots from w->nnodes (0) on, their
 * ids set, in the oid table; a second copy of a commit is GONE (the first
 * is as good), the others PENDING until read. */
static int pf_make_nodes(struct fsi_walk *w, const struct fsi_packs *ps,
			 const struct fsi_pack_obj *all, size_t nall)
{
	struct pf_ids ids = { w, w->nnodes };
	size_t end = (size_t)w->nnodes + nall, c;
	uint32_t s;

	if (end >= (size_t)FSI_MAX_CHUNKS << FSI_CHUNK_BITS)
		return -1;
	for (c = 0; c < (end + FSI_CHUNK_SIZE - 1) >> FSI_CHUNK_BITS; c++)
		if (!w->chunks[c] &&
		    !(w->chunks[c] = calloc(FSI_CHUNK_SIZE, sizeof(struct fsi_node))))
			return -1;
	if (fsi_packs_oids(ps, all, nall, pf_put_oid, &ids) < 0)
		return -1;
	w->nnodes = (uint32_t)end;
	while (((size_t)w->nnodes + 1) * 2 > w->table_size)
		if (fsi_walk_table_grow(w) < 0)
			return -1;
	for (s = ids.base; s < w->nnodes; s++) {
		struct fsi_node *n = fsi_node_at(w, s);
		size_t j = fsi_walk_oid_hash(&n->oid) & (w->table_size - 1);
		while (w->table[j] && !git_oid_equal(&fsi_node_at(w, w->table[j] - 1)->oid, &n->oid))
			j = (j + 1) & (w->table_size - 1);
		if (w->table[j])
			n->state = NODE_GONE;
		else
			w->table[j] = s + 1;
	}
	return 0;
}

/* Sort the packs' entries by offset, scan them for commits (each thread
 * a run of them), make their nodes, give each thread an equal run of the
 * commits found (in pack order still) and of the nodes, and read. */
static int pf_read_all(struct pf_thread *t, int n, const struct fsi_packs *ps,
		       struct fs_error *err)
{
	struct fsi_walk *w = t[0].w;
	struct fsi_pack_obj *sorted = NULL, *all;
	size_t nsorted = 0, nall = 0, i, all_len = 0;
	uint32_t base = w->nnodes;
	int k, rc = 0;

	if (fsi_packs_sorted(ps, &sorted, &nsorted) < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	for (k = 0, i = 0; k < n; k++) {
		size_t to = nsorted * (size_t)(k + 1) / (size_t)n;
		t[k].scan = sorted + i;
		t[k].nscan = to - i;
		i = to;
	}
	rc = pf_run(t, n, pf_scan_main, err);
	free(sorted);
	for (k = 0; k < n; k++)
		nall += t[k].nfound;
	all = rc == 0 ? pf_list_new(nall, &all_len) : NULL;
	if (rc == 0 && !all)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	for (k = 0, i = 0; k < n; k++) {
		if (all && t[k].nfound)
			memcpy(all + i, t[k].found, t[k].nfound * sizeof(*all));
		i += t[k].nfound;
		free(t[k].found);
		t[k].found = NULL;
	}
	if (rc == 0 && pf_make_nodes(w, ps, all, nall) < 0)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	fsi_walk_trim();
	for (k = 0, i = 0; rc == 0 && k < n; k++) {
		size_t to = nall * (size_t)(k + 1) / (size_t)n;
		t[k].objs = all + i;
		t[k].nobjs = to - i;
		t[k].slot = base + (uint32_t)i;
		i = to;
	}
	if (rc == 0)
		rc = pf_run(t, n, pf_read_main, err);
	if (all)
		munmap(all, all_len);
	fsi_packs_drop_all(ps);
	return rc;
}

/* The threads' parents made one list, w->parents (empty until now), the
 * nodes' parent_first moved with them. */
static int pf_join_parents(struct fsi_walk *w, struct pf_thread *t, int n)
{
	size_t total = 0;
	int k;

	for (k = 0; k < n; k++)
		total += t[k].parents.n;
	if (w->parents.n || total >= UINT32_MAX || VEC_RESERVE(w->parents, total + 1))
		return -1;
	for (k = 0; k < n; k++) {
		uint32_t off = (uint32_t)w->parents.n, s;
		if (t[k].parents.n)
			memcpy(w->parents.v + off, t[k].parents.v,
			       t[k].parents.n * sizeof(*t[k].parents.v));
		w->parents.n += t[k].parents.n;
		free(t[k].parents.v);
		memset(&t[k].parents, 0, sizeof(t[k].parents));
		for (s = t[k].slot; off && s < t[k].slot + t[k].nobjs; s++) {
			struct fsi_node *nd = fsi_node_at(w, s);
			if (nd->state == NODE_AHEAD)
				nd->parent_first += off;
		}
	}
	return 0;
}

/* Open worker 0's repository for the commits the packs did not give. */
static int pf_open_fallback(struct fsi_walk *w, struct fs_error *err)
{
	struct fsi_worker *wk = &w->workers[0];

	if (wk->odb)
		return 0;
	if (!wk->repo && fsi_repo_open(&wk->repo, w->opts->repo_path, err) < 0)
		return -1;
	if (git_repository_odb(&wk->odb, wk->repo) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open the object database of '%s'",
					w->opts->repo_path);
	return 0;
}

/* Node SLOT, read ahead, reached: READ, its parents queued (one the packs
 * did not have named, a new node).  A node read ahead kept no commit
 * time: its parents are queued at 0, in the order they are named (all
 * are read already; the order only matters to what libgit2 reads). */
static int pf_reach_parents(struct fsi_walk *w, const struct pf_thread *t, uint32_t slot)
{
	struct fsi_node *n = fsi_node_at(w, slot);
	const struct pf_thread *tk = &t[n->thread - (w->nworkers + 1)];
	uint32_t *par = w->parents.v + n->parent_first;
	int j;

	n->state = NODE_READ;
	for (j = 0; j < n->nparents; j++) {
		if (par[j] & PF_NAMED) {
			long g = fsi_walk_intern(w, &tk->named.v[par[j] & ~PF_NAMED], 0);
			if (g < 0)
				return -1;
			par[j] = (uint32_t)g;
		} else if (fsi_walk_reach(w, par[j], 0) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The walk from the tips over the nodes, in this thread. */
static int pf_walk(struct fsi_walk *w, const struct pf_thread *t, struct fs_error *err)
{
	struct fsi_worker *wk = &w->workers[0];
	int rc = 0;

	w->done = 0;
	while (w->queue.n && !w->failed && rc == 0) {
		uint32_t slot = fsi_walk_queue_pop(w);
		struct fsi_node *n = fsi_node_at(w, slot);
		int np;
		int64_t when;

		if (n->state == NODE_QUEUED) {
			if (pf_reach_parents(w, t, slot) < 0)
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		} else if ((rc = pf_open_fallback(w, err)) == 0) {
			wk->parents.n = 0;
			rc = fsi_walk_read_commit(wk, n, slot, &np, &when, err);
			if (rc >= 0) {
				fsi_walk_record_node(w, slot, wk->parents.v, np, rc == 1, when);
				rc = 0;
			}
		}
		w->done++;
	}
	if (rc == 0 && w->failed)
		rc = fs_error_set(err, w->err.code ? w->err.code : FS_EGENERIC, "%s", w->err.message);
	if (rc == 0 && w->opts->progress)
		w->opts->progress(w->done, w->expect_total, w->opts->progress_data);
	return rc;
}

/* The refs of WK's pool whose commits stay (TO: old slot -> new slot,
 * UINT32_MAX for one that goes), moved down, renumbered, and their
 * nodes' ref_first with them.  A commit's refs are one run. */
static void pf_compact_refs(struct fsi_walk *w, struct fsi_worker *wk, const uint32_t *to)
{
	size_t i, m = 0;

	for (i = 0; i < wk->refs.n; i++) {
		struct fs_disk_ref r = wk->refs.v[i];
		struct fsi_node *n;
		if (to[r.source] == UINT32_MAX)
			continue;
		n = fsi_node_at(w, r.source);
		if (n->ref_first == i)
			n->ref_first = (uint32_t)m;
		r.source = to[r.source];
		wk->refs.v[m++] = r;
	}
	wk->refs.n = m;
}

/* Take out the nodes that are neither READ nor MISSING (not reached,
 * GONE): the others move down, their parents and the refs' sources
 * renumbered, and the oid table is made again.  (No cache: a global id
 * is a slot.) */
static int pf_compact(struct fsi_walk *w)
{
	uint32_t *to = malloc(((size_t)w->nnodes + 1) * sizeof(*to)), s, m = 0;
	size_t k, c, j;

	if (!to)
		return -1;
	for (s = 0; s < w->nnodes; s++) {
		uint8_t st = fsi_node_at(w, s)->state;
		to[s] = st == NODE_READ || st == NODE_MISSING ? m++ : UINT32_MAX;
	}
	if (m < w->nnodes) {
		for (k = 0; k < w->npools; k++)
			pf_compact_refs(w, &w->workers[k], to);
		for (s = 0; s < w->nnodes; s++) {
			struct fsi_node *nd = fsi_node_at(w, s);
			if (to[s] == UINT32_MAX)
				continue;
			for (j = 0; j < nd->nparents; j++) {
				uint32_t *g = &w->parents.v[nd->parent_first + j];
				*g = to[*g];
			}
			if (to[s] != s)
				*fsi_node_at(w, to[s]) = *nd;
		}
		w->nnodes = m;
		c = ((size_t)m + FSI_CHUNK_SIZE - 1) >> FSI_CHUNK_BITS;
		for (; c < FSI_MAX_CHUNKS && w->chunks[c]; c++) {
			free(w->chunks[c]);
			w->chunks[c] = NULL;
		}
		memset(w->table, 0, w->table_size * sizeof(*w->table));
		for (s = 0; s < m; s++) {
			j = fsi_walk_oid_hash(&fsi_node_at(w, s)->oid) & (w->table_size - 1);
			while (w->table[j])
				j = (j + 1) & (w->table_size - 1);
			w->table[j] = s + 1;
		}
	}
	free(to);
	return 0;
}

/* Take the tips (the nodes so far, all PENDING) out of the walk, their
 * ids into *OUT (*N of them), to be named again once the nodes read
 * ahead are there. */
static int pf_take_tips(struct fsi_walk *w, git_oid **out, size_t *n)
{
	uint32_t s;

	*n = w->nnodes;
	*out = malloc(((size_t)w->nnodes + 1) * sizeof(**out));
	if (!*out)
		return -1;
	for (s = 0; s < w->nnodes; s++) {
		struct fsi_node *nd = fsi_node_at(w, s);
		(*out)[s] = nd->oid;
		memset(nd, 0, sizeof(*nd));
	}
	w->nnodes = 0;
	w->queue.n = 0;
	if (w->table)
		memset(w->table, 0, w->table_size * sizeof(*w->table));
	return 0;
}

/* After the read: the parents joined, the tips named again (queued), the
 * walk, then only what it reached kept. */
static int pf_finish(struct fsi_walk *w, struct pf_thread *t, const git_oid *tips,
		     size_t ntips, struct fs_error *err)
{
	size_t i;
	int rc;

	if (pf_join_parents(w, t, w->nworkers) < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	for (i = 0; i < ntips; i++)
		if (fsi_walk_intern(w, &tips[i], INT64_MAX) < 0)
			return fs_error_set(err, FS_ENOMEM, "out of memory");
	rc = pf_walk(w, t, err);
	if (rc == 0 && pf_compact(w) < 0)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	return rc;
}

int fsi_walk_run_packed(struct fsi_walk *w, const char *objects_dir, struct fs_error *err)
{
	struct fsi_packs *ps = NULL;
	struct pf_thread *t;
	git_oid *tips = NULL;
	size_t ntips = 0;
	int n = w->nworkers, k, rc;

	/* (global ids are slots: no cache, no old delta) */
	if (w->npools < (size_t)(2 * n + 1) || w->nold || w->npreloaded)
		return fsi_walk_run(w, err);
	fsi_packs_open(&ps, objects_dir);
	if (!ps)
		return fsi_walk_run(w, err);
	/* what libgit2 mapped reading the tips need not stay resident */
	fs_git_drop_pack_pages();
	t = calloc((size_t)n, sizeof(*t));
	if (!t || pf_take_tips(w, &tips, &ntips) < 0) {
		free(t);
		fsi_packs_free(ps);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	for (k = 0; k < n; k++) {
		t[k].w = w;
		t[k].ps = ps;
		t[k].wk = &w->workers[n + 1 + k];
	}
	rc = pf_read_all(t, n, ps, err);
	fsi_packs_free(ps);
	if (rc == 0)
		rc = pf_finish(w, t, tips, ntips, err);
	free(tips);
	for (k = 0; k < n; k++) {
		free(t[k].parents.v);
		free(t[k].named.v);
	}
	free(t);
	fsi_walk_trim();
	return rc;
}
