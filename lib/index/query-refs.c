/* fixscan: the references between commits in the fixes index: what
 * names a commit, its backports and upstream, the fixes of a change, and
 * the numbered posting (Link table) a commit came from. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/index.h"
#include "format.h"
#include "load.h"
#include "query-private.h"

/* ---- who names a commit --------------------------------------------------- */

/* The first position in refkeys whose ref key is >= (KEY, LEN). */
static int refkey_cmp(const struct fs_disk_ref *r, const uint8_t *key, size_t len)
{
	int c = memcmp(r->key, key, 20);

	if (c)
		return c;
	return (int)r->keylen - (int)len;
}

static uint64_t refkey_at(size_t i, const void *data)
{
	const struct fsi_prefix_key *q = data;

	return fsi_be64(q->L->refs[q->L->refkeys[i]].key);
}

static int refkey_before(size_t i, const void *data)
{
	const struct fsi_prefix_key *q = data;

	return refkey_cmp(&q->L->refs[q->L->refkeys[i]], q->key, q->len) < 0;
}

static size_t refkeys_lower_bound(const struct fsi_layer *L, const uint8_t *key, size_t len)
{
	struct fsi_prefix_key q = { L, key, len };

	return fsi_interp_lower_bound(L->nrefs, fsi_be64(key), refkey_at, refkey_before, &q);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort A and drop repeats. */
static void u32_uniq(struct fsi_u32vec *a)
{
	size_t i, j;

	if (a->n < 2)
		return;
	qsort(a->v, a->n, sizeof(*a->v), u32_cmp);
	for (i = 1, j = 1; i < a->n; i++)
		if (a->v[i] != a->v[j - 1])
			a->v[j++] = a->v[i];
	a->n = j;
}

/* Refs by the commit carrying them, mainline before stable (a fix's own
 * ref before its backports' copies), then by id; one commit's refs in
 * changelog order.  Positions follow the order a build happened to read
 * commits in (threads, cache and delta), so they cannot order answers. */
static int refpos_source_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;
	uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
	fs_cid sa = fsi_ref_at(idx, pa)->source, sb = fsi_ref_at(idx, pb)->source;

	if (sa != sb) {
		int ma = fs_index_commit_is_mainline(idx, sa);
		int mb = fs_index_commit_is_mainline(idx, sb);
		if (ma != mb)
			return mb - ma;
		return memcmp(fsi_oid_of(idx, sa), fsi_oid_of(idx, sb), 20);
	}
	return pa < pb ? -1 : pa > pb;
}

/* The positions of every ref of a kind in KINDS that names commit C: by
 * its id or an abbreviation of it (4..40 digits), or by C's subject, and
 * that fs_index_ref_target() resolves to C.  Each once, in
 * refpos_source_cmp() order.  Returns 0 or -1 when out of memory. */
int fsi_refs_naming(const struct fs_index *idx, fs_cid c, unsigned kinds,
		    struct fsi_u32vec *out)
{
	const uint8_t *oid = fsi_oid_of(idx, c);
	struct fsi_u32vec cand = { NULL, 0, 0 };
	struct fs_index_ref ref;
	uint8_t key[20];
	size_t i;
	uint64_t h;
	int l;

