/* fixscan: the parallel read of the commits an index does not have yet.
 * Private to lib/index/.
 *
 * One pass reads every commit not yet indexed, newest first from the
 * tips, inflating each commit object once: its parents feed the walk, its
 * message feeds the tag extractor.  Several threads do the reading, each
 * with its own repository object (libgit2 objects are not shared between
 * threads) and its own string pool and ref list.
 *
 * Commits are named by global ids: the cache's commit numbers first
 * (0 .. nold-1), then nold + slot for each node the walk made. */
#ifndef FIXSCAN_INDEX_WALK_H
#define FIXSCAN_INDEX_WALK_H

#include <pthread.h>
#include <stdint.h>

#include <git2.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "format.h"
#include "load.h"
#include "vec.h"

#define FSI_CHUNK_BITS 14
#define FSI_CHUNK_SIZE (1u << FSI_CHUNK_BITS)
#define FSI_MAX_CHUNKS 65536

/* A full build (fsi_walk_run_packed) makes every commit of the packs a
 * node before the walk: AHEAD until the walk reaches it (its parents,
 * in walk.parents once the read is over, are slots, or ids the packs do
 * not have, to be named when it is reached), then QUEUED,
 * then READ; UNREAD when the packs could not give it (reached, it is
 * PENDING: read through libgit2).  What the walk does not reach, and
 * GONE slots (second copies), are taken out before it returns: afterwards,
 * as after fsi_walk_run(), every node is READ or MISSING. */
enum { NODE_PENDING = 0, NODE_READ = 1, NODE_MISSING = 2, NODE_AHEAD = 3, NODE_QUEUED = 4,
       NODE_UNREAD = 5, NODE_GONE = 6 };

struct fsi_node {
	git_oid oid;
	uint64_t shash;        /* fsi_subject_hash() of the subject */
	uint32_t parent_first; /* in walk.parents (AHEAD, QUEUED: see above) */
	uint32_t subject;      /* in the reading thread's pool */
	uint32_t ref_first;    /* in the reading thread's refs */
	uint8_t nparents;
	uint8_t nrefs;
	uint8_t thread;        /* whose pool and refs */
	uint8_t state;
	uint16_t author;       /* fsi_author_hash() of the author line */
};

/* A commit waiting to be read.  The walk reads newest first, by the commit
 * time of the child that named it, as git log does: every line of history
 * (mainline and the mainline below each stable fork) then advances through
 * the same years at once, which keeps the reads within a few pack windows
 * instead of one front per branch spread over the whole pack. */
struct fsi_pending {
	int64_t when;
	uint64_t seq; /* ties: first named, first read */
	uint32_t slot;
};

struct fsi_walk;

/* One reading thread, and what it read: subjects in POOL, refs (their
 * source a slot) in REFS. */
struct fsi_worker {
	struct fsi_walk *w;
	int id;
	git_repository *repo;
	git_odb *odb;
	struct fsi_pool pool;
	VEC(struct fs_disk_ref) refs;
	VEC(git_oid) parents; /* the parents of the batch being read */
	pthread_t thread;
};

/* Owns its nodes, table, queue and workers; fsi_walk_free(). */
struct fsi_walk {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct fsi_node *chunks[FSI_MAX_CHUNKS];
	uint32_t nnodes;
	uint32_t *table; /* open addressing, slot + 1, 0 = empty */
	size_t table_size;
	VEC(struct fsi_pending) queue; /* a heap, newest first */
	uint64_t queue_seq;
	VEC(uint32_t) parents; /* global ids: old cid, or nold + slot */
	int active;
	int failed;
	struct fs_error err;
	size_t done;
	const struct fs_disk_commit *old_commits; /* the cache's, sorted by oid */
	size_t nold;
	const struct fs_index_opts *opts;
	size_t expect_total;
	size_t dropped_at; /* done when pack pages were last dropped */
	/* The reading threads, one more pool for the old delta's commits
	 * (workers[nworkers]), and one per thread reading the packs ahead
	 * (workers[nworkers + 1 + k], fsi_walk_run_packed). */
	struct fsi_worker *workers;
	int nworkers;
	size_t npools;
	size_t npreloaded; /* nodes that are the old delta's commits */
};

static inline struct fsi_node *fsi_node_at(const struct fsi_walk *w, uint32_t slot)
{
	return &w->chunks[slot >> FSI_CHUNK_BITS][slot & (FSI_CHUNK_SIZE - 1)];
}

/* A walk that stops at the NOLD commits OLD_COMMITS of the cache (sorted
 * by oid; borrowed, NULL when rebuilding), read by NWORKERS threads.
 * EXPECT_TOTAL is the progress line's total. */
int fsi_walk_new(struct fsi_walk **out, const struct fs_index_opts *opts,
		 const struct fs_disk_commit *old_commits, size_t nold, int nworkers,
		 size_t expect_total, struct fs_error *err);
void fsi_walk_free(struct fsi_walk *w);

/* Make the commits of the old delta D nodes already read (see walk.c). */
int fsi_walk_preload(struct fsi_walk *w, const struct fsi_layer *d, struct fs_error *err);

/* Start the walk at OID (a tip): its global id, or -1 out of memory. */
long fsi_walk_add_tip(struct fsi_walk *w, const git_oid *oid);

/* Read everything the tips reach that the cache does not have. */
int fsi_walk_run(struct fsi_walk *w, struct fs_error *err);

/* The same for a full build: the commits of the pack files under
 * OBJECTS_DIR read ahead in parallel, in pack order, the walk then made
 * over them (the rest read as fsi_walk_run() reads). */
int fsi_walk_run_packed(struct fsi_walk *w, const char *objects_dir, struct fs_error *err);

/* The global id of OID, or -1 when neither the cache nor the walk has
 * it.  Only until fsi_walk_drop_table(). */
/* The global id of OID among the walk's nodes only (not the old cache's
 * commits), or -1: a hash lookup, where fsi_walk_lookup() may search the
 * cache's table too. */
long fsi_walk_lookup_node(const struct fsi_walk *w, const git_oid *oid);
long fsi_walk_lookup(const struct fsi_walk *w, const git_oid *oid);

/* Free the oid table: what follows goes by slot. */
void fsi_walk_drop_table(struct fsi_walk *w);

/* Free the refs of every pool (once copied where they are wanted), and
 * give back the memory they held to the system. */
void fsi_walk_drop_refs(struct fsi_walk *w);

#endif
