/* fixscan: the pending commits of the index (see pendidx.h, and format.h
 * for the section's layout). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "format.h"
#include "base/git-util.h"
#include "load.h"
#include "pendidx.h"
#include "vec.h"

/* The shortest id a Fixes: tag or a revert line may name a commit by. */
#define MIN_KEY 7

static size_t align8(size_t n)
{
	return (n + 7) / 8 * 8;
}

/* ---- the view ------------------------------------------------------------ */

/* Where each part starts, from the counts in H. */
struct parts {
	size_t tips, commits, parents, refs, refkeys, strings, end;
};

static int lay_parts(const struct fs_disk_pending_head *h, struct parts *p)
{
	/* The counts are 32-bit: their sums cannot overflow a size_t. */
	p->tips = align8(sizeof(*h));
	p->commits = p->tips + align8((size_t)h->ntips * sizeof(struct fs_disk_ptip));
	p->parents = p->commits + align8((size_t)h->ncommits * sizeof(struct fs_disk_pcommit));
	p->refs = p->parents + align8((size_t)h->nparents * sizeof(uint32_t));
	p->refkeys = p->refs + align8((size_t)h->nrefs * sizeof(struct fs_disk_pref));
	p->strings = p->refkeys + align8((size_t)h->nrefs * sizeof(uint32_t));
	p->end = p->strings + align8(h->strings_len);
	return 0;
}

static int view_ok(const struct fsi_pending_view *v)
{
	size_t i;

	if (!v->strings_len || v->strings[v->strings_len - 1] != '\0')
		return 0;
	for (i = 0; i < v->ntips; i++)
		if (v->tips[i].name >= v->strings_len)
			return 0;
	for (i = 0; i < v->ncommits; i++) {
		const struct fs_disk_pcommit *c = &v->commits[i];
		if (c->subject >= v->strings_len || c->tip >= v->ntips ||
		    (uint64_t)c->parent_first + c->nparents > v->nparents ||
		    (uint64_t)c->ref_first + c->nrefs > v->nrefs ||
		    (i && memcmp(v->commits[i - 1].oid, c->oid, 20) >= 0))
			return 0;
	}
	for (i = 0; i < v->nparents; i++)
		if (v->parents[i] >= v->ncommits)
			return 0;
	for (i = 0; i < v->nrefs; i++)
		if (v->refs[i].keylen < MIN_KEY || v->refs[i].keylen > 40 ||
		    v->refs[i].commit >= v->ncommits || v->refkeys[i] >= v->nrefs ||
		    (v->refs[i].kind != FS_REF_FIXES && v->refs[i].kind != FS_REF_REVERTS))
			return 0;
	return 1;
}

int fsi_pending_view(struct fsi_pending_view *v, const void *data, size_t len)
{
	const struct fs_disk_pending_head *h = data;
	const char *base = data;
	struct parts p;

	memset(v, 0, sizeof(*v));
	if (!len)
		return 0;
	if (len < sizeof(*h))
		return -1;
	lay_parts(h, &p);
	if (p.end != len)
		return -1;
	v->tips = (const void *)(base + p.tips);
	v->ntips = h->ntips;
	v->commits = (const void *)(base + p.commits);
	v->ncommits = h->ncommits;
	v->parents = (const void *)(base + p.parents);
	v->nparents = h->nparents;
	v->refs = (const void *)(base + p.refs);
	v->refkeys = (const void *)(base + p.refkeys);
	v->nrefs = h->nrefs;
	v->strings = base + p.strings;
	v->strings_len = h->strings_len;
	if (!view_ok(v)) {
		memset(v, 0, sizeof(*v));
		return -1;
	}
	return 0;
}

int fsi_pending_tips_unchanged(const struct fsi_pending_view *v, const struct fsi_tips *ts)
{
	size_t i;

	if (v->ntips != ts->pending.n)
		return 0;
	for (i = 0; i < v->ntips; i++)
		if (strcmp(v->strings + v->tips[i].name, ts->pending.v[i].name) ||
		    memcmp(v->tips[i].oid, ts->pending.v[i].oid.id, 20) ||
		    memcmp(v->tips[i].target, ts->pending.v[i].target.id, 20))
			return 0;
	return 1;
}

