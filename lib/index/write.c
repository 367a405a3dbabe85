/* fixscan: writing a cache file or a delta from a finished build (see
 * format.h for the layout). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "fixscan/atomic.h"
#include "fixscan/index.h"
#include "build.h"
#include "format.h"
#include "walk.h"

/* A buffered writer that sums the body as it goes.  The first failure
 * is kept in ERR; what follows it is not written. */
struct writer {
	struct fs_atomic *f;
	unsigned char buf[1 << 16];
	size_t len;
	struct fsi_body_ck ck;
	uint64_t written; /* bytes after the header */
	int failed;
	struct fs_error *err;
};

static void wr_flush(struct writer *wr)
{
	if (!wr->len)
		return;
	fsi_body_ck_update(&wr->ck, wr->buf, wr->len);
	if (!wr->failed && fs_atomic_write(wr->f, wr->buf, wr->len, wr->err) < 0)
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

/* The header of B's file, with the section table laid out. */
static void make_header(const struct fsi_build *b, struct fs_disk_header *hdr)
{
	const struct fsi_walk *w = b->w;
	size_t nparents_total = 0, i;
	uint64_t off = sizeof(*hdr);
	size_t strings_len = b->names_base + b->names.n;

	memset(hdr, 0, sizeof(*hdr));
	memcpy(hdr->magic, FS_IDX_MAGIC, 8);
	hdr->version = FS_IDX_VERSION;
	hdr->bom = FS_IDX_BOM;
	hdr->repo_path = b->repo_off;
	hdr->flags = b->ts.shallow ? FS_IDX_SHALLOW : 0;
	if (b->delta) {
		hdr->flags |= FS_IDX_DELTA;
		hdr->base_checksum = b->old->layer[0].hdr->checksum;
		hdr->base_commits = (uint32_t)b->nold;
		hdr->base_refs = (uint32_t)b->base->nrefs;
	} else {
		/* No two caches have the same checksum, even of the same
		 * history, so a delta left over from an earlier one never
		 * fits a new one. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		hdr->base_checksum = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
				     ((uint64_t)getpid() << 40);
	}
	for (i = 0; i < b->nfinal; i++) {
		int32_t s = b->final_src[i];
		nparents_total += s >= 0 ? b->base->commits[s].nparents
					 : fsi_node_at(w, -s - 1)->nparents;
	}
#define LAY(s_, cnt, elem) do { hdr->sec[s_].offset = off; hdr->sec[s_].count = (cnt); \
		off += ((uint64_t)(cnt) * (elem) + 7) / 8 * 8; } while (0)
	LAY(SEC_COMMITS, b->nfinal, sizeof(struct fs_disk_commit));
	LAY(SEC_PARENTS, nparents_total, sizeof(uint32_t));
	LAY(SEC_REFS, b->nrefs, sizeof(struct fs_disk_ref));
	LAY(SEC_REFKEYS, b->nrefs, sizeof(uint32_t));
	LAY(SEC_REFSUBJ, b->refsubj.n, sizeof(struct fs_disk_hash));
	LAY(SEC_SUBJECTS, b->subjects.n, sizeof(struct fs_disk_hash));
	LAY(SEC_RELEASES, b->rel_names.n, sizeof(uint32_t));
	LAY(SEC_BRANCHES, b->br_names.n, sizeof(struct fs_disk_branch));
	LAY(SEC_TIPS, b->ts.t.n, sizeof(struct fs_disk_tip));
	LAY(SEC_STRINGS, strings_len, 1);
	LAY(SEC_RELSET, b->relset.n, sizeof(struct fs_disk_relset));
	LAY(SEC_RELMAP, b->delta ? b->base->nreleases : 0, sizeof(uint16_t));
	LAY(SEC_PENDING, b->pending_len, 1);
#undef LAY
	hdr->file_size = off;
}

/* The commits, in final order. */
static void write_commits(struct writer *wr, const struct fsi_build *b)
{
	uint32_t pfirst = 0;
	size_t i;

	for (i = 0; i < b->nfinal; i++) {
		struct fs_disk_commit c;
		int32_t s = b->final_src[i];
		memset(&c, 0, sizeof(c));
		if (s >= 0) {
			c = b->base->commits[s];
			c.release = (uint16_t)fsi_old_release(b, (size_t)s);
		} else {
			const struct fsi_node *n = fsi_node_at(b->w, -s - 1);
			memcpy(c.oid, n->oid.id, 20);
			c.subject = (uint32_t)(n->subject + b->str_base[n->thread]);
			c.ref_first = (uint32_t)(b->ref_base[n->thread] + n->ref_first);
			c.nrefs = n->nrefs;
			c.nparents = n->nparents;
			c.author = n->author;
			c.release = b->release[b->nold + (-s - 1)];
			c.branch = b->branch[b->nold + (-s - 1)];
		}
		c.parent_first = pfirst;
		pfirst += c.nparents;
		wr_put(wr, &c, sizeof(c));
	}
	wr_align(wr);
}

/* The parents of each commit, in final order, as final numbers. */
static void write_parents(struct writer *wr, const struct fsi_build *b)
{
	const struct fsi_walk *w = b->w;
	size_t i, j;

	for (i = 0; i < b->nfinal; i++) {
		int32_t s = b->final_src[i];
		if (s >= 0) {
			const struct fs_disk_commit *oc = &b->base->commits[s];
			for (j = 0; j < oc->nparents; j++) {
				uint32_t p = b->final_of_old[b->base->parents[oc->parent_first + j]];
				wr_put(wr, &p, sizeof(p));
			}
			continue;
		}
		{
			const struct fsi_node *n = fsi_node_at(w, -s - 1);
			for (j = 0; j < n->nparents; j++) {
				uint32_t gp = w->parents.v[n->parent_first + j], p;
				if (gp < b->nold) /* a delta keeps the cache's numbers */
					p = b->delta ? gp : b->final_of_old[gp];
				else
					p = b->final_of_new[gp - b->nold];
				/* A missing parent (shallow clone) points at the
				 * commit itself, which walks ignore. */
				if (p == UINT32_MAX)
					p = (uint32_t)(b->cid_off + i);
				wr_put(wr, &p, sizeof(p));
			}
		}
	}
	wr_align(wr);
}

/* Every section after the parents. */
static void write_tables(struct writer *wr, const struct fsi_build *b)
{
	size_t i, k;

	wr_put(wr, b->refs, b->nrefs * sizeof(*b->refs));
	wr_align(wr);
	wr_put(wr, b->refkeys, b->nrefs * sizeof(*b->refkeys));
	wr_align(wr);
	wr_put(wr, b->refsubj.v, b->refsubj.n * sizeof(*b->refsubj.v));
	wr_align(wr);
	wr_put(wr, b->subjects.v, b->subjects.n * sizeof(*b->subjects.v));
	wr_align(wr);
	wr_put(wr, b->rel_off, b->rel_names.n * sizeof(*b->rel_off));
	wr_align(wr);
	for (i = 0; i < b->br_names.n; i++) {
		struct fs_disk_branch br = { b->br_off[i], b->br_fork.v[i], 0 };
		wr_put(wr, &br, sizeof(br));
	}
	wr_align(wr);
	for (i = 0; i < b->ts.t.n; i++) {
		struct fs_disk_tip t;
		memset(&t, 0, sizeof(t));
		t.name = b->tip_off[i];
		t.kind = (uint32_t)b->ts.t.v[i].kind;
		memcpy(t.oid, b->ts.t.v[i].oid.id, 20);
		memcpy(t.target, b->ts.t.v[i].target.id, 20);
		wr_put(wr, &t, sizeof(t));
	}
	wr_align(wr);
	if (b->keep_old)
		wr_put(wr, b->base->strings, b->base->strings_len);
	else
		wr_put(wr, "", 1);
	for (k = 0; k < b->w->npools; k++)
		wr_put(wr, b->w->workers[k].pool.p, b->w->workers[k].pool.n);
	wr_put(wr, b->names.p, b->names.n);
	wr_align(wr);
	wr_put(wr, b->relset.v, b->relset.n * sizeof(*b->relset.v));
	wr_align(wr);
	if (b->delta)
		wr_put(wr, b->release_map, b->base->nreleases * sizeof(*b->release_map));
	wr_align(wr);
	wr_put(wr, b->pending, b->pending_len);
	wr_align(wr);
	wr_flush(wr);
}

/* Write the whole file to F. */
static int write_file(const struct fsi_build *b, struct fs_atomic *f, struct fs_error *err)
{
	struct writer *wr = calloc(1, sizeof(*wr));
	struct fs_disk_header hdr;
	int rc;

	if (!wr)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	make_header(b, &hdr);
	wr->f = f;
	wr->err = err;
	fsi_body_ck_init(&wr->ck, hdr.file_size - sizeof(hdr));
	/* the header is written last, when the checksum is known */
	wr->failed = fs_atomic_write(f, &hdr, sizeof(hdr), err) < 0;
	write_commits(wr, b);
	write_parents(wr, b);
	write_tables(wr, b);
	hdr.checksum = fsi_file_checksum(&hdr, fsi_body_ck_final(&wr->ck));
	if (!wr->failed && fs_atomic_pwrite(f, &hdr, sizeof(hdr), 0, err) < 0)
		wr->failed = 1;
	rc = wr->failed ? FS_EIO : 0;
	free(wr);
	return rc;
}

int fsi_write(const struct fsi_build *b, struct fs_error *err)
{
	char *delta_path = fsi_delta_path(b->cache_path);
	struct fs_atomic *f = NULL;
	int rc;

	if (!delta_path)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	/* The cache is synced before it is renamed into place.  A delta is
	 * not: it is written on nearly every update, the sync was a third of
	 * a small update's time, and a delta a crash leaves damaged fails its
	 * checksum and costs a rebuild, never a wrong answer. */
	rc = fs_atomic_begin(&f, b->delta ? delta_path : b->cache_path,
			     b->delta ? "the index delta" : "the index cache",
			     b->delta ? FS_ATOMIC_NO_FSYNC : 0, err);
	if (rc == 0 && (rc = write_file(b, f, err)) < 0)
		fs_atomic_abort(f);
	else if (rc == 0)
		rc = fs_atomic_commit(f, err);
	/* The new cache has the delta's commits; the delta no longer fits
	 * it (see load.c), and goes. */
	if (rc == 0 && !b->delta) {
		char *stamp = NULL;
		unlink(delta_path);
		if (asprintf(&stamp, "%s%s", delta_path, FSI_VERIFIED_SUFFIX) > 0) {
			unlink(stamp);
			free(stamp);
		}
	}
	g_free(delta_path);
	return rc;
}
