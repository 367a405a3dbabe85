/* fixscan: the lookups of the fixes index (fs_index_*), over the layers
 * load.c mapped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "fixscan/version.h"
#include "format.h"
#include "base/git-util.h"
#include "load.h"
#include "patchid.h"


const char *fs_ref_kind_name(enum fs_ref_kind kind)
{
	switch (kind) {
	case FS_REF_UPSTREAM: return "upstream";
	case FS_REF_FIXES: return "fixes";
	case FS_REF_REVERTS: return "reverts";
	case FS_REF_REVERTS_UPSTREAM: return "reverts-upstream";
	case FS_REF_STABLE_DEP_OF: return "stable-dep-of";
	case FS_REF_PREREQUISITE: return "prerequisite";
	}
	return "unknown";
}

const char *fs_evidence_name(enum fs_evidence ev)
{
	switch (ev) {
	case FS_EVIDENCE_EXACT: return "exact";
	case FS_EVIDENCE_PREFIX: return "prefix";
	case FS_EVIDENCE_SUBJECT: return "subject";
	case FS_EVIDENCE_STABLE: return "stable";
	}
	return "unknown";
}

/* ---- lookups ------------------------------------------------------------ */

static inline const struct fsi_layer *layer_of(const struct fs_index *idx, fs_cid c)
{
	return idx->nlayers > 1 && c >= idx->layer[1].cid_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_commit *commit_at(const struct fs_index *idx, fs_cid c,
						     const struct fsi_layer **lp)
{
	const struct fsi_layer *L = layer_of(idx, c);

	if (lp)
		*lp = L;
	return &L->commits[c - L->cid_base];
}

static inline const struct fsi_layer *ref_layer(const struct fs_index *idx, size_t pos)
{
	return idx->nlayers > 1 && pos >= idx->layer[1].ref_base ? &idx->layer[1] : &idx->layer[0];
}

static inline const struct fs_disk_ref *ref_at(const struct fs_index *idx, size_t pos)
{
	const struct fsi_layer *L = ref_layer(idx, pos);

	return &L->refs[pos - L->ref_base];
}

static const char *lstr(const struct fsi_layer *L, uint32_t off)
{
	return off < L->strings_len ? L->strings + off : "";
}

/* C's release, as a number in the newest layer's release table. */
static unsigned release_of(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L, *T = fsi_top(idx);
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	size_t lo = 0, hi;

	if (L == T)
		return dc->release;
	/* A cache commit under a delta: claimed by a newer tag, or its own
	 * release renumbered. */
	hi = T->nrelset;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (T->relset[mid].cid < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < T->nrelset && T->relset[lo].cid == c)
		return T->relset[lo].release;
	return T->relmap[dc->release];
}

static const uint8_t *oid_of(const struct fs_index *idx, fs_cid c)
{
	return commit_at(idx, c, NULL)->oid;
}

static int cid_oid_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;

	return memcmp(oid_of(idx, *(const fs_cid *)a), oid_of(idx, *(const fs_cid *)b), 20);
}

/* A growable array of ref positions or commits, for the lookups below. */
struct u32vec {
	uint32_t *v;
	size_t n, cap;
};

static int u32_push(struct u32vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		uint32_t *g = realloc(a->v, cap * sizeof(*g));
		if (!g)
			return -1;
		a->v = g;
		a->cap = cap;
	}
	a->v[a->n++] = x;
	return 0;
}

/* Compare the first LEN hex digits of KEY with OID. */
static int prefix_cmp(const uint8_t *key, size_t len, const uint8_t *oid)
{
	size_t full = len / 2;
	int c = memcmp(key, oid, full);

	if (c || len % 2 == 0)
		return c;
	return (int)(key[full] >> 4) - (int)(oid[full] >> 4);
}

struct prefix_key {
	const struct fsi_layer *L;
	const uint8_t *key;
	size_t len;
};

static uint64_t commit_at_bits(size_t i, const void *data)
{
	return fsi_be64(((const struct prefix_key *)data)->L->commits[i].oid);
}

static int commit_before(size_t i, const void *data)
{
	const struct prefix_key *q = data;

	return prefix_cmp(q->key, q->len, q->L->commits[i].oid) > 0;
}

