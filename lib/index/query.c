/* fixscan: the lookups of the fixes index (fs_index_*), over the layers
 * load.c mapped: commits by id, a commit's attributes, subjects, the
 * target of a reference, equivalent commits.  The references between
 * commits are query-refs.c's, releases and branches query-branch.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/trailers.h"
#include "fixscan/version.h"
#include "format.h"
#include "load.h"
#include "patchid.h"
#include "query-private.h"

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

/* C's release, as a number in the newest layer's release table. */
unsigned fsi_release_of(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L, *T = fsi_top(idx);
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, &L);
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

int fsi_cid_oid_cmp(const void *a, const void *b, void *data)
{
	const struct fs_index *idx = data;

	return memcmp(fsi_oid_of(idx, *(const fs_cid *)a), fsi_oid_of(idx, *(const fs_cid *)b), 20);
}

static uint64_t commit_at_bits(size_t i, const void *data)
{
	return fsi_be64(((const struct fsi_prefix_key *)data)->L->commits[i].oid);
}

static int commit_before(size_t i, const void *data)
{
	const struct fsi_prefix_key *q = data;

	return fsi_prefix_cmp(q->key, q->len, q->L->commits[i].oid) > 0;
}

/* First commit of L whose id is >= the prefix (KEY is zero padded, so
 * its leading bits place it). */
static size_t lower_bound_prefix(const struct fsi_layer *L, const uint8_t *key, size_t len)
{
	struct fsi_prefix_key q = { L, key, len };

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
	struct fsi_u32vec all = { NULL, 0, 0 };
	int l;

	if (!valid_hex(hex, &len))
		return 0;
	fsi_pack_hex(key, hex, len);
	if (idx->nlayers == 1) {
		const struct fsi_layer *L = &idx->layer[0];
		for (i = lower_bound_prefix(L, key, len);
		     i < L->ncommits && fsi_prefix_cmp(key, len, L->commits[i].oid) == 0; i++) {
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
		     i < L->ncommits && fsi_prefix_cmp(key, len, L->commits[i].oid) == 0; i++)
			if (fsi_u32_push(&all, (uint32_t)(L->cid_base + i)) < 0)
				break;
	}
	if (all.n > 1)
		qsort_r(all.v, all.n, sizeof(*all.v), fsi_cid_oid_cmp, (void *)idx);
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
	fsi_unpack_hex(hex, fsi_oid_of(idx, c), 40);
}

const char *fs_index_commit_subject(const struct fs_index *idx, fs_cid c)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, &L);

	return fsi_lstr(L, dc->subject);
}

const char *fs_index_commit_branch(const struct fs_index *idx, fs_cid c)
{
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, NULL);

	/* The newest layer's table keeps the numbers of the older one. */
	if (dc->branch == 0)
		return "mainline";
	return fsi_lstr(fsi_top(idx), fsi_top(idx)->branches[dc->branch].name);
}

bool fs_index_commit_is_mainline(const struct fs_index *idx, fs_cid c)
{
	return fsi_commit_at(idx, c, NULL)->branch == 0;
}

const char *fs_index_commit_release(const struct fs_index *idx, fs_cid c)
{
	unsigned r = fsi_release_of(idx, c);

	return r ? fsi_lstr(fsi_top(idx), fsi_top(idx)->releases[r]) : NULL;
}

void fsi_fill_ref(const struct fs_index *idx, size_t pos, struct fs_index_ref *out)
{
	const struct fsi_layer *L = fsi_ref_layer(idx, pos);
	const struct fs_disk_ref *r = &L->refs[pos - L->ref_base];

	out->kind = r->kind;
	fsi_unpack_hex(out->hex, r->key, r->keylen);
	out->subject = r->subject ? fsi_lstr(L, r->subject) : NULL;
	out->source = r->source;
}

size_t fs_index_commit_refs(const struct fs_index *idx, fs_cid c,
			    struct fs_index_ref *out, size_t max)
{
	const struct fsi_layer *L;
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, &L);
	size_t i;

	size_t n = dc->nrefs;

	/* the Link table's ref, last, is no reference (format.h) */
	if (n && L->refs[dc->ref_first + n - 1].kind == FSI_REF_SERIES)
		n--;
	for (i = 0; i < n && i < max; i++)
		fsi_fill_ref(idx, L->ref_base + dc->ref_first + i, &out[i]);
	return n;
}

static int subjects_equal(const char *a, const char *b)
{
	char *na = fs_trailers_normalize_subject(a);
	char *nb = fs_trailers_normalize_subject(b);
	int eq = na && nb && !strcmp(na, nb);

	g_free(na);
	g_free(nb);
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

size_t fsi_hash_lower_bound(const struct fs_disk_hash *a, size_t n, uint64_t h)
{
	struct hash_key q = { a, h };

	return fsi_interp_lower_bound(n, h, hash_at, hash_before, &q);
}

size_t fs_index_find_subject(const struct fs_index *idx, const char *subject,
			     fs_cid *out, size_t max)
{
	uint64_t h = fsi_subject_hash(subject);
	struct fsi_u32vec found = { NULL, 0, 0 };
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
			for (i = fsi_hash_lower_bound(L->subjects, L->nsubjects, h);
			     i < L->nsubjects && L->subjects[i].hash == h; i++) {
				fs_cid c = L->subjects[i].value;
				if (fs_index_commit_is_mainline(idx, c) != (pass == 0))
					continue;
				if (!subjects_equal(subject, fs_index_commit_subject(idx, c)))
					continue;
				if (fsi_u32_push(&found, c) < 0)
					goto done;
			}
		}
		if (found.n - first > 1)
			qsort_r(found.v + first, found.n - first, sizeof(*found.v), fsi_cid_oid_cmp,
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

/* ---- merges, authors, equivalent commits ------------------------------- */

bool fs_index_commit_is_merge(const struct fs_index *idx, fs_cid c)
{
	return fsi_commit_at(idx, c, NULL)->nparents > 1;
}

bool fs_index_commit_author_is(const struct fs_index *idx, fs_cid c, const char *author)
{
	uint16_t h = author ? fsi_author_hash(author, strlen(author)) : 0;

	return h && fsi_commit_at(idx, c, NULL)->author == h;
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
	const struct fs_disk_commit *dc = fsi_commit_at(idx, c, NULL);
	const char *subject = fs_index_commit_subject(idx, c);
	fs_cid found[16];
	size_t n, i, k = 0;

	if (dc->branch != 0 || dc->nparents > 1 || !dc->author || !*subject)
		return 0;
	n = fs_index_find_subject(idx, subject, found, 16);
	for (i = 0; i < n && i < 16; i++) {
		const struct fs_disk_commit *o = fsi_commit_at(idx, found[i], NULL);
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
