/* fixscan: one commit object read into a walk node's texts: its header,
 * subject and the references of its changelog (see walk-private.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "fixscan/index.h"
#include "fixscan/posting.h"
#include "fixscan/trailers.h"
#include "base/hash.h"
#include "format.h"
#include "walk-private.h"

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
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)fs_fnv1a_str(key));
	if (add_ref(wk, (enum fs_ref_kind)FSI_REF_SERIES, hex, NULL, slot) < 0)
		return -1;
	wk->refs.v[wk->refs.n - 1].pad = (uint16_t)part;
	return 0;
}

int fsi_walk_parse_commit(struct fsi_worker *wk, const char *data, const char *end, uint32_t slot,
			  struct fsi_parsed *p, struct fs_error *err)
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