/* First commit of L whose id is >= the prefix (KEY is zero padded, so
 * its leading bits place it). */
static size_t lower_bound_prefix(const struct fsi_layer *L, const uint8_t *key, size_t len)
{
	struct prefix_key q = { L, key, len };

	return fsi_interp_lower_bound(L->ncommits, fsi_be64(key), commit_at_bits, commit_before,
				      &q);
}

static int valid_hex(const char *hex, size_t *len)
{
	size_t n = 0;

	while (hex[n] && fsi_hexval(hex[n]) >= 0)
		n++;
	*len = n;
	return hex[n] == '\0' && n >= 4 && n <= 40;
}

size_t fs_index_resolve_all(const struct fs_index *idx, const char *hex,
			    fs_cid *out, size_t max)
{
	uint8_t key[20];
	size_t len, i, n = 0;
	struct u32vec all = { NULL, 0, 0 };
	int l;

	if (!valid_hex(hex, &len))
		return 0;
	fsi_pack_hex(key, hex, len);
	if (idx->nlayers == 1) {
		const struct fsi_layer *L = &idx->layer[0];
		for (i = lower_bound_prefix(L, key, len);
		     i < L->ncommits && prefix_cmp(key, len, L->commits[i].oid) == 0; i++) {
			if (n < max)
				out[n] = (fs_cid)i;
			n++;
		}
		return n;
	}
	/* Two layers: the first MAX in id order over both, as one file
	 * would give them.  Out of memory gives what was gathered. */
	for (l = 0; l < idx->nlayers; l++) {
		const struct fsi_layer *L = &idx->layer[l];
		for (i = lower_bound_prefix(L, key, len);
		     i < L->ncommits && prefix_cmp(key, len, L->commits[i].oid) == 0; i++)
			if (u32_push(&all, (uint32_t)(L->cid_base + i)) < 0)
				break;
	}
	if (all.n > 1)
		qsort_r(all.v, all.n, sizeof(*all.v), cid_oid_cmp, (void *)idx);
	for (i = 0; i < all.n && i < max; i++)
		out[i] = all.v[i];
	n = all.n;
	free(all.v);
	return n;
}

int fs_index_resolve(const struct fs_index *idx, const char *hex, fs_cid *out,
		     struct fs_error *err)
{
	fs_cid found[4];
	size_t len, n, i;
	char list[200] = "", one[41];

	if (!valid_hex(hex, &len))
		return fs_error_set(err, FS_EUSAGE, "'%s' is not a commit id (4 to 40 hex digits)",
				    hex);
	n = fs_index_resolve_all(idx, hex, found, 4);
	if (n == 0)
		return fs_error_set(err, FS_ENOTFOUND, "unknown commit '%s'", hex);
	if (n > 1) {
		for (i = 0; i < n && i < 4; i++) {
			fs_index_commit_hex(idx, found[i], one);
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%.12s",
				 i ? ", " : "", one);
		}
		return fs_error_set(err, FS_EAMBIGUOUS, "commit id '%s' is ambiguous: %s%s",
				    hex, list, n > 4 ? ", ..." : "");
	}
	*out = found[0];
	return 0;
}

void fs_index_commit_hex(const struct fs_index *idx, fs_cid c, char hex[41])
{
	fsi_unpack_hex(hex, oid_of(idx, c), 40);
}

const char *fs_index_commit_subject(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);

	return lstr(L, dc->subject);
}

const char *fs_index_commit_branch(const struct fs_index *idx, fs_cid c)
{
	const struct fs_disk_commit *dc = commit_at(idx, c, NULL);

	/* The newest layer's table keeps the numbers of the older one. */
	if (dc->branch == 0)
		return "mainline";
	return lstr(fsi_top(idx), fsi_top(idx)->branches[dc->branch].name);
}

bool fs_index_commit_is_mainline(const struct fs_index *idx, fs_cid c)
{
	return commit_at(idx, c, NULL)->branch == 0;
}

const char *fs_index_commit_release(const struct fs_index *idx, fs_cid c)
{
	unsigned r = release_of(idx, c);

	return r ? lstr(fsi_top(idx), fsi_top(idx)->releases[r]) : NULL;
}