	out->n = 0;
	h = fsi_subject_hash(fs_index_commit_subject(idx, c));
	/* Every ref naming C by 4 or more digits starts with C's first four:
	 * they all lie in the one run of refs whose keys start so (sorted by
	 * key), a handful, so one search and a short scan find them. */
	memset(key, 0, 20);
	memcpy(key, oid, 2);
	for (l = 0; l < idx->nlayers; l++) {
		const struct fsi_layer *L = &idx->layer[l];
		for (i = refkeys_lower_bound(L, key, 4); i < L->nrefs; i++) {
			uint32_t pos = L->refkeys[i];
			const struct fs_disk_ref *r = &L->refs[pos];
			if (memcmp(r->key, oid, 2))
				break;
			if (r->keylen < 4 || fsi_prefix_cmp(r->key, r->keylen, oid) != 0 ||
			    !(kinds & FS_REF_BIT(r->kind)))
				continue;
			if (fsi_u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
		for (i = h ? fsi_hash_lower_bound(L->refsubj, L->nrefsubj, h) : L->nrefsubj;
		     i < L->nrefsubj && L->refsubj[i].hash == h; i++) {
			uint32_t pos = L->refsubj[i].value;
			if ((kinds & FS_REF_BIT(L->refs[pos].kind)) &&
			    fsi_u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
	}
	u32_uniq(&cand);
	for (i = 0; i < cand.n; i++) {
		fsi_fill_ref(idx, cand.v[i], &ref);
		if (fs_index_ref_target(idx, &ref, NULL, NULL) == c &&
		    fsi_u32_push(out, cand.v[i]) < 0)
			goto oom;
	}
	if (out->n > 1)
		qsort_r(out->v, out->n, sizeof(*out->v), refpos_source_cmp, (void *)idx);
	free(cand.v);
	return 0;
oom:
	free(cand.v);
	return -1;
}

size_t fs_index_refs_to(const struct fs_index *idx, fs_cid c, unsigned kinds,
			struct fs_index_ref *out, size_t max)
{
	struct fsi_u32vec pos = { NULL, 0, 0 };
	size_t i, n;

	/* Out of memory reports what was found so far; there is no error
	 * return in this interface. */
	fsi_refs_naming(idx, c, kinds, &pos);
	for (i = 0; i < pos.n && i < max; i++)
		fsi_fill_ref(idx, pos.v[i], &out[i]);
	n = pos.n;
	free(pos.v);
	return n;
}

/* Every stable backport of C into OUT (by id, each once). */
int fsi_backports_all(const struct fs_index *idx, fs_cid c, struct fsi_u32vec *out)
{
	struct fsi_u32vec pos = { NULL, 0, 0 };
	size_t i;
	int rc;

	out->n = 0;
	rc = fsi_refs_naming(idx, c, FS_REF_BIT(FS_REF_UPSTREAM), &pos);
	for (i = 0; rc == 0 && i < pos.n; i++) {
		fs_cid s = fsi_ref_at(idx, pos.v[i])->source;
		if (s != c && !fs_index_commit_is_mainline(idx, s) && fsi_u32_push(out, s) < 0)
			rc = -1;
	}
	free(pos.v);
	u32_uniq(out);
	if (out->n > 1)
		qsort_r(out->v, out->n, sizeof(*out->v), fsi_cid_oid_cmp, (void *)idx);
	return rc;
}

size_t fs_index_backports(const struct fs_index *idx, fs_cid c, fs_cid *out,
			  size_t max)
{
	struct fsi_u32vec bp = { NULL, 0, 0 };
	size_t i, n;

	fsi_backports_all(idx, c, &bp);
	for (i = 0; i < bp.n && i < max; i++)
		out[i] = bp.v[i];
	n = bp.n;
	free(bp.v);
	return n;
}

fs_cid fs_index_upstream_of(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, &L);
	struct fs_index_ref ref;
	size_t i;

	for (i = 0; i < dc->nrefs; i++) {
		if (L->refs[dc->ref_first + i].kind != FS_REF_UPSTREAM)
			continue;
		fsi_fill_ref(idx, L->ref_base + dc->ref_first + i, &ref);
		fs_cid u = fs_index_ref_target(idx, &ref, NULL, NULL);
		if (u != FS_CID_NONE && u != c)
			return u;
	}
	return FS_CID_NONE;
}

static int fix_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;
	const struct fs_index_fix *x = a, *y = b;

	if (x->fixed != y->fixed)
		return x->fixed < y->fixed ? -1 : 1;
	return memcmp(fsi_oid_of(idx, x->fixer), fsi_oid_of(idx, y->fixer), 20);
}

/* The first entry of SORTED (N entries, by fixed) whose fixed is C. */
static size_t fixed_lower_bound(const struct fs_index_fix *sorted, size_t n, fs_cid c)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sorted[mid].fixed < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Reorder a breadth-first result into a tree walk (each fix followed by
 * the fixes of it), siblings by id, so the output does not depend on the
 * order the index happens to store references in.  Every fixer appears
 * once and its FIXED was found before it, so the entries form a tree under
 * ROOT. */
static int tree_order(const struct fs_index *idx, fs_cid root,
		      struct fs_index_fix *res, size_t n)
{
	struct fs_index_fix *sorted = malloc(n * sizeof(*sorted));
	size_t *stack = malloc(n * sizeof(*stack)); /* positions in SORTED */
	size_t nout = 0, nstack = 0, lo, hi;
	fs_cid parent = root;

	if (!sorted || !stack) {
		free(sorted);
		free(stack);
		return -1;
	}
	memcpy(sorted, res, n * sizeof(*sorted));
	qsort_r(sorted, n, sizeof(*sorted), fix_cmp, (void *)idx);
	for (;;) {
		/* Children of PARENT form one run in SORTED; push them in
		 * reverse so the smallest id comes out first. */
		lo = fixed_lower_bound(sorted, n, parent);
		for (hi = lo; hi < n && sorted[hi].fixed == parent; hi++)
			;
		while (hi > lo && nstack < n)
			stack[nstack++] = --hi;
		if (!nstack)
			break;
		res[nout] = sorted[stack[--nstack]];
		parent = res[nout++].fixer;
	}
	free(sorted);
	free(stack);
	return 0;
}

/* The other commits that name the change C is, into OUT: C's backports,
 * then each equivalent commit and its backports.  *NSTABLE gets the
 * number of C's own backports (at the front).  0, or -1 out of memory. */
static int names_of(const struct fs_index *idx, fs_cid c, struct fsi_u32vec *out, size_t *nstable)
{
	struct fsi_u32vec bp = { NULL, 0, 0 };
	fs_cid eq[8];
	size_t neq, i, k;
	int rc;

	rc = fsi_backports_all(idx, c, out);
	*nstable = out->n;
	neq = rc == 0 && fs_index_commit_is_mainline(idx, c) ? fs_index_equivalents(idx, c, eq, 8) : 0;
	for (i = 0; rc == 0 && i < neq && i < 8; i++) {
		rc = fsi_u32_push(out, eq[i]);
		if (rc == 0)
			rc = fsi_backports_all(idx, eq[i], &bp);
		for (k = 0; rc == 0 && k < bp.n; k++)
			rc = fsi_u32_push(out, bp.v[k]);
	}
	free(bp.v);
	return rc;
}

int fs_index_fixes_of(const struct fs_index *idx, fs_cid root,
		      struct fs_index_fix **out)
{
	/* RES doubles as the breadth-first queue, with the root as an
	 * implicit first entry; SEEN holds every commit already in it. */
	struct fs_index_fix *res = NULL;
	size_t n = 0, cap = 0, head = 0, i, j;
	struct fsi_u32vec names = { NULL, 0, 0 }, pos = { NULL, 0, 0 };
	size_t nstable;
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	fs_cid cur = root;
	unsigned depth = 0;
	const unsigned kinds = FS_REF_BIT(FS_REF_FIXES) | FS_REF_BIT(FS_REF_REVERTS) |
			       FS_REF_BIT(FS_REF_REVERTS_UPSTREAM);

	*out = NULL;
	/* Keys are cid + 1: NULL is no key for a GHashTable of pointers. */
	g_hash_table_add(seen, GUINT_TO_POINTER(root + 1));
	for (;;) {
		/* CUR is named by its own id and by its backports' ids, and
		 * so is every equivalent commit (the same change committed
		 * twice): a fix of one is a fix of the other. */
		if (names_of(idx, cur, &names, &nstable) < 0)
			goto oom;
		for (i = 0; i <= names.n; i++) {
			fs_cid name = i == 0 ? cur : names.v[i - 1];
			if (fsi_refs_naming(idx, name, kinds, &pos) < 0)
				goto oom;
			for (j = 0; j < pos.n; j++) {
				struct fs_index_ref ref;
				enum fs_evidence ev;
				bool mm;
				fs_cid f, up;

				fsi_fill_ref(idx, pos.v[j], &ref);
				f = ref.source;
				/* A stable backport of a fix carries the fix's
				 * Fixes: line too; it stands for its mainline
				 * commit, which is the fix to report. */
				if (!fs_index_commit_is_mainline(idx, f) &&
				    (up = fs_index_upstream_of(idx, f)) != FS_CID_NONE)
					f = up;
				if (f == cur || g_hash_table_contains(seen, GUINT_TO_POINTER(f + 1)))
					continue;
				if (n == cap) {
					size_t nc = cap ? cap * 2 : 16;
					struct fs_index_fix *g = g_try_renew(struct fs_index_fix, res, nc);
					if (!g)
						goto oom;
					res = g;
					cap = nc;
				}
				fs_index_ref_target(idx, &ref, &ev, &mm);
				if (i > 0 && !fs_index_commit_is_mainline(idx, name))
					ev = FS_EVIDENCE_STABLE;
				res[n].fixer = f;
				res[n].fixed = cur;
				res[n].depth = depth + 1;
				res[n].revert = ref.kind != FS_REF_FIXES;
				res[n].evidence = ev;
				n++;
				g_hash_table_add(seen, GUINT_TO_POINTER(f + 1));
			}
		}
		if (head == n)
			break;
		cur = res[head].fixer;
		depth = res[head].depth;
		head++;
	}
	free(names.v);
	free(pos.v);
	g_hash_table_destroy(seen);
	if (n > 1 && tree_order(idx, root, res, n) < 0) {
		g_free(res);
		return FS_ENOMEM;
	}
	if (n > INT32_MAX) {
		g_free(res);
		return FS_ENOMEM;
	}
	*out = res;
	return (int)n;
oom:
	free(names.v);
	free(pos.v);
	g_hash_table_destroy(seen);
	g_free(res);
	return FS_ENOMEM;
}

/* ---- the Link table (format.h, walk.c) ------------------------------------ */

/* C's series ref, or NULL when its changelog names no numbered posting. */
static const struct fs_disk_ref *series_ref(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, &L);
	const struct fs_disk_ref *r;

	if (!dc->nrefs)
		return NULL;
	r = &L->refs[dc->ref_first + dc->nrefs - 1];
	return r->kind == FSI_REF_SERIES ? r : NULL;
}

static int series_part_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index_series_part *x = a, *y = b;

	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return memcmp(fsi_oid_of(data, x->commit), fsi_oid_of(data, y->commit), 20);
}

