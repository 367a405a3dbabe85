/* fixscan: the parallel read of new commits (see walk.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <git2.h>

#include "fixscan/index.h"
#include "fixscan/posting.h"
#include "fixscan/trailers.h"
#include "base/git-util.h"
#include "format.h"
#include "tips.h"
#include "pack.h"
#include "walk.h"

#define BATCH 128
/* Commits read between two fs_git_drop_pack_pages(). */
#define DROP_EVERY 16384

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

static uint32_t queue_pop(struct fsi_walk *w)
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

static inline size_t oid_hash(const git_oid *oid)
{
	uint64_t h;

	memcpy(&h, oid->id, 8);
	return (size_t)h;
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

static int table_grow(struct fsi_walk *w)
{
	size_t nsize = w->table_size ? w->table_size * 2 : 1u << 16, i, j;
	uint32_t *nt = calloc(nsize, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < w->table_size; i++) {
		uint32_t s = w->table[i];
		if (!s)
			continue;
		j = oid_hash(&fsi_node_at(w, s - 1)->oid) & (nsize - 1);
		while (nt[j])
			j = (j + 1) & (nsize - 1);
		nt[j] = s;
	}
	free(w->table);
	w->table = nt;
	w->table_size = nsize;
	return 0;
}

/* Node SLOT, named as a parent (or a tip): one read ahead (see walk.h)
 * is queued the first time, as is one the packs could not give, to be
 * read through libgit2.  -1 out of memory. */
static int reach(struct fsi_walk *w, uint32_t slot, int64_t when)
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

/* The global id of OID, adding it as a new pending node, to be read in
 * WHEN order, when it is neither in the old index nor seen before.  Called
 * with the lock held. */
static long add_node(struct fsi_walk *w, const git_oid *oid, int queue, int64_t when);

static long intern(struct fsi_walk *w, const git_oid *oid, int64_t when)
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

	if ((w->nnodes + 1) * 2 > w->table_size && table_grow(w) < 0)
		return -1;
	j = oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		n = fsi_node_at(w, w->table[j] - 1);
		if (git_oid_equal(&n->oid, oid)) {
			if (queue && reach(w, w->table[j] - 1, when) < 0)
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

static int add_ref(struct fsi_worker *wk, enum fs_ref_kind kind, const char *hex,
		   const char *subject, uint32_t slot)
{
	struct fs_disk_ref r;
	size_t len = strlen(hex);
	long off = 0;

	if (len < 4 || len > 40)
		return 0;
	memset(&r, 0, sizeof(r));
	fsi_pack_hex(r.key, hex, len);
	r.keylen = (uint8_t)len;
	r.kind = (uint8_t)kind;
	r.source = slot; /* a slot for now; made a commit number when written */
	if (subject && *subject) {
		off = fsi_pool_add(&wk->pool, subject, strlen(subject));
		if (off < 0)
			return -1;
	}
	r.subject = (uint32_t)off;
	return VEC_PUSH(wk->refs, r);
}


/* The header lines of commit DATA..END up to the blank line: its parents
 * are appended to wk->parents (*NPARENTS of them, at most 255), its
 * committer time goes to *WHEN.  Returns where the message starts, or
 * NULL out of memory. */
static const char *read_header(struct fsi_worker *wk, const char *data, const char *end,
			       int *nparents, int64_t *when, uint16_t *author)
{
	const char *p, *eol;

	for (p = data; p < end && *p != '\n'; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (eol - p >= 7 + GIT_OID_HEXSZ && !memcmp(p, "parent ", 7) && *nparents < 255) {
			git_oid poid;
			if (git_oid_fromstrn(&poid, p + 7, GIT_OID_HEXSZ) == 0) {
				if (VEC_PUSH(wk->parents, poid))
					return NULL;
				(*nparents)++;
			}
		}
		if (eol - p > 7 && !memcmp(p, "author ", 7)) {
			/* "author NAME <EMAIL> SECONDS ZONE": the address */
			const char *gt = eol;
			while (gt > p && gt[-1] != '>')
				gt--;
			*author = fsi_author_hash(p + 7, (size_t)(gt - (p + 7)));
		}
		if (eol - p > 10 && !memcmp(p, "committer ", 10)) {
			/* "committer NAME <EMAIL> SECONDS ZONE" */
			const char *gt = p + 10;
			while (gt < eol && memchr(gt, '>', eol - gt))
				gt = (const char *)memchr(gt, '>', eol - gt) + 1;
			*when = strtoll(gt, NULL, 10);
		}
		if (eol == end)
			break;
	}
	return p < end ? p + 1 : end;
}

/* The subject of message MSG..END into the worker's pool: the first
 * paragraph, its lines joined by spaces, as git's %s shows it.  Its
 * offset, or -1 out of memory. */
static long add_subject(struct fsi_pool *pl, const char *msg, const char *end)
{
	const char *s = msg, *e;
	size_t start;

	while (s < end && (*s == '\n' || *s == ' '))
		s++;
	if (fsi_grow((void **)&pl->p, &pl->cap, pl->n + 1, 1))
		return -1;
	start = pl->n;
	for (e = s; e < end;) {
		const char *nl = memchr(e, '\n', end - e);
		size_t l = (nl ? nl : end) - e;
		if (l == 0)
			break;
		if (pl->n > start && fsi_grow((void **)&pl->p, &pl->cap, pl->n + 2, 1) == 0)
			pl->p[pl->n++] = ' ';
		if (fsi_grow((void **)&pl->p, &pl->cap, pl->n + l + 1, 1) < 0)
			return -1;
		memcpy(pl->p + pl->n, e, l);
		pl->n += l;
		if (!nl)
			break;
		e = nl + 1;
	}
	if (fsi_grow((void **)&pl->p, &pl->cap, pl->n + 1, 1))
		return -1;
	pl->p[pl->n++] = '\0';
	return (long)start;
}

/* The commit references of TAGS, in the order the index keeps them. */
static int add_tag_refs(struct fsi_worker *wk, const struct fs_trailers *tags, uint32_t slot)
{
	const char *const *up;
	const struct fs_trailer_ref *fx, *sd;
	const struct fs_trailer_revert *rv;
	const struct fs_trailer_cc_stable *cc;
	size_t i, cnt;
	int rc = 0;

	up = fs_trailers_upstream(tags, &cnt);
	for (i = 0; i < cnt && rc == 0; i++)
		rc = add_ref(wk, FS_REF_UPSTREAM, up[i], NULL, slot);
	fx = fs_trailers_fixes(tags, &cnt);
	for (i = 0; i < cnt && rc == 0; i++)
		rc = add_ref(wk, FS_REF_FIXES, fx[i].id, fx[i].subject, slot);
	rv = fs_trailers_reverts(tags, &cnt);
	for (i = 0; i < cnt && rc == 0; i++) {
		rc = add_ref(wk, FS_REF_REVERTS, rv[i].id, NULL, slot);
		if (rc == 0 && rv[i].upstream)
			rc = add_ref(wk, FS_REF_REVERTS_UPSTREAM, rv[i].upstream, NULL, slot);
	}
	sd = fs_trailers_stable_dep_of(tags, &cnt);
	for (i = 0; i < cnt && rc == 0; i++)
		rc = add_ref(wk, FS_REF_STABLE_DEP_OF, sd[i].id, sd[i].subject, slot);
	cc = fs_trailers_cc_stable(tags, &cnt);
	for (i = 0; i < cnt && rc == 0; i++)
		if (cc[i].prerequisite)
			rc = add_ref(wk, FS_REF_PREREQUISITE, cc[i].prerequisite, NULL, slot);
	return rc;
}

/* ---- the Link table ------------------------------------------------------
 * A commit applied from a posting that git send-email or b4 numbered
 * (fixscan/posting.h) gets one more ref, its last: of the private kind
 * FSI_REF_SERIES, the key the 16 hex digits of the 64-bit hash of the
 * series key, pad the part.  The refs' tables (sorted keys, delta and
 * cache, renumbering) then carry it as they carry the others; the queries
 * skip the kind (query.c).  Backports are left out: a commit with an
 * upstream line is a stable copy, and its Link: is its upstream's. */
static int add_series_ref(struct fsi_worker *wk, const char *msg, const char *end,
			  size_t first, uint32_t slot)
{
	char key[512], hex[17];
	unsigned part;
	size_t i;

	for (i = first; i < wk->refs.n; i++)
		if (wk->refs.v[i].kind == FS_REF_UPSTREAM)
			return 0;
	if (fs_posting_from_message(msg, (size_t)(end - msg), key, sizeof(key), &part) ==
	    FS_POSTING_NONE)
		return 0;
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fsi_hash_str(key));
	if (add_ref(wk, (enum fs_ref_kind)FSI_REF_SERIES, hex, NULL, slot) < 0)
		return -1;
	wk->refs.v[wk->refs.n - 1].pad = (uint16_t)part;
	return 0;
}

/* What parsing one commit gives, besides its parents (appended to the
 * worker's) and its texts (in the worker's pools). */
struct parsed {
	int64_t when;
	uint64_t shash; /* fsi_subject_hash() of the subject */
	uint32_t subject, ref_first;
	int nparents;
	uint8_t nrefs;
	uint16_t author; /* fsi_author_hash() of the author line */
};

/* Parse commit DATA..END, for node slot SLOT: its parents are appended
 * to wk->parents (at most 255), its subject and refs go to the worker's
 * pools; *P says where.  0, or <0 on error. */
static int parse_commit(struct fsi_worker *wk, const char *data, const char *end, uint32_t slot,
			struct parsed *p, struct fs_error *err)
{
	const char *msg;
	struct fs_trailers *tags = NULL;
	long off;
	size_t cnt, first;
	int rc;

	memset(p, 0, sizeof(*p));
	msg = read_header(wk, data, end, &p->nparents, &p->when, &p->author);
	off = msg ? add_subject(&wk->pool, msg, end) : -1;
	if (off < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	p->subject = (uint32_t)off;
	/* here, in the reading threads, rather than when the table is made */
	p->shash = fsi_subject_hash(wk->pool.p + off);
	first = wk->refs.n;
	p->ref_first = (uint32_t)first;
	/* A merge quotes what it merges (Fixes:, reverts, Stable-dep-of of
	 * the series): it is never a fix, a revert or a prerequisite of
	 * anything, so its changelog gives the index no references. */
	if (p->nparents > 1)
		return 0;
	rc = fs_trailers_parse(&tags, msg, end - msg, err);
	if (rc < 0)
		return rc;
	rc = add_tag_refs(wk, tags, slot);
	fs_trailers_free(tags);
	if (rc == 0)
		rc = add_series_ref(wk, msg, end, first, slot);
	if (rc < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	cnt = wk->refs.n - first;
	if (cnt > 255) {
		/* More than 255 references in one changelog is not a real
		 * changelog; keep the first ones (a series ref, last, goes). */
		wk->refs.n = first + 255;
		cnt = 255;
	}
	p->nrefs = (uint8_t)cnt;
	return 0;
}

/* Read one commit: its parents are appended to wk->parents (*NPARENTS of
 * them, at most 255), its subject and refs go to the worker's pools.
 * Returns 0, 1 when the object is missing, <0 on error. */
static int read_commit(struct fsi_worker *wk, struct fsi_node *n, uint32_t slot,
		       int *nparents, int64_t *when, struct fs_error *err)
{
	git_odb_object *obj = NULL;
	const char *data;
	struct parsed p;
	int rc;

	*nparents = 0;
	*when = 0;
	rc = git_odb_read(&obj, wk->odb, &n->oid);
	if (rc == GIT_ENOTFOUND)
		return 1;
	if (rc < 0) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof(hex), &n->oid);
		return fs_error_set_git(err, FS_EGIT, "cannot read commit %s in '%s'", hex,
					wk->w->opts->repo_path);
	}
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(obj);
		return 1;
	}
	data = git_odb_object_data(obj);
	rc = parse_commit(wk, data, data + git_odb_object_size(obj), slot, &p, err);
	git_odb_object_free(obj);
	if (rc < 0)
		return rc;
	*nparents = p.nparents;
	*when = p.when;
	n->subject = p.subject;
	n->shash = p.shash;
	n->ref_first = p.ref_first;
	n->nrefs = p.nrefs;
	n->author = p.author;
	n->thread = (uint8_t)wk->id;
	return 0;
}