static void fill_ref(const struct fs_index *idx, size_t pos, struct fs_index_ref *out)
{
	const struct fsi_layer *L = ref_layer(idx, pos);
	const struct fs_disk_ref *r = &L->refs[pos - L->ref_base];

	out->kind = r->kind;
	fsi_unpack_hex(out->hex, r->key, r->keylen);
	out->subject = r->subject ? lstr(L, r->subject) : NULL;
	out->source = r->source;
}

size_t fs_index_commit_refs(const struct fs_index *idx, fs_cid c,
			    struct fs_index_ref *out, size_t max)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	size_t i;

	size_t n = dc->nrefs;

	/* the Link table's ref, last, is no reference (format.h) */
	if (n && L->refs[dc->ref_first + n - 1].kind == FSI_REF_SERIES)
		n--;
	for (i = 0; i < n && i < max; i++)
		fill_ref(idx, L->ref_base + dc->ref_first + i, &out[i]);
	return n;
}

static int subjects_equal(const char *a, const char *b)
{
	char *na = fs_trailers_normalize_subject(a);
	char *nb = fs_trailers_normalize_subject(b);
	int eq = na && nb && !strcmp(na, nb);

	free(na);
	free(nb);
	return eq;
}

struct hash_key {
	const struct fs_disk_hash *a;
	uint64_t h;
};

static uint64_t hash_at(size_t i, const void *data)
{
	return ((const struct hash_key *)data)->a[i].hash;
}

static int hash_before(size_t i, const void *data)
{
	const struct hash_key *q = data;

	return q->a[i].hash < q->h;
}

static size_t hash_lower_bound(const struct fs_disk_hash *a, size_t n, uint64_t h)
{
	struct hash_key q = { a, h };

	return fsi_interp_lower_bound(n, h, hash_at, hash_before, &q);
}

size_t fs_index_find_subject(const struct fs_index *idx, const char *subject,
			     fs_cid *out, size_t max)
{
	uint64_t h = fsi_subject_hash(subject);
	struct u32vec found = { NULL, 0, 0 };
	size_t i, n = 0, pass, first;
	int l;

	if (!h)
		return 0;
	/* Two passes so that mainline commits come first; each pass in id
	 * order, whichever layer holds the commits. */
	for (pass = 0; pass < 2; pass++) {
		first = found.n;
		for (l = 0; l < idx->nlayers; l++) {
			const struct fsi_layer *L = &idx->layer[l];
			for (i = hash_lower_bound(L->subjects, L->nsubjects, h);
			     i < L->nsubjects && L->subjects[i].hash == h; i++) {
				fs_cid c = L->subjects[i].value;
				if (fs_index_commit_is_mainline(idx, c) != (pass == 0))
					continue;
				if (!subjects_equal(subject, fs_index_commit_subject(idx, c)))
					continue;
				if (u32_push(&found, c) < 0)
					goto done;
			}
		}
		if (found.n - first > 1)
			qsort_r(found.v + first, found.n - first, sizeof(*found.v), cid_oid_cmp,
				(void *)idx);
	}
done:
	for (i = 0; i < found.n; i++) {
		if (n < max)
			out[n] = found.v[i];
		n++;
	}
	free(found.v);
	return n;
}

/* How many of the LEN digits of HEX C's id has in the same places. */
static size_t same_digits(const struct fs_index *idx, fs_cid c, const char *hex, size_t len)
{
	char full[41];
	size_t i, n = 0;

	fs_index_commit_hex(idx, c, full);
	for (i = 0; i < len && i < 40; i++)
		n += g_ascii_tolower(hex[i]) == full[i];
	return n;
}

/* Pick the commit a subject names: the one among CANDIDATES (ids that
 * matched a prefix) if any, else the single mainline match; of several
 * mainline commits of that subject, the one whose id is HEX but for a
 * typo (at most two digits off), else none: a guess is no answer. */
