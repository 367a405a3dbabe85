/* fixscan: building and updating the fixes index from a kernel repository.
 *
 * One pass reads every commit not yet indexed, breadth first from the
 * indexed refs and tags, inflating each commit object once: its parents
 * feed the walk, its message feeds the tag extractor.  Several threads do
 * the reading, each with its own repository object (libgit2 objects are
 * not shared between threads).  Releases and branches are then assigned on
 * the in-memory graph: tags in version order, each claiming the commits it
 * reaches that no earlier tag claimed, which is exactly "the first release
 * that contains the commit" without one describe per commit.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "fixscan/config.h"
#include "fixscan/index.h"
#include "fixscan/tags.h"
#include "git-util.h"
#include "index-private.h"

/* ---- small growable arrays ---------------------------------------------- */

#define VEC(type) struct { type *v; size_t n, cap; }

static int grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t nc;
	void *g;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 64;
	while (nc < need)
		nc *= 2;
	g = realloc(*v, nc * elem);
	if (!g)
		return -1;
	*v = g;
	*cap = nc;
	return 0;
}
#define VEC_RESERVE(vec, need) grow((void **)&(vec).v, &(vec).cap, (need), sizeof(*(vec).v))
#define VEC_PUSH(vec, x) (VEC_RESERVE(vec, (vec).n + 1) ? -1 : ((vec).v[(vec).n++] = (x), 0))

struct pool {
	char *p;
	size_t n, cap;
};

/* Append S (LEN bytes) plus a NUL; returns its offset or -1. */
static long pool_add(struct pool *pl, const char *s, size_t len)
{
	long off;

	if (grow((void **)&pl->p, &pl->cap, pl->n + len + 1, 1))
		return -1;
	off = (long)pl->n;
	memcpy(pl->p + pl->n, s, len);
	pl->p[pl->n + len] = '\0';
	pl->n += len + 1;
	return off;
}

/* ---- refs and tags of the repository ------------------------------------ */

#define LINE_MAX_LEN 32

struct tip {
	char *name;       /* full ref name */
	int kind;         /* enum fs_tip_kind */
	git_oid oid;      /* the commit it points at (tags peeled) */
	char *release;    /* tags: "v4.4.7"; NULL for branches */
	char *branch;     /* stable refs and stable tags: "linux-4.4.y" */
	int stable_tag;   /* a vX.Y.Z tag */
	char line[LINE_MAX_LEN]; /* tags: "4.4", "2.6.32" */
};

struct tips {
	VEC(struct tip) t;
	char *mainline; /* the mainline ref's name */
	int shallow;
};

static void tips_clear(struct tips *ts)
{
	size_t i;

	for (i = 0; i < ts->t.n; i++) {
		free(ts->t.v[i].name);
		free(ts->t.v[i].release);
		free(ts->t.v[i].branch);
	}
	free(ts->t.v);
	free(ts->mainline);
	memset(ts, 0, sizeof(*ts));
}

/* Read the decimal number at *P into *N, moving *P past it. */
static int take_number(const char **p, long *n)
{
	char *end;

	if (**p < '0' || **p > '9')
		return 0;
	errno = 0;
	*n = strtol(*p, &end, 10);
	*p = end;
	return errno == 0 && *n >= 0 && *n < 100000;
}

/* Whether NAME is a release tag, and of which line.  "v4.4", "v4.4-rc3"
 * are mainline releases of line "4.4", "v4.4.7" a stable release of line
 * "4.4" (branch linux-4.4.y).  Before 3.0 the mainline had three numbers:
 * "v2.6.32" and "v2.6.32-rc1" are mainline releases of line "2.6.32", and
 * "v2.6.32.5" a stable release of it (branch linux-2.6.32.y).  Anything
 * else is not a release. */
static int classify_tag(const char *name, char line[LINE_MAX_LEN], int *stable)
{
	const char *p = name;
	long n[4];
	int parts = 0, rc = 0, mainline_parts;

	if (*p++ != 'v')
		return 0;
	for (;;) {
		if (!take_number(&p, &n[parts]))
			return 0;
		parts++;
		if (*p != '.' || parts == 4)
			break;
		p++;
	}
	if (!strncmp(p, "-rc", 3)) {
		long k;
		p += 3;
		if (!take_number(&p, &k))
			return 0;
		rc = 1;
	}
	if (*p != '\0' || parts < 2)
		return 0;
	mainline_parts = n[0] == 2 && n[1] == 6 ? 3 : 2;
	if (parts < mainline_parts || parts > mainline_parts + 1 || (rc && parts != mainline_parts))
		return 0;
	*stable = parts > mainline_parts;
	if (mainline_parts == 3)
		snprintf(line, LINE_MAX_LEN, "%ld.%ld.%ld", n[0], n[1], n[2]);
	else
		snprintf(line, LINE_MAX_LEN, "%ld.%ld", n[0], n[1]);
	return 1;
}

static int add_tip(struct tips *ts, const char *name, int kind, const git_oid *oid)
{
	struct tip t;

	memset(&t, 0, sizeof(t));
	t.name = strdup(name);
	t.kind = kind;
	t.oid = *oid;
	if (!t.name || VEC_PUSH(ts->t, t)) {
		free(t.name);
		return -1;
	}
	return 0;
}

static int peel_commit(git_repository *repo, const char *refname, git_oid *out)
{
	git_reference *ref = NULL;
	git_object *obj = NULL;
	int rc;

	rc = git_reference_lookup(&ref, repo, refname);
	if (rc == 0)
		rc = git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT);
	if (rc == 0)
		git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	git_reference_free(ref);
	return rc;
}

struct glob_ctx {
	git_repository *repo;
	git_odb *odb;
	struct tips *ts;
	int kind;
	int oom;
};

/* The commit REF leads to, through a symbolic ref and tags; <0 when it
 * leads to none.  Object headers tell commits from tags, so a ref to a
 * commit costs no inflating. */
static int ref_commit(struct glob_ctx *g, const git_reference *ref, git_oid *out)
{
	git_reference *resolved = NULL;
	git_oid oid;
	int depth;

	if (git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC) {
		if (git_reference_resolve(&resolved, ref) < 0)
			return -1;
		ref = resolved;
	}
	git_oid_cpy(&oid, git_reference_target(ref));
	git_reference_free(resolved);
	for (depth = 0; depth < 16; depth++) {
		git_object_t type;
		git_tag *tag;
		size_t len;

		if (git_odb_read_header(&len, &type, g->odb, &oid) < 0)
			return -1;
		if (type == GIT_OBJECT_COMMIT) {
			git_oid_cpy(out, &oid);
			return 0;
		}
		if (type != GIT_OBJECT_TAG || git_tag_lookup(&tag, g->repo, &oid) < 0)
			return -1;
		git_oid_cpy(&oid, git_tag_target_id(tag));
		git_tag_free(tag);
	}
	return -1;
}

/* CB(G, name, commit) for each ref matching GLOB that leads to a commit;
 * stops at a non-zero return of CB, which it returns.  Each ref is read
 * once (a lookup by name after a listing would read it again). */
static int foreach_commit_ref(struct glob_ctx *g, const char *glob,
			      int (*cb)(struct glob_ctx *, const char *, const git_oid *))
{
	git_reference_iterator *it = NULL;
	git_reference *ref;
	int rc;

	if (git_reference_iterator_glob_new(&it, g->repo, glob) < 0)
		return -1;
	while ((rc = git_reference_next(&ref, it)) == 0) {
		git_oid oid;
		if (ref_commit(g, ref, &oid) == 0)
			rc = cb(g, git_reference_name(ref), &oid);
		git_reference_free(ref);
		if (rc)
			break;
	}
	git_reference_iterator_free(it);
	return rc == GIT_ITEROVER ? 0 : rc;
}

static int stable_ref_cb(struct glob_ctx *g, const char *name, const git_oid *commit)
{
	const char *base = strrchr(name, '/');
	git_oid oid = *commit;
	size_t i;

	base = base ? base + 1 : name;
	/* The same branch on two remotes (a stale origin, a fresh stable
	 * remote) is one branch: every such ref is a tip, and the branch is
	 * what any of them reaches. */
	for (i = 0; i < g->ts->t.n; i++)
		if (!strcmp(g->ts->t.v[i].name, name))
			return 0;
	if (add_tip(g->ts, name, FS_TIP_STABLE, &oid) < 0 ||
	    !(g->ts->t.v[g->ts->t.n - 1].branch = strdup(base))) {
		g->oom = 1;
		return -1;
	}
	return 0;
}