/* Take the next batch from the queue into BATCH; called with the lock
 * held.  Returns its size, 0 when the walk is over or failed. */
static size_t take_batch(struct fsi_walk *w, uint32_t batch[BATCH])
{
	size_t nb = 0, take;

	while (w->queue.n == 0 && w->active > 0 && !w->failed)
		pthread_cond_wait(&w->cond, &w->lock);
	if (w->failed || w->queue.n == 0)
		return 0;
	/* Share the front among the workers rather than take a whole
	 * batch: a batch wider than the front would reach back into old
	 * history and read two places of the pack at once. */
	take = w->queue.n / (size_t)w->nworkers;
	if (take < 1)
		take = 1;
	if (take > BATCH)
		take = BATCH;
	while (nb < take && w->queue.n)
		batch[nb++] = queue_pop(w);
	w->active++;
	return nb;
}

/* Record what reading node SLOT found: missing, or NPARENTS parents at
 * PARENTS, named and queued at WHEN.  Called with the lock held (or by
 * the only thread). */
static void record_node(struct fsi_walk *w, uint32_t slot, const git_oid *parents,
			int nparents, int missing, int64_t when)
{
	struct fsi_node *n = fsi_node_at(w, slot);
	int j;

	n->state = missing ? NODE_MISSING : NODE_READ;
	n->parent_first = (uint32_t)w->parents.n;
	n->nparents = 0;
	for (j = 0; j < nparents && !w->failed; j++) {
		long gid = intern(w, &parents[j], when);
		if (gid < 0 || VEC_PUSH(w->parents, (uint32_t)gid)) {
			w->failed = 1;
			fs_error_set(&w->err, FS_ENOMEM, "out of memory");
			break;
		}
		n = fsi_node_at(w, slot);
		n->nparents++;
	}
}