static fs_cid subject_pick(const struct fs_index *idx, const char *subject, const char *hex,
			   const fs_cid *cand, size_t ncand)
{
	fs_cid found[16], best = FS_CID_NONE;
	size_t n = fs_index_find_subject(idx, subject, found, 16), i, j, nmain = 0;
	size_t len = hex ? strlen(hex) : 0, top = 0, ntop = 0;

	if (n == 0)
		return FS_CID_NONE;
	for (i = 0; i < n && i < 16; i++)
		for (j = 0; j < ncand; j++)
			if (found[i] == cand[j])
				return found[i];
	for (i = 0; i < n && i < 16 && fs_index_commit_is_mainline(idx, found[i]); i++)
		nmain++;
	if (nmain <= 1)
		return found[0];
	for (i = 0; i < nmain; i++) {
		size_t d = same_digits(idx, found[i], hex ? hex : "", len);
		if (d > top) {
			top = d;
			best = found[i];
			ntop = 1;
		} else if (d == top) {
			ntop++;
		}
	}
	return ntop == 1 && len >= 7 && top + 2 >= len ? best : FS_CID_NONE;
}

fs_cid fs_index_ref_target(const struct fs_index *idx,
			   const struct fs_index_ref *ref,
			   enum fs_evidence *ev, bool *mismatch)
{
	enum fs_evidence local_ev;
	bool local_mm;
	fs_cid cand[8], c;
	size_t n;

	if (!ev)
		ev = &local_ev;
	if (!mismatch)
		mismatch = &local_mm;
	*mismatch = false;
	n = fs_index_resolve_all(idx, ref->hex, cand, 8);
	if (n == 1) {
		c = cand[0];
		if (ref->subject && !subjects_equal(ref->subject, fs_index_commit_subject(idx, c))) {
			fs_cid s = subject_pick(idx, ref->subject, ref->hex, NULL, 0);
			if (s != FS_CID_NONE && s != c) {
				*mismatch = true;
				*ev = FS_EVIDENCE_SUBJECT;
				return s;
			}
		}
		*ev = strlen(ref->hex) == 40 ? FS_EVIDENCE_EXACT : FS_EVIDENCE_PREFIX;
		return c;
	}
	if (ref->subject) {
		c = subject_pick(idx, ref->subject, ref->hex, cand, n < 8 ? n : 8);
		if (c != FS_CID_NONE) {
			*ev = FS_EVIDENCE_SUBJECT;
			*mismatch = n == 0;
			return c;
		}
	}
	return FS_CID_NONE;
}

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
	const struct prefix_key *q = data;

	return fsi_be64(q->L->refs[q->L->refkeys[i]].key);
}

static int refkey_before(size_t i, const void *data)
{
	const struct prefix_key *q = data;

	return refkey_cmp(&q->L->refs[q->L->refkeys[i]], q->key, q->len) < 0;
}

static size_t refkeys_lower_bound(const struct fsi_layer *L, const uint8_t *key, size_t len)
{
	struct prefix_key q = { L, key, len };

	return fsi_interp_lower_bound(L->nrefs, fsi_be64(key), refkey_at, refkey_before, &q);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort A and drop repeats. */
static void u32_uniq(struct u32vec *a)
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
	fs_cid sa = ref_at(idx, pa)->source, sb = ref_at(idx, pb)->source;

	if (sa != sb) {
		int ma = fs_index_commit_is_mainline(idx, sa);
		int mb = fs_index_commit_is_mainline(idx, sb);
		if (ma != mb)
			return mb - ma;
		return memcmp(oid_of(idx, sa), oid_of(idx, sb), 20);
	}
	return pa < pb ? -1 : pa > pb;
}

/* The positions of every ref of a kind in KINDS that names commit C: by
 * its id or an abbreviation of it (4..40 digits), or by C's subject, and
 * that fs_index_ref_target() resolves to C.  Each once, in
 * refpos_source_cmp() order.  Returns 0 or -1 when out of memory. */
