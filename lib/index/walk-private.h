/* fixscan: what the files of the commit walk share.  Private to
 * lib/index/walk*.c; the rest of the index uses walk.h.
 *
 *   walk.c         the nodes, their oid table and queue, what a read records
 *   walk-commit.c  one commit object parsed into a node's texts
 *   walk-git.c     the walk through libgit2 (fsi_walk_run())
 *   walk-pack.c    the full build's read of the packs (fsi_walk_run_packed())
 */
#ifndef FIXSCAN_INDEX_WALK_PRIVATE_H
#define FIXSCAN_INDEX_WALK_PRIVATE_H

#include <stdint.h>
#include <string.h>

#include <git2.h>

#include "fixscan/error.h"
#include "walk.h"

/* ---- walk.c ---- */

/* The oid table's hash of OID: its first bytes, already uniform. */
static inline size_t fsi_walk_oid_hash(const git_oid *oid)
{
	uint64_t h;

	memcpy(&h, oid->id, 8);
	return (size_t)h;
}

/* The node of OID, or -1.  Only looks: the reading threads share it. */
static inline long fsi_walk_table_find(const struct fsi_walk *w, const git_oid *oid)
{
	size_t j;

	if (!w->table_size)
		return -1;
	j = fsi_walk_oid_hash(oid) & (w->table_size - 1);
	while (w->table[j]) {
		if (git_oid_equal(&fsi_node_at(w, w->table[j] - 1)->oid, oid))
			return (long)w->table[j] - 1;
		j = (j + 1) & (w->table_size - 1);
	}
	return -1;
}

/* Double the oid table (or make it); -1 out of memory. */
int fsi_walk_table_grow(struct fsi_walk *w);

/* The newest queued node's slot, taken off the queue (not empty). */
uint32_t fsi_walk_queue_pop(struct fsi_walk *w);

/* Node SLOT, named as a parent (or a tip): one read ahead (see walk.h)
 * is queued the first time, as is one the packs could not give, to be
 * read through libgit2.  -1 out of memory. */
int fsi_walk_reach(struct fsi_walk *w, uint32_t slot, int64_t when);

/* The global id of OID, adding it as a new pending node, to be read in
 * WHEN order, when it is neither in the old index nor seen before.  Called
 * with the lock held; -1 out of memory. */
long fsi_walk_intern(struct fsi_walk *w, const git_oid *oid, int64_t when);

/* Record what reading node SLOT found: missing, or NPARENTS parents at
 * PARENTS, named and queued at WHEN.  Called with the lock held (or by
 * the only thread). */
void fsi_walk_record_node(struct fsi_walk *w, uint32_t slot, const git_oid *parents,
			  int nparents, int missing, int64_t when);

/* Give the free memory of every malloc arena back to the system: the
 * reading threads' arenas, and what the read-ahead's big temporaries
 * leave below the top of the heap, would otherwise stay resident. */
void fsi_walk_trim(void);

/* ---- walk-commit.c ---- */

/* What parsing one commit gives, besides its parents (appended to the
 * worker's) and its texts (in the worker's pools). */
struct fsi_parsed {
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
int fsi_walk_parse_commit(struct fsi_worker *wk, const char *data, const char *end, uint32_t slot,
			  struct fsi_parsed *p, struct fs_error *err);

/* ---- walk-git.c ---- */

/* Read one commit: its parents are appended to wk->parents (*NPARENTS of
 * them, at most 255), its subject and refs go to the worker's pools.
 * Returns 0, 1 when the object is missing, <0 on error. */
int fsi_walk_read_commit(struct fsi_worker *wk, struct fsi_node *n, uint32_t slot,
			 int *nparents, int64_t *when, struct fs_error *err);

#endif
