/* fixscan: the commit walk through libgit2: worker threads read the
 * queued commits, newest first (fsi_walk_run(), see walk.h). */
#include <pthread.h>
#include <string.h>

#include <git2.h>

#include "fixscan/index.h"
#include "base/git-util.h"
#include "tips.h"
#include "walk-private.h"

#define BATCH 128
/* Commits read between two fs_git_drop_pack_pages(). */
#define DROP_EVERY 16384

int fsi_walk_read_commit(struct fsi_worker *wk, struct fsi_node *n, uint32_t slot,
			 int *nparents, int64_t *when, struct fs_error *err)
{
	git_odb_object *obj = NULL;
	const char *data;
	struct fsi_parsed p;
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
	rc = fsi_walk_parse_commit(wk, data, data + git_odb_object_size(obj), slot, &p, err);
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
		batch[nb++] = fsi_walk_queue_pop(w);
	w->active++;
	return nb;
}

/* Record what reading BATCH found, its parents named and queued; called
 * with the lock held. */
static void record_batch(struct fsi_worker *wk, const uint32_t *batch, size_t nb,
			 const int *nparents, const int *missing, const int64_t *when)
{
	struct fsi_walk *w = wk->w;
	size_t i, pos;

	for (i = 0, pos = 0; i < nb; pos += nparents[i], i++)
		fsi_walk_record_node(w, batch[i], wk->parents.v + pos, nparents[i], missing[i],
				     when[i]);
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
			rc = fsi_walk_read_commit(wk, n, batch[i], &nparents[i], &when[i], &err);
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