static int refs_naming(const struct fs_index *idx, fs_cid c, unsigned kinds,
		       struct u32vec *out)
{
	const uint8_t *oid = oid_of(idx, c);
	struct u32vec cand = { NULL, 0, 0 };
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
			if (r->keylen < 4 || prefix_cmp(r->key, r->keylen, oid) != 0 ||
			    !(kinds & FS_REF_BIT(r->kind)))
				continue;
			if (u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
		for (i = h ? hash_lower_bound(L->refsubj, L->nrefsubj, h) : L->nrefsubj;
		     i < L->nrefsubj && L->refsubj[i].hash == h; i++) {
			uint32_t pos = L->refsubj[i].value;
			if ((kinds & FS_REF_BIT(L->refs[pos].kind)) &&
			    u32_push(&cand, (uint32_t)(L->ref_base + pos)) < 0)
				goto oom;
		}
	}
	u32_uniq(&cand);
	for (i = 0; i < cand.n; i++) {
		fill_ref(idx, cand.v[i], &ref);
		if (fs_index_ref_target(idx, &ref, NULL, NULL) == c && u32_push(out, cand.v[i]) < 0)
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
	struct u32vec pos = { NULL, 0, 0 };
	size_t i, n;

	/* Out of memory reports what was found so far; there is no error
	 * return in this interface. */
	refs_naming(idx, c, kinds, &pos);
	for (i = 0; i < pos.n && i < max; i++)
		fill_ref(idx, pos.v[i], &out[i]);
	n = pos.n;
	free(pos.v);
	return n;
}

/* Every stable backport of C into OUT (by id, each once). */
static int backports_all(const struct fs_index *idx, fs_cid c, struct u32vec *out)
{
	struct u32vec pos = { NULL, 0, 0 };
	size_t i;
	int rc;

	out->n = 0;
	rc = refs_naming(idx, c, FS_REF_BIT(FS_REF_UPSTREAM), &pos);
	for (i = 0; rc == 0 && i < pos.n; i++) {
		fs_cid s = ref_at(idx, pos.v[i])->source;
		if (s != c && !fs_index_commit_is_mainline(idx, s) && u32_push(out, s) < 0)
			rc = -1;
	}
	free(pos.v);
	u32_uniq(out);
	if (out->n > 1)
		qsort_r(out->v, out->n, sizeof(*out->v), cid_oid_cmp, (void *)idx);
	return rc;
}

size_t fs_index_backports(const struct fs_index *idx, fs_cid c, fs_cid *out,
			  size_t max)
{
	struct u32vec bp = { NULL, 0, 0 };
	size_t i, n;

	backports_all(idx, c, &bp);
	for (i = 0; i < bp.n && i < max; i++)
		out[i] = bp.v[i];
	n = bp.n;
	free(bp.v);
	return n;
}

fs_cid fs_index_upstream_of(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
	struct fs_index_ref ref;
	size_t i;

	for (i = 0; i < dc->nrefs; i++) {
		if (L->refs[dc->ref_first + i].kind != FS_REF_UPSTREAM)
			continue;
		fill_ref(idx, L->ref_base + dc->ref_first + i, &ref);
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
	return memcmp(oid_of(idx, x->fixer), oid_of(idx, y->fixer), 20);
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

size_t fs_index_equivalents(const struct fs_index *idx, fs_cid c, fs_cid *out, size_t max);

/* The other commits that name the change C is, into OUT: C's backports,
 * then each equivalent commit and its backports.  *NSTABLE gets the
 * number of C's own backports (at the front).  0, or -1 out of memory. */
static int names_of(const struct fs_index *idx, fs_cid c, struct u32vec *out, size_t *nstable)
{
	struct u32vec bp = { NULL, 0, 0 };
	fs_cid eq[8];
	size_t neq, i, k;
	int rc;

	rc = backports_all(idx, c, out);
	*nstable = out->n;
	neq = rc == 0 && fs_index_commit_is_mainline(idx, c) ? fs_index_equivalents(idx, c, eq, 8) : 0;
	for (i = 0; rc == 0 && i < neq && i < 8; i++) {
		rc = u32_push(out, eq[i]);
		if (rc == 0)
			rc = backports_all(idx, eq[i], &bp);
		for (k = 0; rc == 0 && k < bp.n; k++)
			rc = u32_push(out, bp.v[k]);
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
	struct u32vec names = { NULL, 0, 0 }, pos = { NULL, 0, 0 };
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
			if (refs_naming(idx, name, kinds, &pos) < 0)
				goto oom;
			for (j = 0; j < pos.n; j++) {
				struct fs_index_ref ref;
				enum fs_evidence ev;
				bool mm;
				fs_cid f, up;

				fill_ref(idx, pos.v[j], &ref);
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
					struct fs_index_fix *g = realloc(res, nc * sizeof(*g));
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
		free(res);
		return FS_ENOMEM;
	}
	if (n > INT32_MAX) {
		free(res);
		return FS_ENOMEM;
	}
	*out = res;
	return (int)n;
oom:
	free(names.v);
	free(pos.v);
	g_hash_table_destroy(seen);
	free(res);
	return FS_ENOMEM;
}

static int release_index(const struct fs_index *idx, const char *name)
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 1; i < T->nreleases; i++)
		if (!strcmp(lstr(T, T->releases[i]), name))
			return (int)i;
	return -1;
}

static int branch_index(const struct fs_index *idx, const char *name)
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 1; i < T->nbranches; i++)
		if (!strcmp(lstr(T, T->branches[i].name), name))
			return (int)i;
	return -1;
}