/* Record what reading BATCH found, its parents named and queued; called
 * with the lock held. */
static void record_batch(struct fsi_worker *wk, const uint32_t *batch, size_t nb,
			 const int *nparents, const int *missing, const int64_t *when)
{
	struct fsi_walk *w = wk->w;
	size_t i, pos;

	for (i = 0, pos = 0; i < nb; pos += nparents[i], i++)
		record_node(w, batch[i], wk->parents.v + pos, nparents[i], missing[i], when[i]);
	w->done += nb;
	if (w->done - w->dropped_at >= DROP_EVERY) {
		w->dropped_at = w->done;
		fs_git_drop_pack_pages();
	}
	/* Under the lock, so calls never overlap; whichever worker finished
	 * a batch reports it. */
	if (w->opts->progress)
		w->opts->progress(w->done, w->expect_total, w->opts->progress_data);
}

static void *worker_main(void *arg)
{
	struct fsi_worker *wk = arg;
	struct fsi_walk *w = wk->w;
	uint32_t batch[BATCH];
	int nparents[BATCH];
	int missing[BATCH];
	int64_t when[BATCH];
	struct fs_error err = FS_ERROR_INIT;
	size_t nb, i;
	int rc;

	pthread_mutex_lock(&w->lock);
	while ((nb = take_batch(w, batch)) > 0) {
		pthread_mutex_unlock(&w->lock);
		rc = 0;
		wk->parents.n = 0;
		for (i = 0; i < nb; i++)
			nparents[i] = 0;
		for (i = 0; i < nb && rc >= 0; i++) {
			/* Nodes live in chunks that never move, and only this
			 * worker touches a node it popped. */
			struct fsi_node *n;
			pthread_mutex_lock(&w->lock);
			n = fsi_node_at(w, batch[i]);
			pthread_mutex_unlock(&w->lock);
			rc = read_commit(wk, n, batch[i], &nparents[i], &when[i], &err);
			missing[i] = rc == 1;
			if (rc == 1)
				rc = 0;
		}

		pthread_mutex_lock(&w->lock);
		w->active--;
		if (rc < 0) {
			if (!w->failed) {
				w->failed = 1;
				w->err = err;
			}
			pthread_cond_broadcast(&w->cond);
			break;
		}
		record_batch(wk, batch, nb, nparents, missing, when);
		pthread_cond_broadcast(&w->cond);
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int fsi_walk_run(struct fsi_walk *w, struct fs_error *err)
{
	int i, rc = 0, started = 0;

	for (i = 0; i < w->nworkers; i++) {
		struct fsi_worker *wk = &w->workers[i];
		rc = fsi_repo_open(&wk->repo, w->opts->repo_path, err);
		if (rc == 0 && git_repository_odb(&wk->odb, wk->repo) < 0)
			rc = fs_error_set_git(err, FS_EGIT, "cannot open the object database of '%s'",
					      w->opts->repo_path);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < w->nworkers; i++) {
		if (pthread_create(&w->workers[i].thread, NULL, worker_main, &w->workers[i])) {
			pthread_mutex_lock(&w->lock);
			w->failed = 1;
			fs_error_set(&w->err, FS_EGENERIC, "cannot start a thread");
			pthread_cond_broadcast(&w->cond);
			pthread_mutex_unlock(&w->lock);
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(w->workers[i].thread, NULL);
	if (w->failed)
		rc = fs_error_set(err, w->err.code ? w->err.code : FS_EGENERIC, "%s",
				  w->err.message);
	return rc;
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
	return intern(w, oid, INT64_MAX);
}

/* The node of OID, or -1.  Only looks: the reading threads share it. */
static long table_find(const struct fsi_walk *w, const git_oid *oid)
{
	size_t j;

	if (!w->table_size)
		return -1;
	j = oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		if (git_oid_equal(&fsi_node_at(w, w->table[j] - 1)->oid, oid))
			return (long)w->table[j] - 1;
		j = (j + 1) & (w->table_size - 1);
	}
	return -1;
}

long fsi_walk_lookup_node(const struct fsi_walk *w, const git_oid *oid)
{
	long slot = table_find(w, oid);

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

static void pf_trim(void);

void fsi_walk_drop_refs(struct fsi_walk *w)
{
	size_t k;

	for (k = 0; w->workers && k < w->npools; k++) {
		free(w->workers[k].refs.v);
		memset(&w->workers[k].refs, 0, sizeof(w->workers[k].refs));
	}
	/* they were grown by the reading threads, in their arenas */
	pf_trim();
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

/* Give the free memory of every malloc arena back to the system: the
 * reading threads' arenas, and what the read-ahead's big temporaries
 * leave below the top of the heap, would otherwise stay resident. */
static void pf_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
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
	struct parsed p;
	int rc, j;

	wk->parents.n = 0;
	rc = parse_commit(wk, data, data + len, slot, &p, &t->err);
	if (rc < 0)
		return rc;
	for (j = 0; j < p.nparents; j++) {
		long s = table_find(t->w, &wk->parents.v[j]);
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
		if (table_grow(w) < 0)
			return -1;
	for (s = ids.base; s < w->nnodes; s++) {
		struct fsi_node *n = fsi_node_at(w, s);
		size_t j = oid_hash(&n->oid) & (w->table_size - 1);
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
	pf_trim();
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
			long g = intern(w, &tk->named.v[par[j] & ~PF_NAMED], 0);
			if (g < 0)
				return -1;
			par[j] = (uint32_t)g;
		} else if (reach(w, par[j], 0) < 0) {
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
		uint32_t slot = queue_pop(w);
		struct fsi_node *n = fsi_node_at(w, slot);
		int np;
		int64_t when;

		if (n->state == NODE_QUEUED) {
			if (pf_reach_parents(w, t, slot) < 0)
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		} else if ((rc = pf_open_fallback(w, err)) == 0) {
			wk->parents.n = 0;
			rc = read_commit(wk, n, slot, &np, &when, err);
			if (rc >= 0) {
				record_node(w, slot, wk->parents.v, np, rc == 1, when);
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
			j = oid_hash(&fsi_node_at(w, s)->oid) & (w->table_size - 1);
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
		if (intern(w, &tips[i], INT64_MAX) < 0)
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
	pf_trim();
	return rc;
}