/* A tag of a tree or a blob leads to no commit and names no release. */
static int tag_cb(struct glob_ctx *g, const char *name, const git_oid *commit)
{
	struct tip *t;
	char line[LINE_MAX_LEN];
	int stable;
	const char *short_name = name + strlen("refs/tags/");

	if (!classify_tag(short_name, line, &stable))
		return 0;
	if (add_tip(g->ts, name, FS_TIP_TAG, commit) < 0) {
		g->oom = 1;
		return -1;
	}
	t = &g->ts->t.v[g->ts->t.n - 1];
	t->release = strdup(short_name);
	t->stable_tag = stable;
	memcpy(t->line, line, sizeof(t->line));
	if (stable && t->release &&
	    asprintf(&t->branch, "linux-%s.y", line) < 0)
		t->branch = NULL, g->oom = 1;
	if (!t->release)
		g->oom = 1;
	return g->oom ? -1 : 0;
}

static int tip_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct tip *)a)->name, ((const struct tip *)b)->name);
}

/* Collect the mainline ref, the stable refs and the release tags. */
static int read_tips(git_repository *repo, const char *repo_path, struct tips *ts,
		     struct fs_error *err)
{
	static const char *const default_mainline[] = {
		"refs/remotes/origin/master", "refs/heads/master", "refs/heads/main",
	};
	static const char *const default_stable[] = {
		"refs/remotes/*/linux-*.y", "refs/heads/linux-*.y",
	};
	struct fs_config *cfg = NULL;
	struct glob_ctx g = { repo, NULL, ts, 0, 0 };
	char *configured = NULL, **globs = NULL;
	git_oid oid;
	int rc, nglobs, i;

	memset(ts, 0, sizeof(*ts));
	ts->shallow = git_repository_is_shallow(repo) == 1;
	if (git_repository_odb(&g.odb, repo) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open the object database of '%s'",
					repo_path);
	rc = fs_config_open(&cfg, repo_path, err);
	if (rc < 0) {
		git_odb_free(g.odb);
		return rc;
	}
	fs_config_get_string(cfg, "fixscan.mainline", &configured);
	if (configured) {
		git_reference *ref = NULL;
		/* Accept "origin/master" as well as a full ref name. */
		rc = git_reference_dwim(&ref, repo, configured);
		if (rc == 0) {
			ts->mainline = strdup(git_reference_name(ref));
			git_reference_free(ref);
		}
		if (rc < 0 || !ts->mainline) {
			rc = fs_error_set(err, FS_ENOTFOUND,
					  "fixscan.mainline names '%s', which is not a ref in '%s'",
					  configured, repo_path);
			goto out;
		}
	} else {
		for (i = 0; i < 3 && !ts->mainline; i++)
			if (peel_commit(repo, default_mainline[i], &oid) == 0)
				ts->mainline = strdup(default_mainline[i]);
		if (!ts->mainline) {
			rc = fs_error_set(err, FS_ENOTFOUND,
					  "no mainline ref in '%s' (looked for origin/master, master, main; set fixscan.mainline)",
					  repo_path);
			goto out;
		}
	}
	if (peel_commit(repo, ts->mainline, &oid) < 0) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot read mainline ref '%s'", ts->mainline);
		goto out;
	}
	if (add_tip(ts, ts->mainline, FS_TIP_MAINLINE, &oid) < 0)
		goto oom;

	nglobs = fs_config_get_all(cfg, "fixscan.stable", &globs, err);
	if (nglobs < 0) {
		rc = nglobs;
		goto out;
	}
	g.kind = FS_TIP_STABLE;
	for (i = 0; i < (nglobs ? nglobs : 2); i++) {
		rc = foreach_commit_ref(&g, nglobs ? globs[i] : default_stable[i], stable_ref_cb);
		if (g.oom)
			goto oom;
		if (rc < 0) {
			rc = fs_error_set_git(err, FS_EGIT, "cannot list refs of '%s'", repo_path);
			goto out;
		}
	}
	g.kind = FS_TIP_TAG;
	rc = foreach_commit_ref(&g, "refs/tags/v*", tag_cb);
	if (g.oom)
		goto oom;
	if (rc < 0) {
		rc = fs_error_set_git(err, FS_EGIT, "cannot list tags of '%s'", repo_path);
		goto out;
	}
	qsort(ts->t.v, ts->t.n, sizeof(*ts->t.v), tip_cmp_name);
	rc = 0;
	goto out;
oom:
	rc = fs_error_set(err, FS_ENOMEM, "out of memory");
out:
	free(configured);
	fs_config_strv_free(globs);
	fs_config_free(cfg);
	git_odb_free(g.odb);
	if (rc < 0)
		tips_clear(ts);
	return rc;
}