size_t fs_index_series_of(const struct fs_index *idx, fs_cid c, unsigned *part,
			  struct fs_index_series_part *out, size_t max)
{
	const struct fs_disk_ref *own = series_ref(idx, c);
	size_t n = 0, i;
	int l;

	*part = own ? own->pad : 0;
	if (!own || !fs_index_commit_is_mainline(idx, c))
		return 0;
	/* the commits of the series are the run of refs of its key */
	for (l = 0; l < idx->nlayers; l++) {
		const struct fsi_layer *L = &idx->layer[l];
		for (i = refkeys_lower_bound(L, own->key, own->keylen); i < L->nrefs; i++) {
			const struct fs_disk_ref *r = &L->refs[L->refkeys[i]];
			if (refkey_cmp(r, own->key, own->keylen))
				break;
			/* the same part again is none other, but part 0 is b4's
			 * cover: the commits that link it are each a patch of it
			 * (one of the same subject is this one applied again) */
			if (r->kind != FSI_REF_SERIES || r->source == c ||
			    (r->pad == own->pad && (own->pad ||
						    !strcmp(fs_index_commit_subject(idx, r->source),
							    fs_index_commit_subject(idx, c)))) ||
			    !fs_index_commit_is_mainline(idx, r->source))
				continue;
			if (n < max) {
				out[n].commit = r->source;
				out[n].part = r->pad;
			}
			n++;
		}
	}
	if (n > 1)
		qsort_r(out, n < max ? n : max, sizeof(*out), series_part_cmp, (void *)idx);
	return n;
}