bool fs_index_has_branch(const struct fs_index *idx, const char *branch)
{
	return branch_index(idx, branch) > 0;
}

const char *fs_index_branch_fork(const struct fs_index *idx, const char *branch)
{
	const struct fsi_layer *T = fsi_top(idx);
	int b = branch_index(idx, branch);

	if (b <= 0 || !T->branches[b].fork)
		return NULL;
	return lstr(T, T->releases[T->branches[b].fork]);
}

bool fs_index_in_branch(const struct fs_index *idx, fs_cid c, const char *branch,
			const char *base)
{
	const struct fsi_layer *T = fsi_top(idx);
	const struct fs_disk_commit *dc = commit_at(idx, c, NULL);
	unsigned rel = release_of(idx, c);
	int b = branch_index(idx, branch), r;

	if (b <= 0)
		return false;
	if (dc->branch == 0) {
		uint16_t fork = T->branches[b].fork;
		return fork && rel && rel <= fork;
	}
	if (dc->branch != b)
		return false;
	if (!base)
		return true;
	if (!rel)
		return false;
	r = release_index(idx, base);
	if (r > 0)
		return rel <= (unsigned)r;
	return fs_version_name_cmp(lstr(T, T->releases[rel]), base) <= 0;
}

bool fs_index_has_release(const struct fs_index *idx, const char *name)
{
	return name && release_index(idx, name) > 0;
}

int fs_index_mainline_tip(const struct fs_index *idx, char hex[41])
{
	const struct fsi_layer *T = fsi_top(idx);
	size_t i;

	for (i = 0; i < T->ntips; i++) {
		if (T->tips[i].kind != FS_TIP_MAINLINE)
			continue;
		git_oid_tostr(hex, 41, (const git_oid *)T->tips[i].oid);
		return 0;
	}
	hex[0] = '\0';
	return FS_ENOTFOUND;
}

/* The commit HEX of REPO_PATH, for the two readers below.  Free both
 * with git_commit_free() and git_repository_free(). */
static int open_commit(const char *repo_path, const char *hex, git_repository **repo,
		       git_commit **commit, struct fs_error *err)
{
	git_oid oid;

	fs_git_init();
	*repo = NULL;
	*commit = NULL;
	if (git_oid_fromstr(&oid, hex) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "'%s' is not a commit id", hex);
	if (git_repository_open(repo, repo_path) < 0)
		return fs_error_set_git(err, FS_EGIT, "cannot open '%s'", repo_path);
	if (git_commit_lookup(commit, *repo, &oid) < 0) {
		git_repository_free(*repo);
		*repo = NULL;
		return fs_error_set_git(err, FS_ENOTFOUND, "no commit %s in '%s'", hex, repo_path);
	}
	return 0;
}

int fs_index_mainline_time(const struct fs_index *idx, const char *repo_path,
			   int64_t *when, struct fs_error *err)
{
	git_repository *repo;
	git_commit *commit;
	char hex[41];
	int rc;

	*when = 0;
	if (fs_index_mainline_tip(idx, hex) < 0)
		return fs_error_set(err, FS_ENOTFOUND, "the index has no mainline tip");
	rc = open_commit(repo_path, hex, &repo, &commit, err);
	if (rc < 0)
		return rc;
	*when = (int64_t)git_commit_time(commit);
	git_commit_free(commit);
	git_repository_free(repo);
	return 0;
}