static int open_repo(git_repository **out, const char *path, struct fs_error *err)
{
	int rc;

	fs_git_init();
	rc = git_repository_open_ext(out, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (rc == GIT_ENOTFOUND) {
		struct stat st;
		if (stat(path, &st) < 0)
			return fs_error_set(err, FS_ENOTFOUND, "cannot open repository '%s': %s",
					    path, strerror(errno));
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is not a git repository", path);
	}
	if (rc < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open repository '%s'", path);
	return 0;
}

int fs_idx_up_to_date(const struct fs_index *old, const char *repo_path,
		      struct fs_error *err)
{
	git_repository *repo = NULL;
	struct tips ts;
	const struct fs_disk_tip *otips;
	const char *strings;
	uint64_t notips;
	size_t i;
	int rc;

	rc = open_repo(&repo, repo_path, err);
	if (rc < 0)
		return rc;
	rc = read_tips(repo, repo_path, &ts, err);
	git_repository_free(repo);
	if (rc < 0)
		return rc;
	otips = fs_idx_tips(old, &notips, &strings);
	rc = notips == ts.t.n;
	for (i = 0; rc && i < ts.t.n; i++)
		rc = !strcmp(strings + otips[i].name, ts.t.v[i].name) &&
		     otips[i].kind == (uint32_t)ts.t.v[i].kind &&
		     !memcmp(otips[i].oid, ts.t.v[i].oid.id, 20);
	tips_clear(&ts);
	return rc;
}

/* ---- the parallel read of new commits ----------------------------------- */

#define CHUNK_BITS 14
#define CHUNK_SIZE (1u << CHUNK_BITS)
#define MAX_CHUNKS 65536

enum { NODE_PENDING = 0, NODE_READ = 1, NODE_MISSING = 2 };

struct node {
	git_oid oid;
	uint32_t parent_first; /* in walk.parents */
	uint32_t subject;      /* in the reading thread's pool */
	uint32_t ref_first;    /* in the reading thread's refs */
	uint8_t nparents;
	uint8_t nrefs;
	uint8_t thread;
	uint8_t state;
};

struct worker;

/* A commit waiting to be read.  The walk reads newest first, by the commit
 * time of the child that named it, as git log does: every line of history
 * (mainline and the mainline below each stable fork) then advances through
 * the same years at once, which keeps the reads within a few pack windows
 * instead of one front per branch spread over the whole pack. */
struct pending {
	int64_t when;
	uint64_t seq; /* ties: first named, first read */
	uint32_t slot;
};

struct walk {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct node *chunks[MAX_CHUNKS];
	uint32_t nnodes;
	uint32_t *table; /* open addressing, slot + 1, 0 = empty */
	size_t table_size;
	VEC(struct pending) queue; /* a heap, newest first */
	uint64_t queue_seq;
	VEC(uint32_t) parents; /* global ids: old cid, or nold + slot */
	int active;
	int failed;
	struct fs_error err;
	size_t done;
	const struct fs_disk_commit *old_commits;
	size_t nold;
	const struct fs_index_opts *opts;
	size_t expect_total;
	int nworkers;
	size_t dropped_at; /* w->done when pack pages were last dropped */
};

struct worker {
	struct walk *w;
	int id;
	git_repository *repo;
	git_odb *odb;
	struct pool pool;
	VEC(struct fs_disk_ref) refs;
	VEC(git_oid) parents; /* the parents of the batch being read */
	pthread_t thread;
};

static inline struct node *node_at(struct walk *w, uint32_t slot)
{
	return &w->chunks[slot >> CHUNK_BITS][slot & (CHUNK_SIZE - 1)];
}

static inline int pending_before(const struct pending *a, const struct pending *b)
{
	return a->when != b->when ? a->when > b->when : a->seq < b->seq;
}

static int queue_push(struct walk *w, uint32_t slot, int64_t when)
{
	struct pending p = { when, w->queue_seq++, slot };
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

static uint32_t queue_pop(struct walk *w)
{
	uint32_t top = w->queue.v[0].slot;
	struct pending last = w->queue.v[--w->queue.n];
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

/* Binary search the old index for OID; its cid or -1. */
static long old_lookup(const struct walk *w, const git_oid *oid)
{
	size_t lo = 0, hi = w->nold;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(w->old_commits[mid].oid, oid->id, 20);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int table_grow(struct walk *w)
{
	size_t nsize = w->table_size ? w->table_size * 2 : 1u << 16, i, j;
	uint32_t *nt = calloc(nsize, sizeof(*nt));

	if (!nt)
		return -1;
	for (i = 0; i < w->table_size; i++) {
		uint32_t s = w->table[i];
		if (!s)
			continue;
		j = oid_hash(&node_at(w, s - 1)->oid) & (nsize - 1);
		while (nt[j])
			j = (j + 1) & (nsize - 1);
		nt[j] = s;
	}
	free(w->table);
	w->table = nt;
	w->table_size = nsize;
	return 0;
}

/* The global id of OID, adding it as a new pending node, to be read in
 * WHEN order, when it is neither in the old index nor seen before.  Called
 * with the lock held. */
static long add_node(struct walk *w, const git_oid *oid, int queue, int64_t when);

static long intern(struct walk *w, const git_oid *oid, int64_t when)
{
	long old = w->nold ? old_lookup(w, oid) : -1;

	if (old >= 0)
		return old;
	return add_node(w, oid, 1, when);
}

/* The global id of OID among the nodes, adding a node when it is new: to
 * be read (QUEUE), or already known (a commit of the old delta). */
static long add_node(struct walk *w, const git_oid *oid, int queue, int64_t when)
{
	uint32_t slot;
	size_t j;
	struct node *n;

	if ((w->nnodes + 1) * 2 > w->table_size && table_grow(w) < 0)
		return -1;
	j = oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		if (git_oid_equal(&node_at(w, w->table[j] - 1)->oid, oid))
			return (long)(w->nold + w->table[j] - 1);
		j = (j + 1) & (w->table_size - 1);
	}
	slot = w->nnodes;
	if ((slot >> CHUNK_BITS) >= MAX_CHUNKS)
		return -1;
	if (!w->chunks[slot >> CHUNK_BITS] &&
	    !(w->chunks[slot >> CHUNK_BITS] = calloc(CHUNK_SIZE, sizeof(struct node))))
		return -1;
	n = node_at(w, slot);
	memset(n, 0, sizeof(*n));
	n->oid = *oid;
	w->nnodes++;
	w->table[j] = slot + 1;
	if (queue && queue_push(w, slot, when))
		return -1;
	return (long)(w->nold + slot);
}

static int add_ref(struct worker *wk, enum fs_ref_kind kind, const char *hex,
		   const char *subject, uint32_t slot)
{
	struct fs_disk_ref r;
	size_t len = strlen(hex);
	long off = 0;

	if (len < 4 || len > 40)
		return 0;
	memset(&r, 0, sizeof(r));
	fs_idx_pack_hex(r.key, hex, len);
	r.keylen = (uint8_t)len;
	r.kind = (uint8_t)kind;
	r.source = slot; /* a slot for now; made a commit number when written */
	if (subject && *subject) {
		off = pool_add(&wk->pool, subject, strlen(subject));
		if (off < 0)
			return -1;
	}
	r.subject = (uint32_t)off;
	return VEC_PUSH(wk->refs, r);
}

/* Read one commit: its parents are appended to wk->parents (*NPARENTS of
 * them, at most 255), its subject and refs go to the worker's pools.
 * Returns 0, 1 when the object is missing, <0 on error. */
static int read_commit(struct worker *wk, struct node *n, uint32_t slot,
		       int *nparents, int64_t *when, struct fs_error *err)
{
	git_odb_object *obj = NULL;
	const char *data, *end, *p, *msg, *eol;
	struct fs_tags *tags = NULL;
	size_t size, i, cnt;
	int rc;

	*nparents = 0;
	*when = 0;
	rc = git_odb_read(&obj, wk->odb, &n->oid);
	if (rc == GIT_ENOTFOUND)
		return 1;
	if (rc < 0) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof(hex), &n->oid);
		return fs_error_set_git(err, FS_EGIT, "cannot read commit %s", hex);
	}
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(obj);
		return 1;
	}
	data = git_odb_object_data(obj);
	size = git_odb_object_size(obj);
	end = data + size;
	/* Header lines up to the blank line; only parents matter here. */
	for (p = data; p < end && *p != '\n'; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (eol - p >= 7 + GIT_OID_HEXSZ && !memcmp(p, "parent ", 7) && *nparents < 255) {
			git_oid poid;
			if (git_oid_fromstrn(&poid, p + 7, GIT_OID_HEXSZ) == 0) {
				if (VEC_PUSH(wk->parents, poid)) {
					git_odb_object_free(obj);
					return fs_error_set(err, FS_ENOMEM, "out of memory");
				}
				(*nparents)++;
			}
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
	msg = p < end ? p + 1 : end;
	/* The subject is the first paragraph, its lines joined by spaces, as
	 * git's %s shows it. */
	{
		const char *s = msg, *e;
		struct pool *pl = &wk->pool;
		long off = -1;
		size_t start;

		while (s < end && (*s == '\n' || *s == ' '))
			s++;
		if (grow((void **)&pl->p, &pl->cap, pl->n + 1, 1) == 0) {
			start = pl->n;
			off = (long)start;
			for (e = s; e < end;) {
				const char *nl = memchr(e, '\n', end - e);
				size_t l = (nl ? nl : end) - e;
				if (l == 0)
					break;
				if (pl->n > start && grow((void **)&pl->p, &pl->cap, pl->n + 2, 1) == 0)
					pl->p[pl->n++] = ' ';
				if (grow((void **)&pl->p, &pl->cap, pl->n + l + 1, 1) < 0) {
					off = -1;
					break;
				}
				memcpy(pl->p + pl->n, e, l);
				pl->n += l;
				if (!nl)
					break;
				e = nl + 1;
			}
			if (off >= 0 && grow((void **)&pl->p, &pl->cap, pl->n + 1, 1) == 0)
				pl->p[pl->n++] = '\0';
			else
				off = -1;
		}
		if (off < 0) {
			git_odb_object_free(obj);
			return fs_error_set(err, FS_ENOMEM, "out of memory");
		}
		n->subject = (uint32_t)off;
	}
	n->ref_first = (uint32_t)wk->refs.n;
	rc = fs_tags_parse(&tags, msg, end - msg, err);
	if (rc < 0) {
		git_odb_object_free(obj);
		return rc;
	}
	{
		const char *const *up = fs_tags_upstream(tags, &cnt);
		for (i = 0; i < cnt && rc == 0; i++)
			rc = add_ref(wk, FS_REF_UPSTREAM, up[i], NULL, slot);
	}
	{
		const struct fs_tag_ref *fx = fs_tags_fixes(tags, &cnt);
		for (i = 0; i < cnt && rc == 0; i++)
			rc = add_ref(wk, FS_REF_FIXES, fx[i].id, fx[i].subject, slot);
	}
	{
		const struct fs_tag_revert *rv = fs_tags_reverts(tags, &cnt);
		for (i = 0; i < cnt && rc == 0; i++) {
			rc = add_ref(wk, FS_REF_REVERTS, rv[i].id, NULL, slot);
			if (rc == 0 && rv[i].upstream)
				rc = add_ref(wk, FS_REF_REVERTS_UPSTREAM, rv[i].upstream, NULL, slot);
		}
	}
	{
		const struct fs_tag_ref *sd = fs_tags_stable_dep_of(tags, &cnt);
		for (i = 0; i < cnt && rc == 0; i++)
			rc = add_ref(wk, FS_REF_STABLE_DEP_OF, sd[i].id, sd[i].subject, slot);
	}
	{
		const struct fs_tag_cc_stable *cc = fs_tags_cc_stable(tags, &cnt);
		for (i = 0; i < cnt && rc == 0; i++)
			if (cc[i].prerequisite)
				rc = add_ref(wk, FS_REF_PREREQUISITE, cc[i].prerequisite, NULL, slot);
	}
	fs_tags_free(tags);
	git_odb_object_free(obj);
	if (rc < 0)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	cnt = wk->refs.n - n->ref_first;
	if (cnt > 255) {
		/* More than 255 references in one changelog is not a real
		 * changelog; keep the first ones. */
		wk->refs.n = n->ref_first + 255;
		cnt = 255;
	}
	n->nrefs = (uint8_t)cnt;
	n->thread = (uint8_t)wk->id;
	return 0;
}

#define BATCH 128
/* An update writes a delta while the commits since the cache are at most
 * one in DELTA_RATIO of it (168,000 at kernel scale): then rewriting the
 * delta each time stays small against rewriting the cache. */
#define DELTA_RATIO 8
/* Commits read between two fs_git_drop_pack_pages(). */
#define DROP_EVERY 16384

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct walk *w = wk->w;
	uint32_t batch[BATCH];
	int nparents[BATCH];
	int missing[BATCH];
	int64_t when[BATCH];
	struct fs_error err = FS_ERROR_INIT;
	size_t nb, i, pos, take;
	int j, rc;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->queue.n == 0 && w->active > 0 && !w->failed)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->failed || w->queue.n == 0)
			break;
		/* Share the front among the workers rather than take a whole
		 * batch: a batch wider than the front would reach back into
		 * old history and read two places of the pack at once. */
		take = w->queue.n / (size_t)w->nworkers;
		if (take < 1)
			take = 1;
		if (take > BATCH)
			take = BATCH;
		nb = 0;
		while (nb < take && w->queue.n)
			batch[nb++] = queue_pop(w);
		w->active++;
		pthread_mutex_unlock(&w->lock);

		rc = 0;
		wk->parents.n = 0;
		for (i = 0; i < nb; i++)
			nparents[i] = 0;
		for (i = 0; i < nb && rc >= 0; i++) {
			/* Nodes live in chunks that never move, and only this
			 * worker touches a node it popped. */
			struct node *n;
			pthread_mutex_lock(&w->lock);
			n = node_at(w, batch[i]);
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
		for (i = 0, pos = 0; i < nb; pos += nparents[i], i++) {
			struct node *n = node_at(w, batch[i]);
			n->state = missing[i] ? NODE_MISSING : NODE_READ;
			n->parent_first = (uint32_t)w->parents.n;
			n->nparents = 0;
			for (j = 0; j < nparents[i] && !w->failed; j++) {
				long gid = intern(w, &wk->parents.v[pos + j], when[i]);
				if (gid < 0 || VEC_PUSH(w->parents, (uint32_t)gid)) {
					w->failed = 1;
					fs_error_set(&w->err, FS_ENOMEM, "out of memory");
					break;
				}
				n = node_at(w, batch[i]);
				n->nparents++;
			}
		}
		w->done += nb;
		if (w->done - w->dropped_at >= DROP_EVERY) {
			w->dropped_at = w->done;
			fs_git_drop_pack_pages();
		}
		/* Under the lock, so calls never overlap; whichever worker
		 * finished a batch reports it. */
		if (w->opts->progress)
			w->opts->progress(w->done, w->expect_total, w->opts->progress_data);
		pthread_cond_broadcast(&w->cond);
	}
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* ---- writing ------------------------------------------------------------ */

struct writer {
	FILE *f;
	unsigned char buf[1 << 16];
	size_t len;
	struct fs_idx_body_ck ck;
	uint64_t written; /* bytes after the header */
	int failed;
};

static void wr_flush(struct writer *wr)
{
	if (!wr->len)
		return;
	fs_idx_body_ck_update(&wr->ck, wr->buf, wr->len);
	if (fwrite(wr->buf, 1, wr->len, wr->f) != wr->len)
		wr->failed = 1;
	wr->written += wr->len;
	wr->len = 0;
}

static void wr_put(struct writer *wr, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t room = sizeof(wr->buf) - wr->len, n = len < room ? len : room;
		memcpy(wr->buf + wr->len, p, n);
		wr->len += n;
		p += n;
		len -= n;
		if (wr->len == sizeof(wr->buf))
			wr_flush(wr);
	}
}