/* The commit of V whose id is OID, or -1. */
static long view_find(const struct fsi_pending_view *v, const uint8_t *oid)
{
	size_t lo = 0, hi = v ? v->ncommits : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(v->commits[mid].oid, oid, 20);
		if (!c)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* ---- the build ------------------------------------------------------------- */

struct prow {
	git_oid oid;
	uint32_t subject;      /* in the pool */
	uint32_t parent_first; /* in pb.parents (ids) */
	uint32_t ref_first;    /* in pb.refs */
	uint16_t nparents, nrefs;
	uint16_t tip;
	uint32_t seen;         /* the last tip's walk (number + 1) that saw it */
};

struct pbuild {
	git_repository *repo;
	const struct fsi_pending_view *old;
	fsi_is_mainline_fn is_mainline;
	void *data;
	VEC(struct prow) rows;
	uint32_t *table;       /* open addressing, row + 1, 0 = empty */
	size_t table_size;
	VEC(git_oid) parents;
	VEC(struct fs_disk_pref) refs;
	VEC(git_oid) stack;
	struct fsi_pool pool;
	size_t nread;
	struct fs_error *err;
};

static size_t oid_slot(const git_oid *oid, size_t size)
{
	uint64_t h;

	memcpy(&h, oid->id, 8);
	return (size_t)(h & (size - 1));
}

static long row_find(const struct pbuild *pb, const git_oid *oid)
{
	size_t j;

	if (!pb->table_size)
		return -1;
	for (j = oid_slot(oid, pb->table_size); pb->table[j]; j = (j + 1) & (pb->table_size - 1))
		if (git_oid_equal(&pb->rows.v[pb->table[j] - 1].oid, oid))
			return (long)pb->table[j] - 1;
	return -1;
}

static int table_put(struct pbuild *pb, size_t row)
{
	size_t j, i;

	if ((pb->rows.n + 1) * 2 > pb->table_size) {
		size_t size = pb->table_size ? pb->table_size * 2 : 1024;
		uint32_t *t = calloc(size, sizeof(*t));
		if (!t)
			return -1;
		free(pb->table);
		pb->table = t;
		pb->table_size = size;
		for (i = 0; i < row; i++) {
			for (j = oid_slot(&pb->rows.v[i].oid, size); t[j]; j = (j + 1) & (size - 1))
				;
			t[j] = (uint32_t)i + 1;
		}
	}
	for (j = oid_slot(&pb->rows.v[row].oid, pb->table_size); pb->table[j];
	     j = (j + 1) & (pb->table_size - 1))
		;
	pb->table[j] = (uint32_t)row + 1;
	return 0;
}

static int add_ref(struct pbuild *pb, struct prow *r, enum fs_ref_kind kind, const char *hex)
{
	struct fs_disk_pref ref;
	size_t len = hex ? strlen(hex) : 0, i;

	if (len < MIN_KEY || len > 40)
		return 0;
	for (i = 0; i < len; i++)
		if (fsi_hexval((unsigned char)hex[i]) < 0)
			return 0;
	memset(&ref, 0, sizeof(ref));
	fsi_pack_hex(ref.key, hex, len);
	ref.keylen = (uint8_t)len;
	ref.kind = (uint8_t)kind;
	if (VEC_PUSH(pb->refs, ref))
		return -1;
	r->nrefs++;
	return 0;
}

/* The Fixes: ids and reverted ids of MSG, for row R.  A merge's message
 * quotes what it merges: it gives none. */
static int read_refs(struct pbuild *pb, struct prow *r, const char *msg, int merge)
{
	struct fs_trailers *tags = NULL;
	const struct fs_trailer_ref *fx;
	const struct fs_trailer_revert *rv;
	size_t i, n;
	int rc = 0;

	r->ref_first = (uint32_t)pb->refs.n;
	if (merge || !msg)
		return 0;
	if (fs_trailers_parse(&tags, msg, strlen(msg), NULL) < 0)
		return 0; /* an unreadable message names nothing */
	fx = fs_trailers_fixes(tags, &n);
	for (i = 0; i < n && rc == 0 && r->nrefs < 255; i++)
		rc = add_ref(pb, r, FS_REF_FIXES, fx[i].id);
	rv = fs_trailers_reverts(tags, &n);
	for (i = 0; i < n && rc == 0 && r->nrefs < 255; i++)
		rc = add_ref(pb, r, FS_REF_REVERTS, rv[i].id);
	fs_trailers_free(tags);
	return rc;
}

/* Make a row of OID from git.  1 made, 0 git has no such commit. */
static int row_from_git(struct pbuild *pb, struct prow *r)
{
	git_commit *c = NULL;
	const char *summary;
	unsigned i, np;
	long off;

	if (git_commit_lookup(&c, pb->repo, &r->oid) < 0)
		return 0;
	summary = git_commit_summary(c);
	off = fsi_pool_add(&pb->pool, summary ? summary : "", summary ? strlen(summary) : 0);
	np = git_commit_parentcount(c);
	r->parent_first = (uint32_t)pb->parents.n;
	for (i = 0; i < np && off >= 0; i++)
		if (VEC_PUSH(pb->parents, *git_commit_parent_id(c, i)))
			off = -1;
	r->nparents = (uint16_t)np;
	r->subject = (uint32_t)off;
	if (off < 0 || read_refs(pb, r, git_commit_message(c), np > 1) < 0) {
		git_commit_free(c);
		return -1;
	}
	git_commit_free(c);
	if (++pb->nread % 256 == 0)
		fs_git_drop_pack_pages();
	return 1;
}

/* Make a row of OID from the old section's commit K. */
static int row_from_old(struct pbuild *pb, struct prow *r, size_t k)
{
	const struct fsi_pending_view *o = pb->old;
	const struct fs_disk_pcommit *c = &o->commits[k];
	const char *subj = o->strings + c->subject;
	long off = fsi_pool_add(&pb->pool, subj, strlen(subj));
	size_t i;

	if (off < 0)
		return -1;
	r->subject = (uint32_t)off;
	r->parent_first = (uint32_t)pb->parents.n;
	r->nparents = c->nparents;
	for (i = 0; i < c->nparents; i++) {
		git_oid p;
		memcpy(p.id, o->commits[o->parents[c->parent_first + i]].oid, 20);
		if (VEC_PUSH(pb->parents, p))
			return -1;
	}
	r->ref_first = (uint32_t)pb->refs.n;
	r->nrefs = c->nrefs;
	for (i = 0; i < c->nrefs; i++)
		if (VEC_PUSH(pb->refs, o->refs[c->ref_first + i]))
			return -1;
	return 1;
}

/* The row of OID, made when new: -1 out of memory, -2 when git has no
 * such commit. */
static long row_get(struct pbuild *pb, const git_oid *oid, unsigned tip)
{
	struct prow r;
	long k = row_find(pb, oid), old;
	int rc;

	if (k >= 0)
		return k;
	memset(&r, 0, sizeof(r));
	r.oid = *oid;
	r.tip = (uint16_t)tip;
	old = view_find(pb->old, oid->id);
	rc = old >= 0 ? row_from_old(pb, &r, (size_t)old) : row_from_git(pb, &r);
	if (rc <= 0)
		return rc < 0 ? -1 : -2;
	if (VEC_PUSH(pb->rows, r) || table_put(pb, pb->rows.n - 1))
		return -1;
	return (long)pb->rows.n - 1;
}

/* Every commit tip TIP (number T) reaches that is not mainline. */
static int walk_tip(struct pbuild *pb, const struct fsi_tip *tip, unsigned t)
{
	size_t i;

	pb->stack.n = 0;
	if (VEC_PUSH(pb->stack, tip->oid))
		return -1;
	while (pb->stack.n) {
		git_oid oid = pb->stack.v[--pb->stack.n];
		long k;
		struct prow *r;

		if (pb->is_mainline(pb->data, &oid))
			continue;
		k = row_get(pb, &oid, t);
		if (k == -1)
			return -1;
		if (k < 0 || pb->rows.v[k].seen == t + 1)
			continue;
		r = &pb->rows.v[k];
		r->seen = t + 1;
		for (i = 0; i < r->nparents; i++)
			if (VEC_PUSH(pb->stack, pb->parents.v[r->parent_first + i]))
				return -1;
	}
	return 0;
}

static int row_oid_cmp(const void *a, const void *b, void *data)
{
	const struct prow *rows = data;

	return git_oid_cmp(&rows[*(const uint32_t *)a].oid, &rows[*(const uint32_t *)b].oid);
}

static int refkey_cmp(const void *a, const void *b, void *data)
{
	const struct fs_disk_pref *refs = data;
	uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
	int c = memcmp(refs[pa].key, refs[pb].key, 20);

	if (c)
		return c;
	if (refs[pa].keylen != refs[pb].keylen)
		return (int)refs[pa].keylen - (int)refs[pb].keylen;
	return pa < pb ? -1 : pa > pb;
}

/* The section's bytes from the rows, in id order. */
static int serialize(struct pbuild *pb, const struct fsi_tips *ts, void **out, size_t *len)
{
	struct fs_disk_pending_head h;
	struct parts p;
	uint32_t *order = malloc((pb->rows.n + 1) * sizeof(*order));
	uint32_t *final = malloc((pb->rows.n + 1) * sizeof(*final));
	uint32_t *tipname = malloc((ts->pending.n + 1) * sizeof(*tipname));
	char *buf = NULL;
	size_t i, j, np = 0, nr = 0;

	for (i = 0; order && final && tipname && i < ts->pending.n; i++) {
		long off = fsi_pool_add(&pb->pool, ts->pending.v[i].name,
					strlen(ts->pending.v[i].name));
		if (off < 0)
			break;
		tipname[i] = (uint32_t)off;
	}
	if (!order || !final || !tipname || i < ts->pending.n)
		goto oom;
	for (i = 0; i < pb->rows.n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, pb->rows.n, sizeof(*order), row_oid_cmp, pb->rows.v);
	for (i = 0; i < pb->rows.n; i++)
		final[order[i]] = (uint32_t)i;
	for (i = 0; i < pb->rows.n; i++) {
		const struct prow *r = &pb->rows.v[i];
		for (j = 0; j < r->nparents; j++)
			np += row_find(pb, &pb->parents.v[r->parent_first + j]) >= 0;
		nr += r->nrefs;
	}
	memset(&h, 0, sizeof(h));
	h.ntips = (uint32_t)ts->pending.n;
	h.ncommits = (uint32_t)pb->rows.n;
	h.nparents = (uint32_t)np;
	h.nrefs = (uint32_t)nr;
	h.strings_len = (uint32_t)pb->pool.n;
	lay_parts(&h, &p);
	buf = calloc(1, p.end);
	if (!buf)
		goto oom;
	memcpy(buf, &h, sizeof(h));
	for (i = 0; i < ts->pending.n; i++) {
		struct fs_disk_ptip *t = (struct fs_disk_ptip *)(buf + p.tips) + i;
		t->name = tipname[i];
		memcpy(t->oid, ts->pending.v[i].oid.id, 20);
		memcpy(t->target, ts->pending.v[i].target.id, 20);
	}
	np = nr = 0;
	for (i = 0; i < pb->rows.n; i++) {
		const struct prow *r = &pb->rows.v[order[i]];
		struct fs_disk_pcommit *c = (struct fs_disk_pcommit *)(buf + p.commits) + i;
		struct fs_disk_pref *refs = (struct fs_disk_pref *)(buf + p.refs);
		uint32_t *parents = (uint32_t *)(buf + p.parents);
		memcpy(c->oid, r->oid.id, 20);
		c->subject = r->subject;
		c->tip = r->tip;
		c->parent_first = (uint32_t)np;
		c->ref_first = (uint32_t)nr;
		for (j = 0; j < r->nparents; j++) {
			long k = row_find(pb, &pb->parents.v[r->parent_first + j]);
			if (k >= 0)
				parents[np++] = final[k];
		}
		c->nparents = (uint16_t)(np - c->parent_first);
		for (j = 0; j < r->nrefs; j++) {
			refs[nr] = pb->refs.v[r->ref_first + j];
			refs[nr++].commit = (uint32_t)i;
		}
		c->nrefs = r->nrefs;
	}
	{
		uint32_t *keys = (uint32_t *)(buf + p.refkeys);
		for (i = 0; i < nr; i++)
			keys[i] = (uint32_t)i;
		qsort_r(keys, nr, sizeof(*keys), refkey_cmp, buf + p.refs);
	}
	memcpy(buf + p.strings, pb->pool.p, pb->pool.n);
	*out = buf;
	*len = p.end;
	free(order);
	free(final);
	free(tipname);
	return 0;
oom:
	free(order);
	free(final);
	free(tipname);
	return -1;
}

int fsi_pending_build(git_repository *repo, const struct fsi_tips *ts,
		      const struct fsi_pending_view *old, fsi_is_mainline_fn is_mainline,
		      void *data, void **out, size_t *len, size_t *ncommits, size_t *nread,
		      struct fs_error *err)
{
	struct pbuild pb;
	size_t i;
	int rc = 0;

	*out = NULL;
	*len = *ncommits = *nread = 0;
	if (!ts->pending.n)
		return 0;
	if (ts->pending.n > UINT16_MAX)
		return fs_error_set(err, FS_EGENERIC, "too many pending refs (%zu)", ts->pending.n);
	memset(&pb, 0, sizeof(pb));
	pb.repo = repo;
	pb.old = old && old->ncommits ? old : NULL;
	pb.is_mainline = is_mainline;
	pb.data = data;
	pb.err = err;
	if (fsi_pool_add(&pb.pool, "", 0) < 0)
		rc = -1;
	for (i = 0; rc == 0 && i < ts->pending.n; i++)
		rc = walk_tip(&pb, &ts->pending.v[i], (unsigned)i);
	if (pb.nread)
		fs_git_drop_pack_pages();
	if (rc == 0 && pb.pool.n > UINT32_MAX / 2)
		rc = fs_error_set(err, FS_EGENERIC, "too many pending commits");
	else if (rc == 0)
		rc = serialize(&pb, ts, out, len);
	if (rc == -1)
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	*ncommits = pb.rows.n;
	*nread = pb.nread;
	free(pb.rows.v);
	free(pb.table);
	free(pb.parents.v);
	free(pb.refs.v);
	free(pb.stack.v);
	free(pb.pool.p);
	return rc;
}

/* ---- the lookups ------------------------------------------------------------ */

/* The position in V's refkeys of the first key not before the first
 * MIN_KEY digits of HEX. */
static size_t key_lower_bound(const struct fsi_pending_view *v, const uint8_t key[20])
{
	size_t lo = 0, hi = v->nrefs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(v->refs[v->refkeys[mid]].key, key, 20) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether the pending commit K has reached mainline: mainline has its id,
 * or a commit of its subject. */
static int reached_mainline(const struct fs_index *idx, const struct fsi_pending_view *v,
			    size_t k)
{
	char hex[41];
	fs_cid c, same[8];
	size_t n, i;

	git_oid_tostr(hex, sizeof(hex), (const git_oid *)v->commits[k].oid);
	if (fs_index_resolve(idx, hex, &c, NULL) == 0 && fs_index_commit_is_mainline(idx, c))
		return 1;
	n = fs_index_find_subject(idx, v->strings + v->commits[k].subject, same, 8);
	for (i = 0; i < n && i < 8; i++)
		if (fs_index_commit_is_mainline(idx, same[i]) &&
		    !strcmp(fs_index_commit_subject(idx, same[i]), v->strings + v->commits[k].subject))
			return 1;
	return 0;
}

/* Add to OUT (N so far, at most MAX) the pending commits whose refs name
 * TARGET and resolve to it, or to C when TARGET is a backport of C. */
static size_t add_naming(const struct fs_index *idx, const struct fsi_pending_view *v,
			 fs_cid target, fs_cid c, struct fs_index_pending *out, size_t n,
			 size_t max, size_t *total)
{
	char hex[41], key[41];
	uint8_t packed[20];
	size_t i, j;

	fs_index_commit_hex(idx, target, hex);
	fsi_pack_hex(packed, hex, MIN_KEY);
	for (i = key_lower_bound(v, packed); i < v->nrefs; i++) {
		const struct fs_disk_pref *r = &v->refs[v->refkeys[i]];
		const struct fs_disk_pcommit *pc = &v->commits[r->commit];
		fs_cid got;
		bool dup = false;

		fsi_unpack_hex(key, r->key, r->keylen);
		if (strncmp(key, hex, MIN_KEY))
			break;
		if (strncmp(key, hex, r->keylen) || fs_index_resolve(idx, key, &got, NULL) < 0 ||
		    got != target || reached_mainline(idx, v, r->commit))
			continue;
		git_oid_tostr(key, sizeof(key), (const git_oid *)pc->oid);
		for (j = 0; j < n && j < max && !dup; j++)
			dup = !strcmp(out[j].hex, key);
		if (dup)
			continue;
		(*total)++;
		if (n < max) {
			memcpy(out[n].hex, key, sizeof(key));
			out[n].subject = v->strings + pc->subject;
			out[n].ref = v->strings + v->tips[pc->tip].name;
			out[n].revert = r->kind == FS_REF_REVERTS;
			n++;
		}
	}
	(void)c;
	return n;
}

static int pending_hex_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fs_index_pending *)a)->hex,
		      ((const struct fs_index_pending *)b)->hex);
}

size_t fs_index_pending_fixes(const struct fs_index *idx, fs_cid c,
			      struct fs_index_pending *out, size_t max)
{
	const struct fsi_pending_view *v = &idx->pending;
	fs_cid bp[32];
	size_t n = 0, total = 0, nb, i;

	if (!v->nrefs || c == FS_CID_NONE)
		return 0;
	n = add_naming(idx, v, c, c, out, n, max, &total);
	nb = fs_index_backports(idx, c, bp, 32);
	for (i = 0; i < nb && i < 32; i++)
		n = add_naming(idx, v, bp[i], c, out, n, max, &total);
	qsort(out, n, sizeof(*out), pending_hex_cmp);
	return total;
}

size_t fs_index_pending_count(const struct fs_index *idx)
{
	return idx->pending.ncommits;
}