int fs_index_read_message(void *repo_path, const char *hex, char **out)
{
	struct fs_error err = FS_ERROR_INIT;
	git_repository *repo;
	git_commit *commit;
	const char *msg;
	int rc;

	*out = NULL;
	rc = open_commit(repo_path, hex, &repo, &commit, &err);
	if (rc < 0)
		return rc;
	msg = git_commit_message(commit);
	*out = strdup(msg ? msg : "");
	git_commit_free(commit);
	git_repository_free(repo);
	return *out ? 0 : FS_ENOMEM;
}

/* ---- merges, authors, equivalent commits, presence net of reverts ------- */

bool fs_index_commit_is_merge(const struct fs_index *idx, fs_cid c)
{
	return commit_at(idx, c, NULL)->nparents > 1;
}

bool fs_index_commit_author_is(const struct fs_index *idx, fs_cid c, const char *author)
{
	uint16_t h = author ? fsi_author_hash(author, strlen(author)) : 0;

	return h && commit_at(idx, c, NULL)->author == h;
}

size_t fs_index_find_subject_author(const struct fs_index *idx, const char *subject,
				    const char *author, fs_cid *out, size_t max)
{
	fs_cid found[64], keep[64];
	size_t n, i, nexact = 0, nnorm = 0, k;

	if (!subject || !author)
		return 0;
	n = fs_index_find_subject(idx, subject, found, 64);
	for (i = 0; i < n && i < 64; i++) {
		if (!fs_index_commit_is_mainline(idx, found[i]) ||
		    fs_index_commit_is_merge(idx, found[i]) ||
		    !fs_index_commit_author_is(idx, found[i], author))
			continue;
		/* exact subjects first, at the front of KEEP */
		if (!strcmp(fs_index_commit_subject(idx, found[i]), subject)) {
			memmove(keep + nexact + 1, keep + nexact, nnorm * sizeof(*keep));
			keep[nexact++] = found[i];
		} else {
			keep[nexact + nnorm++] = found[i];
		}
	}
	k = nexact ? nexact : nnorm;
	for (i = 0; i < k && i < max; i++)
		out[i] = keep[i];
	return k;
}

/* Whether A and B came in one release cycle: their releases are one, or
 * rounds of one ("v4.7-rc3" and "v4.7"), or neither has any. */
static bool same_window(const struct fs_index *idx, fs_cid a, fs_cid b)
{
	const char *ra = fs_index_commit_release(idx, a), *rb = fs_index_commit_release(idx, b);
	struct fs_version va, vb;

	if (!ra || !rb)
		return !ra && !rb;
	/* the index's releases are tags fsi_classify_tag() read */
	if (!fs_version_parse(ra, &va) || !fs_version_parse(rb, &vb))
		return !strcmp(ra, rb);
	return fs_version_same_cycle(&va, &vb);
}

/* Whether A and B change the same, where the clone has their trees (the
 * same patch-id); without them the subject, author and window decide. */
static bool same_diff(const struct fs_index *idx, fs_cid a, fs_cid b)
{
	git_oid pa, pb;

	if (!fsi_patchid(idx, a, &pa) || !fsi_patchid(idx, b, &pb))
		return true;
	return git_oid_equal(&pa, &pb);
}

size_t fs_index_equivalents(const struct fs_index *idx, fs_cid c, fs_cid *out, size_t max)
{
	const struct fs_disk_commit *dc = commit_at(idx, c, NULL);
	const char *subject = fs_index_commit_subject(idx, c);
	fs_cid found[16];
	size_t n, i, k = 0;

	if (dc->branch != 0 || dc->nparents > 1 || !dc->author || !*subject)
		return 0;
	n = fs_index_find_subject(idx, subject, found, 16);
	for (i = 0; i < n && i < 16; i++) {
		const struct fs_disk_commit *o = commit_at(idx, found[i], NULL);
		if (found[i] == c || o->branch != 0 || o->nparents > 1 || o->author != dc->author ||
		    strcmp(fs_index_commit_subject(idx, found[i]), subject) ||
		    !same_window(idx, c, found[i]) || !same_diff(idx, c, found[i]))
			continue;
		if (k < max)
			out[k] = found[i];
		k++;
	}
	return k;
}

/* The commit of BRANCH (NULL: mainline) as of BASE that brings X as it
 * is, reverts aside: X itself, or a backport of X; FS_CID_NONE. */