static void wr_align(struct writer *wr)
{
	static const unsigned char zero[8];
	size_t pos = wr->written + wr->len;

	if (pos % 8)
		wr_put(wr, zero, 8 - pos % 8);
}

/* ---- building ----------------------------------------------------------- */

struct build {
	const struct fs_index_opts *opts;
	const struct fs_index *old;
	size_t nold;
	const struct fs_disk_commit *old_commits;
	const uint32_t *old_parents;
	const struct fs_disk_ref *old_refs;
	size_t old_nrefs;
	const uint32_t *old_refkeys;
	const struct fs_disk_hash *old_refsubj;
	size_t old_nrefsubj;
	const struct fs_disk_hash *old_subjects;
	size_t old_nsubjects;
	const char *old_strings;
	size_t old_strings_len;
	const uint32_t *old_releases;
	size_t old_nreleases;
	const struct fs_disk_branch *old_branches;
	size_t old_nbranches;

	struct walk *w;
	struct worker *workers;
	int nworkers;
	size_t npools;      /* workers, and one pool for the old delta */
	size_t npreloaded;  /* nodes that are the old delta's commits */
	struct tips ts;

	/* Per global id (old cids first, then new slots); for old commits
	 * release is only a release a newer tag gave them (see old_release),
	 * and branch is unused. */
	uint16_t *release;
	uint16_t *release_map; /* old release number -> new */
	VEC(uint32_t) claimed_old;
	uint8_t *branch;
	uint8_t *assigned;
	size_t ntotal;

	/* Release and branch tables of the new index. */
	VEC(const char *) rel_names;   /* [0] = "" */
	VEC(const char *) br_names;    /* [0] = "mainline" */
	VEC(uint16_t) br_fork;
};

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
static size_t parents_of(struct build *b, size_t g, const uint32_t **out,
			 uint32_t *scratch)
{
	if (g < b->nold) {
		const struct fs_disk_commit *c = &b->old_commits[g];
		*out = b->old_parents + c->parent_first;
		(void)scratch;
		return c->nparents;
	}
	{
		struct node *n = node_at(b->w, (uint32_t)(g - b->nold));
		if (n->state != NODE_READ)
			return 0;
		*out = b->w->parents.v + n->parent_first;
		return n->nparents;
	}
}

/* The release of old commit G, as a number in the new release table: one
 * a newer tag gave it in this build or the old delta, else its own. */
static unsigned old_release(const struct build *b, size_t g)
{
	return b->release[g] ? b->release[g] : b->release_map[b->old_commits[g].release];
}

/* Old commits whose release is known stop a release claim; every old
 * commit stops a branch claim (old commits keep their branch).  Asking
 * the old table instead of copying it for every commit keeps an update's
 * cost to the commits it touches. */
static int settled_release(const struct build *b, size_t g)
{
	return g < b->nold && old_release(b, g) != 0;
}

static int settled_branch(const struct build *b, size_t g)
{
	return g < b->nold;
}

/* Claim every commit reachable from START whose MARK is 0 and that is not
 * SETTLED, setting it to VALUE via SET; stops at claimed commits, whose
 * ancestors are claimed too. */
static int claim(struct build *b, size_t start, uint8_t *mark,
		 int (*settled)(const struct build *, size_t),
		 int (*set)(struct build *, size_t, unsigned), unsigned value)
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

static int set_release(struct build *b, size_t g, unsigned v)
{
	b->release[g] = (uint16_t)v;
	/* old commits given a release: the delta's relset */
	return g < b->nold ? VEC_PUSH(b->claimed_old, (uint32_t)g) : 0;
}

static int set_branch(struct build *b, size_t g, unsigned v)
{
	b->branch[g] = (uint8_t)v;
	return 0;
}

/* The number of release NAME in the new table (sorted by version), 0 if
 * it is not there. */
static unsigned release_number(const struct build *b, const char *name)
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

static long global_id(struct build *b, const git_oid *oid)
{
	struct walk *w = b->w;
	long old = b->nold ? old_lookup(w, oid) : -1;
	size_t j;

	if (old >= 0)
		return old;
	if (!w->table_size)
		return -1;
	j = oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		if (git_oid_equal(&node_at(w, w->table[j] - 1)->oid, oid))
			return (long)(b->nold + w->table[j] - 1);
		j = (j + 1) & (w->table_size - 1);
	}
	return -1;
}

/* Is an old index still a prefix of what the repository has now?  Fills
 * NOTE and returns 0 when a full rebuild is needed. */
static int old_still_valid(struct build *b, git_repository *repo, char *note, size_t nlen)
{
	uint64_t notips;
	const char *strings;
	const struct fs_disk_tip *otips = fs_idx_tips(b->old, &notips, &strings);
	size_t i, j;

	if (fs_idx_flags(b->old) & FS_IDX_SHALLOW) {
		snprintf(note, nlen, "the cache was made from a shallow clone; rebuilding it");
		return 0;
	}
	for (i = 0; i < notips; i++) {
		const char *name = strings + otips[i].name;
		struct tip key, *t;
		git_oid old_oid;

		key.name = (char *)name;
		t = bsearch(&key, b->ts.t.v, b->ts.t.n, sizeof(key), tip_cmp_name);
		if (!t || (uint32_t)t->kind != otips[i].kind) {
			snprintf(note, nlen, "'%s' is gone or changed kind; rebuilding the cache", name);
			return 0;
		}
		if (!memcmp(t->oid.id, otips[i].oid, 20))
			continue;
		memcpy(old_oid.id, otips[i].oid, 20);
		if (t->kind == FS_TIP_TAG) {
			snprintf(note, nlen, "tag '%s' moved; rebuilding the cache", name);
			return 0;
		}
		if (git_graph_descendant_of(repo, &t->oid, &old_oid) != 1) {
			snprintf(note, nlen, "'%s' was rewound or force-pushed; rebuilding the cache",
				 name);
			return 0;
		}
	}
	/* A new tag that sorts before an indexed tag could own commits the
	 * indexed tag claimed: one of its own line; any stable tag, for a new
	 * mainline tag (a stable tag reaches the mainline up to its fork, which
	 * a late fork tag must own); and a mainline tag, for a new stable tag
	 * whose fork tag is missing (it then claims mainline commits itself).
	 * Tags of unrelated lines cannot reach each other's commits. */
	for (i = 0; i < b->ts.t.n; i++) {
		struct tip *t = &b->ts.t.v[i];
		int fork_known = 1;
		if (t->kind != FS_TIP_TAG)
			continue;
		for (j = 0; j < notips; j++)
			if (!strcmp(strings + otips[j].name, t->name))
				break;
		if (j < notips)
			continue;
		if (t->stable_tag) {
			char fork[80];
			struct tip key;
			snprintf(fork, sizeof(fork), "refs/tags/v%s", t->line);
			key.name = fork;
			fork_known = bsearch(&key, b->ts.t.v, b->ts.t.n, sizeof(key),
					     tip_cmp_name) != NULL;
		}
		for (j = 0; j < notips; j++) {
			const char *on = strings + otips[j].name;
			char oline[LINE_MAX_LEN];
			int st, related;
			if (otips[j].kind != FS_TIP_TAG ||
			    !classify_tag(on + strlen("refs/tags/"), oline, &st))
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

static void load_old(struct build *b, const struct fs_index *old)
{
	uint64_t n;

	b->old = old;
	if (!old) {
		b->nold = b->old_nrefs = b->old_nrefsubj = b->old_nsubjects = 0;
		b->old_strings_len = b->old_nreleases = b->old_nbranches = 0;
		b->old_commits = NULL;
		return;
	}
	b->old_commits = fs_idx_section(old, SEC_COMMITS, &n);
	b->nold = n;
	b->old_parents = fs_idx_section(old, SEC_PARENTS, &n);
	b->old_refs = fs_idx_section(old, SEC_REFS, &n);
	b->old_nrefs = n;
	b->old_refkeys = fs_idx_section(old, SEC_REFKEYS, &n);
	b->old_refsubj = fs_idx_section(old, SEC_REFSUBJ, &n);
	b->old_nrefsubj = n;
	b->old_subjects = fs_idx_section(old, SEC_SUBJECTS, &n);
	b->old_nsubjects = n;
	b->old_strings = fs_idx_section(old, SEC_STRINGS, &n);
	b->old_strings_len = n;
	b->old_releases = fs_idx_section(old, SEC_RELEASES, &n);
	b->old_nreleases = n;
	b->old_branches = fs_idx_section(old, SEC_BRANCHES, &n);
	b->old_nbranches = n;
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

static int run_walk(struct build *b, struct fs_error *err)
{
	struct walk *w = b->w;
	int i, rc = 0, started = 0;

	for (i = 0; i < b->nworkers; i++) {
		struct worker *wk = &b->workers[i];
		rc = open_repo(&wk->repo, b->opts->repo_path, err);
		if (rc == 0 && git_repository_odb(&wk->odb, wk->repo) < 0)
			rc = fs_error_set_git(err, FS_EGIT, "cannot open the object database of '%s'",
					      b->opts->repo_path);
		if (rc < 0)
			goto out;
	}
	w->nworkers = b->nworkers;
	for (i = 0; i < b->nworkers; i++) {
		if (pthread_create(&b->workers[i].thread, NULL, worker_main, &b->workers[i])) {
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
		pthread_join(b->workers[i].thread, NULL);
	if (w->failed)
		rc = fs_error_set(err, w->err.code ? w->err.code : FS_EGENERIC, "%s",
				  w->err.message);
out:
	return rc;
}

/* Comparators take their context through qsort_r(), not a global, so two
 * builds in one process (two threads) cannot disturb each other's sort. */
static int slot_oid_cmp(const void *a, const void *b, void *data)
{
	struct walk *w = data;

	return git_oid_cmp(&node_at(w, *(const uint32_t *)a)->oid,
			   &node_at(w, *(const uint32_t *)b)->oid);
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

/* Make the old delta's commits nodes that are already read, so that the
 * walk stops at them as it stops at the cache's, and the new delta or
 * cache is written from them as from the commits just read.  Their
 * subjects and refs are copied into the last pool.  Slot J is the delta's
 * commit J, so a parent number in the delta maps to a slot directly. */
static int preload_delta(struct build *b, struct fs_error *err)
{
	const struct fs_index *old = b->old;
	struct worker *pw = &b->workers[b->nworkers];
	struct walk *w = b->w;
	const struct fs_disk_commit *dc;
	const uint32_t *dparents;
	const struct fs_disk_ref *drefs;
	const char *dstr;
	uint64_t dn, n;
	size_t j, k;

	dc = fs_idx_delta_section(old, SEC_COMMITS, &dn);
	if (!dn)
		return 0;
	dparents = fs_idx_delta_section(old, SEC_PARENTS, &n);
	drefs = fs_idx_delta_section(old, SEC_REFS, &n);
	dstr = fs_idx_delta_section(old, SEC_STRINGS, &n);
	for (j = 0; j < dn; j++) {
		git_oid oid;
		long slot, off;
		struct node *nd;

		memcpy(oid.id, dc[j].oid, 20);
		slot = add_node(w, &oid, 0, 0);
		if (slot < 0 || (size_t)slot != b->nold + j)
			goto oom;
		nd = node_at(w, (uint32_t)j);
		off = pool_add(&pw->pool, dstr + dc[j].subject, strlen(dstr + dc[j].subject));
		if (off < 0)
			goto oom;
		nd->subject = (uint32_t)off;
		nd->ref_first = (uint32_t)pw->refs.n;
		nd->nrefs = dc[j].nrefs;
		for (k = 0; k < dc[j].nrefs; k++) {
			struct fs_disk_ref r = drefs[dc[j].ref_first + k];
			r.source = (uint32_t)j;
			if (r.subject) {
				off = pool_add(&pw->pool, dstr + r.subject, strlen(dstr + r.subject));
				if (off < 0)
					goto oom;
				r.subject = (uint32_t)off;
			}
			if (VEC_PUSH(pw->refs, r))
				goto oom;
		}
		nd->parent_first = (uint32_t)w->parents.n;
		nd->nparents = dc[j].nparents;
		for (k = 0; k < dc[j].nparents; k++) {
			/* global numbers in the old index are global ids here:
			 * the cache's first, then the delta's in slot order */
			if (VEC_PUSH(w->parents, dparents[dc[j].parent_first + k]))
				goto oom;
		}
		nd->thread = (uint8_t)b->nworkers;
		nd->state = NODE_READ;
	}
	b->npreloaded = dn;
	return 0;
oom:
	return fs_error_set(err, FS_ENOMEM, "out of memory");
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
	qsort(v + nold, ntail, sizeof(*v), hash_cmp);
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

int fs_idx_build(const struct fs_index_opts *opts, const char *cache_path,
		 const struct fs_index *old, struct fs_index_stats *stats,
		 struct fs_error *err)
{
	struct build b;
	struct walk *w = NULL;
	git_repository *repo = NULL;
	uint32_t *new_order = NULL, *final_of_new = NULL, *final_of_old = NULL;
	int32_t *final_src = NULL; /* per final cid: old cid, or -(slot+1) */
	size_t nnew = 0, nfinal = 0, i, j, k;
	struct fs_disk_ref *refs = NULL;
	size_t nrefs = 0;
	uint32_t *refkeys = NULL;
	VEC(struct fs_disk_hash) refsubj = { NULL, 0, 0 };
	VEC(struct fs_disk_hash) subjects = { NULL, 0, 0 };
	VEC(struct fs_disk_relset) relset = { NULL, 0, 0 };
	size_t *thread_str_base = NULL, *thread_ref_base = NULL;
	struct pool names = { NULL, 0, 0 };
	uint32_t *rel_off = NULL, *br_off = NULL, *tip_off = NULL;
	uint32_t repo_off = 0;
	size_t names_base;
	char *tmp_path = NULL;
	FILE *f = NULL;
	struct writer *wr = NULL;
	struct fs_disk_header hdr;
	int rc = 0, fd = -1, delta = 0;
	size_t g, keep_old = 0, cid_off = 0, kept_refs;
	char *delta_path = NULL;
	const char *target;
	uint16_t *release_map = NULL;

	size_t expect_total = 0;

	memset(&b, 0, sizeof(b));
	b.opts = opts;
	rc = open_repo(&repo, opts->repo_path, err);
	if (rc < 0)
		goto out;
	rc = read_tips(repo, opts->repo_path, &b.ts, err);
	if (rc < 0)
		goto out;
	if (b.ts.shallow)
		snprintf(stats->note, sizeof(stats->note),
			 "'%s' is a shallow clone: only the commits it has are indexed",
			 opts->repo_path);
	if (old) {
		load_old(&b, old);
		if (!old_still_valid(&b, repo, stats->note, sizeof(stats->note)))
			load_old(&b, NULL);
	}
	stats->rebuilt = b.nold == 0;
	/* The progress line's total: git's own count when it has one, else
	 * on a rebuild the size of the cache it replaces. */
	if (opts->progress && !b.nold) {
		expect_total = commit_graph_count(repo);
		if (!expect_total && old)
			expect_total = fs_index_count(old);
	}

	w = calloc(1, sizeof(*w));
	if (!w) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	b.w = w;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->old_commits = b.old_commits;
	w->nold = b.nold;
	w->opts = opts;
	w->expect_total = expect_total;
	/* The reading threads, and one more pool for the old delta's
	 * commits. */
	b.nworkers = opts->threads > 0 ? opts->threads : cpu_count();
	if (b.nworkers > 8)
		b.nworkers = 8;
	b.npools = b.nworkers + 1;
	b.workers = calloc(b.npools, sizeof(*b.workers));
	if (!b.workers) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < b.npools; k++) {
		b.workers[k].w = w;
		b.workers[k].id = (int)k;
		if (pool_add(&b.workers[k].pool, "", 0) < 0) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (b.nold) {
		rc = preload_delta(&b, err);
		if (rc < 0)
			goto out;
	}
	for (i = 0; i < b.ts.t.n; i++)
		if (intern(w, &b.ts.t.v[i].oid, INT64_MAX) < 0) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	rc = run_walk(&b, err);
	if (rc < 0)
		goto out;
	nnew = w->nnodes;
	stats->new_commits = 0;
	for (i = 0; i < nnew; i++)
		if (node_at(w, i)->state == NODE_READ)
			stats->new_commits++;
	if (nnew - stats->new_commits && !b.ts.shallow && !stats->note[0])
		snprintf(stats->note, sizeof(stats->note),
			 "%zu commits named as parents are missing from '%s'",
			 nnew - stats->new_commits, opts->repo_path);
	/* Few commits since the cache: write them as its delta and leave the
	 * cache as it is.  Many: one new cache with everything (the delta's
	 * commits are among the nodes). */
	delta = b.nold && stats->new_commits * DELTA_RATIO <= b.nold;
	{
		/* Tests take either path on small histories. */
		const char *t = getenv("FIXSCAN_TEST_DELTA");
		if (t && b.nold)
			delta = !strcmp(t, "always") ? 1 : !strcmp(t, "never") ? 0 : delta;
	}
	stats->new_commits -= b.npreloaded;

	/* Release table: the old names plus the tags, in version order. */
	b.ntotal = b.nold + nnew;
	b.release = calloc(b.ntotal + 1, sizeof(*b.release));
	b.branch = calloc(b.ntotal + 1, sizeof(*b.branch));
	b.assigned = calloc(b.ntotal + 1, 1);
	if (!b.release || !b.branch || !b.assigned || VEC_PUSH(b.rel_names, "") ||
	    VEC_PUSH(b.br_names, "mainline") || VEC_PUSH(b.br_fork, 0)) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < b.ts.t.n; i++)
		if (b.ts.t.v[i].release && VEC_PUSH(b.rel_names, b.ts.t.v[i].release)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	/* Releases of old commits whose tags are gone would have forced a
	 * rebuild, so every old release name is among the tags. */
	qsort(b.rel_names.v + 1, b.rel_names.n - 1, sizeof(*b.rel_names.v), str_ptr_rel_cmp);
	if (b.rel_names.n > 65535) {
		rc = fs_error_set(err, FS_EGENERIC, "too many release tags (%zu)", b.rel_names.n);
		goto out;
	}
	/* Branch table: old branches keep their numbers' names; new ones
	 * follow. */
	for (i = 1; i < b.old_nbranches; i++)
		if (VEC_PUSH(b.br_names, b.old_strings + b.old_branches[i].name) ||
		    VEC_PUSH(b.br_fork, 0)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	for (i = 0; i < b.ts.t.n; i++) {
		const char *br = b.ts.t.v[i].branch;
		if (!br || find_name(b.br_names.v, b.br_names.n, 1, br) >= 0)
			continue;
		if (b.br_names.n >= 255) {
			rc = fs_error_set(err, FS_EGENERIC, "too many stable branches");
			goto out;
		}
		if (VEC_PUSH(b.br_names, br) || VEC_PUSH(b.br_fork, 0)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	}
	for (i = 1; i < b.br_names.n; i++) {
		/* linux-4.4.y forked from v4.4, linux-2.6.32.y from v2.6.32. */
		const char *name = b.br_names.v[i];
		size_t len = strlen(name);
		char fork[64];
		if (len > 8 && len < sizeof(fork) && !strncmp(name, "linux-", 6) &&
		    !strcmp(name + len - 2, ".y")) {
			int r;
			snprintf(fork, sizeof(fork), "v%.*s", (int)(len - 8), name + 6);
			r = find_name(b.rel_names.v, b.rel_names.n, 1, fork);
			b.br_fork.v[i] = r > 0 ? (uint16_t)r : 0;
		}
	}

	/* Old commits keep their release (renumbered) and branch. */
	if (b.nold) {
		release_map = calloc(b.old_nreleases + 1, sizeof(*release_map));
		if (!release_map) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		for (i = 1; i < b.old_nreleases; i++)
			release_map[i] = (uint16_t)release_number(&b, b.old_strings + b.old_releases[i]);
		b.release_map = release_map;
		/* Cache commits a tag newer than the cache has claimed. */
		{
			uint64_t nset, n;
			const struct fs_disk_relset *set =
				fs_idx_delta_section(b.old, SEC_RELSET, &nset);
			const uint32_t *drel = fs_idx_delta_section(b.old, SEC_RELEASES, &n);
			const char *dstr = fs_idx_delta_section(b.old, SEC_STRINGS, &n);
			for (i = 0; i < nset; i++) {
				unsigned r = release_number(&b, dstr + drel[set[i].release]);
				if (set[i].cid < b.nold && r &&
				    set_release(&b, set[i].cid, r) < 0) {
					rc = fs_error_set(err, FS_ENOMEM, "out of memory");
					goto out;
				}
			}
		}
	}
	/* Releases: tags in version order; a commit belongs to the first tag
	 * that reaches it. */
	{
		uint8_t *mark = calloc(b.ntotal + 1, 1);
		size_t r;
		if (!mark) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		for (g = b.nold; g < b.ntotal; g++)
			mark[g] = node_at(w, g - b.nold)->state != NODE_READ;
		for (r = 1; r < b.rel_names.n && rc == 0; r++) {
			for (i = 0; i < b.ts.t.n; i++) {
				struct tip *t = &b.ts.t.v[i];
				long gid;
				if (!t->release || strcmp(t->release, b.rel_names.v[r]))
					continue;
				gid = global_id(&b, &t->oid);
				if (gid >= 0 &&
				    claim(&b, gid, mark, settled_release, set_release, (unsigned)r) < 0)
					rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			}
		}
		free(mark);
		if (rc < 0)
			goto out;
	}
	/* Branches of new commits: mainline first (its ref and tags), then
	 * each stable ref and stable tag. */
	{
		int pass;
		for (pass = 0; pass < 2 && rc == 0; pass++) {
			for (i = 0; i < b.ts.t.n && rc == 0; i++) {
				struct tip *t = &b.ts.t.v[i];
				int is_main = t->kind == FS_TIP_MAINLINE ||
					      (t->kind == FS_TIP_TAG && !t->stable_tag);
				long gid;
				unsigned br = 0;
				if (is_main != (pass == 0))
					continue;
				if (!is_main) {
					int x = find_name(b.br_names.v, b.br_names.n, 1, t->branch);
					if (x <= 0)
						continue;
					br = (unsigned)x;
				}
				gid = global_id(&b, &t->oid);
				if (gid >= 0 &&
				    claim(&b, gid, b.assigned, settled_branch, set_branch, br) < 0)
					rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			}
		}
		if (rc < 0)
			goto out;
	}

	/* The oid table was for finding commits by id; what follows goes
	 * by slot. */
	free(w->table);
	w->table = NULL;
	w->table_size = 0;

	/* Final order: old commits and new ones merged by id. */
	new_order = malloc((nnew + 1) * sizeof(*new_order));
	final_of_new = malloc((nnew + 1) * sizeof(*final_of_new));
	final_of_old = malloc((b.nold + 1) * sizeof(*final_of_old));
	final_src = malloc((b.nold + nnew + 1) * sizeof(*final_src));
	if (!new_order || !final_of_new || !final_of_old || !final_src) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0, j = 0; i < nnew; i++)
		if (node_at(w, i)->state == NODE_READ)
			new_order[j++] = (uint32_t)i;
	nnew = j;
	qsort_r(new_order, nnew, sizeof(*new_order), slot_oid_cmp, w);
	for (i = 0; i < w->nnodes; i++)
		final_of_new[i] = UINT32_MAX;
	/* A delta holds the nodes only, numbered after the cache's commits,
	 * which keep their numbers. */
	keep_old = delta ? 0 : b.nold;
	cid_off = delta ? b.nold : 0;
	for (i = 0, j = 0; i < keep_old || j < nnew;) {
		int take_old;
		if (i == keep_old)
			take_old = 0;
		else if (j == nnew)
			take_old = 1;
		else
			take_old = memcmp(b.old_commits[i].oid, node_at(w, new_order[j])->oid.id, 20) < 0;
		if (take_old) {
			final_of_old[i] = (uint32_t)nfinal;
			final_src[nfinal++] = (int32_t)i;
			i++;
		} else {
			final_of_new[new_order[j]] = (uint32_t)(cid_off + nfinal);
			final_src[nfinal++] = -(int32_t)new_order[j] - 1;
			j++;
		}
	}
	kept_refs = keep_old ? b.old_nrefs : 0;
	if (cid_off + nfinal >= UINT32_MAX / 2) {
		rc = fs_error_set(err, FS_EGENERIC, "too many commits");
		goto out;
	}

	/* Strings: the old pool, each thread's pool, then the names. */
	thread_str_base = calloc(b.npools + 1, sizeof(*thread_str_base));
	thread_ref_base = calloc(b.npools + 1, sizeof(*thread_ref_base));
	if (!thread_str_base || !thread_ref_base) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	{
		size_t base = keep_old ? b.old_strings_len : 0, rbase = kept_refs;
		if (!keep_old)
			base = 1; /* offset 0 is the "" that starts the file's pool */
		for (k = 0; k < b.npools; k++) {
			thread_str_base[k] = base;
			thread_ref_base[k] = rbase;
			base += b.workers[k].pool.n;
			rbase += b.workers[k].refs.n;
		}
		names_base = base;
		nrefs = rbase;
		if (base > UINT32_MAX - (1u << 24)) {
			rc = fs_error_set(err, FS_EGENERIC, "the string pool is too large");
			goto out;
		}
	}
	if (pool_add(&names, "", 0) < 0) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	rel_off = calloc(b.rel_names.n, sizeof(*rel_off));
	br_off = calloc(b.br_names.n, sizeof(*br_off));
	tip_off = calloc(b.ts.t.n + 1, sizeof(*tip_off));
	if (!rel_off || !br_off || !tip_off) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
#define NAME(s, dst) do { long o_ = pool_add(&names, (s), strlen(s)); \
		if (o_ < 0) { rc = fs_error_set(err, FS_ENOMEM, "out of memory"); goto out; } \
		(dst) = (uint32_t)(names_base + o_); } while (0)
	rel_off[0] = 0;
	for (i = 1; i < b.rel_names.n; i++)
		NAME(b.rel_names.v[i], rel_off[i]);
	for (i = 0; i < b.br_names.n; i++)
		NAME(b.br_names.v[i], br_off[i]);
	for (i = 0; i < b.ts.t.n; i++)
		NAME(b.ts.t.v[i].name, tip_off[i]);
	{
		char *abs = realpath(opts->repo_path, NULL);
		NAME(abs ? abs : opts->repo_path, repo_off);
		free(abs);
	}
#undef NAME

	/* Refs: old refs as they were (sources renumbered), then the
	 * threads' refs in thread order. */
	refs = malloc((nrefs + 1) * sizeof(*refs));
	if (!refs) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < kept_refs; i++) {
		refs[i] = b.old_refs[i];
		refs[i].source = final_of_old[refs[i].source];
	}
	for (k = 0; k < b.npools; k++) {
		struct worker *wk = &b.workers[k];
		for (i = 0; i < wk->refs.n; i++) {
			struct fs_disk_ref *r = &refs[thread_ref_base[k] + i];
			*r = wk->refs.v[i];
			r->source = final_of_new[r->source];
			if (r->subject)
				r->subject += (uint32_t)thread_str_base[k];
		}
	}
	/* Refs of commits that turned out missing were never made; every
	 * source is a final commit. */

	/* refkeys: old order kept, new refs sorted and merged in. */
	refkeys = malloc((nrefs + 1) * sizeof(*refkeys));
	if (!refkeys) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	{
		size_t nn = nrefs - kept_refs;
		uint32_t *newpos = malloc((nn + 1) * sizeof(*newpos));
		if (!newpos) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < nn; i++)
			newpos[i] = (uint32_t)(kept_refs + i);
		qsort_r(newpos, nn, sizeof(*newpos), refpos_cmp, refs);
		for (i = 0, j = 0, k = 0; i < kept_refs || j < nn; k++) {
			if (j == nn || (i < kept_refs &&
					refpos_cmp(&b.old_refkeys[i], &newpos[j], refs) < 0))
				refkeys[k] = b.old_refkeys[i++];
			else
				refkeys[k] = newpos[j++];
		}
		free(newpos);
	}
	/* Hashes of the quoted subjects of Fixes: tags, for tags whose id is
	 * wrong. */
	for (i = 0; keep_old && i < b.old_nrefsubj; i++)
		if (VEC_PUSH(refsubj, b.old_refsubj[i])) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	{
		size_t first_new = refsubj.n;
		for (k = 0; k < b.npools; k++) {
			struct worker *wk = &b.workers[k];
			for (i = 0; i < wk->refs.n; i++) {
				struct fs_disk_hash hh = { 0, 0, 0 };
				if (!wk->refs.v[i].subject || wk->refs.v[i].kind != FS_REF_FIXES)
					continue;
				hh.hash = fs_idx_subject_hash(wk->pool.p + wk->refs.v[i].subject);
				hh.value = (uint32_t)(thread_ref_base[k] + i);
				if (hh.hash && VEC_PUSH(refsubj, hh)) {
					rc = fs_error_set(err, FS_ENOMEM, "out of memory");
					goto out;
				}
			}
		}
		if (merge_new_hashes(refsubj.v, refsubj.n, first_new) < 0) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	}
	/* Subject hashes of commits. */
	if (VEC_RESERVE(subjects, (keep_old ? b.old_nsubjects : 0) + nnew + 1)) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; keep_old && i < b.old_nsubjects; i++) {
		struct fs_disk_hash hh = b.old_subjects[i];
		hh.value = final_of_old[hh.value];
		if (VEC_PUSH(subjects, hh)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	}
	for (i = 0; i < nnew; i++) {
		struct node *n = node_at(w, new_order[i]);
		struct fs_disk_hash hh = { 0, 0, 0 };
		hh.hash = fs_idx_subject_hash(b.workers[n->thread].pool.p + n->subject);
		hh.value = final_of_new[new_order[i]];
		if (hh.hash && VEC_PUSH(subjects, hh)) {
			rc = fs_error_set(err, FS_ENOMEM, "out of memory");
			goto out;
		}
	}
	if (merge_new_hashes(subjects.v, subjects.n, keep_old ? b.old_nsubjects : 0) < 0) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}

	/* A delta's view of the cache's commits: those a tag newer than the
	 * cache has claimed.  (relmap, the cache's releases renumbered, is
	 * release_map.) */
	if (delta && b.claimed_old.n) {
		qsort(b.claimed_old.v, b.claimed_old.n, sizeof(*b.claimed_old.v), u32_cmp);
		for (i = 0; i < b.claimed_old.n; i++) {
			struct fs_disk_relset e = { b.claimed_old.v[i], 0, 0 };
			if (i && b.claimed_old.v[i] == b.claimed_old.v[i - 1])
				continue;
			e.release = b.release[e.cid];
			if (VEC_PUSH(relset, e)) {
				rc = fs_error_set(err, FS_ENOMEM, "out of memory");
				goto out;
			}
		}
	}

	/* Lay out and write the file. */
	delta_path = fs_idx_delta_path(cache_path);
	if (!delta_path) {
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	target = delta ? delta_path : cache_path;
	if (asprintf(&tmp_path, "%s.tmp.XXXXXX", target) < 0) {
		tmp_path = NULL;
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
		goto out;
	}
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot create '%s': %s", tmp_path, strerror(errno));
		free(tmp_path);
		tmp_path = NULL;
		goto out;
	}
	f = fdopen(fd, "wb");
	if (f)
		fd = -1; /* closed with F */
	wr = calloc(1, sizeof(*wr));
	if (!f || !wr) {
		rc = fs_error_set(err, FS_EIO, "cannot write '%s': %s", tmp_path, strerror(errno));
		goto out;
	}
	memset(&hdr, 0, sizeof(hdr));
	memcpy(hdr.magic, FS_IDX_MAGIC, 8);
	hdr.version = FS_IDX_VERSION;
	hdr.bom = FS_IDX_BOM;
	hdr.repo_path = repo_off;
	hdr.flags = b.ts.shallow ? FS_IDX_SHALLOW : 0;
	if (delta) {
		hdr.flags |= FS_IDX_DELTA;
		hdr.base_checksum = fs_idx_header(b.old)->checksum;
		hdr.base_commits = (uint32_t)b.nold;
		hdr.base_refs = (uint32_t)b.old_nrefs;
	} else {
		/* No two caches have the same checksum, even of the same
		 * history, so a delta left over from an earlier one never
		 * fits a new one. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		hdr.base_checksum = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
				    ((uint64_t)getpid() << 40);
	}
	{
		size_t nparents_total = 0;
		uint64_t off = sizeof(hdr);
		size_t strings_len = names_base + names.n;
		for (i = 0; i < nfinal; i++) {
			int32_t s = final_src[i];
			nparents_total += s >= 0 ? b.old_commits[s].nparents
						 : node_at(w, -s - 1)->nparents;
		}
#define LAY(s_, cnt, elem) do { hdr.sec[s_].offset = off; hdr.sec[s_].count = (cnt); \
		off += ((uint64_t)(cnt) * (elem) + 7) / 8 * 8; } while (0)
		LAY(SEC_COMMITS, nfinal, sizeof(struct fs_disk_commit));
		LAY(SEC_PARENTS, nparents_total, sizeof(uint32_t));
		LAY(SEC_REFS, nrefs, sizeof(struct fs_disk_ref));
		LAY(SEC_REFKEYS, nrefs, sizeof(uint32_t));
		LAY(SEC_REFSUBJ, refsubj.n, sizeof(struct fs_disk_hash));
		LAY(SEC_SUBJECTS, subjects.n, sizeof(struct fs_disk_hash));
		LAY(SEC_RELEASES, b.rel_names.n, sizeof(uint32_t));
		LAY(SEC_BRANCHES, b.br_names.n, sizeof(struct fs_disk_branch));
		LAY(SEC_TIPS, b.ts.t.n, sizeof(struct fs_disk_tip));
		LAY(SEC_STRINGS, strings_len, 1);
		LAY(SEC_RELSET, relset.n, sizeof(struct fs_disk_relset));
		LAY(SEC_RELMAP, delta ? b.old_nreleases : 0, sizeof(uint16_t));
#undef LAY
		hdr.file_size = off;
	}
	wr->f = f;
	fs_idx_body_ck_init(&wr->ck, hdr.file_size - sizeof(hdr));
	if (fwrite(&hdr, sizeof(hdr), 1, f) != 1)
		wr->failed = 1;
	{
		/* commits, then parents, in final order */
		uint32_t pfirst = 0, rfirst;
		for (i = 0; i < nfinal; i++) {
			struct fs_disk_commit c;
			int32_t s = final_src[i];
			memset(&c, 0, sizeof(c));
			if (s >= 0) {
				c = b.old_commits[s];
				c.release = (uint16_t)old_release(&b, (size_t)s);
			} else {
				struct node *n = node_at(w, -s - 1);
				memcpy(c.oid, n->oid.id, 20);
				c.subject = (uint32_t)(n->subject + thread_str_base[n->thread]);
				rfirst = (uint32_t)(thread_ref_base[n->thread] + n->ref_first);
				c.ref_first = rfirst;
				c.nrefs = n->nrefs;
				c.nparents = n->nparents;
				c.release = b.release[b.nold + (-s - 1)];
				c.branch = b.branch[b.nold + (-s - 1)];
			}
			c.parent_first = pfirst;
			pfirst += c.nparents;
			wr_put(wr, &c, sizeof(c));
		}
		wr_align(wr);
		for (i = 0; i < nfinal; i++) {
			int32_t s = final_src[i];
			if (s >= 0) {
				const struct fs_disk_commit *oc = &b.old_commits[s];
				for (j = 0; j < oc->nparents; j++) {
					uint32_t p = final_of_old[b.old_parents[oc->parent_first + j]];
					wr_put(wr, &p, sizeof(p));
				}
			} else {
				struct node *n = node_at(w, -s - 1);
				for (j = 0; j < n->nparents; j++) {
					uint32_t gp = w->parents.v[n->parent_first + j], p;
					if (gp < b.nold) /* a delta keeps the cache's numbers */
						p = delta ? gp : final_of_old[gp];
					else
						p = final_of_new[gp - b.nold];
					/* A missing parent (shallow clone) points
					 * at the commit itself, which walks ignore. */
					if (p == UINT32_MAX)
						p = (uint32_t)(cid_off + i);
					wr_put(wr, &p, sizeof(p));
				}
			}
		}
		wr_align(wr);
	}
	wr_put(wr, refs, nrefs * sizeof(*refs));
	wr_align(wr);
	wr_put(wr, refkeys, nrefs * sizeof(*refkeys));
	wr_align(wr);
	wr_put(wr, refsubj.v, refsubj.n * sizeof(*refsubj.v));
	wr_align(wr);
	wr_put(wr, subjects.v, subjects.n * sizeof(*subjects.v));
	wr_align(wr);
	wr_put(wr, rel_off, b.rel_names.n * sizeof(*rel_off));
	wr_align(wr);
	for (i = 0; i < b.br_names.n; i++) {
		struct fs_disk_branch br = { br_off[i], b.br_fork.v[i], 0 };
		wr_put(wr, &br, sizeof(br));
	}
	wr_align(wr);
	for (i = 0; i < b.ts.t.n; i++) {
		struct fs_disk_tip t;
		memset(&t, 0, sizeof(t));
		t.name = tip_off[i];
		t.kind = (uint32_t)b.ts.t.v[i].kind;
		memcpy(t.oid, b.ts.t.v[i].oid.id, 20);
		wr_put(wr, &t, sizeof(t));
	}
	wr_align(wr);
	if (keep_old)
		wr_put(wr, b.old_strings, b.old_strings_len);
	else
		wr_put(wr, "", 1);
	for (k = 0; k < b.npools; k++)
		wr_put(wr, b.workers[k].pool.p, b.workers[k].pool.n);
	wr_put(wr, names.p, names.n);
	wr_align(wr);
	wr_put(wr, relset.v, relset.n * sizeof(*relset.v));
	wr_align(wr);
	if (delta)
		wr_put(wr, release_map, b.old_nreleases * sizeof(*release_map));
	wr_align(wr);
	wr_flush(wr);
	hdr.checksum = fs_idx_file_checksum(&hdr, fs_idx_body_ck_final(&wr->ck));
	if (!wr->failed && (fseek(f, 0, SEEK_SET) || fwrite(&hdr, sizeof(hdr), 1, f) != 1))
		wr->failed = 1;
	if (wr->failed || fflush(f) || fsync(fileno(f))) {
		rc = fs_error_set(err, FS_EIO, "cannot write '%s': %s", tmp_path, strerror(errno));
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		rc = fs_error_set(err, FS_EIO, "cannot write '%s': %s", tmp_path, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp_path, target) < 0) {
		rc = fs_error_set(err, FS_EIO, "cannot rename '%s' to '%s': %s", tmp_path,
				  target, strerror(errno));
		goto out;
	}
	/* The new cache has the delta's commits; the delta no longer fits
	 * it (see above), and goes. */
	if (!delta)
		unlink(delta_path);
	free(tmp_path);
	tmp_path = NULL;
	rc = 0;
out:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (tmp_path) {
		unlink(tmp_path);
		free(tmp_path);
	}
	free(wr);
	free(delta_path);
	free(relset.v);
	free(release_map);
	free(rel_off);
	free(br_off);
	free(tip_off);
	free(names.p);
	free(subjects.v);
	free(refsubj.v);
	free(refkeys);
	free(refs);
	free(thread_str_base);
	free(thread_ref_base);
	free(new_order);
	free(final_of_new);
	free(final_of_old);
	free(final_src);
	free(b.release);
	free(b.branch);
	free(b.assigned);
	free(b.claimed_old.v);
	free(b.rel_names.v);
	free(b.br_names.v);
	free(b.br_fork.v);
	if (b.workers) {
		for (k = 0; k < b.npools; k++) {
			git_odb_free(b.workers[k].odb);
			git_repository_free(b.workers[k].repo);
			free(b.workers[k].pool.p);
			free(b.workers[k].refs.v);
			free(b.workers[k].parents.v);
		}
		free(b.workers);
	}
	if (w) {
		for (i = 0; i < MAX_CHUNKS && w->chunks[i]; i++)
			free(w->chunks[i]);
		free(w->table);
		free(w->queue.v);
		free(w->parents.v);
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
	}
	tips_clear(&b.ts);
	git_repository_free(repo);
	return rc;
}