static fs_cid bringer(const struct fs_index *idx, fs_cid x, const char *branch, const char *base)
{
	struct u32vec bp = { NULL, 0, 0 };
	fs_cid found = FS_CID_NONE;
	size_t i;

	if (!branch)
		return fs_index_commit_is_mainline(idx, x) ? x : FS_CID_NONE;
	if (fs_index_in_branch(idx, x, branch, base))
		return x;
	if (!fs_index_commit_is_mainline(idx, x))
		return FS_CID_NONE;
	backports_all(idx, x, &bp);
	for (i = 0; i < bp.n && found == FS_CID_NONE; i++)
		if (fs_index_in_branch(idx, bp.v[i], branch, base))
			found = bp.v[i];
	free(bp.v);
	return found;
}

/* The revert in BRANCH that undoes BROUGHT (which brings mainline M
 * there, or is M), not itself undone; FS_CID_NONE when none does.  An
 * even chain of reverts restores, an odd one undoes. */
static fs_cid undone_by(const struct fs_index *idx, fs_cid brought, fs_cid m,
			const char *branch, const char *base, unsigned depth)
{
	const unsigned kinds = FS_REF_BIT(FS_REF_REVERTS) | FS_REF_BIT(FS_REF_REVERTS_UPSTREAM);
	struct u32vec pos = { NULL, 0, 0 };
	fs_cid targets[2] = { brought, m }, res = FS_CID_NONE;
	size_t t, i;

	if (depth > 16)
		return FS_CID_NONE;
	for (t = 0; t < 2 && res == FS_CID_NONE; t++) {
		if (targets[t] == FS_CID_NONE || (t == 1 && m == brought))
			continue;
		if (refs_naming(idx, targets[t], kinds, &pos) < 0)
			break;
		for (i = 0; i < pos.n && res == FS_CID_NONE; i++) {
			fs_cid s = ref_at(idx, pos.v[i])->source, sb, sm;
			if (s == brought || s == m)
				continue;
			sb = bringer(idx, s, branch, base);
			if (sb == FS_CID_NONE)
				continue;
			sm = fs_index_commit_is_mainline(idx, s) ? s : fs_index_upstream_of(idx, s);
			if (undone_by(idx, sb, sm == FS_CID_NONE ? sb : sm, branch, base,
				      depth + 1) == FS_CID_NONE)
				res = sb;
		}
	}
	free(pos.v);
	return res;
}

bool fs_index_present(const struct fs_index *idx, fs_cid c, const char *branch,
		      const char *base, struct fs_index_presence *p)
{
	struct fs_index_presence local;
	fs_cid names[9], m = c;
	size_t n = 1, i;

	if (!p)
		p = &local;
	p->present = false;
	p->brought = p->reverted_by = FS_CID_NONE;
	if (!fs_index_commit_is_mainline(idx, c)) {
		fs_cid u = fs_index_upstream_of(idx, c);
		if (u != FS_CID_NONE)
			m = u;
	}
	names[0] = m;
	if (fs_index_commit_is_mainline(idx, m)) {
		size_t ne = fs_index_equivalents(idx, m, names + 1, 8);
		n += ne < 8 ? ne : 8;
	}
	if (m != c && fs_index_in_branch(idx, c, branch ? branch : "", base))
		names[0] = c; /* the stable commit itself brings it */
	for (i = 0; i < n; i++) {
		fs_cid b = bringer(idx, names[i], branch, base), r;
		if (b == FS_CID_NONE)
			continue;
		r = undone_by(idx, b, names[i] == c ? m : names[i], branch, base, 0);
		if (r == FS_CID_NONE) {
			p->present = true;
			p->brought = b;
			p->reverted_by = FS_CID_NONE;
			return true;
		}
		if (p->brought == FS_CID_NONE) {
			p->brought = b;
			p->reverted_by = r;
		}
	}
	return false;
}

/* ---- the Link table (format.h, walk.c) ------------------------------------ */

/* C's series ref, or NULL when its changelog names no numbered posting. */
static const struct fs_disk_ref *series_ref(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = commit_at(idx, c, &L);
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
	return memcmp(oid_of(data, x->commit), oid_of(data, y->commit), 20);
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
